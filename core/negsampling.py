"""Skip-gram with negative sampling (Mikolov et al., 2013): the cheaper objective.

The full softmax scores *every* vocabulary word for every pair (V output columns).
Negative sampling turns the task into yes/no questions: "is t a real neighbour of
c?" for the true context t, and "is n a real neighbour?" for K random words n,
the *negatives*. For one (centre c, context t) pair with negatives n_1..n_K::

    x   = E[c]                     # (d,)  the centre word's row, as in core.skipgram
    u_w = W[:, w]                  # (d,)  output column of word w
    loss = -log sigma(u_t . x) - sum_k log sigma(-u_{n_k} . x)

with ``sigma(s) = 1 / (1 + exp(-s))``. Only K + 1 output columns are touched per
pair instead of V. Negatives are drawn from the unigram distribution raised to
0.75, ``q(w) ~ count(w) ** 0.75``, which gives rare words a bit more than their share.
As in word2vec, a negative that happens to equal the true context is skipped.

Gradients, by the chain rule (``d/ds -log sigma(s) = sigma(s) - 1``,
``d/ds -log sigma(-s) = sigma(s)``), for a batch of B pairs averaged::

    g_pos = (sigma(s_pos) - 1) / B          # (B,)
    g_neg = sigma(s_neg) * keep / B         # (B, K)
    dx    = g_pos u_t + sum_k g_neg[k] u_{n_k}   -> scatter-added into dE[c]
    du_t  = g_pos x                              -> scatter-added into dW[:, t]
    du_n  = g_neg[k] x                           -> scatter-added into dW[:, n_k]

The loss and these gradients are computed by ``core.sgns`` (the one implementation of
the objective, shared with ``core.word2vec``); this module is the lesson's small-text
trainer: minibatch SGD over the shuffled pairs, one pass per epoch.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from core.config_rules import MAX_EPOCHS, MAX_NEGATIVES, validate  # noqa: F401 (re-exported)
from core.corpus import Corpus
from core.generated import GroupRecovery, group_recovery
from core.vectors import Vectors
from core.sgns import log_sigmoid  # noqa: F401  (re-exported: part of this module's API)
from core.sgns import block_loss_and_grads, noise_distribution, scatter_add
from core.divergence import Descent
from core.skipgram import SkipGramConfig, TrainResult, init_params, loss_and_grads, train


@dataclass(frozen=True)
class NegSamplingConfig:
    """Training settings for negative sampling (d_model, seed, init_std as SkipGramConfig)."""

    d_model: int = 4            # width of each word's vector (as SkipGramConfig)
    lr: float = field(default=1.0, metadata={"own": True})
    # SGD learning rate on the batch-mean loss (its own: not the full softmax's, core.run.shared_settings)
    epochs: int = 10            # passes over all (centre, context) pairs, shuffled each time
    batch_size: int = 64        # pairs per update (the last batch of an epoch may be smaller)
    negatives: int = 5          # K, negatives per pair (word2vec uses 5-20, fewer for big data)
    power: float = 0.75         # negatives ~ count ** power (0.75 as in word2vec)
    seed: int = 0               # default_rng(seed): E, then W, then shuffles and negatives
    init_std: float = 0.1       # standard deviation of the Gaussian initialisation

    def __post_init__(self):
        validate(self)      # each field against its row of core.config_rules.RULES


GENERATED_SETTINGS = NegSamplingConfig(d_model=12, lr=1.0, epochs=10, batch_size=64, negatives=5)
"""Settings that recover the groups of core.generated's default corpus (about 0.99)."""


@dataclass(frozen=True)
class NegSamplingResult:
    """What a negative-sampling run produced.

    ``losses[e]`` is the mean negative-sampling loss over the batches of epoch e + 1
    (each batch with its own random negatives), ``step_losses`` the loss of every
    batch. ``softmax_losses[e]`` is the full-softmax mean cross-entropy of (E, W)
    after e epochs (``[0]`` before training), the same number ``core.skipgram``
    reports, so the two objectives can be compared on one scale; ``softmax_loss``
    is its last value. ``seconds`` is the time spent in the SGD updates only.
    If a loss or a parameter stops being finite, or a batch loss grows past
    ``BLOWUP_FACTOR`` times the first batch's, training stops: ``diverged`` is True,
    ``diverged_step`` is the batch (1 = first) where it broke down, E and W are the parameters
    ``step_losses[-1]`` was computed on (the last ones before the blow-up), and the
    unfinished epoch is left out of ``losses``.
    """

    E: np.ndarray                  # (V, d) input embeddings: the table
    W: np.ndarray                  # (d, V) output matrix
    losses: np.ndarray             # (epochs_done,)
    step_losses: np.ndarray = field(repr=False)     # (steps_done,)
    softmax_losses: np.ndarray = field(repr=False)  # (epochs_done + 1,)
    softmax_loss: float = float("nan")
    seconds: float = 0.0
    steps: int = 0
    vocab: list[str] = field(default_factory=list)
    diverged: bool = False
    diverged_step: int | None = None
    stopped: bool = False          # the callback asked to stop before the last epoch


