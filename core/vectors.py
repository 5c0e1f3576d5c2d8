"""The table type: labels and their vectors, looked up by label (like gensim's ``KeyedVectors``).

An embedding table is a matrix ``E`` of shape (V, d) with one row per vocabulary entry, and a
list of V labels saying whose row is whose. ``Vectors`` keeps the two together with an index
``label -> row`` built once, so every question asked of a table ("how close are cat and dog?",
"what is nearest to bank?", "b - a + c?") is a lookup plus a cosine:

    cos(u, v) = u . v / (|u| |v|)

The unit rows ``U = E / |E|`` (row by row; a zero row stays zero) are computed once, on first
use, so the cosines of one label with all V rows are one product ``U @ u``: shape (V,).

>>> t = Vectors(["cat", "dog", "car"], np.array([[1.0, 0.1], [0.9, 0.2], [0.0, 1.0]]))
>>> round(t.cosine("cat", "dog"), 3)
0.993
>>> [(w, round(c, 2)) for w, c in t.nearest("cat", 2)]
[('dog', 0.99), ('car', 0.1)]
"""
from __future__ import annotations

import difflib
from collections.abc import Sequence
from functools import cached_property

import numpy as np

from core.similarity import normalize_rows

MAX_SUGGESTIONS = 5      # nearest spellings named when a label is unknown
SPELLING_CUTOFF = 0.6    # difflib's similarity ratio a suggestion needs (its own default)


class UnknownLabel(KeyError):
    """A label that is not in the table; ``suggestions`` holds the nearest spellings in it."""

    def __init__(self, label: str, suggestions: list[str]):
        self.label, self.suggestions = label, suggestions
        hint = f" Nearest spellings: {', '.join(repr(s) for s in suggestions)}." if suggestions else ""
        super().__init__(f"{label!r} is not in the vocabulary.{hint}")

    def __str__(self) -> str:        # KeyError's own str() would add quotes around the message
        return str(self.args[0])


