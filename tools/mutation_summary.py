"""Summarise a mutmut run (the mutants/ folder): score per area, and every survivor.

    python tools/mutation_summary.py            # the table and the survivors
    python tools/mutation_summary.py --diffs    # ... with each survivor's diff (mutmut show)
    python tools/mutation_summary.py --markdown # survivors as a Markdown table with a verdict each

Score = killed / (all mutants that were run): a timeout counts as killed (the mutant broke
the code badly enough to hang a test); "no tests" and "survived" count against the score.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

from mutmut.stats import status_by_exit_code

AREAS = {"core": "core/", "app.lab_ui": "app/lab_ui/"}
TARGETS = {"core": 0.90, "app.lab_ui": 0.80}


def results(root: Path = Path("mutants")) -> dict[str, str]:
    """mutant name -> status ("killed", "survived", "no tests", "timeout", ...)."""
    out = {}
    for meta in sorted(root.rglob("*.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = status_by_exit_code[code]
    return out


# Rules that recognise a survivor as equivalent (the mutant computes the same numbers for
# every input the code can receive), or as a known gap; anything else is "open".
VERDICTS = [
    (lambda a, b: "dtype=" in a and ("dtype=None" in b or "dtype=" not in b) or "astype(None)" in b,
     "equivalent: NumPy's default dtype gives the same numbers for these inputs"),
    (lambda a, b: '"UTF-8"' in b, "equivalent: codec names are case-insensitive"),
    (lambda a, b: "einsum(" in b and b != a and b.lower() == a.lower(), "equivalent: einsum labels, any case"),
    (lambda a, b: "reshape(-2" in b, "equivalent: NumPy reads any negative size as 'infer'"),
    (lambda a, b: 'kind="STABLE"' in b, "equivalent: NumPy sort kinds are case-insensitive"),
    (lambda a, b: "argsort(-S, kind=" in b, "equivalent: the default axis of a 2-D argsort is the last"),
    (lambda a, b: "np.clip(" in a and "clip" in b, "equivalent: a cosine of unit vectors already lies in [-1, 1]"),
    (lambda a, b: "np.errstate(" in b, "equivalent unless a run overflows inside it; no test's run does"),
    (lambda a, b: "fill_diagonal(S, None)" in b, "equivalent: NaN sorts last, as -inf did"),
    (lambda a, b: "perf_counter" in a or "seconds" in a, "open: timing is not asserted (it would be flaky)"),
    (lambda a, b: re.search(r'"XX|XX"|\(None\)$', b.strip()) is not None or (a.lower() == b.lower() and a != b),
     "open: a message's wording is not pinned"),
]


def verdict(name: str) -> tuple[str, str, str]:
    """(removed line, added line, verdict) of one mutant."""
    diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], capture_output=True, text=True).stdout
    minus = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    plus = [ln[1:].strip() for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    a, b = " ".join(minus), " ".join(plus)
    for rule, why in VERDICTS:
        if rule(a, b):
            return a, b, why
    return a, b, "open"


def _cell(t: str) -> str:
    return "`" + t[:90].replace("|", "\\|").replace("`", "'") + "`"


def markdown(survivors: list[str]) -> None:
    print("| mutant | original | mutant's change | verdict |")
    print("|---|---|---|---|")
    for name in survivors:
        a, b, why = verdict(name)
        print(f"| {name.split('.', 1)[1]} | {_cell(a)} | {_cell(b)} | {why} |")


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
    if "--markdown" in sys.argv:
        markdown([n for n in survivors if n.startswith(sys.argv[-1])] if sys.argv[-1] != "--markdown"
                 else survivors)
        return
    print(f"\n{len(survivors)} survivors:")
    for name in survivors:
        print(f"  {res[name]:<9} {name}")
        if "--diffs" in sys.argv:
            diff = subprocess.run([sys.executable, "-m", "mutmut", "show", name], capture_output=True,
                                  text=True).stdout
            print("\n".join("      " + ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")))


if __name__ == "__main__":
    main()
