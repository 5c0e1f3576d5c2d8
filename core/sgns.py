"""The negative-sampling objective, written once for every trainer in core.

Negative sampling (Mikolov et al., 2013) replaces the softmax over V words by yes/no
questions. An *input* row x asks "is t a real neighbour?" for the true word t and
"is n a real neighbour?" for K noise words n_1..n_K::

    loss(x) = -log sigma(u_t . x) - sum_k log sigma(-u_{n_k} . x)

with ``sigma(s) = 1 / (1 + exp(-s))`` and u_w the *output* row of word w.

Both trainers in core call :func:`block_loss_and_grads` on a *block*: a group of
J input rows that share the same K + 1 output rows (one true word, K negatives):

* ``core.negsampling`` (the lesson's small texts): one block per (centre, context)
  pair, J = 1, x = E[centre], u_t = the context's output column.
* ``core.word2vec`` (real text): one block per centre position, as word2vec's
  skip-gram predicts the centre word from each context word: the J = 2 * window
  context rows x_j = E[context_j] all ask about the same true word (the centre)
  and, here, the same K negatives (shared across the window, as in Ji et al. 2016,
  "Parallelizing Word2Vec in Shared and Distributed Memory"; word2vec.c draws K
  new ones per context word). Sharing turns the scores into a small matrix product.
  As in word2vec.c, the context words are taken in turn, each input row moving
  along the output rows as the earlier ones left them: :func:`window_updates`.

Written for a block of G groups, the scores and gradients are matrix products::

    S  = X @ U^T                    # (G, J, K+1) scores, column 0 = the true word
    R  = sigma(+S) for the true word, sigma(-S) for negatives: the right answer's probability
    loss = -sum weight * log R
    dS = (sigma(S) - Y) * weight    # (G, J, K+1), Y = [1, 0, ..., 0]: d/ds -log sigma(+-s)
    dX = dS @ U                     # (G, J, d)   chain rule through S = X U^T
    dU = dS^T @ X                   # (G, K+1, d)

``weight`` is 0 for padding (a window slot outside the text) and for a negative
that happens to equal the true word (word2vec skips those), otherwise 1 (or a
per-group learning rate folded in by the caller).
"""
from __future__ import annotations

import numpy as np


def log_sigmoid(s: np.ndarray) -> np.ndarray:
    """``log sigma(s) = -log(1 + exp(-s))``, computed without overflow.

    >>> log_sigmoid(np.array([0.0, -1000.0])).round(3).tolist()   # no overflow
    [-0.693, -1000.0]
    """
    return -np.logaddexp(0.0, -s)


def sigmoid(s: np.ndarray) -> np.ndarray:
    """``sigma(s) = 1 / (1 + exp(-s))`` without overflow warnings, in s's dtype.

    >>> sigmoid(np.array([0.0, 1000.0, -1000.0])).tolist()
    [0.5, 1.0, 0.0]
    """
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-s))


def noise_distribution(ids: np.ndarray, V: int, power: float = 0.75) -> np.ndarray:
    """Unigram counts raised to ``power``, normalised: q of shape (V,).

    ``ids`` are token ids (each occurrence once); words that never occur get 0.

    >>> noise_distribution(np.array([0, 0, 0, 0, 1]), 2, power=0.5)
    array([0.66666667, 0.33333333])
    """
    return noise_from_counts(np.bincount(ids, minlength=V), power)


def noise_from_counts(counts: np.ndarray, power: float = 0.75) -> np.ndarray:
    """``q(w) = count(w) ** power / sum_v count(v) ** power``, shape (V,).

    >>> noise_from_counts(np.array([16, 1, 0, 81])).tolist()   # 8 : 1 : 0 : 27
    [0.2222222222222222, 0.027777777777777776, 0.0, 0.75]
    """
    counts = np.asarray(counts, dtype=np.float64)              # (V,)
    q = counts ** power
    q[counts == 0] = 0.0
    return q / q.sum()


def noise_table(counts: np.ndarray, power: float = 0.75, size: int | None = None) -> np.ndarray:
    """word2vec's unigram table: word w fills about ``q(w) * size`` entries, so a negative is
    one uniform random entry (O(1) per draw). Entry i holds the word whose share of the
    cumulative distribution contains ``(i + 0.5) / size``; size is at least 100 per word.

    >>> noise_table(np.array([16, 1, 0, 81]), size=36).tolist().count(3)   # q = 27/36
    27
    """
    q = noise_from_counts(counts, power)                       # (V,)
    size = size or max(1_000_000, 100 * len(q))
    at = (np.arange(size) + 0.5) / size                        # (size,) evenly spaced in (0, 1)
    return np.minimum(np.searchsorted(np.cumsum(q), at, side="right"), len(q) - 1).astype(np.int32)


