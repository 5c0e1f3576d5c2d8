"""Benchmark: the server's CPU time for one new run and for one new session's first Train page.

    .venv/bin/python -m bench.session_cpu                # about a minute
    .venv/bin/python -m bench.session_cpu --profile      # also the 10 functions with most own time

What forty students opening the link cost the one interpreter (issue 29), in CPU time, not wall
time (on a shared machine the CPU time is what the work itself costs):

* **a new run**: ``core.run.run`` on the Train screen's starting settings with a seed nobody has
  trained, through the callback the run service gives a light run (``lab_ui.server.guard.Stopper``);
  the process's CPU time (``time.process_time``).
* **a first Train page**: a new session (Streamlit's AppTest, one per page) opening ``/train``:
  the lesson's run cached, as the server's warm-up leaves it (``lab_ui.server.warmup``), and on a
  seed of its own (``?train_seed=N``: the page trains a new run). The CPU time of the thread that
  runs the script (``time.thread_time``): the router, the screen and Streamlit's own element
  calls, not AppTest's bookkeeping. The server compiles a page once (``warmup.compile_pages``);
  AppTest compiles it for every new test, so here it is compiled once too.

Every row is the median of ``--repeat`` units after one untimed one, with the smallest and
largest. ``--profile``: each row's 10 functions with the most own time (cProfile, in the thread
that did the work) and where its time went (the app, core, Streamlit, the rest).
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import time
from dataclasses import replace
from itertools import count
from pathlib import Path

import core
from bench import machine

ROOT = Path(core.__file__).resolve().parent.parent
"""The repository whose code is measured (the one ``core`` is imported from)."""
APP = ROOT / "app" / "streamlit_app.py"
TRAIN = "lab_ui/screens/train/train.py"
SEEDS = count(1000)
"""Seeds nobody trained before in this process: every new run is new."""


def new_run() -> None:
    """One new run, as ``lab_ui.server.runs.run`` trains a light one (its Stopper, every
    ``total // 20`` steps a report)."""
    from core import run as core_run
    from lab_ui.server.guard import Stopper
    from lab_ui.server.warmup import lesson_request
    request = lesson_request()
    request = replace(request, config=replace(request.config, seed=next(SEEDS)))
    corpus = core_run.corpus_of(request)
    total = core_run.total(request)
    core_run.run(request, callback=Stopper(lambda step, loss: None, every=max(1, total // 20)), corpus=corpus)


class ScriptClock:
    """The CPU time (and optionally a cProfile) of every script run AppTest makes, taken in
    the script's own thread; and one compiled script per page for all tests, as in a server."""

    def __init__(self):
        from streamlit.runtime.scriptrunner import script_runner
        from streamlit.runtime.scriptrunner.script_cache import ScriptCache
        self.seconds: list[float] = []
        self.profile: cProfile.Profile | None = None
        run_script, get_bytecode, compiled = script_runner.ScriptRunner._run_script, ScriptCache.get_bytecode, {}
        clock = self

        def timed(runner, rerun_data):
            start = time.thread_time()
            if clock.profile is not None:
                clock.profile.enable()
            try:
                return run_script(runner, rerun_data)
            finally:
                if clock.profile is not None:
                    clock.profile.disable()
                clock.seconds.append(time.thread_time() - start)

        def once(cache, script_path):
            if script_path not in compiled:
                compiled[script_path] = get_bytecode(cache, script_path)
            return compiled[script_path]

        script_runner.ScriptRunner._run_script = timed
        ScriptCache.get_bytecode = once
        self._originals = run_script, get_bytecode

    def close(self) -> None:
        """Put Streamlit's own methods back."""
        from streamlit.runtime.scriptrunner import script_runner
        from streamlit.runtime.scriptrunner.script_cache import ScriptCache
        script_runner.ScriptRunner._run_script, ScriptCache.get_bytecode = self._originals


def first_page(seed: int | None) -> None:
    """A new session's first script run of /train (``seed``: its own seed; None: the lesson's)."""
    from streamlit.testing.v1 import AppTest
    at = AppTest.from_file(str(APP), default_timeout=300)
    if seed is not None:
        at.query_params["train_seed"] = str(seed)
    at.switch_page(TRAIN).run()
    if at.exception:
        raise RuntimeError(f"the Train page failed: {at.exception[0].message}")


def measure(unit, repeat: int, clock: ScriptClock | None) -> list[float]:
    """CPU seconds of ``repeat`` calls of ``unit`` after an untimed one (the script thread's
    when ``clock``, else the process's)."""
    unit()
    out = []
    for _ in range(repeat):
        if clock is None:
            start = time.process_time()
            unit()
            out.append(time.process_time() - start)
        else:
            unit()
            out.append(clock.seconds[-1])
    return out


def where(path: str) -> str:
    """Which part of the program a profiled function belongs to."""
    if "/streamlit/" in path:
        return "Streamlit"
    if path.startswith(str(ROOT / "core")):
        return "core"
    if path.startswith(str(ROOT / "app")):
        return "app"
    return "the rest"


def short(path: str) -> str:
    """A profiled file's name from the repository or from site-packages."""
    return os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else path.split("site-packages/")[-1]


def profiled(unit, clock: ScriptClock | None, rounds: int = 3) -> tuple[list[str], str]:
    """The 10 functions with the most own time over ``rounds`` units, and the split by part."""
    profile = cProfile.Profile()
    if clock is None:
        profile.enable()
        for _ in range(rounds):
            unit()
        profile.disable()
    else:
        clock.profile = profile
        for _ in range(rounds):
            unit()
        clock.profile = None
    stats = pstats.Stats(profile).stats           # type: ignore[attr-defined]
    rows = sorted(stats.items(), key=lambda kv: -kv[1][2])
    total = sum(v[2] for v in stats.values()) or 1.0
    parts: dict[str, float] = {}
    for (path, _, _), v in stats.items():
        parts[where(path)] = parts.get(where(path), 0.0) + v[2]
    top = [f"    {v[2] / total:5.1%} {v[1]:>7,} calls  {short(path)}:{line}({name})"
           for (path, line, name), v in rows[:10]]
    split = ", ".join(f"{k} {v / total:.0%}" for k, v in sorted(parts.items(), key=lambda kv: -kv[1]))
    return top, split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="units per row (default 7)")
    parser.add_argument("--profile", action="store_true", help="also each row's top 10 functions")
    parser.add_argument("--rows", default="run,page,seed",
                        help="which rows, comma-separated: run, page (lesson cached), seed (default all)")
    args = parser.parse_args()
    from threadpoolctl import threadpool_limits
    import sys
    sys.path.insert(0, str(ROOT / "app"))
    from lab_ui.server import warmup

    with threadpool_limits(1):                    # as the server runs (app/streamlit_app.py)
        warmup.warm()                             # the lesson's run cached, as at a server's start
        clock = ScriptClock()
        rows = {"run": ("a new run in core (lesson settings, new seed)", new_run, None),
                "page": ("first Train page, the lesson's run cached", lambda: first_page(None), clock),
                "seed": ("first Train page on its own seed (a new run)", lambda: first_page(next(SEEDS)), clock)}
        print(f"load before: {os.getloadavg()[0]:.1f}; " + "; ".join(machine.describe()[:1]))
        print(f"{'CPU ms per unit (median of ' + str(args.repeat) + ')':<50} {'median':>7} {'min':>7} {'max':>7}")
        for label, unit, timer in (rows[name] for name in args.rows.split(",")):
            ms = [1000 * s for s in measure(unit, args.repeat, timer)]
            print(f"{label:<50} {statistics.median(ms):>7.1f} {min(ms):>7.1f} {max(ms):>7.1f}")
            if args.profile:
                top, split = profiled(unit, timer)
                print(f"  own time (cProfile): {split}")
                print("\n".join(top))
        print(f"load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