class Vectors:
    """Labels and vectors: row ``i`` of ``E`` is the vector of ``labels[i]``.

    Parameters
    ----------
    labels : list[str] of length V
        Distinct labels (words or tokens), in row order.
    E : ndarray of shape (V, d)
        The table. Kept as given (not copied): a memory-mapped file stays on disk.
    """

    def __init__(self, labels: list[str], E: np.ndarray):
        if np.ndim(E) != 2:
            raise ValueError(f"The table must have 2 dimensions (rows x columns); got {np.ndim(E)}.")
        if len(labels) != len(E):
            raise ValueError(f"{len(labels):,} labels for {len(E):,} rows: they must match.")
        self.labels: list[str] = list(labels)
        self.E: np.ndarray = E
        self.index: dict[str, int] = {w: i for i, w in enumerate(self.labels)}   # label -> row
        if len(self.index) != len(self.labels):
            raise ValueError("The labels must be distinct: two rows would share one label.")

    def __len__(self) -> int:
        return len(self.labels)

    def __contains__(self, label: object) -> bool:
        return label in self.index

    def __repr__(self) -> str:
        return f"Vectors({len(self):,} labels x {self.E.shape[1]} dims)"

    @property
    def shape(self) -> tuple[int, int]:
        """(V, d): the number of rows and the width of each."""
        return (int(self.E.shape[0]), int(self.E.shape[1]))

    @cached_property
    def unit(self) -> np.ndarray:
        """The unit rows ``E[i] / |E[i]|`` (zero rows stay zero), shape (V, d), computed once.
        A float32 table stays float32 (half the memory of GloVe's 400,000 rows in float64)."""
        if self.E.dtype == np.float32:
            norms = np.linalg.norm(self.E, axis=1, keepdims=True)           # (V, 1)
            return np.divide(self.E, norms, out=np.zeros(self.E.shape, np.float32), where=norms > 0)
        return normalize_rows(self.E)                                        # (V, d)

    def suggest(self, label: str, n: int = MAX_SUGGESTIONS) -> list[str]:
        """The labels spelt most like ``label`` (difflib's ratio), best first.

        Only labels within two characters of its length are compared, so a 400,000-word
        vocabulary answers in a fraction of a second.

        >>> Vectors(["cat", "dog", "cart"], np.eye(3)).suggest("cta")
        ['cat']
        """
        size = len(label)
        near = [w for w in self.labels if abs(len(w) - size) <= 2]
        return difflib.get_close_matches(label, near, n=n, cutoff=SPELLING_CUTOFF)

    def row(self, label: str) -> int:
        """The row of ``label``; ``UnknownLabel`` (a KeyError) naming the nearest spellings.

        >>> Vectors(["cat", "dog"], np.eye(2)).row("dog")
        1
        >>> Vectors(["cat", "dog"], np.eye(2)).row("cats")
        Traceback (most recent call last):
        core.vectors.UnknownLabel: 'cats' is not in the vocabulary. Nearest spellings: 'cat'.
        """
        if not isinstance(label, str):
            raise TypeError(f"A label must be a string, not {type(label).__name__}.")
        try:
            return self.index[label]
        except KeyError:
            raise UnknownLabel(label, self.suggest(label)) from None

    def rows(self, labels: list[str]) -> np.ndarray:
        """The row numbers of several labels, shape (n,); the first unknown one raises."""
        return np.array([self.row(w) for w in labels], dtype=np.int64)

    def vector(self, label: str) -> np.ndarray:
        """The vector of ``label``: row ``E[row(label)]``, shape (d,)."""
        return np.asarray(self.E[self.row(label)])

    def cosine(self, a: str, b: str) -> float:
        """``cos(E[a], E[b])``: 0.0 when either row is zero.

        >>> Vectors(["u", "v"], np.array([[1.0, 2, 2], [2, 1, 2]])).cosine("u", "v") == 8 / 9
        True
        """
        ua, ub = self.unit[self.row(a)], self.unit[self.row(b)]              # (d,) each
        return float(np.clip(np.dot(ua.astype(np.float64), ub.astype(np.float64)), -1.0, 1.0))

    def nearest_to(self, v: np.ndarray, k: int = 5, exclude: Sequence[str] = ()) -> list[tuple[str, float]]:
        """The k labels whose rows have the largest cosine with vector ``v`` (shape (d,)), best
        first, never one of ``exclude``; ties go to the lower row (the same on every machine)."""
        u = normalize_rows(np.asarray(v, dtype=np.float64)[None, :])[0]     # (d,) unit vector
        sims = self.unit @ u.astype(self.unit.dtype)                          # (V,) cosines
        skip = {self.row(w) for w in exclude}                               # never these rows
        top = [j for j in _top_k(sims, k + len(skip)) if j not in skip][:k]
        return [(self.labels[j], float(sims[j])) for j in top]

    def nearest(self, label: str, k: int = 5) -> list[tuple[str, float]]:
        """The k labels nearest to ``label`` by cosine, best first, ``label`` itself excluded.

        >>> Vectors(list("abc"), np.array([[1.0, 0], [0.9, 0.1], [-1, 0]])).nearest("a", 1)
        [('b', 0.9938837346736189)]
        """
        return self.nearest_to(self.E[self.row(label)], k, exclude=[label])

    def analogy(self, a: str, b: str, c: str, k: int = 5) -> list[tuple[str, float]]:
        """"a is to b as c is to ?": the k labels (not a, b or c) nearest by cosine to

            U[b] - U[a] + U[c]        (U: unit rows, as word2vec's own test does)

        >>> t = Vectors(["man", "woman", "king", "queen"],
        ...             np.array([[1.0, 0, 0], [1, 1, 0], [1, 0, 1], [1, 1, 1]]))
        >>> t.analogy("man", "woman", "king", 1)[0][0]
        'queen'
        """
        U = self.unit
        target = U[self.row(b)] - U[self.row(a)] + U[self.row(c)]           # (d,)
        return self.nearest_to(target, k, exclude=[a, b, c])

    def subset(self, labels: list[str]) -> Vectors:
        """A table of only these labels (in this order): rows copied, shape (n, d)."""
        return Vectors(list(labels), np.asarray(self.E[self.rows(labels)]))

    def first(self, n: int) -> Vectors:
        """The first ``n`` rows (for a table in frequency order, the n most frequent labels).
        A slice: no copy, even of a memory-mapped table."""
        n = max(0, min(int(n), len(self)))
        return Vectors(self.labels[:n], self.E[:n])


def _top_k(scores: np.ndarray, k: int) -> list[int]:
    """The k largest scores' positions, best first, ties to the lower position: shape (k,).
    ``argpartition`` picks the top k in O(V), then only those k are sorted."""
    k = max(0, min(int(k), len(scores)))
    if k == 0:
        return []
    if k >= len(scores):
        return [int(j) for j in np.argsort(-scores, kind="stable")]
    cut = np.partition(-scores, k - 1)[k - 1]                      # the k-th best score, negated
    cand = np.flatnonzero(-scores <= cut)                          # (>= k,) ties included
    order = cand[np.argsort(-scores[cand], kind="stable")]         # best first, ties by position
    return [int(j) for j in order[:k]]