class BlockBuffers:
    """Work arrays for :func:`block_loss_and_grads`, allocated once and reused by every block.

    A fresh array per operation and per block costs more than the arithmetic here:
    arrays over ~128 KiB go back to the operating system when freed and come back as
    new zeroed pages (measured with bench.word2vec: the whole run 2.8x slower).
    """

    def __init__(self, G: int, J: int, K1: int, d: int, dtype=np.float32):
        self.S = np.empty((G, J, K1), dtype)        # scores, then probabilities, then dS
        self.tmp = np.empty((G, J, K1), dtype)      # log-probabilities for the loss
        # dX and copy are (G, J, d) views of slot-major memory: each slot's (G, d) rows are
        # contiguous, for core.word2vec adding them up per text position
        self.dX = np.empty((J, G, d), dtype).transpose(1, 0, 2)
        self.dU = np.empty((G, K1, d), dtype)
        self.gram = np.empty((G, J, J), dtype)      # dS_j . dS_i (window_updates)
        self.copy = np.empty((J, G, d), dtype).transpose(1, 0, 2)   # the correction term of dX
        self.lower = np.tri(J, k=-1, dtype=dtype)    # (J, J) 1 where i < j (window_updates)

    def take(self, G: int):
        """Views of the first G blocks."""
        return self.S[:G], self.tmp[:G], self.dX[:G], self.dU[:G]


def block_loss_and_grads(X: np.ndarray, U: np.ndarray, weight: np.ndarray,
                         scale: np.ndarray | None = None, buffers: BlockBuffers | None = None):
    """Summed negative-sampling loss of G blocks and its gradients.

    Parameters
    ----------
    X : ndarray of shape (G, J, d)
        Input rows; block g's J rows all ask about the same K + 1 words.
    U : ndarray of shape (G, K + 1, d)
        Output rows; ``U[g, 0]`` is the true word, ``U[g, 1:]`` the negatives.
    weight : ndarray of shape (G, J, K + 1), or one that broadcasts to it
        Weight of each question (0 skips it).
    scale : ndarray of shape (G,), optional
        Multiplies block g's gradients only (a learning rate per block), not the loss.
    buffers : BlockBuffers, optional
        Where to write; then dX and dU are views into it, valid until the next call.

    Returns
    -------
    loss : float
        ``sum weight * (-log R)``, R the probability given to the right answer.
    dX : ndarray of shape (G, J, d)
    dU : ndarray of shape (G, K + 1, d)

    >>> X, U = np.zeros((1, 1, 2)), np.zeros((1, 3, 2))
    >>> loss, dX, dU = block_loss_and_grads(X, U, np.ones((1, 1, 3)))
    >>> round(loss, 4), round(3 * float(np.log(2)), 4)   # three coin flips: ln 2 each
    (2.0794, 2.0794)
    """
    G, J, d = X.shape
    buffers = buffers or BlockBuffers(G, J, U.shape[1], d, X.dtype)
    S, tmp, dX, dU = buffers.take(G)
    np.matmul(X, U.transpose(0, 2, 1), out=S)        # (G, J, K+1) scores S = X U^T
    S[..., 1:] *= -1.0                               # +s for the true word, -s for negatives
    with np.errstate(over="ignore"):                 # R = sigma(+-s) = 1 / (1 + exp(-(+-s)))
        np.exp(np.negative(S, out=S), out=S)
    S += 1.0
    R = np.reciprocal(S, out=S)                      # (G, J, K+1) right answer's probability
    np.log(np.maximum(R, np.finfo(R.dtype).tiny, out=tmp), out=tmp)  # log 0 -> about -87 / -708
    tmp *= weight
    loss = -float(tmp.sum())
    dS = R                                           # d(-log R)/dS = (R - 1) * sign:
    dS -= 1.0                                        #   sigma(s) - 1 for the true word,
    dS[..., 1:] *= -1.0                              #   sigma(s) = 1 - sigma(-s) for negatives
    dS *= weight
    if scale is not None:
        dS *= scale[:, None, None]
    np.matmul(dS, U, out=dX)                         # (G, J, d)    dX = dS U
    np.matmul(dS.transpose(0, 2, 1), X, out=dU)      # (G, K+1, d)  dU = dS^T X
    return loss, dX, dU


