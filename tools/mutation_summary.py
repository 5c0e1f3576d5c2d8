"""Read a mutmut run (its mutants/ folder): the score per area and module, every survivor with its
verdict, and seeded samples of mutants with the score of a sample (docs/quality.md).

    python tools/mutation_summary.py                        # the scores and the survivors
    python tools/mutation_summary.py --by-module            # ... with a row per module
    python tools/mutation_summary.py --markdown [PREFIX]    # survivors as a Markdown table, a verdict each
    python tools/mutation_summary.py --only names.txt       # only the mutants named in a file
    python tools/mutation_summary.py --merge OTHER/mutants  # mutants not run here take their result from
        # another run's folder, for functions whose code is the same there (mutmut's hash); repeatable
    python tools/mutation_summary.py --draw 300 --seed 7 "app.lab_ui.*" > sample.txt   # a seeded sample
    python tools/mutation_summary.py --score sample.txt     # a sample's score, 95% interval, survivors

Score = killed / (mutants that were run): a timeout counts as killed (the mutant broke the code
badly enough to hang a test); "no tests" and "survived" count against the score. A survivor's
verdict is read from tools/mutation_verdicts.toml; a survivor without one is "open".
"""
from __future__ import annotations

import argparse
import ast
import difflib
import fnmatch
import json
import math
import random
import re
import tomllib
from collections import Counter, defaultdict
from pathlib import Path

from mutmut.stats import status_by_exit_code

AREAS = {"core": "core/", "app.lab_ui": "app/lab_ui/"}
TARGETS = {"core": 0.90, "app.lab_ui": 0.80}
KILLED = {"killed", "timeout", "caught by type check"}
NOT_RUN = {"not checked", "skipped"}
SURVIVED = {"survived", "no tests", "suspicious"}
VERDICTS = Path(__file__).with_name("mutation_verdicts.toml")


def results(root: Path = Path("mutants")) -> dict[str, str]:
    """mutant name -> status ("killed", "survived", "no tests", "timeout", "not checked", ...)."""
    out = {}
    for meta in sorted(root.rglob("*.meta")):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            out[name] = status_by_exit_code[code]
    return out


def unchanged_functions(root: Path, other: Path) -> set[str]:
    """Functions (a mutant name's prefix, e.g. ``core.tsne.x_tsne``) whose code is the same in both
    mutants/ folders by mutmut's own hash: only their mutants are the same mutants under the same
    names (a changed function's mutants are renumbered)."""
    same = set()
    for meta in sorted(root.rglob("*.meta")):
        theirs = other / meta.relative_to(root)
        if theirs.exists():
            mine, old = (json.loads(m.read_text()).get("hash_by_function_name", {}) for m in (meta, theirs))
            module = ".".join(meta.relative_to(root).with_suffix("").with_suffix("").parts)
            same |= {f"{module}.{f}" for f, h in mine.items() if old.get(f) == h}
    return same


def function_of(name: str) -> str:
    """``core.tsne.x_tsne__mutmut_12`` -> ``core.tsne.x_tsne``."""
    return name.rsplit("__mutmut_", 1)[0]


def module_of(name: str) -> str:
    """The module of a mutant.

    >>> module_of("app.lab_ui.server.jobs.xǁJobSlotsǁ__init____mutmut_1")
    'app.lab_ui.server.jobs'
    """
    return re.split(r"\.x(?:_|ǁ)", name, maxsplit=1)[0]


_FILES: dict[Path, dict[str, list[str]]] = {}


