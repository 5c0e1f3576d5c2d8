"""CBOW, word2vec's other architecture: predict a word from the average of its neighbours.

Skip-gram (core.skipgram) predicts each neighbour from the word. The continuous bag of
words (Mikolov et al., 2013) turns it round. For the word at position i, with the m
context words c_1..c_m inside the window::

    h = (E[c_1] + ... + E[c_m]) / m     # (d,)   the mean of the neighbours' rows
    z = h @ W                           # (V,)   one score per vocabulary word
    p = softmax(z)                      # (V,)   predicted distribution over the centre
    loss_i = -log p[centre_i]

The training loss is the mean over all N positions. Its gradient, by the chain rule::

    dz = (p - onehot(centre_i)) / N     # (V,)
    dW = h.T @ dz                       # (d, V)  summed over positions
    dh = dz @ W.T                       # (d,)
    dE[c_j] += dh / m                   # each context row gets an m-th share

The model sees the context as a *bag*: h does not depend on the order of the neighbours,
only on how often each word occurs among them. So positions with the same bag have the
same p, and the sum over positions needs only the distinct bags (U of them)::

    A[b] = counts of each word in bag b / m_b     # (U, V) rows that average E (distinct rows)
    K[b, c] = positions with bag b and centre c   # (U, V) like skip-gram's counts
    H = A @ E                                     # (U, d)
    loss, dH, dW = skip-gram's count loss with H in place of E and K in place of C
    dE = A.T @ dH                                 # (V, d)

which is the same gradient (to rounding) as the loop over positions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from core.corpus import Corpus, context_pairs
from core.skipgram import (SkipGramConfig, TrainResult, check_run, conditional_entropy, descend, log_softmax,
                           loss_and_grads, softmax, uniform_loss)


@dataclass(frozen=True)
class Bags:
    """The distinct context bags of a corpus and the centre words seen with each."""

    A: np.ndarray        # (U, V) averaging weights: row b sums to 1
    K: np.ndarray        # (U, V) centre counts: K[b, c] = positions with bag b and centre c


def contexts(corpus: Corpus) -> list[np.ndarray]:
    """The ids of each position's context words, in text order: one array per position.

    >>> c = Corpus.from_text("a b c", window=1)
    >>> [x.tolist() for x in contexts(c)]
    [[1], [0, 2], [1]]
    """
    n = len(corpus.ids)
    i, j = context_pairs(np.arange(n), corpus.window)     # (n_pairs,) positions, ordered by i
    return np.split(corpus.ids[j], np.flatnonzero(np.diff(i)) + 1) if len(i) else []


def bags(corpus: Corpus) -> Bags:
    """Group the positions by their context bag. Two bags with the same shares of each word
    ({a} and {a, a}) give the same mean row h for every E, so they count as one bag here.
    (Division of whole numbers is exactly rounded, so equal shares are equal floats.)

    >>> b = bags(Corpus.from_text("a b a b", window=1))     # bags {b}, {a, a}, {b, b}, {a}
    >>> b.A.tolist(), b.K.tolist()
    ([[0.0, 1.0], [1.0, 0.0]], [[2.0, 0.0], [0.0, 2.0]])
    """
    n, V = len(corpus.ids), corpus.V
    i, j = context_pairs(np.arange(n), corpus.window)     # (n_pairs,) positions
    M = np.bincount(i * V + corpus.ids[j], minlength=n * V).reshape(n, V)   # (n, V) bag counts
    shares = M / M.sum(axis=1, keepdims=True)                               # (n, V) rows sum to 1
    A, bag_of = np.unique(shares, axis=0, return_inverse=True)              # (U, V), (n,)
    bag_of = bag_of.reshape(-1)
    U = len(A)
    K = np.bincount(bag_of * V + corpus.ids, minlength=U * V).reshape(U, V)  # (U, V)
    return Bags(A, K.astype(np.float64))


def loss_and_grads_cbow(E: np.ndarray, W: np.ndarray, b: Bags, n: np.ndarray | None = None):
    """Mean cross-entropy over all positions and its gradients, from the bags (module docstring).

    Parameters
    ----------
    E : ndarray of shape (V, d)
    W : ndarray of shape (d, V)
    b : Bags
    n : ndarray of shape (U,), optional
        Positions per bag, ``b.K.sum(1)`` (pass it in when calling in a loop).

    Returns
    -------
    loss : float
    dE : ndarray of shape (V, d)
    dW : ndarray of shape (d, V)
    """
    H = b.A @ E                                          # (U, d) mean context row of each bag
    loss, dH, dW = loss_and_grads(H, W, b.K, n)          # skip-gram's count loss on the bags
    return loss, b.A.T @ dH, dW                          # dE (V, d): each row's share of dH


def loss_and_grads_positions(E: np.ndarray, W: np.ndarray, corpus: Corpus):
    """The same loss and gradients, one position at a time, as the module docstring writes them.

    The textbook version: used as the trusted reference in tests.
    """
    ctx = contexts(corpus)
    N = len(ctx)
    loss, dE, dW = 0.0, np.zeros_like(E), np.zeros_like(W)
    for centre, c in zip(corpus.ids, ctx):
        h = E[c].mean(axis=0)                 # (d,) mean of the context rows
        z = h @ W                             # (V,)
        loss -= log_softmax(z)[centre]
        dz = softmax(z)                       # (V,)
        dz[centre] -= 1.0                     # softmax - onehot(centre)
        dz /= N
        dW += np.outer(h, dz)                 # (d, V)
        np.add.at(dE, c, (dz @ W.T) / len(c))  # each context row gets dh / m
    return float(loss / N), dE, dW


@dataclass(frozen=True)
class RowSignals:
    """How much training each word's row of E gets from one pass over the text, per model."""

    occurrences: np.ndarray      # (V,) times the word occurs in the text
    skipgram_pairs: np.ndarray   # (V,) skip-gram pairs whose input is this word: each moves its row fully
    cbow_uses: np.ndarray        # (V,) CBOW predictions whose context holds this word
    cbow_weight: np.ndarray      # (V,) sum of its shares of those contexts' means (1/m per occurrence)