def window_updates(X: np.ndarray, U: np.ndarray, weight: np.ndarray, scale: np.ndarray,
                   buffers: BlockBuffers | None = None):
    """SGD on G blocks whose J input rows are taken in turn, as word2vec takes a window's context words.

    word2vec.c and gensim update a centre's output rows after every context word, so the
    input row of context j moves along ``U_j = U - sum_{i<j} dS_i (x) X_i``, the rows as
    the earlier contexts left them, not along U. Here every question is scored against
    the starting rows (the scores' own correction is a second-order term: dropping it moved
    neighbour agreement with gensim by -0.0008 to +0.0004), but the input rows move along U_j::

        dS   = scale * (sigma(X U^T) - Y) * weight          # (G, J, K+1), Y = [1, 0, ..., 0]
        dX_j = dS_j U_j = (dS U)_j - sum_{i<j} (dS_j . dS_i) X_i   # (G, d) change of input row j
        dU   = sum_j dS_j (x) X_j = dS^T X                  # (G, K+1, d) change of U

    The second term of dX_j is what makes the order matter: output rows start at zero,
    so early on ``dS U`` is about 0 and this term alone moves a context word's row
    towards the other context words of the same centre (without it, neighbour agreement
    with gensim fell by 0.005, measured with bench.word2vec). Apply with ``X -= dX`` and
    ``U -= dU``; every X_i is its value at the start (rows of different positions).
    For J = 1 this is :func:`block_loss_and_grads` with ``scale``. Parameters and
    returns as there (``scale`` required).

    >>> X = np.ones((1, 2, 1)); U = np.zeros((1, 2, 1)); w = np.ones((1, 2, 2))
    >>> loss, dX, dU = window_updates(X, U, w, scale=np.array([1.0]))
    >>> dX.ravel().tolist()   # context 1 moves along U = 0; context 2 along U moved to (0.5, -0.5)
    [0.0, -0.5]
    """
    G, J, d = X.shape
    buffers = buffers or BlockBuffers(G, J, U.shape[1], d, X.dtype)
    loss, dX, dU = block_loss_and_grads(X, U, weight, scale=scale, buffers=buffers)
    dS, gram, copy = buffers.S[:G], buffers.gram[:G], buffers.copy[:G]    # dS: left in S
    np.matmul(dS, dS.transpose(0, 2, 1), out=gram)   # (G, J, J)    dS_j . dS_i
    gram *= buffers.lower                            # only i < j
    dX -= np.matmul(gram, X, out=copy)               # (G, J, d)
    return loss, dX, dU


def negative_sets_asked(w: int, K: int, S: int) -> np.ndarray:
    """Which output rows each window slot asks about: a (2w+1, S K + 1) boolean mask.

    Column 0 is the centre (the true word): every slot asks about it. Columns
    1 + s K .. (s + 1) K are the s-th set of K negatives; context c = 0..2w-1 (left to
    right, the centre's slot w skipped) asks about set ``c * S // (2w)``. S = 1: one set
    for the whole window; S = 2w: a set of its own for every context word.

    >>> negative_sets_asked(w=1, K=1, S=2).astype(int).tolist()   # slots left, centre, right
    [[1, 1, 0], [1, 0, 0], [1, 0, 1]]
    """
    slots = np.arange(2 * w + 1)                                          # (2w+1,)
    context = slots - (slots > w)                                         # (2w+1,) 0..2w-1
    sets = np.arange(S * K) // K                                          # (SK,) set of each column
    asks = np.ones((2 * w + 1, S * K + 1), bool)
    asks[:, 1:] = (context * S // (2 * w))[:, None] == sets[None, :]
    asks[w, 1:] = False                                                   # the centre is no context
    return asks


def scatter_add(target: np.ndarray, ids: np.ndarray, rows: np.ndarray, subtract: bool = False,
                work: np.ndarray | None = None) -> None:
    """In place: ``target[ids[i]] += rows[i]`` for every i, repeated ids adding up.

    ``target[ids] += rows`` would keep only one of the repeats. This is
    ``np.add.at(target, ids, rows)`` made several times faster by flattening it:
    row i's d values go to the flat positions ``ids[i] * d + (0..d-1)`` of the
    contiguous ``target``, and NumPy's 1-D ``ufunc.at`` has a fast path. With d even,
    the rows are viewed as d / 2 complex numbers (pairs of floats), which halves the
    number of indexed updates again.
    (Measured alternatives, slower with bench.word2vec: sort-and-``reduceat``, ``bincount``
    per column, a one-hot matrix product.) ``subtract=True`` does ``-=``.

    Parameters
    ----------
    target : C-contiguous ndarray of shape (V, d)
    ids : int ndarray of shape (n,)
    rows : ndarray of shape (n, d)
    work : intp ndarray of shape (at least n, d), optional
        Reused for the flat positions (no fresh array per call).

    >>> T = np.zeros((3, 1)); scatter_add(T, np.array([2, 0, 2]), np.array([[1.0], [2.0], [3.0]]))
    >>> T.ravel().tolist()
    [2.0, 0.0, 4.0]
    """
    if not target.flags.c_contiguous:
        raise ValueError("scatter_add needs a C-contiguous target (it updates a flat view).")
    values = np.ascontiguousarray(rows, dtype=target.dtype)   # (n, d)
    pair = _PAIRS.get(target.dtype)
    if pair is not None and target.shape[1] % 2 == 0:         # two numbers per element:
        target, values = target.view(pair), values.view(pair)  # half the indexed updates
    n, d = values.shape
    flat_ids = np.empty((n, d), np.intp) if work is None else work.reshape(-1)[:n * d].reshape(n, d)
    np.multiply(np.asarray(ids)[:, None], d, out=flat_ids)
    flat_ids += np.arange(d)                                  # (n, d) flat position of each value
    (np.subtract if subtract else np.add).at(target.reshape(-1), flat_ids.reshape(-1), values.reshape(-1))


_PAIRS: dict[np.dtype, np.dtype] = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
"""A complex number is two floats side by side, and complex addition adds them pairwise:
viewing the rows as complex numbers halves the updates ``ufunc.at`` makes, the same sums."""
