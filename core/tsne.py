"""t-SNE: a 2-D picture that tries to keep each point's near neighbours near.

Exact t-SNE (van der Maaten & Hinton, 2008, "Visualizing Data using t-SNE", JMLR 9),
with every pair computed: fine for a few hundred points.

1. In the table, point i picks neighbour j with a Gaussian probability whose width
   is set per point (precision ``beta_i = 1 / (2 sigma_i^2)``)::

       p_{j|i} = exp(-beta_i |x_i - x_j|^2) / sum_{k != i} exp(-beta_i |x_i - x_k|^2)

   ``beta_i`` is found by binary search so that the row's perplexity
   ``2^H_i``, with ``H_i = -sum_j p_{j|i} log2 p_{j|i}``, equals the chosen
   perplexity: a smooth "effective number of neighbours" (nothing to do with a
   language model's perplexity).
2. Symmetrise: ``p_ij = (p_{j|i} + p_{i|j}) / (2n)``, so the whole matrix sums to 1.
3. In the picture, a Student-t (one degree of freedom) kernel::

       q_ij = (1 + |y_i - y_j|^2)^-1 / sum_{k != l} (1 + |y_k - y_l|^2)^-1

4. Move the picture to lower ``KL(P || Q) = sum_ij p_ij log(p_ij / q_ij)`` with::

       dKL/dy_i = 4 sum_j (p_ij - q_ij) (y_i - y_j) (1 + |y_i - y_j|^2)^-1

   by gradient descent with momentum (0.5, then 0.8) and per-coordinate gains
   (+0.2 while a coordinate keeps moving the same way, x0.8 when it turns back,
   floor 0.01), as in van der Maaten's reference code. For the first iterations every p_ij is
   multiplied by ``early_exaggeration`` ("early exaggeration") so that clusters form
   first and then spread out.

Perplexity can be at most n - 1 (reached when every other point is an equal
neighbour, and the table's shape is forgotten). By default we follow the usual rule and
cap it at ``(n - 1) / 3``: a larger request is clamped, never refused, and the value
really used is reported as ``perplexity_used``. On the 12-word table the cap is
11/3 = 3.67, so perplexity 5 and 30 draw the same picture, and the result says so.
``perplexity_cap=1.0`` allows up to n - 1 (all neighbours equal): exact t-SNE can
compute it, and the unstable pictures it draws show why the rule exists.

The finished picture is turned onto its own principal axes (widest spread along
the first axis, signs fixed as in PCA). That changes no distance: t-SNE axes have
no meaning, and this only makes the picture fit a wide screen the same way each time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from core.checks import number, whole

from core.projection import pca
from core.similarity import normalize_rows

PERPLEXITY_CAP = 1 / 3
MAX_POINTS = 2_000      # exact t-SNE: (n, n) matrices, n^2 work per step
MAX_ITER = 10_000
"""Default largest perplexity, as a share of n - 1 (the usual rule of thumb)."""


@dataclass(frozen=True)
class Calibration:
    """Result of the per-point bandwidth search."""

    P_cond: np.ndarray       # (n, n) p_{j|i}, each row sums to 1, zero diagonal
    beta: np.ndarray         # (n,) precision 1 / (2 sigma_i^2) found for each row
    perplexities: np.ndarray  # (n,) achieved perplexity 2^H_i of each row


@dataclass(frozen=True)
class TSNEResult:
    coords: np.ndarray        # (n, k) the picture
    perplexities: np.ndarray  # (n,) achieved perplexity of each calibrated row
    perplexity_used: float    # the perplexity actually targeted (after the cap)
    perplexity_asked: float   # the perplexity that was requested
    kl: float                 # final KL(P || Q), without exaggeration
    n_iter: int               # number of gradient steps taken
    learning_rate: float      # the step size used
    stopped: bool = False     # the callback asked to stop before ``n_iter`` steps
    frames: np.ndarray | None = None       # (F, n, k) the picture as it was at each frame step
    frame_steps: np.ndarray | None = None  # (F,) iterations done at each frame (0 = the start)
    frame_kl: np.ndarray | None = None     # (F,) KL(P || Q) at each frame, without exaggeration

    @property
    def clamped(self) -> bool:
        """True when the requested perplexity was too large and was capped."""
        return self.perplexity_used < self.perplexity_asked


def squared_distances(X: np.ndarray) -> np.ndarray:
    """All pairwise squared Euclidean distances, shape (n, d) -> (n, n), never negative.

    >>> squared_distances(np.array([[0.0, 0], [3, 4]]))
    array([[ 0., 25.],
           [25.,  0.]])
    """
    X = np.asarray(X, dtype=np.float64)
    sq = (X * X).sum(axis=1)                          # (n,)
    D2 = sq[:, None] + sq[None, :] - 2 * X @ X.T      # (n, n) |x_i|^2 + |x_j|^2 - 2 x_i.x_j
    np.fill_diagonal(D2, 0.0)
    return np.maximum(D2, 0.0)                        # rounding can make tiny negatives


def _row_probabilities(D2: np.ndarray, beta: np.ndarray):
    """Gaussian rows p_{j|i} for precisions beta, and their entropies in bits."""
    off = ~np.eye(len(D2), dtype=bool)
    Dm = np.where(off, D2, np.inf)                        # (n, n) self excluded
    shift = Dm.min(axis=1, keepdims=True)                 # (n, 1) subtracting it avoids underflow
    E = np.exp(-beta[:, None] * (Dm - shift))             # (n, n) unnormalised, exp(-inf) = 0
    P = E / E.sum(axis=1, keepdims=True)                  # (n, n) rows sum to 1
    logP = np.log2(np.where(P > 0, P, 1.0))               # (n, n) 0 log 0 taken as 0
    H = -(P * logP).sum(axis=1)                           # (n,) entropy in bits
    return P, H


def conditional_probabilities(D2: np.ndarray, perplexity: float, tol: float = 1e-5,
                              max_iter: int = 200) -> Calibration:
    """Find each row's precision beta_i so that its perplexity 2^H_i hits the target.

    Binary search on every row at once: a row whose entropy is too high (too many
    neighbours) needs a larger beta (a narrower Gaussian), and the other way round.
    While a row has no upper bound its beta doubles; then it bisects. A row stops
    when ``|H_i - log2(perplexity)| < tol`` (bits) or after ``max_iter`` steps.

    Parameters
    ----------
    D2 : ndarray of shape (n, n), squared distances (diagonal ignored)
    perplexity : float, target in [1, n - 1]

    Returns
    -------
    Calibration with P_cond (n, n), beta (n,), perplexities (n,)

    >>> D2 = squared_distances(np.arange(6.0)[:, None])
    >>> cal = conditional_probabilities(D2, perplexity=2.0)
    >>> np.allclose(cal.perplexities, 2.0, rtol=1e-4), np.allclose(cal.P_cond.sum(1), 1)
    (True, True)
    """
    D2 = np.asarray(D2, dtype=np.float64)
    n = len(D2)
    target = np.log2(perplexity)
    off = D2[~np.eye(n, dtype=bool)]
    beta = np.full(n, 1.0 / max(off.mean(), 1e-12))       # (n,) start on the data's own scale
    lo, hi = np.zeros(n), np.full(n, np.inf)              # (n,) bracket on each beta
    P, H = _row_probabilities(D2, beta)
    for _ in range(max_iter):
        diff = H - target                                 # (n,) > 0: too flat, narrow it
        todo = np.abs(diff) >= tol
        if not todo.any():
            break
        up = todo & (diff > 0)
        down = todo & (diff < 0)
        lo[up], hi[down] = beta[up], beta[down]
        beta[up] = np.where(np.isinf(hi[up]), beta[up] * 2, (beta[up] + hi[up]) / 2)
        beta[down] = (beta[down] + lo[down]) / 2
        P, H = _row_probabilities(D2, beta)
    return Calibration(P, beta, 2.0 ** H)


def joint_probabilities(P_cond: np.ndarray) -> np.ndarray:
    """Symmetrise: ``p_ij = (p_{j|i} + p_{i|j}) / (2n)``; the result sums to 1.

    >>> joint_probabilities(np.array([[0.0, 1], [1, 0]]))
    array([[0. , 0.5],
           [0.5, 0. ]])
    """
    n = len(P_cond)
    return (P_cond + P_cond.T) / (2 * n)                  # (n, n) symmetric


def student_t_affinities(Y: np.ndarray):
    """Low-dimensional affinities: returns ``(Q, num)`` with ``num_ij = (1 + |y_i - y_j|^2)^-1``
    (zero diagonal) and ``Q = num / num.sum()``.

    >>> Q, num = student_t_affinities(np.array([[0.0, 0], [1, 0]]))
    >>> Q, num
    (array([[0. , 0.5],
           [0.5, 0. ]]), array([[0. , 0.5],
           [0.5, 0. ]]))
    """
    sq = (Y * Y).sum(axis=1)                              # (n,)
    num = Y @ Y.T                                         # (n, n) y_i . y_j, then in place:
    num *= -2.0
    num += sq[:, None] + 1.0
    num += sq[None, :]                                    # 1 + |y_i - y_j|^2
    np.reciprocal(num, out=num)                           # Student-t kernel
    np.fill_diagonal(num, 0.0)
    return num / num.sum(), num


def _gradient(P: np.ndarray, Y: np.ndarray):
    """The KL gradient (n, k) and Q (n, n); see kl_gradient."""
    Q, num = student_t_affinities(Y)
    W = P - Q                                             # (n, n)
    W *= num                                              # (p_ij - q_ij) num_ij
    return 4.0 * (W.sum(axis=1)[:, None] * Y - W @ Y), Q  # (n, k) sum_j W_ij (y_i - y_j)


def kl_gradient(P: np.ndarray, Y: np.ndarray):
    """``KL(P || Q)`` and its gradient ``4 sum_j (p_ij - q_ij)(y_i - y_j) num_ij``, shape (n, k).

    >>> P = np.array([[0.0, 0.5], [0.5, 0.0]])
    >>> kl, grad = kl_gradient(P, np.array([[0.0], [1.0]]))
    >>> float(kl), grad.ravel()
    (0.0, array([0., 0.]))
    """
    grad, Q = _gradient(P, Y)
    mask = P > 0
    kl = float((P[mask] * np.log(P[mask] / np.maximum(Q[mask], 1e-300))).sum())
    return kl, grad


def tsne(X: np.ndarray, perplexity: float = 5.0, k: int = 2, seed: int = 0,
         n_iter: int = 1000, early_exaggeration: float = 12.0, exaggeration_iter: int = 250,
         learning_rate: float | None = None, metric: str = "euclidean",
         perplexity_cap: float = PERPLEXITY_CAP,
         callback: Callable[[int, float], None] | None = None, report_every: int = 50,
         frame_every: int = 0) -> TSNEResult:
    """Exact t-SNE of the rows of X (van der Maaten & Hinton, 2008).

    Parameters
    ----------
    X : ndarray of shape (n, d), n >= 3
    perplexity : float >= 1, the effective number of neighbours, capped at
        ``perplexity_cap * (n - 1)`` (default (n - 1) / 3, never below 1)
    k : int, dimension of the picture
    seed : int, seed of ``numpy.random.default_rng`` for the start ``N(0, 1e-4^2)``
    n_iter : int, gradient steps
    early_exaggeration : float, factor on P for the first ``exaggeration_iter`` steps
    learning_rate : float, default ``max(n / early_exaggeration / 4, 5)``: the usual
        rule (Belkina et al., 2019) with a low floor, as 50 sends 12 points astray
    metric : "euclidean" (distances between rows) or "cosine" (rows scaled to unit
        length first, so ``|u - v|^2 = 2 - 2 cos(u, v)``)
    perplexity_cap : float in (0, 1], the cap as a share of n - 1
    callback : called as ``callback(step, kl)`` every ``report_every`` steps; if it
        returns True, the iterations stop there and the partial picture is returned
        with ``stopped=True`` and ``n_iter`` the number of steps taken
    frame_every : int, if above 0: also keep the picture and its KL at the start and every
        ``frame_every`` steps, to watch it form; every frame gets the finished picture's turn
        onto its principal axes, so the last frame is ``coords``

    Returns
    -------
    TSNEResult ; same seed, same picture

    >>> X = np.vstack([np.zeros((5, 3)), np.full((5, 3), 10.0)])
    >>> X += np.random.default_rng(0).normal(0, 0.1, X.shape)
    >>> r = tsne(X, perplexity=30, n_iter=300)
    >>> r.coords.shape, round(r.perplexity_used, 3), r.clamped
    ((10, 2), 3.0, True)
    """
    X = np.asarray(X, dtype=np.float64) if not isinstance(X, np.ndarray) else X.astype(np.float64)
    if X.ndim != 2 or len(X) < 3:
        raise ValueError("t-SNE needs a table of at least 3 rows.")
    if len(X) > MAX_POINTS or X.size > 2**24:
        raise ValueError(f"Exact t-SNE works on every pair of points (n^2 per step): at most "
                         f"{MAX_POINTS:,} points here; this table has {len(X):,}.")
    if not np.isfinite(X).all():
        raise ValueError("The table contains NaN or infinite values.")
    if isinstance(perplexity, bool) or not np.isfinite(perplexity) or not perplexity >= 1:
        raise ValueError("Perplexity is an effective number of neighbours: it must be at least 1.")
    if not 0 < perplexity_cap <= 1:
        raise ValueError("perplexity_cap is a share of n - 1: it must be above 0 and at most 1.")
    k = whole(k, "k", 1, 3)
    seed = whole(seed, "seed", 0)
    n_iter = whole(n_iter, "n_iter", 0, MAX_ITER)
    exaggeration_iter = whole(exaggeration_iter, "exaggeration_iter", 0)
    report_every = whole(report_every, "report_every", 1)
    frame_every = whole(frame_every, "frame_every", 0, MAX_ITER)
    early_exaggeration = number(early_exaggeration, "early_exaggeration", 0, 1000, low_open=True)
    if learning_rate is not None:
        learning_rate = number(learning_rate, "learning_rate", 0, 1e6, low_open=True)
    if metric not in ("euclidean", "cosine"):
        raise ValueError(f"metric must be 'euclidean' or 'cosine', not {metric!r}.")
    n = len(X)
    used = float(min(perplexity, max(1.0, (n - 1) * perplexity_cap)))
    if metric == "cosine":
        X = normalize_rows(X)
    cal = conditional_probabilities(squared_distances(X), used)
    P = np.maximum(joint_probabilities(cal.P_cond), 1e-12)  # (n, n) floor keeps logs finite
    np.fill_diagonal(P, 0.0)
    P /= P.sum()
    eta = float(learning_rate or max(n / early_exaggeration / 4, 5.0))

    rng = np.random.default_rng(seed)
    Y = rng.normal(0.0, 1e-4, size=(n, k))                # (n, k) tiny random start
    step = np.zeros_like(Y)                               # (n, k) previous update (momentum)
    gains = np.ones_like(Y)                               # (n, k) per-coordinate step scale
    done, stopped = n_iter, False
    frames: list[tuple[int, np.ndarray, float]] = []
    if frame_every:
        frames.append((0, Y.copy(), kl_gradient(P, Y)[0]))
    for it in range(n_iter):
        exaggerating = it < exaggeration_iter
        grad, _ = _gradient(P * early_exaggeration if exaggerating else P, Y)  # (n, k)
        momentum = 0.5 if exaggerating else 0.8
        same_sign = (grad > 0) == (step > 0)
        gains = np.where(same_sign, gains * 0.8, gains + 0.2)
        np.maximum(gains, 0.01, out=gains)
        step = momentum * step - eta * gains * grad       # (n, k)
        Y = Y + step
        Y -= Y.mean(axis=0)                               # keep the picture centred
        if frame_every and ((it + 1) % frame_every == 0 or it + 1 == n_iter):
            frames.append((it + 1, Y.copy(), kl_gradient(P, Y)[0]))
        if callback is not None and (it + 1) % report_every == 0:
            if callback(it + 1, kl_gradient(P, Y)[0]) is True and it + 1 < n_iter:
                done, stopped = it + 1, True
                break
    kl = kl_gradient(P, Y)[0]
    turn = pca(Y, k=k)
    coords = turn.coords                                  # (n, k) same distances, own axes
    if frame_every and frames[-1][0] != done:             # stopped early: keep the last picture
        frames.append((done, Y.copy(), kl))
    # every frame gets the finished picture's turn (Y_f - mean) @ components.T: the film ends on it
    kept = (np.array([(f[1] - turn.mean) @ turn.components.T for f in frames]), np.array([f[0] for f in frames]),
            np.array([f[2] for f in frames])) if frames else (None, None, None)
    return TSNEResult(coords, cal.perplexities, used, float(perplexity), kl, done, eta, stopped, *kept)