def row_signals(corpus: Corpus) -> RowSignals:
    """Who trains a word's row. In skip-gram a word's row is the whole input of every pair it
    centres (about 2 * window pairs per occurrence), so each pair's gradient reaches it in full.
    In CBOW its row is one of the m rows averaged into h for every position that has it in its
    context, so it gets an m-th share of that position's gradient, mixed with its neighbours'.

    >>> s = row_signals(Corpus.from_text("a b c", window=1))
    >>> s.skipgram_pairs.tolist(), s.cbow_uses.tolist(), s.cbow_weight.tolist()
    ([1.0, 2.0, 1.0], [1, 2, 1], [0.5, 2.0, 0.5])
    """
    V = corpus.V
    uses = np.zeros(V, dtype=np.int64)
    weight = np.zeros(V)
    for c in contexts(corpus):
        counts = np.bincount(c, minlength=V)          # (V,) this context's words
        uses += counts > 0
        weight += counts / len(c)                     # (V,) each word's share of the mean
    return RowSignals(np.bincount(corpus.ids, minlength=V), corpus.cooccurrence.sum(axis=1), uses, weight)


def loss_floor(corpus: Corpus) -> float:
    """The lowest mean cross-entropy any CBOW model can reach on this corpus.

    A model that sees only the mean of the context rows can at best predict, for each bag
    (``bags``: same shares of each word, same mean), the centre words seen with it in their
    proportions. The floor is the conditional entropy of the centre given the bag::

        floor = -(1/N) * sum_{b,c} K[b,c] * log(K[b,c] / n_b)

    A bag seen only once, or always with the same centre, costs nothing.

    >>> from core.corpus import GUIDE_TEXT
    >>> round(loss_floor(Corpus.from_text(GUIDE_TEXT)), 3)
    0.084
    """
    return conditional_entropy(bags(corpus).K)            # K: (U, V) centres seen with each bag


def uniform(corpus: Corpus) -> float:
    """``ln V``: the loss of a model that gives every word the same chance (step 0's level);
    ``core.skipgram.uniform_loss`` of the corpus's vocabulary size.

    >>> from core.corpus import GUIDE_TEXT
    >>> round(uniform(Corpus.from_text(GUIDE_TEXT)), 3)
    2.485
    """
    return uniform_loss(corpus.V)


def train_cbow(corpus: Corpus, config: SkipGramConfig | None = None,
               callback: Callable[[int, float], bool | None] | None = None) -> TrainResult:
    """Full-batch gradient descent on CBOW's mean cross-entropy, with skip-gram's loop
    (``core.skipgram.descend``): the same initialisation, divergence rule, callback and
    ``TrainResult``. ``result.E`` is the table of context rows, the vectors CBOW learns.
    ``config`` defaults to ``SkipGramConfig()``, the lesson's reference settings.

    >>> from core.corpus import GUIDE_TEXT
    >>> r = train_cbow(Corpus.from_text(GUIDE_TEXT))
    >>> round(float(r.losses[0]), 3), round(float(r.losses[-1]), 3)
    (2.488, 0.097)
    """
    config = SkipGramConfig() if config is None else config
    check_run(corpus, config, callback)
    b = bags(corpus)
    n = b.K.sum(axis=1)                       # (U,) positions per bag, once for all steps
    return descend(lambda E, W: loss_and_grads_cbow(E, W, b, n), corpus, config, callback)
