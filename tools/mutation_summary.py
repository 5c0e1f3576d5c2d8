"""Summarise a mutmut run (the mutants/ folder): score per area, and every survivor.

    python tools/mutation_summary.py            # the table and the survivors
    python tools/mutation_summary.py --diffs    # ... with each survivor's diff (mutmut show)

Score = killed / (all mutants that were run): a timeout counts as killed (the mutant broke
the code badly enough to hang a test); "no tests" and "survived" count against the score.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from mutmut.stats import status_by_exit_code

AREAS = {"core": "core/", "app.ui": "app/ui/"}
TARGETS = {"core": 0.90, "app.ui": 0.80}


def results(root: Path = Path("mutants")) -> dict[str, str]:
    """mutant name -> status ("killed", "survived", "no tests", "timeout", ...)."""
    out = {}
    for meta in sorted(root.rglob("*.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = status_by_exit_code[code]
    return out


def main() -> None:
    res = results()
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, status in res.items():
        area = next(a for a in AREAS if name.startswith(a + "."))
        counts[area][status] += 1
    print(f"{'area':<8} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} {'no tests':>9} "
          f"{'not run':>8} {'score':>7} {'target':>7}")
    for area, c in counts.items():
        total = sum(c.values())
        done = total - c["not checked"]
        killed = c["killed"] + c["timeout"] + c["caught by type check"]
        score = killed / done if done else float("nan")
        print(f"{AREAS[area]:<8} {total:>8} {c['killed']:>7} {c['timeout']:>8} {c['survived']:>9} "
              f"{c['no tests']:>9} {c['not checked']:>8} {100 * score:>6.1f}% {100 * TARGETS[area]:>6.0f}%")
        other = set(c) - {"killed", "timeout", "survived", "no tests", "not checked", "caught by type check"}
        if other:
            print("         also:", {k: c[k] for k in other})
    survivors = sorted(n for n, s in res.items() if s in ("survived", "no tests", "suspicious"))
    print(f"\n{len(survivors)} survivors:")
    for name in survivors:
        print(f"  {res[name]:<9} {name}")
        if "--diffs" in sys.argv:
            diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], capture_output=True,
                                  text=True).stdout
            print("\n".join("      " + ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")))


if __name__ == "__main__":
    main()