def ns_loss_and_grads(E: np.ndarray, W: np.ndarray, centres: np.ndarray,
                      contexts: np.ndarray, negatives: np.ndarray):
    """Mean negative-sampling loss over one batch, and its gradients.

    Each pair is one block of ``core.sgns.block_loss_and_grads`` with J = 1 input row
    (x = E[c]) and K + 1 output rows (u_t, u_{n_1}, ..., u_{n_K}); the loss and the
    gradients are divided by B (the batch mean) and scatter-added into dense arrays.

    Parameters
    ----------
    E : ndarray of shape (V, d)
    W : ndarray of shape (d, V)
    centres, contexts : int ndarrays of shape (B,)
    negatives : int ndarray of shape (B, K)
        Negatives equal to the pair's context are skipped (weight 0).

    Returns
    -------
    loss : float
    dE : ndarray of shape (V, d)
        Non-zero only in the rows of ``centres``.
    dW : ndarray of shape (d, V)
        Non-zero only in the columns of ``contexts`` and ``negatives``.

    >>> E, W = np.zeros((3, 2)), np.zeros((2, 3))
    >>> loss, dE, dW = ns_loss_and_grads(E, W, np.array([0]), np.array([1]), np.array([[2, 2]]))
    >>> round(loss, 4), round(3 * float(np.log(2)), 4)   # three coin flips: ln 2 each
    (2.0794, 2.0794)
    """
    B, d = len(centres), E.shape[1]
    out_ids = np.concatenate([contexts[:, None], negatives], axis=1)   # (B, K+1) true word first
    weight = (out_ids != contexts[:, None]).astype(E.dtype)            # (B, K+1) skip accidental positives
    weight[:, 0] = 1.0
    X = E[centres][:, None, :]                       # (B, 1, d) centre rows
    U = W.T[out_ids]                                 # (B, K+1, d) output columns, as rows
    loss, dX, dU = block_loss_and_grads(X, U, weight[:, None, :])
    dE = np.zeros_like(E)
    scatter_add(dE, centres, dX[:, 0] / B)           # scatter-add into the centre rows
    dWT = np.zeros((W.shape[1], d), dtype=W.dtype)   # (V, d) dW transposed, rows = words
    scatter_add(dWT, out_ids.ravel(), dU.reshape(-1, d) / B)
    return loss / B, dE, dWT.T


