"""A flat map of thousands of real words, and how far to trust it.

The map is the PCA picture (as ``core.projection.pca`` draws it) of the first ``top`` rows of a table in
frequency order (GloVe's commonest words; SmolLM2's first token ids). Its honesty score is the
neighbourhood overlap of ``core.honesty``:

    overlap_i = |N_k(i) & M_k(i)| / k

with ``N_k(i)`` word i's k nearest words by cosine among the ``top`` rows and ``M_k(i)`` its k
nearest points on the map. ``core.honesty.neighbour_overlap`` builds two (n, n) matrices, which
for 20,000 words would be 3.2 GB each; here the score is counted for an evenly spread sample of
words, each against all ``top`` words, one row at a time: (top,) cosines and (top,) distances.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.projection import fix_signs
from core.similarity import normalize_rows
from core.vectors import Vectors, top_k

SCORED_WORDS = 1_000       # words whose neighbourhoods are scored (every (top / SCORED_WORDS)-th word)


@dataclass(frozen=True)
class RealMap:
    labels: list[str]            # the top words, in frequency order
    coords: np.ndarray           # (top, 2) the PCA map
    explained: float             # the map's share of the spread
    sample: np.ndarray           # (s,) rows whose neighbourhoods were scored
    kept: np.ndarray             # (s,) share of each sampled word's k neighbours kept on the map
    k: int

    @property
    def score(self) -> float:
        """The mean share of neighbours kept, over the sampled words."""
        return float(self.kept.mean())


def spread_sample(n: int, size: int) -> np.ndarray:
    """``size`` rows spread evenly over 0 .. n-1 (all rows when n <= size): shape (s,).

    >>> spread_sample(10, 3).tolist()
    [0, 3, 6]
    """
    if n <= size:
        return np.arange(n)
    return np.arange(size) * n // size


def sampled_overlap(X: np.ndarray, Y: np.ndarray, rows: np.ndarray, k: int, chunk: int = 256) -> np.ndarray:
    """For each row i of ``rows``: the share of its k cosine-nearest rows of X (itself excluded)
    that are also among its k nearest points of the picture Y. X (n, d), Y (n, 2) -> (len(rows),).
    Ties go to the lower row, as in ``core.honesty.neighbour_overlap``, which this equals on the
    rows it is given (a tie broken differently by rounding aside). Counted ``chunk`` rows at a
    time: (chunk, n) cosines and distances."""
    U = normalize_rows(np.asarray(X, dtype=np.float64))           # (n, d) unit rows
    Y = np.asarray(Y, dtype=np.float64)                           # (n, 2)
    rows = np.asarray(rows, dtype=np.int64)
    k = int(min(k, len(U) - 1))
    kept = np.zeros(len(rows))
    for start in range(0, len(rows), chunk):
        r = rows[start:start + chunk]                             # (c,)
        at = (np.arange(len(r)), r)
        S = U[r] @ U.T                                            # (c, n) cosines
        S[at] = -np.inf                                           # never its own neighbour
        D = -((Y[r][:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)   # (c, n) minus squared distance
        D[at] = -np.inf
        near, on_map = _best(S, k), _best(D, k)                   # (c, k) each
        kept[start:start + len(r)] = (near[:, :, None] == on_map[:, None, :]).any(axis=2).sum(axis=1) / k
    return kept


def _best(scores: np.ndarray, k: int) -> np.ndarray:
    """Each row's k highest columns, (c, n) -> (c, k), as sets: ``argpartition`` in O(n); a row
    with a tie at the k-th place is redone by ``top_k`` (ties to the lower column)."""
    part = np.argpartition(-scores, k - 1, axis=1)[:, :k]          # (c, k) in no order
    kth = np.take_along_axis(scores, part, axis=1).min(axis=1)     # (c,) the k-th best score
    tied = np.flatnonzero((scores >= kth[:, None]).sum(axis=1) > k)
    for i in tied:
        part[i] = top_k(scores[i], k)
    return part


def real_map(table: Vectors, top: int, k: int = 10, sample: int = SCORED_WORDS) -> RealMap:
    """The PCA map of the first ``top`` rows of ``table`` and its score on ``sample`` of them."""
    top = int(min(top, len(table)))
    if top < 3:
        raise ValueError("A map needs at least 3 words.")
    sub = table.first(top)
    X = np.asarray(sub.E, dtype=np.float64)                      # (top, d)
    coords, explained = tall_pca(X)                              # (top, 2)
    rows = spread_sample(top, sample)
    return RealMap(sub.labels, coords, explained, rows, sampled_overlap(X, coords, rows, k), int(min(k, top - 1)))


def tall_pca(X: np.ndarray) -> tuple[np.ndarray, float]:
    """``core.projection.pca(X, 2)`` for a table of many more rows than columns: its two
    directions are the top eigenvectors of the (d, d) scatter matrix of the centred rows,

        C = Xc^T Xc,   C v = s^2 v       (s: the singular values of Xc),

    so no SVD of the (n, d) table is needed (20,000 x 576: 20 s of CPU instead of a fraction
    of one). Returns the (n, 2) map and its share of the spread, (s1^2 + s2^2) / sum(s^2)."""
    Xc = X - X.mean(axis=0)                                      # (n, d) centred
    C = Xc.T @ Xc                                                # (d, d)
    s2, V = np.linalg.eigh(C)                                    # ascending eigenvalues, (d,), (d, d)
    top = fix_signs(V[:, ::-1][:, :2].T)                         # (2, d), the largest first
    total = float(np.clip(s2, 0, None).sum())
    return Xc @ top.T, (float(s2[-2:].sum()) / total if total > 0 else 0.0)


@dataclass(frozen=True)
class FoundWord:
    row: int                                  # the word's row among the top words
    near: list[tuple[int, float, bool]]       # (row, cosine, also among its k nearest on the map?)


def found_word(table: Vectors, m: RealMap, label: str) -> FoundWord:
    """``label``'s k nearest words by cosine among the map's words, each with whether the map
    keeps it among the label's k nearest points; ``UnknownLabel`` (with near spellings) if the
    label is not on the map."""
    sub = table.first(len(m.labels))
    i = sub.row(label)
    sims = sub.cosines(np.asarray(sub.E[i], dtype=np.float64))  # (top,)
    sims[i] = -np.inf
    d2 = ((m.coords - m.coords[i]) ** 2).sum(axis=1)             # (top,)
    d2[i] = np.inf
    on_map = set(top_k(-d2, m.k))
    return FoundWord(i, [(j, float(sims[j]), j in on_map) for j in top_k(sims, m.k)])
