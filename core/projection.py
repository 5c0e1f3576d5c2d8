"""PCA: a flat picture of a table, and how much of its spread the picture keeps.

Subtract the mean row, take the SVD ``Xc = U S Vt``. The rows of ``Vt`` are the
directions of most spread, in order; the spread along direction i is
proportional to ``s_i^2``. A k-D picture keeps the share

    (s_1^2 + ... + s_k^2) / sum_i s_i^2

of the spread. A direction's sign is arbitrary (``-v`` is as good as ``v``), so we
fix it: each direction's largest-magnitude entry is made positive, and every
machine draws the same picture.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import array, whole

MAX_PCA_ENTRIES = 2**24     # a (n, d) table PCA takes: 128 MiB in float64


@dataclass(frozen=True)
class PCAResult:
    coords: np.ndarray       # (n, k) each row's position in the picture
    components: np.ndarray   # (k, d) the directions, unit length, signs fixed
    explained: np.ndarray    # (k,) share of the total spread along each direction
    mean: np.ndarray         # (d,) the mean row that was subtracted

    @property
    def kept(self) -> float:
        """Share of the total spread the k-D picture keeps."""
        return float(self.explained.sum())


def fix_signs(components: np.ndarray) -> np.ndarray:
    """Flip each row so that its largest-magnitude entry is positive.

    >>> fix_signs(np.array([[0.6, -0.8], [0.8, 0.6]]))
    array([[-0.6,  0.8],
           [ 0.8,  0.6]])
    """
    idx = np.argmax(np.abs(components), axis=1)                    # (k,)
    signs = np.sign(components[np.arange(len(components)), idx])   # (k,)
    signs[signs == 0] = 1.0
    return components * signs[:, None]


def pca(X: np.ndarray, k: int = 2) -> PCAResult:
    """Project the rows of X onto their k directions of most spread.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    k : int, number of directions; if k > d the missing directions are zero

    >>> p = pca(np.array([[0.0, 0], [2, 0], [4, 0]]), k=2)
    >>> p.coords[:, 0], p.explained
    (array([-2.,  0.,  2.]), array([1., 0.]))
    """
    X = array(X, "The table", 2, max_size=MAX_PCA_ENTRIES, min_rows=1)
    k = whole(k, "k", 1, 64)
    n, d = X.shape
    mean = X.mean(axis=0)                                   # (d,)
    Xc = X - mean                                           # (n, d) centred
    _, s, Vt = np.linalg.svd(Xc, full_matrices=False)       # s: (r,), Vt: (r, d), r = min(n, d)
    total = float((s ** 2).sum())
    comps = np.zeros((k, d))
    m = min(k, len(s))
    comps[:m] = fix_signs(Vt[:m])                           # (k, d)
    explained = np.zeros(k)
    if total > 0:
        explained[:m] = s[:m] ** 2 / total
    coords = Xc @ comps.T                                   # (n, k)
    return PCAResult(coords, comps, explained, mean)


def procrustes_rotation(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """The orthogonal matrix R minimising ``|A @ R - B|`` (orthogonal Procrustes).

    With ``A.T @ B = U S Vt``, the answer is ``R = U @ Vt`` (Schoenemann, 1966).
    Used to turn each replay frame so that the picture does not flip or spin.

    Parameters
    ----------
    A, B : ndarrays of shape (n, k)

    Returns
    -------
    ndarray of shape (k, k)

    >>> A = np.array([[1.0, 0], [0, 2]]); R90 = np.array([[0.0, 1], [-1, 0]])
    >>> np.allclose(procrustes_rotation(A, A @ R90), R90)
    True
    """
    U, _, Vt = np.linalg.svd(A.T @ B)   # (k, k) each
    return U @ Vt


@dataclass(frozen=True)
class ReplayFrames:
    """PCA pictures of a table at several training steps, turned to match the last one."""

    steps: np.ndarray      # (n_frames,) the training step of each frame
    coords: np.ndarray     # (n_frames, n, k) aligned coordinates
    kept: np.ndarray       # (n_frames,) share of spread each frame's picture keeps


def aligned_frames(snapshots: np.ndarray, steps, k: int = 2) -> ReplayFrames:
    """Project every snapshot with its own PCA, then rotate (or reflect) it onto the last
    frame with orthogonal Procrustes, so the picture does not flip or spin between steps.

    Rotations keep every distance and angle in the picture, so each frame is still an
    honest PCA picture of its own step.

    Parameters
    ----------
    snapshots : ndarray of shape (n_frames, n, d)
    steps : array of shape (n_frames,)

    >>> E = np.random.default_rng(0).normal(size=(3, 6, 2))
    >>> f = aligned_frames(E, [0, 1, 2])
    >>> f.coords.shape, bool(np.allclose(f.coords[-1], pca(E[-1]).coords))
    ((3, 6, 2), True)
    """
    pictures = [pca(S, k) for S in snapshots]
    final = pictures[-1].coords                                    # (n, k)
    coords = np.stack([p.coords @ procrustes_rotation(p.coords, final) for p in pictures])
    kept = np.array([p.kept for p in pictures])
    return ReplayFrames(np.asarray(steps), coords, kept)
