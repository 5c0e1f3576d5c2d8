"""Skip-gram with a full softmax, trained by full-batch gradient descent.

Model, for one (centre c, context t) pair::

    x = E[c]                 # (d,)   the centre word's row of the table
    z = x @ W                # (V,)   one score per vocabulary word
    p = softmax(z)           # (V,)   predicted distribution over neighbours
    loss = -log p[t]

The training loss is the mean over all N pairs. Its gradient, by the chain rule::

    dz = (p - onehot(t)) / N        # (V,)
    dW = x.T @ dz                   # (d, V)   summed over pairs
    dx = dz @ W.T                   # (d,)     scatter-added into dE[c]

Every pair with the same centre c has the same ``p``, so summing over pairs only
needs the co-occurrence counts ``C`` (V, V) and the row totals ``n = C.sum(1)``::

    dZ = (n[:, None] * P - C) / N   # (V, V), row c = sum of dz over pairs centred on c
    dW = E.T @ dZ                   # (d, V)
    dE = dZ @ W.T                   # (V, d)

which is the same gradient (to rounding) for V rows of work instead of N.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from core.config_rules import (MAX_D_MODEL, MAX_INIT_STD, MAX_LR, MAX_STEPS,  # noqa: F401 (re-exported)
                               ConfigError, ConfigTypeError, validate)
from core.corpus import Corpus
from core.divergence import BLOWUP_FACTOR, Descent, has_diverged  # noqa: F401 (re-exported)

MAX_SNAPSHOT_ENTRIES = 2**25
"""Snapshots kept by one run: n_snapshots * V * d numbers (256 MiB in float64) at most."""


@dataclass(frozen=True)
class SkipGramConfig:
    """Training settings. The defaults are the lesson's reference run (docs/lesson.md section 5)."""

    d_model: int = 4            # width of each word's vector
    lr: float = 0.5             # learning rate of plain gradient descent
    steps: int = 3000           # number of full-batch updates
    seed: int = 0               # seed of numpy.random.default_rng; E is drawn first, then W
    init_std: float = 0.1       # standard deviation of the Gaussian initialisation
    snapshot_every: int = field(default=50, metadata={"replay_only": True})
    # keep a copy of E every this many steps (for replay; the trained table does not depend on it)

    def __post_init__(self):
        validate(self)      # each field against its row of core.config_rules.RULES


@dataclass(frozen=True)
class TrainResult:
    """What a training run produced.

    ``losses[k]`` is the loss after k updates (``losses[0]`` before any). If the run
    diverged, training stopped at the first non-finite loss: ``diverged`` is True,
    ``losses`` holds only the values before that, and ``E`` and ``W`` are the parameters
    behind ``losses[-1]``. A loss that grows past ``BLOWUP_FACTOR`` times its starting
    value also counts as diverged: it is finite, but the run has already blown up.
    """

    E: np.ndarray                  # (V, d) input embeddings: the table
    W: np.ndarray                  # (d, V) output matrix
    losses: np.ndarray             # (steps_done + 1,)
    snapshot_steps: np.ndarray     # (n_snapshots,) the step of each snapshot
    snapshots: np.ndarray = field(repr=False)  # (n_snapshots, V, d) copies of E
    vocab: list[str] = field(default_factory=list)
    diverged: bool = False
    diverged_step: int | None = None  # first update whose loss was not finite
    stopped: bool = False             # the callback asked to stop before ``steps`` updates

    @property
    def final_loss(self) -> float:
        return float(self.losses[-1])


