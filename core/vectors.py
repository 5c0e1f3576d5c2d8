"""The table type: labels and their vectors, looked up by label (like gensim's ``KeyedVectors``).

An embedding table is a matrix ``E`` of shape (V, d) with one row per vocabulary entry, and a
list of V labels saying whose row is whose. ``Vectors`` keeps the two together with an index
``label -> row`` built once, so every question asked of a table ("how close are cat and dog?",
"what is nearest to bank?", "b - a + c?") is a lookup plus a cosine:

    cos(u, v) = u . v / (|u| |v|)

The row lengths ``|E[i]|`` are computed once, on first use, so the cosines of a unit vector u
with all V rows are one product, ``(E @ u) / |E|``: shape (V,) (a zero row's cosine is 0). No
second (V, d) copy is made: a memory-mapped table (GloVe's 80 MB) stays on disk, and the 113 MB
of SmolLM2's rows stay one copy. A float64 table (the small tables the app trains) uses the
core's ``normalize_rows``, which scales each row by its largest entry first.

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
SPELLING_ROWS = 50_000   # suggestions come from the first rows (a frequency-ordered table: the commonest)


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

    def unit_rows(self, rows) -> np.ndarray:
        """The rows ``E[rows] / |E[rows]|`` (zero rows stay zero): shape (n, d), or (d,) for one row.
        A float32 table is computed in float32; any other through ``normalize_rows`` in float64."""
        if self.E.dtype != np.float32:
            return self._unit64[rows]
        X = np.asarray(self.E[rows], dtype=np.float32)                       # (n, d)
        n = np.linalg.norm(X, axis=-1, keepdims=True)                        # (n, 1)
        return np.divide(X, n, out=np.zeros(X.shape, np.float32), where=n > 0)

    @cached_property
    def _unit64(self) -> np.ndarray:
        """The unit rows of a table that is not float32 (the small trained tables), by the core's
        ``normalize_rows``, computed once: shape (V, d), float64."""
        return normalize_rows(self.E)                                        # (V, d)

    def cosines(self, v: np.ndarray) -> np.ndarray:
        """The cosine of every row with the vector ``v``: (d,) -> (V,); 0 for a zero row or v."""
        u = normalize_rows(np.asarray(v, dtype=np.float64)[None, :])[0]     # (d,) unit vector
        if self.E.dtype != np.float32:
            return self._unit64 @ u                                          # (V,)
        dots = np.asarray(self.E @ u.astype(self.E.dtype))                   # (V,)
        norms = self._norms32
        return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)

    @cached_property
    def _norms32(self) -> np.ndarray:
        """A float32 table's row lengths ``|E[i]|``, shape (V,), computed once."""
        return np.linalg.norm(self.E, axis=1)                                # (V,)

    def suggest(self, label: str, n: int = MAX_SUGGESTIONS) -> list[str]:
        """The labels spelt most like ``label`` (difflib's ratio), best first.

        Only the first ``SPELLING_ROWS`` labels within two characters of its length are
        compared: in a table in frequency order (GloVe's 400,000 words), the common words, in
        about a tenth of a second.

        >>> Vectors(["cat", "dog", "cart"], np.eye(3)).suggest("cta")
        ['cat']
        >>> Vectors(["paris", "aris"], np.eye(2)).suggest("Paris")
        ['paris', 'aris']
        """
        size = len(label)
        near = [w for w in self.labels[:SPELLING_ROWS] if abs(len(w) - size) <= 2]
        found = difflib.get_close_matches(label, near, n=n, cutoff=SPELLING_CUTOFF)
        cased = [w for w in (label.lower(), label.capitalize(), label.upper()) if w != label and w in self.index]
        return list(dict.fromkeys(cased + found))[:n]                        # another case first

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
        ua, ub = self.unit_rows(self.row(a)), self.unit_rows(self.row(b))    # (d,) each
        return float(np.clip(np.dot(ua.astype(np.float64), ub.astype(np.float64)), -1.0, 1.0))

    def nearest_to(self, v: np.ndarray, k: int = 5, exclude: Sequence[str] = ()) -> list[tuple[str, float]]:
        """The k labels whose rows have the largest cosine with vector ``v`` (shape (d,)), best
        first, never one of ``exclude``; ties go to the lower row (the same on every machine)."""
        sims = self.cosines(v)                                               # (V,)
        skip = {self.row(w) for w in exclude}                               # never these rows
        top = [j for j in top_k(sims, k + len(skip)) if j not in skip][:k]
        return [(self.labels[j], float(sims[j])) for j in top]

    def nearest_to_many(self, M: np.ndarray, k: int = 5, exclude: Sequence[Sequence[str]] = ()
                        ) -> list[list[tuple[str, float]]]:
        """``nearest_to`` for each row of M (m, d) at once: the cosines of all m vectors with all
        V rows are one matrix product, (V, d) @ (d, m), instead of m products with a vector
        (for SmolLM2's 49,152 x 576 table, 24 vectors cost about a third as much CPU).
        ``exclude[i]``: the labels never given to row i."""
        M = np.asarray(M, dtype=np.float64).reshape(-1, self.E.shape[1])           # (m, d)
        if len(M) == 0:
            return []
        U = normalize_rows(M)                                                      # (m, d) unit rows
        if self.E.dtype != np.float32:
            S = (self._unit64 @ U.T).T                                             # (m, V)
        else:
            dots = np.asarray(self.E @ U.T.astype(np.float32)).T                   # (m, V)
            norms = self._norms32[None, :]
            S = np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)
        out = []
        for i, sims in enumerate(S):
            skip = {self.row(w) for w in (exclude[i] if i < len(exclude) else ())}
            top = [j for j in top_k(sims, k + len(skip)) if j not in skip][:k]
            out.append([(self.labels[j], float(sims[j])) for j in top])
        return out

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
        ua, ub, uc = self.unit_rows(self.rows([a, b, c]))                     # (d,) each
        target = ub.astype(np.float64) - ua + uc                              # (d,)
        return self.nearest_to(target, k, exclude=[a, b, c])

    def subset(self, labels: list[str]) -> Vectors:
        """A table of only these labels (in this order): rows copied, shape (n, d)."""
        return Vectors(list(labels), np.asarray(self.E[self.rows(labels)]))

    def first(self, n: int) -> Vectors:
        """The first ``n`` rows (for a table in frequency order, the n most frequent labels).
        A slice: no copy, even of a memory-mapped table."""
        n = max(0, min(int(n), len(self)))
        return Vectors(self.labels[:n], self.E[:n])


def top_k(scores: np.ndarray, k: int) -> list[int]:
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
