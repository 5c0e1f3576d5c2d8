"""A seeded random sample of mutants, and the score of a sample with its confidence interval.

When running every mutant of an area costs more than a session (app/lab_ui: about 730 minutes
of test time), a simple random sample of its mutants estimates the area's score: each mutant
is equally likely to be drawn, so the share killed in the sample estimates the share killed in
the whole, with the uncertainty of a proportion. (Random mutant sampling as a cheap, unbiased
estimate of the mutation score: Wong and Mathur, 1995; Zhang et al., ICSE 2013.)

    python -m tools.mutation_sample --draw 400 --seed 5 "app.lab_ui.*" > sample.txt
    bash tools/mutation.sh $(cat sample.txt)            # mutmut judges exactly those
    python -m tools.mutation_sample --score sample.txt   # score, 95% interval, per module, survivors

The names come from mutmut's own folder (``mutants/``, written by any ``mutmut run``); the
draw is fixed by the seed and the sorted list of names, so anyone can draw the same sample.
"""
from __future__ import annotations

import argparse
import fnmatch
import math
import random
import re
from collections import Counter
from pathlib import Path

from tools.mutation_summary import results  # mutant name -> status, from mutants/

KILLED = {"killed", "timeout"}           # as mutmut and tools/mutation_summary.py count them
NOT_JUDGED = {"not checked", "skipped"}  # not run (yet): left out of the score


def draw(names: list[str], pattern: str, n: int, seed: int) -> list[str]:
    """``n`` names matching ``pattern``, drawn without replacement with ``random.Random(seed)``."""
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


def module_of(name: str) -> str:
    """The module of a mutant: ``app.lab_ui.charts.x_heatmap__mutmut_3`` and
    ``app.lab_ui.jobs.xǁJobSlotsǁ__init____mutmut_1`` -> ``app.lab_ui.charts``, ``app.lab_ui.jobs``.

    >>> module_of("app.lab_ui.jobs.xǁJobSlotsǁ__init____mutmut_1")
    'app.lab_ui.jobs'
    """
    return re.split(r"\.x(?:_|ǁ)", name, maxsplit=1)[0]


def score(sample: list[str], status: dict[str, str]) -> list[str]:
    """The report's lines: the sample's score with its interval, a row per module, the survivors."""
    judged = [m for m in sample if status.get(m, "not checked") not in NOT_JUDGED]
    killed = [m for m in judged if status[m] in KILLED]
    lo, hi = wilson(len(killed), len(judged))
    lines = [f"sample: {len(sample)} mutants, {len(judged)} judged, {len(killed)} killed"
             + (f" -> {len(killed) / len(judged):.1%} (95% interval {lo:.1%} to {hi:.1%})" if judged else "")]
    per, dead = Counter(module_of(m) for m in judged), Counter(module_of(m) for m in killed)
    lines += [f"  {mod:<40} {dead[mod]:>4} / {per[mod]:<4}" for mod in sorted(per)]
    survivors = sorted(m for m in judged if status[m] not in KILLED)
    lines += ["survivors (mutmut show NAME for the diff):"] + [f"  {m}  [{status[m]}]" for m in survivors]
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pattern", nargs="?", default="app.lab_ui.*", help="mutant names to draw from")
    ap.add_argument("--draw", type=int, metavar="N", help="print a sample of N names")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--score", type=Path, metavar="FILE", help="score the names listed in FILE")
    ap.add_argument("--mutants", type=Path, default=Path("mutants"))
    args = ap.parse_args(argv)
    status = results(args.mutants)
    if args.draw:
        print("\n".join(draw(list(status), args.pattern, args.draw, args.seed)))
    elif args.score:
        print("\n".join(score(args.score.read_text().split(), status)))
    else:
        ap.error("give --draw N or --score FILE")


if __name__ == "__main__":
    main()