def softmax(Z: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for large scores: ``exp(z - max z) / sum exp(z - max z)``.

    >>> softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])).round(3)
    array([[0.5, 0.5],
           [1. , 0. ]])
    """
    Z = Z - Z.max(axis=-1, keepdims=True)
    expZ = np.exp(Z)
    return expZ / expZ.sum(axis=-1, keepdims=True)


def log_softmax(Z: np.ndarray) -> np.ndarray:
    """Row-wise ``log softmax(z) = z - max z - log sum exp(z - max z)``."""
    Z = Z - Z.max(axis=-1, keepdims=True)
    return Z - np.log(np.exp(Z).sum(axis=-1, keepdims=True))


def loss_and_grads(E: np.ndarray, W: np.ndarray, C: np.ndarray, n: np.ndarray | None = None,
                   block: int = 128):
    """Mean cross-entropy over all pairs and its gradients, from the counts ``C``.

    Per centre word c (a row of ``Z = E @ W``)::

        loss_c = sum_t C[c,t] * (log sum_j exp z_cj - z_ct)
        dZ[c]  = (n[c] * softmax(z_c) - C[c]) / N

    Rows are processed in blocks of ``block`` so the (block, V) temporaries stay in the
    processor's cache; the result does not depend on the block size.

    Parameters
    ----------
    E : ndarray of shape (V, d)
    W : ndarray of shape (d, V)
    C : ndarray of shape (V, V)
        Co-occurrence counts, ``C[c, t]`` = number of (c, t) pairs.
    n : ndarray of shape (V,), optional
        Row totals ``C.sum(1)`` (pass them in when calling in a loop).

    Returns
    -------
    loss : float
    dE : ndarray of shape (V, d)
    dW : ndarray of shape (d, V)
    """
    if n is None:
        n = C.sum(axis=1)                         # (V,) pairs centred on each word
    N = n.sum()
    dE, dW, loss = np.empty_like(E), np.zeros(W.shape, W.dtype), 0.0   # (np.zeros_like: 5x the call cost)
    for a in range(0, len(E), block):
        b = slice(a, a + block)
        Z = E[b] @ W                              # (B, V) scores of these centres
        Z -= Z.max(axis=1, keepdims=True)         # (B, V) shifted: exp cannot overflow
        P = np.exp(Z)                             # (B, V) unnormalised softmax
        s = P.sum(axis=1)                         # (B,)
        loss += n[b] @ np.log(s) - np.vdot(C[b], Z)   # sum_t C[c,t] * -log softmax(z_c)[t]
        P *= (n[b] / (s * N))[:, None]            # (B, V) n_c * softmax(z_c) / N
        P -= C[b] / N                             # (B, V) rows of dZ
        dW += E[b].T @ P                          # (d, V)
        dE[b] = P @ W.T                           # (B, d)
    return float(loss / N), dE, dW


def loss_and_grads_pairs(E: np.ndarray, W: np.ndarray, inputs: np.ndarray, targets: np.ndarray):
    """The same loss and gradients computed pair by pair, as docs/lesson.md writes them (section 5).

    The textbook version: a row per pair. Used as the trusted reference in tests.
    """
    N = len(inputs)
    X = E[inputs]                         # (N, d) gather the centre rows
    Z = X @ W                             # (N, V) logits
    logP = log_softmax(Z)                 # (N, V)
    loss = -logP[np.arange(N), targets].mean()
    dz = np.exp(logP)                     # (N, V) softmax
    dz[np.arange(N), targets] -= 1.0      # softmax - onehot(target)
    dz /= N
    dW = X.T @ dz                         # (d, V)
    dX = dz @ W.T                         # (N, d)
    dE = np.zeros_like(E)
    np.add.at(dE, inputs, dX)             # scatter-add each pair's row into its word's row
    return float(loss), dE, dW


def uniform_loss(V: int) -> float:
    """``ln V``: the cross-entropy of a model that gives each of the V words the same
    probability 1/V, as an untrained model nearly does (the top of every loss curve).

    >>> round(uniform_loss(12), 3)
    2.485
    """
    return float(np.log(V))


def loss_floor(corpus: Corpus) -> float:
    """The lowest mean cross-entropy any model can reach on this corpus.

    The best any model can do for centre word c is to predict its empirical
    neighbour distribution ``C[c] / n[c]``, so the floor is
    ``-(1/N) * sum_{c,t} C[c,t] * log(C[c,t] / n[c])``.

    >>> from core.corpus import GUIDE_TEXT
    >>> round(loss_floor(Corpus.from_text(GUIDE_TEXT)), 3)
    1.702
    """
    return conditional_entropy(corpus.cooccurrence)


def conditional_entropy(K: np.ndarray) -> float:
    """The mean cross-entropy of predicting, from each row of a table of counts, its columns in
    their proportions: the best any model can do that sees only the row (a loss floor)::

        H = -(1/N) * sum_{r,c} K[r,c] * log(K[r,c] / n_r),   n_r = sum_c K[r,c],  N = sum K

    An empty cell costs nothing; so does a row with a single column.

    >>> round(conditional_entropy(np.array([[1, 1], [0, 3]])), 4)    # 2 ln 2 / 5
    0.2773
    """
    n = K.sum(axis=1, keepdims=True)      # (R, 1) count of each row
    nz = K > 0
    return float(-(K[nz] * np.log((K / n)[nz])).sum() / K.sum()) + 0.0   # + 0.0: never -0.0


def init_params(V: int, config, rng: np.random.Generator | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The reference initialisation: ``E, W ~ N(0, init_std^2)`` from one ``default_rng(seed)``,
    E drawn first, then W.

    ``config`` is any settings object with ``d_model``, ``init_std`` and ``seed`` (SkipGramConfig,
    core.negsampling's NegSamplingConfig). Pass ``rng`` to go on drawing from the same generator
    afterwards (negative sampling then shuffles and draws its negatives from it).

    >>> E, W = init_params(5, SkipGramConfig(d_model=3))
    >>> E.shape, W.shape
    ((5, 3), (3, 5))
    """
    rng = np.random.default_rng(config.seed) if rng is None else rng
    E = rng.normal(0.0, config.init_std, (V, config.d_model))  # (V, d)
    W = rng.normal(0.0, config.init_std, (config.d_model, V))  # (d, V)
    return E, W