def train_negsampling(corpus: Corpus, config: NegSamplingConfig = NegSamplingConfig(),
                      callback: Callable[[int, float], bool | None] | None = None) -> NegSamplingResult:
    """Minibatch SGD on the negative-sampling loss over the corpus's pairs.

    The initialisation is core.skipgram's: one ``default_rng(seed)``, E drawn first,
    then W; the same generator then shuffles the pairs and draws the negatives.
    ``callback(epoch, loss)`` is called after each epoch with that epoch's mean loss; if it
    returns True, training stops there (``stopped=True``, the epochs done so far kept).

    >>> from core.corpus import GUIDE_TEXT
    >>> r = train_negsampling(Corpus.from_text(GUIDE_TEXT), NegSamplingConfig(epochs=30))
    >>> bool(r.losses[-1] < r.losses[0]), r.steps, len(r.softmax_losses)
    (True, 60, 31)
    """
    V, K, B = corpus.V, config.negatives, config.batch_size
    rng = np.random.default_rng(config.seed)
    E, W = init_params(V, config, rng)               # (V, d), (d, V); rng goes on to shuffle and sample
    q = noise_distribution(corpus.ids, V, config.power)  # (V,)
    C = corpus.cooccurrence
    N = corpus.n_pairs
    step_losses: list[float] = []
    epoch_losses: list[float] = []
    softmax_losses = [loss_and_grads(E, W, C)[0]]
    seconds, diverged_step, stopped = 0.0, None, False
    d = Descent(E, W)                                # E, W and before the last update
    with np.errstate(over="ignore", invalid="ignore"):
        for epoch in range(1, config.epochs + 1):
            start = time.perf_counter()
            order = rng.permutation(N)               # (N,) shuffled pair indices
            negs = rng.choice(V, size=(N, K), p=q)   # (N, K) this epoch's negatives, in batch order
            total = 0.0
            for lo in range(0, N, B):
                idx = order[lo:lo + B]               # (b,) this batch's pairs
                loss, dE, dW = ns_loss_and_grads(d.E, d.W, corpus.inputs[idx], corpus.targets[idx],
                                                 negs[lo:lo + B])
                if d.diverged(loss, step_losses[0] if step_losses else None):   # undoes the last update
                    diverged_step = len(step_losses) + 1
                    break
                step_losses.append(loss)
                total += loss * len(idx)
                if not d.update(config.lr, dE, dW):
                    diverged_step = len(step_losses)
                    break
            seconds += time.perf_counter() - start
            if diverged_step is not None:
                break
            epoch_losses.append(total / N)
            softmax_losses.append(loss_and_grads(d.E, d.W, C)[0])
            if callback is not None and callback(epoch, epoch_losses[-1]) is True:
                stopped = epoch < config.epochs
                break
        E, W = d.E, d.W
        final = loss_and_grads(E, W, C)[0] if diverged_step is not None else softmax_losses[-1]
    return NegSamplingResult(
        E=E, W=W, losses=np.array(epoch_losses), step_losses=np.array(step_losses),
        softmax_losses=np.array(softmax_losses), softmax_loss=float(final),
        seconds=seconds, steps=len(step_losses), vocab=list(corpus.vocab),
        diverged=diverged_step is not None, diverged_step=diverged_step, stopped=stopped,
    )


@dataclass(frozen=True)
class ObjectiveComparison:
    """Full softmax and negative sampling trained on the same corpus.

    ``*_loss`` is the full-softmax mean cross-entropy of each final (E, W), one scale
    for both. ``*_seconds`` is wall-clock training time on this machine.
    ``scores_per_pair`` is how many output columns each objective scores per pair:
    V for the softmax, K + 1 for negative sampling; this, not the time on a tiny
    vocabulary, is why word2vec uses negative sampling (V = 50,257 for GPT-2).
    ``*_recovery`` is the group-recovery score when groups were given, else None.
    """

    softmax: TrainResult
    negsampling: NegSamplingResult
    softmax_loss: float
    negsampling_loss: float
    softmax_seconds: float
    negsampling_seconds: float
    softmax_scores_per_pair: int
    negsampling_scores_per_pair: int
    softmax_recovery: GroupRecovery | None = None
    negsampling_recovery: GroupRecovery | None = None


def compare_objectives(corpus: Corpus, softmax_config: SkipGramConfig | None = None,
                       ns_config: NegSamplingConfig | None = None,
                       groups: dict[str, list[str]] | None = None, k: int = 3) -> ObjectiveComparison:
    """Train both objectives on ``corpus`` and measure loss, time and (optionally) recovery.

    >>> from core.corpus import GUIDE_TEXT
    >>> from core.skipgram import SkipGramConfig
    >>> cmp = compare_objectives(Corpus.from_text(GUIDE_TEXT), SkipGramConfig(steps=100),
    ...                          NegSamplingConfig(epochs=5))
    >>> cmp.softmax_scores_per_pair, cmp.negsampling_scores_per_pair
    (12, 6)
    """
    softmax_config = softmax_config or SkipGramConfig()
    ns_config = ns_config or NegSamplingConfig()
    start = time.perf_counter()
    sm = train(corpus, softmax_config)
    sm_seconds = time.perf_counter() - start
    ns = train_negsampling(corpus, ns_config)
    sm_rec = ns_rec = None
    if groups is not None:
        sm_rec = group_recovery(Vectors(corpus.vocab, sm.E), groups, k)
        ns_rec = group_recovery(Vectors(corpus.vocab, ns.E), groups, k)
    return ObjectiveComparison(
        softmax=sm, negsampling=ns, softmax_loss=sm.final_loss, negsampling_loss=ns.softmax_loss,
        softmax_seconds=sm_seconds, negsampling_seconds=ns.seconds,
        softmax_scores_per_pair=corpus.V, negsampling_scores_per_pair=ns_config.negatives + 1,
        softmax_recovery=sm_rec, negsampling_recovery=ns_rec,
    )
