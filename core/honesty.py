"""How far to trust a picture, and why single columns mean nothing.

Neighbourhood overlap. For word i, let ``N_k(i)`` be its k nearest other words in the
full table by cosine, and ``M_k(i)`` its k nearest other words in the 2-D picture by
Euclidean distance. The picture keeps

    overlap_i = |N_k(i) & M_k(i)| / k

of word i's true neighbourhood; the mean over words is the picture's score
(1 = every neighbour survived; about k / (n - 1) is what a random picture gets).
Ties are broken by the lower index and a word is never its own neighbour.

Axes have no meaning. For an orthogonal Q (``Q.T @ Q = I``) the rotated table
``X @ Q`` has the same dot products, lengths and cosines as X, since
``(x Q) . (y Q) = x Q Q^T y^T = x . y``, yet each of its columns is a mix of all the
old ones. Anything a model computes from dot products cannot tell the two apart,
so "column 3 means size" is not a property of the table.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import MAX_ROWS, array, whole
from core.similarity import cosine_matrix, nearest_indices

MAX_ROTATION_DIM = 2_048    # width of a random rotation (d x d)


@dataclass(frozen=True)
class NeighbourOverlap:
    per_row: np.ndarray            # (n,) share of each row's k table-neighbours kept in the picture
    mean: float                    # the mean of per_row: the picture's score
    k: int                         # neighbours compared per row (after clamping to n - 1)
    table_neighbours: np.ndarray   # (n, k) indices, nearest first, by cosine in the full table
    picture_neighbours: np.ndarray  # (n, k) indices, nearest first, by distance in the picture

    def neighbours_of(self, i: int) -> list[tuple[int, bool]]:
        """Row i's k nearest rows by cosine in the table, nearest first, each with whether the
        picture also puts it among i's k nearest points (False: the picture places it far away).

        >>> X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
        >>> neighbour_overlap(X, np.array([[0.0], [5.0], [1.0], [6.0]]), k=1).neighbours_of(0)
        [(1, False)]
        """
        i = whole(i, "i", 0, len(self.per_row) - 1)
        seen = set(self.picture_neighbours[i].tolist())
        return [(int(j), int(j) in seen) for j in self.table_neighbours[i]]


def neighbour_overlap(X_full: np.ndarray, Y_picture: np.ndarray, k: int = 3) -> NeighbourOverlap:
    """Share of each row's k cosine-nearest rows in the table that stay among its
    k Euclidean-nearest points in the picture.

    Parameters
    ----------
    X_full : ndarray of shape (n, d), the table
    Y_picture : ndarray of shape (n, 2) (any width works), the picture of the same rows
    k : int >= 1, clamped to n - 1

    Returns
    -------
    NeighbourOverlap

    >>> X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
    >>> Y = np.array([[0.0], [1.0], [5.0], [6.0]])
    >>> neighbour_overlap(X, Y, k=1).mean
    1.0
    >>> neighbour_overlap(X, Y[[0, 2, 1, 3]], k=1).per_row
    array([0., 0., 0., 0.])
    """
    X = array(X_full, "The table", 2, max_size=2**24)
    Y = array(Y_picture, "The picture", 2, max_size=2**24)
    k = whole(k, "k", 1)
    if len(X) > MAX_ROWS:
        raise ValueError(f"Neighbours of {len(X):,} rows need an n x n matrix; at most {MAX_ROWS:,} rows.")
    if X.ndim != 2 or Y.ndim != 2 or len(X) != len(Y):
        raise ValueError("The table and the picture need the same rows; "
                         f"got {len(X)} and {len(Y)}.")
    n = len(X)
    if n < 2:
        raise ValueError("Neighbours need at least 2 rows.")
    if k < 1:
        raise ValueError("k must be at least 1.")
    k = int(min(k, n - 1))
    table = nearest_indices(cosine_matrix(X), k)           # (n, k) by cosine
    D2 = ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)  # (n, n) exact, so ties stay ties
    picture = nearest_indices(-D2, k)                      # (n, k) closest = highest -D2
    hits = (table[:, :, None] == picture[:, None, :]).any(axis=2)  # (n, k) kept in picture?
    per_row = hits.sum(axis=1) / k                         # (n,)
    return NeighbourOverlap(per_row, float(per_row.mean()), k, table, picture)


def random_orthogonal(d: int, seed: int = 0) -> np.ndarray:
    """A random d x d orthogonal matrix, uniform over all rotations and reflections.

    Take ``A = Q R`` (QR decomposition) of a standard Gaussian A, then flip each
    column of Q by the sign of ``R_ii``. Without the flip the answer is biased
    (Mezzadri, 2007, "How to generate random matrices from the classical compact groups").

    >>> Q = random_orthogonal(3, seed=0)
    >>> np.allclose(Q.T @ Q, np.eye(3))
    True
    """
    d = whole(d, "d", 1, MAX_ROTATION_DIM)
    seed = whole(seed, "seed", 0)
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(d, d))                            # (d, d) Gaussian
    Q, R = np.linalg.qr(A)                                 # (d, d), (d, d) upper triangular
    signs = np.sign(np.diag(R))                            # (d,)
    signs[signs == 0] = 1.0
    return Q * signs[None, :]                              # flip columns


def rotate(X: np.ndarray, seed: int = 0) -> np.ndarray:
    """The table turned by ``random_orthogonal(d, seed)``: ``X @ Q``, shape (n, d).

    Every cosine stays the same; every column changes.

    >>> X = np.array([[1.0, 2, 2], [2, 1, 2]])
    >>> Xr = rotate(X, seed=1)
    >>> np.allclose(cosine_matrix(Xr), cosine_matrix(X)), np.allclose(Xr, X)
    (True, False)
    """
    X = np.asarray(X, dtype=np.float64)
    return X @ random_orthogonal(X.shape[1], seed)         # (n, d)


@dataclass(frozen=True)
class RotationCheck:
    """What an orthogonal rotation does to a table: cosines stay, columns change."""

    rotated: np.ndarray            # (n, d) X @ Q
    max_cosine_change: float       # largest |cos after - cos before| over all pairs
    share_entries_changed: float   # share of the table's numbers that moved (by > 1e-9)


def rotation_check(X: np.ndarray, seed: int = 0) -> RotationCheck:
    """Rotate a table by a random orthogonal Q and measure what changed.

    Since ``(xQ).(yQ) = x Q Q^T y^T = x.y`` and lengths are kept too, every cosine
    is unchanged; yet almost every single number of the table is different. So no
    single column (or axis of a picture) carries meaning of its own.

    >>> r = rotation_check(np.random.default_rng(0).normal(size=(5, 3)), seed=1)
    >>> r.max_cosine_change < 1e-12, r.share_entries_changed
    (True, 1.0)
    """
    R = rotate(X, seed)                                             # (n, d)
    change = np.abs(cosine_matrix(R) - cosine_matrix(X)).max()
    moved = np.abs(R - X) > 1e-9                                    # (n, d)
    return RotationCheck(R, float(change), float(moved.mean()))
