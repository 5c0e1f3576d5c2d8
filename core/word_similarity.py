"""Word-similarity benchmarks: do a table's cosines order word pairs as people do?

A benchmark such as WordSim-353 (Finkelstein et al., 2002) lists pairs of words with the mean
score people gave them (0 = unrelated, 10 = the same). The table's score for a pair is the
cosine of the two rows; the benchmark's figure is Spearman's rank correlation between the two
lists: the Pearson correlation of their ranks,

    rho = cov(rank(x), rank(y)) / (sd(rank(x)) sd(rank(y)))

where tied values share the mean of the ranks they span. A pair with a word the table lacks
is left out and counted (published figures differ in how they treat these).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.vectors import Vectors

WORDSIM353 = Path(__file__).parent / "data" / "wordsim353.tsv"   # 353 pairs; data/README-wordsim353.md


def ranks(x) -> np.ndarray:
    """The rank of each value, 1 = the smallest; tied values get the mean of their ranks.

    >>> ranks([10, 20, 20, 5]).tolist()
    [2.0, 3.5, 3.5, 1.0]
    """
    x = np.asarray(x, dtype=np.float64)                       # (n,)
    order = np.argsort(x, kind="stable")
    r = np.empty(len(x))
    r[order] = np.arange(1, len(x) + 1)                       # ranks before ties are shared
    values, inverse = np.unique(x, return_inverse=True)
    sums = np.bincount(inverse, weights=r)                    # (unique,) sum of ranks per value
    counts = np.bincount(inverse)
    return (sums / counts)[inverse]


def spearman(x, y) -> float:
    """Spearman's rho of two lists of the same length (the Pearson correlation of their ranks).

    >>> spearman([1, 2, 3, 4], [10, 20, 30, 40]), spearman([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    rx, ry = ranks(x), ranks(y)
    if len(rx) != len(ry) or len(rx) < 2:
        raise ValueError("Spearman's rho needs two lists of the same length, at least 2 long.")
    rx, ry = rx - rx.mean(), ry - ry.mean()
    return float(rx @ ry / np.sqrt((rx @ rx) * (ry @ ry)))


@dataclass(frozen=True)
class Benchmark:
    rho: float                   # Spearman's rho over the pairs found
    found: int                   # pairs with both words in the table
    missing: list[tuple[str, str]]


def read_pairs(path: str | Path) -> list[tuple[str, str, float]]:
    """(word, word, human score) from a tab-separated file; lines starting with # are notes."""
    pairs = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            a, b, score = line.split("\t")[:3]
            pairs.append((a, b, float(score)))
    return pairs


def benchmark(table: Vectors, pairs: list[tuple[str, str, float]], lower: bool = True) -> Benchmark:
    """Spearman's rho between the people's scores and the table's cosines (``lower``: the words
    looked up in lower case, as GloVe spells them)."""
    def form(w: str) -> str:
        return w.lower() if lower else w
    found = [(a, b, s) for a, b, s in pairs if form(a) in table and form(b) in table]
    missing = [(a, b) for a, b, _ in pairs if (a, b, _) not in found]
    people = [s for _, _, s in found]
    cosines = [table.cosine(form(a), form(b)) for a, b, _ in found]
    return Benchmark(spearman(people, cosines), len(found), missing)
