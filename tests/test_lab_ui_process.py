"""The server process's tunings (lab_ui.server.process), applied in a process of their own (the freeze
and the BLAS limit would otherwise reach the test run): each is in force after ``tune()``, and
a second call changes nothing."""
import json
import subprocess
import sys

SCRIPT = """
import gc, json, sys, threading
import threadpoolctl
from lab_ui.server import process
before = gc.get_freeze_count()
process.tune()
frozen = gc.get_freeze_count()
process.tune()
print(json.dumps({
    "before": before, "frozen": frozen, "again": gc.get_freeze_count(),
    "threads": sorted({p["num_threads"] for p in threadpoolctl.threadpool_info()}),
    "arenas": process.two_malloc_arenas(), "big_blocks": process.big_blocks_mapped(),
    "linux": sys.platform.startswith("linux"),
    "releasers": sum(t.name == "release-memory" for t in threading.enumerate()),
}))
"""


def tuned() -> dict:
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_tune_applies_each_tuning_once_per_process():
    t = tuned()
    assert t["before"] == 0 and t["frozen"] > 10_000      # the imports are out of the collector's view
    assert t["again"] == t["frozen"]                       # not frozen again (it would take live pages too)
    assert t["threads"] == [1]                             # every BLAS / OpenMP pool: one thread
    assert t["arenas"] is t["linux"]                       # glibc's arena limit set where there is one
    assert t["big_blocks"] is t["linux"]                   # and its big blocks mapped on their own
    assert t["releasers"] == 1                             # one memory-releasing thread, not one per call
