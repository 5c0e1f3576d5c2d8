"""Cosine similarity, nearest neighbours and the mean embedding of a sentence.

    cos(u, v) = u . v / (|u| |v|)

ranges from -1 (opposite directions) through 0 (perpendicular, as every pair of
distinct one-hot vectors is) to 1 (same direction, whatever the lengths).

A zero vector has no direction. We define its cosine with anything as 0
("no evidence of similarity") rather than NaN, and say so wherever it is shown.

Lengths and cosines are computed on vectors scaled by their largest entry first,
``|u| = m * |u / m|`` with ``m = max |u_i|``, so squaring cannot overflow (1e200) or
underflow to zero (1e-200): any finite non-zero vector has a direction and a length.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import MAX_ROWS, MAX_TABLE, array, indices, whole

MAX_VECTOR = 1_000_000     # entries of one vector


@dataclass(frozen=True)
class CosineSteps:
    """The parts of a cosine, for showing the computation step by step."""

    products: tuple[float, ...]   # u_i * v_i, the terms of the dot product
    dot: float
    norm_u: float
    norm_v: float
    cosine: float

    @property
    def angle_degrees(self) -> float:
        """The angle between the two vectors, ``arccos(cos)``, in degrees."""
        return float(np.degrees(np.arccos(self.cosine)))


def cosine_steps(u, v) -> CosineSteps:
    """Dot product, both lengths and the cosine.

    >>> s = cosine_steps([1, 2, 2], [2, 1, 2])
    >>> s.products, s.dot, s.norm_u, s.norm_v, round(s.cosine, 3)
    ((2.0, 2.0, 4.0), 8.0, 3.0, 3.0, 0.889)
    >>> round(cosine_steps([1, 0], [0, 1]).angle_degrees)
    90
    """
    su_, sv_ = np.shape(u), np.shape(v)
    if su_ != sv_ or len(su_) != 1 or su_[0] == 0:
        raise ValueError(f"Both vectors need the same length; got {int(np.prod(su_))} and {int(np.prod(sv_))}.")
    u = array(u, "u", 1, max_size=MAX_VECTOR)
    v = array(v, "v", 1, max_size=MAX_VECTOR)
    nu, nv = norm(u), norm(v)
    su, sv = float(np.abs(u).max()), float(np.abs(v).max())  # largest entries
    with np.errstate(over="ignore", under="ignore"):
        products = u * v                                   # (d,) may overflow to +-inf: shown as is
        if nu == 0 or nv == 0:
            dot, cos = float(products.sum()), 0.0
        else:
            uu, vv = u / su, v / sv                        # (d,) largest entry 1: safe to square
            scaled = float(uu @ vv)                        # u.v / (su sv)
            dot = 0.0 if scaled == 0 else su * scaled * sv  # +-inf only if u.v itself is that large
            cos = float(np.clip(uu @ vv / (np.linalg.norm(uu) * np.linalg.norm(vv)), -1.0, 1.0))
    return CosineSteps(tuple(float(p) for p in products), dot, nu, nv, cos)


def norm(u) -> float:
    """The length ``|u|``, scaled first so that huge or tiny entries neither overflow nor vanish.

    >>> norm([3, 4]), norm([3e-200, 4e-200]), round(norm([3e200, 4e200]) / 1e200, 12)
    (5.0, 5e-200, 5.0)
    """
    u = array(u, "u", 1, max_size=MAX_VECTOR)
    m = float(np.abs(u).max()) if u.size else 0.0
    if m == 0:
        return 0.0
    with np.errstate(over="ignore"):
        return float(m * np.linalg.norm(u / m))          # inf only if the length itself is


def cosine(u, v) -> float:
    """Cosine similarity of two vectors (0.0 if either is zero).

    >>> round(cosine([1, 2, 2], [2, 1, 2]), 3)
    0.889
    >>> cosine([1, 0], [0, 0])
    0.0
    """
    return cosine_steps(u, v).cosine


def normalize_rows(X: np.ndarray) -> np.ndarray:
    """Each row divided by its length; zero rows stay zero. Shape (n, d) -> (n, d)."""
    X = array(X, "The table", 2, max_size=MAX_TABLE)
    m = np.abs(X).max(axis=1, keepdims=True) if X.size else np.zeros((len(X), 1))  # (n, 1)
    S = np.divide(X, m, out=np.zeros_like(X), where=m > 0)   # (n, d) largest entry of each row 1
    norms = np.linalg.norm(S, axis=1, keepdims=True)         # (n, 1) between 1 and sqrt(d)
    return np.divide(S, norms, out=np.zeros_like(S), where=norms > 0)


def cosine_matrix(X: np.ndarray) -> np.ndarray:
    """All pairwise cosines of the rows of X: shape (n, d) -> (n, n).

    >>> cosine_matrix(np.eye(3))
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 1.]])
    """
    U = normalize_rows(X)                    # (n, d) unit rows
    if len(U) > MAX_ROWS:
        raise ValueError(f"A cosine matrix of {len(U):,} rows is too large; at most {MAX_ROWS:,}.")
    return np.clip(U @ U.T, -1.0, 1.0)       # (n, n)


def cosines_to(X: np.ndarray, v) -> np.ndarray:
    """The cosine of every row of X with the vector v: shape (n, d), (d,) -> (n,).

    >>> cosines_to(np.array([[2.0, 0], [0, 3], [1, 1]]), [1, 0]).round(3)
    array([1.   , 0.   , 0.707])
    """
    u = normalize_rows(array(v, "v", 1, max_size=MAX_VECTOR)[None, :])[0]   # (d,) unit vector
    return normalize_rows(X) @ u                                          # (n,)


def nearest_indices(scores: np.ndarray, k: int, own=None) -> np.ndarray:
    """For each row of an (m, n) score matrix (higher = closer), its k best columns, best first.

    Ties go to the lower column index (a stable sort), so every machine gives the same
    answer. The columns ``own[r]`` of row r (one index, or a row of distinct indices) are never
    chosen: a word is not its own neighbour. By default ``own`` is the diagonal (a square
    matrix of a table against itself).

    >>> nearest_indices(np.array([[9, 1, 1], [1, 9, 2], [5, 1, 9]]), k=2)
    array([[1, 2],
           [2, 0],
           [0, 1]])
    >>> nearest_indices(np.array([[0.9, 1.0, 0.9]]), k=2, own=[1])
    array([[0, 2]])
    >>> nearest_indices(np.array([[0.9, 1.0, 0.9, 0.5]]), k=5, own=[[1, 2]])
    array([[0, 3]])
    """
    S = np.asarray(scores, dtype=np.float64).reshape(-1, np.shape(scores)[-1])   # (m, n)
    m = len(S)
    own = np.arange(m)[:, None] if own is None else np.asarray(own).reshape(m, -1)   # (m, j)
    order = np.argsort(-S, axis=1, kind="stable")                 # (m, n) best first
    mine = (order[:, :, None] == own[:, None, :]).any(axis=2)     # (m, n) a row's own columns
    return order[~mine].reshape(m, -1)[:, :k]                     # (m, min(k, n - j))


def nearest(X: np.ndarray, i: int, k: int = 5) -> list[tuple[int, float]]:
    """The k rows most cosine-similar to row i (itself excluded), best first.

    Ties are broken by the lower index, so the order is the same on every machine.

    >>> [(j, round(c, 2)) for j, c in nearest(np.array([[1.0, 0], [0.9, 0.1], [-1, 0]]), 0, k=2)]
    [(1, 0.99), (2, -1.0)]
    """
    X = array(X, "The table", 2, max_size=MAX_TABLE)
    i = whole(i, "i", 0, len(X) - 1)
    k = whole(k, "k", 0, len(X) - 1)
    sims = cosines_to(X, X[i])                        # (n,)
    order = nearest_indices(sims[None, :], k, own=[i])[0]   # (k,)
    return [(int(j), float(sims[j])) for j in order]


def mean_embedding(X: np.ndarray, ids) -> np.ndarray:
    """The average of the rows of ``ids``: shape (d,). Order of ids does not matter.

    >>> mean_embedding(np.array([[0.0, 2], [4, 0]]), [0, 1])
    array([2., 1.])
    """
    X = array(X, "The table", 2, max_size=MAX_TABLE)
    ids = indices(ids, "The ids", len(X))
    if ids.size == 0:
        raise ValueError("A sentence needs at least one word to average.")
    # Summing in a fixed (sorted) order makes the result exactly order-free, as the
    # maths is: without it, floating-point rounding would differ in the last bit.
    return X[np.sort(ids.reshape(-1))].mean(axis=0)  # (d,)


def similarity_order(S: np.ndarray) -> np.ndarray:
    """An order of the rows that puts similar rows next to each other.

    Greedy chain: start from the row with the highest total similarity, then keep
    appending the not-yet-placed row most similar to the last one placed.
    Used to order heatmaps so that blocks of similar words show up as squares.

    >>> similarity_order(np.array([[1, 0, .9], [0, 1, 0], [.9, 0, 1]]))
    array([0, 2, 1])
    """
    n = len(S)
    if n == 0:
        return np.arange(0)
    order = [int(np.argmax(S.sum(axis=1)))]
    left = set(range(n)) - set(order)
    while left:
        cand = sorted(left)
        nxt = cand[int(np.argmax(S[order[-1], cand]))]
        order.append(nxt)
        left.remove(nxt)
    return np.array(order)


def neighbour_overlap(X: np.ndarray, Y: np.ndarray, i: int, k: int = 5) -> list[int]:
    """The rows among row i's k nearest (by cosine, itself excluded) in *both* tables X and Y,
    in X's order: how far two trainings of the same vocabulary agree on a word's neighbours.

    >>> X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [-1, 0]])
    >>> Y = np.array([[1.0, 0], [0, 1], [0.9, 0.1], [-1, 0]])
    >>> neighbour_overlap(X, Y, 0, k=1), neighbour_overlap(X, Y, 0, k=2)
    ([], [1, 2])
    """
    X = array(X, "The first table", 2, max_size=MAX_TABLE)
    Y = array(Y, "The second table", 2, max_size=MAX_TABLE)
    if len(X) != len(Y):
        raise ValueError(f"The two tables need the same rows (words); got {len(X)} and {len(Y)}.")
    in_y = {j for j, _ in nearest(Y, i, k)}
    return [j for j, _ in nearest(X, i, k) if j in in_y]