def train(corpus: Corpus, config: SkipGramConfig = SkipGramConfig(),
          callback: Callable[[int, float], bool | None] | None = None) -> TrainResult:
    """Full-batch gradient descent on the mean cross-entropy.

    ``callback(step, loss)`` is called for step 0 (before any update) and after each update.
    If it returns True, training stops there and the partial result is returned with
    ``stopped=True`` (E, W and ``losses`` up to that step), e.g. when a user presses Stop.

    >>> from core.corpus import GUIDE_TEXT
    >>> r = train(Corpus.from_text(GUIDE_TEXT))
    >>> round(float(r.losses[0]), 3), round(float(r.losses[3000]), 3)
    (2.487, 1.713)
    """
    check_run(corpus, config, callback)
    C = corpus.cooccurrence
    n = C.sum(axis=1)                           # (V,) computed once for all steps
    return descend(lambda E, W: loss_and_grads(E, W, C, n), corpus, config, callback)


def check_run(corpus: Corpus, config: SkipGramConfig, callback) -> None:
    """The arguments every full-batch trainer takes, checked before any work."""
    if not isinstance(corpus, Corpus):
        raise TypeError(f"train needs a core.corpus.Corpus, not {type(corpus).__name__}.")
    if not isinstance(config, SkipGramConfig):
        raise TypeError(f"config must be a SkipGramConfig, not {type(config).__name__}.")
    if callback is not None and not callable(callback):
        raise TypeError("callback must be a function callback(step, loss) or None.")
    n_snaps = config.steps // config.snapshot_every + 2
    if n_snaps * corpus.V * config.d_model > MAX_SNAPSHOT_ENTRIES:
        raise ConfigError(f"Keeping {n_snaps:,} snapshots of a {corpus.V:,} x {config.d_model} table "
                          "needs too much memory; raise snapshot_every.")


def descend(loss_and_grads_of: Callable[[np.ndarray, np.ndarray], tuple[float, np.ndarray, np.ndarray]],
            corpus: Corpus, config: SkipGramConfig,
            callback: Callable[[int, float], bool | None] | None = None) -> TrainResult:
    """The full-batch gradient-descent loop shared by skip-gram and CBOW (core.cbow).

    Starts from ``init_params(V, config)`` and repeats ``E -= lr * dE; W -= lr * dW`` for
    ``config.steps`` updates, with ``loss, dE, dW = loss_and_grads_of(E, W)``. Stops early when
    ``has_diverged`` (returning the last finite parameters) or when the callback returns True.
    """
    d = Descent(*init_params(corpus.V, config))   # E (V, d), W (d, V), and before the last update
    losses: list[float] = []
    snap_steps, snaps = [], []
    diverged_step, stopped = None, False
    with np.errstate(over="ignore", invalid="ignore"):
        for step in range(config.steps + 1):   # E and W have had `step` updates here
            loss, dE, dW = loss_and_grads_of(d.E, d.W)
            finite = d.propose(config.lr, dE, dW)     # the next E and W are finite, so dE and dW are
            if d.diverged(loss, losses[0] if losses else None, *(() if finite else (dE, dW))):
                diverged_step = step
                break
            losses.append(loss)
            if step % config.snapshot_every == 0 or step == config.steps:
                snap_steps.append(step)
                snaps.append(d.E.copy())
            if callback is not None and callback(step, loss) is True:
                stopped = step < config.steps
                break
            if step == config.steps:
                break
            if not finite:                      # dE, dW finite, but the update overflowed
                diverged_step = step + 1
                break
            d.accept()
    E, W = d.E, d.W
    last = len(losses) - 1                      # updates behind the returned E and W
    if snap_steps[-1] != last:
        snap_steps.append(last)
        snaps.append(E.copy())
    return TrainResult(
        E=E, W=W, losses=np.array(losses),
        snapshot_steps=np.array(snap_steps), snapshots=np.array(snaps),
        vocab=list(corpus.vocab), diverged=diverged_step is not None,
        diverged_step=diverged_step, stopped=stopped,
    )
