"""``streamlit run`` with a stopwatch on every script run: a diagnostic for ``bench.browser_latency
--server-timing``, not a way to run the app.

Usage (what ``bench.browser_latency`` does):
    BENCH_RUN_LOG=/tmp/runs.jsonl python -P bench/timed_server.py run app --server.port ...

Appends one JSON line per whole script run to ``$BENCH_RUN_LOG``: ``script_ms``, the time from the
start of the run to the end of the page's code (Streamlit's ``_run_script`` minus its post-run
clean-up) and ``gc_ms``, the full garbage collection (``gc.collect(2)``) Streamlit makes after
every run while ``runner.postScriptGC`` is true (its default). The collection runs on the script
thread after ``script_finished`` is queued, holding the GIL, so it delays that message.
Streamlit's own ``AppTest`` skips this collection, so ``bench.latency`` does not see it.

With ``BENCH_GC_FREEZE=1`` it first imports Altair, NumPy, pandas and PyArrow and calls
``gc.freeze()``: a measurement of that proposed fix, not something the app does.
"""
from __future__ import annotations

import gc
import json
import os
import sys
import time

from streamlit.runtime.scriptrunner import script_runner

LOG = os.environ.get("BENCH_RUN_LOG", "")
_state = {"gc": 0.0}


class _TimedGC:
    """Stands in for the ``gc`` module inside ``script_runner``: times ``collect``."""

    def __getattr__(self, name):
        return getattr(gc, name)

    @staticmethod
    def collect(*args):
        t0 = time.perf_counter()
        try:
            return gc.collect(*args)
        finally:
            _state["gc"] += time.perf_counter() - t0


_orig_run = script_runner.ScriptRunner._run_script


def _timed_run(self, rerun_data):
    _state["gc"] = 0.0
    start = time.time()
    t0, cpu0 = time.perf_counter(), time.thread_time()
    try:
        return _orig_run(self, rerun_data)
    finally:
        total = time.perf_counter() - t0
        if LOG:
            with open(LOG, "a") as f:
                f.write(json.dumps({"script_ms": 1000 * (total - _state["gc"]),
                                    "gc_ms": 1000 * _state["gc"],
                                    # the script thread's own CPU time (gc included): unlike
                                    # the wall times, not inflated by other work on the machine
                                    "cpu_ms": 1000 * (time.thread_time() - cpu0),
                                    "start": start, "end": start + total,
                                    "objects": len(gc.get_objects())}) + "\n")


script_runner.gc = _TimedGC()
script_runner.ScriptRunner._run_script = _timed_run

if os.environ.get("BENCH_GC_FREEZE") == "1":
    # What the proposed fix does: import the heavy libraries every screen uses, then move
    # every object alive now to the collector's permanent generation (gc.freeze), so the
    # full collection after each run no longer walks them.
    import altair  # noqa: F401
    import numpy  # noqa: F401
    import pandas  # noqa: F401
    import pyarrow  # noqa: F401
    gc.freeze()

if __name__ == "__main__":
    from streamlit.web import cli
    sys.argv = ["streamlit", *sys.argv[1:]]
    sys.exit(cli.main())