def changed_lines(name: str) -> tuple[str, str]:
    """(removed lines, added lines) of one mutant against its original function, read from
    mutants/ (what ``mutmut show`` prints, without a process per mutant)."""
    area = next(a for a in AREAS if name.startswith(a + "."))
    module, function = name[len(area) + 1:].split(".", 1)
    path = Path("mutants") / AREAS[area] / f"{module}.py"
    if path not in _FILES:
        lines = path.read_text().splitlines()
        _FILES[path] = {n.name: lines[n.lineno - 1:n.end_lineno] for n in ast.walk(ast.parse("\n".join(lines)))
                        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    orig = _FILES[path].get(function.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
    mutant = _FILES[path].get(function, [])
    a, b = [ln.strip() for ln in orig[1:]], [ln.strip() for ln in mutant[1:]]
    if orig and mutant and orig[0].split("(", 1)[1] != mutant[0].split("(", 1)[1]:   # a changed default
        a, b = [orig[0].split("(", 1)[1].strip()] + a, [mutant[0].split("(", 1)[1].strip()] + b
    diff = list(difflib.ndiff(a, b))
    return (" ".join(ln[2:] for ln in diff if ln.startswith("- ")),
            " ".join(ln[2:] for ln in diff if ln.startswith("+ ")))


def load_verdicts(path: Path = VERDICTS) -> tuple[dict[str, str], dict[str, dict[str, str]]]:
    """(reason key -> the verdict as printed, mutant name -> {"verdict": key, "change": text})."""
    data = tomllib.loads(path.read_text())
    return data["reasons"], data["mutants"]


def verdict(name: str, change: str, reasons: dict[str, str], mutants: dict[str, dict[str, str]]) -> str:
    """The verdict of a survivor whose mutated line reads ``change``: its own entry if that entry was
    written for this change; else the entry of the same function with the same change (mutmut
    renumbers a function's mutants when its code changes); else "open"."""
    entry = mutants.get(name)
    if entry is None or entry["change"] != change:
        entry = next((e for n, e in mutants.items() if function_of(n) == function_of(name) and e["change"] == change),
                     None)
    return reasons[entry["verdict"]] if entry else "open"


def markdown(survivors: list[str]) -> list[str]:
    """The survivors as a Markdown table, each with its verdict, after a count of the verdicts."""
    reasons, mutants = load_verdicts()
    rows = [(name, a, b, verdict(name, b, reasons, mutants)) for name in survivors for a, b in [changed_lines(name)]]
    tally = Counter("open" if why.startswith("open") else "equivalent" for *_, why in rows)

    def cell(t: str) -> str:
        return "`" + t[:90].replace("|", "\\|").replace("`", "'") + "`"

    return (["Verdicts: " + ", ".join(f"{n} {kind}" for kind, n in tally.most_common()) + ".", "",
             "| mutant | original | mutant's change | verdict |", "|---|---|---|---|"]
            + [f"| {name.split('.', 1)[1]} | {cell(a)} | {cell(b)} | {why} |" for name, a, b, why in rows])


def scores(res: dict[str, str], by_module: bool) -> list[str]:
    """A row per area (and per module): mutants, killed, timeouts, survived, no tests, not run, score."""
    counts: dict[str, Counter] = defaultdict(Counter)
    for name, status in res.items():
        counts[next(a for a in AREAS if name.startswith(a + "."))][status] += 1
        if by_module:
            counts[module_of(name)][status] += 1
    lines = [f"{'area':<24} {'mutants':>8} {'killed':>7} {'timeout':>8} {'survived':>9} {'no tests':>9} "
             f"{'not run':>8} {'score':>7} {'target':>7}"]
    for area, c in sorted(counts.items()):
        total, done = sum(c.values()), sum(v for k, v in c.items() if k not in NOT_RUN)
        if done:                                            # else nothing of it was run
            score = f"{100 * sum(c[k] for k in KILLED) / done:.1f}%"
            target = f"{100 * TARGETS[area]:.0f}%" if area in TARGETS else ""
            lines.append(f"{AREAS.get(area, '  ' + area.split('.')[-1]):<24} {total:>8} {c['killed']:>7} "
                         f"{c['timeout']:>8} {c['survived']:>9} {c['no tests']:>9} {total - done:>8} {score:>7} {target:>7}")
    return lines


def draw(names: list[str], pattern: str, n: int, seed: int) -> list[str]:
    """``n`` names matching ``pattern``, drawn without replacement with ``random.Random(seed)`` from
    the sorted names: anyone with the same mutants draws the same sample."""
    pool = sorted(m for m in names if fnmatch.fnmatch(m, pattern))
    if n > len(pool):
        raise SystemExit(f"asked for {n} mutants, but only {len(pool)} match {pattern!r}")
    return sorted(random.Random(seed).sample(pool, n))


def wilson(killed: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``killed / n`` (95% with z = 1.96):

        centre = (p + z^2 / 2n) / (1 + z^2 / n)
        half   = z * sqrt(p (1 - p) / n + z^2 / 4n^2) / (1 + z^2 / n)

    It stays inside [0, 1] and behaves well near 0 and 1, where p +- z sqrt(p(1-p)/n) does not.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.826, 0.945]
    """
    if n == 0:
        return 0.0, 1.0
    p = killed / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def score(sample: list[str], status: dict[str, str]) -> list[str]:
    """A sample's score with its interval, a row per module, its survivors (random mutant sampling
    as an unbiased estimate of the score: Wong and Mathur, 1995; Zhang et al., ICSE 2013)."""
    judged = [m for m in sample if status.get(m, "not checked") not in NOT_RUN]
    killed = [m for m in judged if status[m] in KILLED]
    lo, hi = wilson(len(killed), len(judged))
    lines = [f"sample: {len(sample)} mutants, {len(judged)} judged, {len(killed)} killed"
             + (f" -> {len(killed) / len(judged):.1%} (95% interval {lo:.1%} to {hi:.1%})" if judged else "")]
    per, dead = Counter(module_of(m) for m in judged), Counter(module_of(m) for m in killed)
    lines += [f"  {mod:<40} {dead[mod]:>4} / {per[mod]:<4}" for mod in sorted(per)]
    survivors = sorted(m for m in judged if status[m] not in KILLED)
    return lines + ["survivors (mutmut show NAME for the diff):"] + [f"  {m}  [{status[m]}]" for m in survivors]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern", nargs="?", default="*", help="with --draw: the mutant names to draw from")
    ap.add_argument("--by-module", action="store_true")
    ap.add_argument("--markdown", nargs="?", const="", metavar="PREFIX", help="survivors whose name starts so")
    ap.add_argument("--only", type=Path, metavar="FILE", help="only the mutants named in FILE")
    ap.add_argument("--merge", type=Path, action="append", default=[], metavar="DIR")
    ap.add_argument("--draw", type=int, metavar="N", help="print a seeded sample of N mutant names")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--score", type=Path, metavar="FILE", help="score the sample named in FILE")
    args = ap.parse_args(argv)
    res = results()
    for other in args.merge:                       # the first folder that judged a mutant wins
        theirs, same = results(other), unchanged_functions(Path("mutants"), other)
        res = {n: theirs.get(n, s) if s == "not checked" and function_of(n) in same else s for n, s in res.items()}
    if args.draw:
        print("\n".join(draw(list(res), args.pattern, args.draw, args.seed)))
        return
    if args.score:
        print("\n".join(score(args.score.read_text().split(), res)))
        return
    if args.only:
        keep = set(args.only.read_text().split())
        res = {n: s for n, s in res.items() if n in keep}
    survivors = sorted(n for n, s in res.items() if s in SURVIVED)
    print("\n".join(scores(res, args.by_module)))
    if args.markdown is not None:
        print("\n".join(markdown([n for n in survivors if n.startswith(args.markdown)])))
        return
    print(f"\n{len(survivors)} survivors:")
    print("\n".join(f"  {res[name]:<9} {name}" for name in survivors))


if __name__ == "__main__":
    main()
