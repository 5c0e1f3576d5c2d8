"""word2vec's own recipe for real text: skip-gram with negative sampling, in NumPy.

What word2vec (Mikolov et al., 2013; the C tool and gensim) does, step by step:

1. **Vocabulary**: count every word; keep those seen at least ``min_count`` times,
   most frequent first (ties: first seen first). Other words are dropped from the text.
2. **Sub-sampling** of frequent words, redrawn every epoch: a word with count c out of
   T kept words survives with probability (word2vec's formula, ``t = sample * T``)::

       p_keep(w) = min(1, (sqrt(c / t) + 1) * t / c)

   so "the" is mostly skipped and rare words always stay. Windows are then taken over
   the surviving words, which widens them a little.
3. **A randomly shrunk window**: each centre word draws b uniformly from 1..window and
   looks b words to each side (near words are used more often than far ones),
   never across a sentence boundary. A context word k places away is thus used with
   probability ``P(b >= k) = (window - k + 1) / window``; ``expected_window=True`` gives
   every context word of the full window that weight instead of drawing b (the same
   update on average, without the draw's noise: Levy, Goldberg and Dagan, 2015).
4. **Negatives** from the unigram distribution raised to 0.75: ``q(w) ~ c(w) ** 0.75``.
5. **The objective** (core.sgns): word2vec's skip-gram predicts the centre word w from
   each context word v: input row E[v], output rows W[w] and W[n_1..n_K]::

       loss = -log sigma(W[w] . E[v]) - sum_k log sigma(-W[n_k] . E[v])

6. **Learning rate** decays linearly with the words processed, from ``alpha`` at the
   first word to ``min_alpha`` at the last word of the last epoch.
7. **Initialisation**: E uniform in [-1/d, 1/d) (gensim 4; word2vec.c: [-0.5/d, 0.5/d)),
   W zero; float32 throughout.
8. **Order**: word2vec goes through the text centre by centre and context by context,
   updating after every (context, centre) pair.

How this NumPy version differs, to be fast without a compiled loop: it updates a block
of centre words at once from the same input rows (``block_size`` keeps the blocks small
enough), but keeps the part of word2vec's order *inside* a window that matters: a
context word's input row moves along the centre's output rows as the earlier context
words of the window left them (core.sgns.window_updates; without that, core's neighbours
agreed less with gensim's than gensim's own seeds do, measured with bench.word2vec). By
default the K negatives of a centre are shared by its whole window (Ji et al., 2016):
one small matrix product per window. word2vec draws K fresh ones for every context
word; ``negative_sets=2 * window`` does that (S sets of K per centre, context c of
the window's 2w asking about set ``c * S // (2w)``: core.sgns.negative_sets_asked), at
several times the cost (more rows to gather and to add back). ``block_passes=p`` takes a
block in p passes, pass o updating centres o, o + p, o + 2p, ... from the rows the earlier
passes left: with p = 2w + 1 no two windows of a pass share a text position, so no
position's row is read stale inside a block (as in word2vec, where centre i + 1 reads the
rows centre i has just moved). ``careful_epochs=k`` keeps both options for the first k
epochs only. Each centre's learning rate is its own
position's (gensim keeps one per job of about 10,000 words; sigma is exact, not
word2vec's 1,000-entry table: measured, neither changes the neighbours,
docs/performance.md).
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view as windows   # (n - s + 1, s) views of n

from core.config_rules import RULES, ConfigError, Real, Whole, validate
from core.divergence import has_diverged
from core.sgns import (BlockBuffers, negative_sets_asked, noise_from_counts, noise_table, scatter_add,
                       window_updates)

WORD2VEC_MAX_D_MODEL = 300
WORD2VEC_MAX_WINDOW = 20
MAX_NEGATIVE = 30
WORD2VEC_MAX_EPOCHS = 200
MAX_TOUCHES = 64
"""Most updates one row may expect from one block (measured: runs diverged at about 250;
32 to 256 gave the same neighbours on the Lee corpus, bench.word2vec)."""


@dataclass(frozen=True)
class Word2VecConfig:
    """Settings of a word2vec run; learning rates, power and sample are word2vec's defaults."""

    d_model: int = 50           # width of each word's vector (word2vec's -size)
    window: int = 5             # largest look to each side; each centre draws 1..window
    negative: int = 5           # K negatives per centre word
    min_count: int = 5          # words seen fewer times are dropped
    sample: float = 1e-3        # sub-sampling threshold t / T (0 = keep every word)
    epochs: int = 20            # passes over the text
    seed: int = 1               # default_rng(seed): E, then each epoch's draws
    alpha: float = 0.025        # starting learning rate (word2vec's skip-gram default)
    min_alpha: float = 0.0001   # learning rate at the very last word
    power: float = 0.75         # negatives ~ count ** power
    block_words: int = 1024     # most centre words updated together (see block_size)
    negative_sets: int = 1      # sets of K negatives per centre: 1 shared by its window (fast),
                                # 2 * window: one per context word, as word2vec.c and gensim
    block_passes: int = 1       # passes over a block: 1 all its centres at once (fast); 2 * window + 1:
                                # each pass's centres 2w + 1 apart, so no two windows share a position
    careful_epochs: int = 0     # negative_sets and block_passes hold for the first careful_epochs
                                # epochs only (later ones: 1 and 1); 0: for every epoch
    expected_window: bool = False   # True: each context word k places away weighted (w - k + 1) / w,
                                    # the chance a shrunk window reaches it, instead of drawing windows

    def __post_init__(self):
        validate(self, WORD2VEC_RULES)      # each field against its row (core.config_rules)
        if self.min_alpha > self.alpha:
            raise ConfigError(WORD2VEC_RULES["min_alpha"].message)
        if self.negative_sets > 2 * self.window:
            raise ConfigError(WORD2VEC_RULES["negative_sets"].message)
        if self.block_passes > 2 * self.window + 1:
            raise ConfigError(WORD2VEC_RULES["block_passes"].message)


@dataclass(frozen=True)
class Flag(Whole):
    """True or False, nothing else (not 0 or 1)."""

    def check(self, value) -> None:
        if not isinstance(value, bool):
            raise TypeError(self.message)


WORD2VEC_RULES: dict[str, Whole | Real] = {
    "d_model": Whole(1, WORD2VEC_MAX_D_MODEL, f"d_model must be a whole number from 1 to {WORD2VEC_MAX_D_MODEL}."),
    "window": Whole(1, WORD2VEC_MAX_WINDOW, f"The window must be a whole number from 1 to {WORD2VEC_MAX_WINDOW}."),
    "negative": Whole(1, MAX_NEGATIVE, f"The number of negatives must be a whole number from 1 to {MAX_NEGATIVE}."),
    "min_count": Whole(1, 10**9, "min_count must be a whole number of at least 1."),
    "sample": Real(0, 1, "sample must be a number from 0 up to (not including) 1.", low_open=False, high_open=True),
    "epochs": Whole(0, WORD2VEC_MAX_EPOCHS, f"Epochs must be a whole number from 0 to {WORD2VEC_MAX_EPOCHS}."),
    "seed": RULES["seed"],
    "alpha": Real(0, 1, "alpha must be a number above 0 and at most 1."),
    "min_alpha": Real(0, 1, "min_alpha must be a number from 0 to alpha.", low_open=False),
    "power": Real(0, 2, "The power must be a number from 0 to 2.", low_open=False),
    "block_words": Whole(1, 10**6, "block_words must be a whole number from 1 to 1,000,000."),
    "negative_sets": Whole(1, 2 * WORD2VEC_MAX_WINDOW, "negative_sets must be a whole number from 1 to 2 x window."),
    "block_passes": Whole(1, 2 * WORD2VEC_MAX_WINDOW + 1, "block_passes must be a whole number from 1 to 2 x window + 1."),
    "careful_epochs": Whole(0, WORD2VEC_MAX_EPOCHS, f"careful_epochs must be a whole number from 0 to {WORD2VEC_MAX_EPOCHS}."),
    "expected_window": Flag(0, 1, "expected_window must be True or False."),
}
"""Which values each Word2VecConfig setting accepts (``min_alpha`` also at most ``alpha``,
``negative_sets`` at most ``2 * window``, ``block_passes`` at most ``2 * window + 1``)."""


@dataclass(frozen=True)
class Word2VecResult:
    """What a word2vec run produced.

    ``words_done`` counts kept-vocabulary words passed over (sub-sampled ones too, as
    word2vec counts them for the learning rate); ``words_per_second`` is the text's
    words (every token, also those below min_count) times the epochs done, per second
    of the whole call. ``losses[e]`` is epoch e + 1's mean loss per (context, centre)
    pair. ``stopped`` is True when the callback asked to stop: E and W are then the
    vectors reached so far (likewise after ``diverged``).
    """

    vocab: list[str]               # (V,) most frequent first
    E: np.ndarray                  # (V, d) float32 input vectors: the embedding table
    W: np.ndarray = field(repr=False)  # (V, d) float32 output vectors (word2vec's syn1neg)
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64), repr=False)  # (V,)
    losses: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)  # (epochs_done,)
    n_tokens: int = 0              # tokens in the text, before min_count
    words_done: int = 0
    epochs_done: int = 0
    seconds: float = 0.0
    words_per_second: float = 0.0
    stopped: bool = False
    diverged: bool = False         # a loss stopped being finite: training stopped there
    block_size: int = 0            # centre words per update (see block_size)


def build_vocab(sentences: list[list[str]], min_count: int) -> tuple[list[str], np.ndarray]:
    """Words seen at least ``min_count`` times, most frequent first, and their counts.

    >>> build_vocab([["b", "a", "b"], ["c", "a", "b"]], min_count=2)
    (['b', 'a'], array([3, 2]))
    """
    counts = Counter(w for s in sentences for w in s)        # insertion order = first seen
    kept = [(w, c) for w, c in counts.items() if c >= min_count]
    kept.sort(key=lambda wc: -wc[1])                          # stable: ties stay first-seen first
    return [w for w, _ in kept], np.array([c for _, c in kept], dtype=np.int64)


def words_to_train(sentences: list[list[str]], config: Word2VecConfig) -> int:
    """The ``words_done`` of a run that finishes: words seen at least ``min_count`` times,
    times the epochs (the unit of the progress callback).

    >>> words_to_train([["b", "a", "b"], ["c", "a", "b"]], Word2VecConfig(min_count=2, epochs=3))
    15
    """
    _, counts = build_vocab(sentences, config.min_count)
    return int(counts.sum()) * config.epochs


def keep_probabilities(counts: np.ndarray, sample: float) -> np.ndarray:
    """word2vec's sub-sampling: ``min(1, (sqrt(c / t) + 1) * t / c)``, ``t = sample * sum(c)``.

    >>> keep_probabilities(np.array([990, 10]), sample=0.01).round(3).tolist()  # t = 10
    [0.111, 1.0]
    """
    counts = np.asarray(counts, dtype=np.float64)            # (V,)
    if sample <= 0:
        return np.ones_like(counts)
    t = sample * counts.sum()
    return np.minimum(1.0, (np.sqrt(counts / t) + 1.0) * t / counts)


def text_ids(sentences: list[list[str]], vocab: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """The text as vocabulary ids (words outside the vocabulary dropped) and sentence numbers.

    >>> text_ids([["a", "x", "b"], ["b"]], ["b", "a"])
    (array([1, 0, 0], dtype=int32), array([0, 0, 1], dtype=int32))
    """
    index = {w: i for i, w in enumerate(vocab)}
    ids = [[index[w] for w in s if w in index] for s in sentences]
    flat = np.fromiter((i for s in ids for i in s), dtype=np.int32)                  # (n,)
    sent = np.repeat(np.arange(len(ids), dtype=np.int32), [len(s) for s in ids])     # (n,)
    return flat, sent


def block_size(counts: np.ndarray, config: Word2VecConfig) -> int:
    """Centre words per block: ``block_words``, fewer when one row would get too many updates.

    Updating a block of G centres from the same parameters adds up every update a row
    gets in the block; a row updated hundreds of times at once overshoots and training
    diverges. Per centre, word w's input row is expected to be read about
    ``(window + 1) * f(w)`` times and its output row ``f(w) + K q(w)`` times (f its share
    of the sub-sampled text, q the noise distribution), so G is capped at
    ``MAX_TOUCHES / max_w touches(w)``. (``negative_sets`` S > 1 draws S K negatives per
    centre, each asked by fewer context words: a row's share of the questions stays.)

    >>> block_size(np.array([100, 1]), Word2VecConfig(sample=0.0))   # tiny text, frequent word
    10
    """
    kept = counts * keep_probabilities(counts, config.sample)       # (V,) expected kept words
    f = kept / kept.sum()                                          # (V,) share after sub-sampling
    q = noise_from_counts(counts, config.power)                    # (V,)
    touches = max(float(((config.window + 1) * f).max()), float((f + config.negative * q).max()))
    return int(max(1, min(config.block_words, MAX_TOUCHES // touches)))


def expected_window_weights(window: int) -> np.ndarray:
    """Weight of each window slot when the shrunk window is averaged out: (2w+1,).

    word2vec draws b uniformly from 1..w per centre and uses the context words up to b
    places away, so a word k places away takes part with probability
    ``P(b >= k) = (w - k + 1) / w``; the centre's own slot (k = 0) gets 0.

    >>> expected_window_weights(2).tolist()   # slots k = 2, 1, 0, 1, 2
    [0.5, 1.0, 0.0, 1.0, 0.5]
    """
    k = np.abs(np.arange(2 * window + 1) - window)                     # (2w+1,) distance from the centre
    return np.where(k > 0, (window - k + 1) / window, 0.0).astype(np.float32)


def _epoch_plan(ids, sent, keep, table, config, rng, more=None):
    """One epoch's random draws: kept positions, window sizes and negatives.

    The first set of K negatives per centre comes from ``rng``, sets 2..S
    (``negative_sets``) from ``more`` (default: ``rng`` too): runs that differ only in S
    then draw the same positions, windows and first sets, seed by seed.
    """
    pos = np.flatnonzero(rng.random(len(ids)) < keep[ids])    # (m,) surviving positions
    b = rng.integers(1, config.window + 1, size=len(pos))     # (m,) shrunk window per centre
    negs = table[rng.integers(0, len(table), size=(len(pos), config.negative))]   # (m, K) first set
    if config.negative_sets > 1:
        size = (len(pos), (config.negative_sets - 1) * config.negative)
        negs = np.concatenate([negs, table[(more or rng).integers(0, len(table), size=size)]], axis=1)
    return pos, b, negs                                       # negs: (m, S K)


def generators(seed: int) -> tuple[np.random.Generator, np.random.Generator]:
    """A run's two random streams: the main one (E, then each epoch's positions, windows,
    first negatives) and the one for the extra negative sets."""
    return np.random.default_rng(seed), np.random.default_rng([seed, 1])


def train_word2vec(sentences: list[list[str]], config: Word2VecConfig = Word2VecConfig(),
                   callback: Callable[[int, float], bool | None] | None = None) -> Word2VecResult:
    """Train word2vec's skip-gram with negative sampling on ``sentences`` (lists of tokens).

    ``callback(words_done, loss)`` is called after every block of ``block_words``
    centre words with the block's mean loss per pair; if it returns True, training
    stops and the result has ``stopped=True``.

    >>> s = [["the", "cat", "sat"], ["the", "dog", "sat"]] * 20
    >>> r = train_word2vec(s, Word2VecConfig(d_model=8, epochs=2, min_count=1))
    >>> r.vocab, r.E.shape, r.E.dtype.name
    (['the', 'sat', 'cat', 'dog'], (4, 8), 'float32')
    """
    start = time.perf_counter()
    vocab, counts = build_vocab(sentences, config.min_count)
    n_tokens = sum(len(s) for s in sentences)
    if not vocab:
        raise ConfigError(f"No word occurs {config.min_count} times or more: nothing to train.")
    V, d, w = len(vocab), config.d_model, config.window
    ids, sent = text_ids(sentences, vocab)                    # (n,), (n,)
    rng, more = generators(config.seed)
    E = (rng.random((V, d), dtype=np.float32) * 2 - 1) / d    # (V, d) in [-1/d, 1/d), as gensim
    W = np.zeros((V, d), dtype=np.float32)                    # (V, d) output rows
    keep = keep_probabilities(counts, config.sample)          # (V,)
    table = noise_table(counts, config.power)                 # for drawing negatives
    n, total = len(ids), max(1, len(ids) * config.epochs)
    losses: list[float] = []
    words_done, stopped, diverged = 0, False, False
    G = block_size(counts, config)
    fast = replace(config, negative_sets=1, block_passes=1)   # after careful_epochs
    buffers = {c: _Buffers(G, w, c.negative, c.negative_sets, d, c.block_passes, c.expected_window)
               for c in {config, fast}}
    for epoch in range(config.epochs):
        now = config if epoch < (config.careful_epochs or config.epochs) else fast
        buf = buffers[now]
        pos, b, negs = _epoch_plan(ids, sent, keep, table, now, rng, more)
        kid = np.pad(ids[pos], w)                             # (m + 2w,) kept ids, padded
        ksent = np.pad(sent[pos], w, constant_values=-1)      # (m + 2w,) their sentences
        progress = (epoch * n + pos) / total                  # (m,) share of all words done
        lr = (config.alpha - (config.alpha - config.min_alpha) * progress).astype(np.float32)
        epoch_loss, epoch_pairs = 0.0, 0.0
        for a in range(0, len(pos), G):
            z = min(a + G, len(pos))
            loss, pairs = _update_block(E, W, kid[a:z + 2 * w], ksent[a:z + 2 * w],
                                        b[a:z], negs[a:z], lr[a:z], w, buf)
            epoch_loss, epoch_pairs = epoch_loss + loss, epoch_pairs + pairs
            done = epoch * n + (pos[z - 1] + 1 if z < len(pos) else n)
            if has_diverged(loss, None):                      # rows change in place: nothing to undo
                diverged, words_done = True, done
                break
            if callback is not None and callback(done, loss / pairs if pairs else 0.0):
                stopped, words_done = True, done
                break
        if stopped or diverged:
            break
        words_done = (epoch + 1) * n
        losses.append(epoch_loss / epoch_pairs if epoch_pairs else 0.0)
    seconds = time.perf_counter() - start
    epochs_done = words_done / max(n, 1)
    return Word2VecResult(
        vocab=vocab, E=E, W=W, counts=counts, losses=np.array(losses), n_tokens=n_tokens,
        words_done=int(words_done), epochs_done=len(losses), seconds=seconds,
        words_per_second=n_tokens * epochs_done / seconds if seconds > 0 else 0.0, stopped=stopped,
        diverged=diverged, block_size=G)


class _Buffers:
    """Every per-block array, allocated once per run (see core.sgns.BlockBuffers)."""

    def __init__(self, G: int, w: int, K: int, S: int, d: int, passes: int = 1, expected: bool = False):
        SK = S * K
        self.passes = passes
        self.P = np.empty((G + 2 * w, d), np.float32)     # rows of the block's positions
        self.P0 = np.empty((G + 2 * w, d) if passes > 1 else (0, d), np.float32)   # as the block found them
        self.U = np.empty((G, SK + 1, d), np.float32)     # true word and negatives' rows
        self.flat = np.empty((max(G * (SK + 1), G + 2 * w), d), np.intp)  # scatter positions
        self.kernel = BlockBuffers(G, 2 * w + 1, SK + 1, d)
        self.offset = np.abs(np.arange(2 * w + 1) - w)    # (2w+1,) distance of slot j from the centre
        self.asks = negative_sets_asked(w, K, S)          # (2w+1, SK+1) which output rows slot j asks about
        self.slot_weight = expected_window_weights(w) if expected else None   # (2w+1,) or draws


def _update_block(E, W, kid, ksent, b, negs, lr, w, buf):
    """One SGD update from G centre words, each centre's context words taken in turn.

    ``kid``/``ksent`` hold the G centres plus w padded neighbours on each side
    (G + 2w,); slot j = 0..2w of centre g is the word at ``kid[g + j]``, slot w being
    the centre itself (weight 0, like slots beyond the shrunk window or the sentence).
    The context rows are a sliding-window *view* of the block's rows, not a copy.
    As in word2vec.c, a context word's input row moves along the centre's output rows
    (its own and its negatives') as the earlier context words, left to right, moved
    them (core.sgns.window_updates); the input rows are read once per block.
    ``negs`` (G, S K) holds S sets of K negatives per centre; slot j asks about the
    centre and its own set only (``buf.asks``), so rows it does not ask about get weight 0.
    With ``buf.slot_weight`` (expected_window) every slot of the full window is a context,
    its questions weighted ``(w - k + 1) / w``, and ``b`` is not used.
    Returns the block's summed loss and its number of (context, centre) pairs (their
    summed weights with expected_window).
    """
    G, span = len(b), 2 * w + 1
    centre, centre_sent = kid[w:w + G], ksent[w:w + G]                    # (G,)
    reach = buf.offset <= (w if buf.slot_weight is not None else b[:, None])   # (G or 1, 2w+1)
    valid = (windows(ksent, span) == centre_sent[:, None]) & reach & (buf.offset > 0)   # (G, 2w+1) contexts
    out_ids = np.concatenate([centre[:, None], negs], axis=1)             # (G, SK+1) true word, negatives
    out_ok = out_ids != centre[:, None]
    out_ok[:, 0] = True                                                   # skip negatives = centre
    weight = valid[:, :, None] & out_ok[:, None, :] & buf.asks             # (G, 2w+1, SK+1)
    pairs = valid.sum()
    if buf.slot_weight is not None:                                       # questions of slot j times P(b >= k_j)
        weight = weight * buf.slot_weight[:, None]
        pairs = (valid * buf.slot_weight).sum()
    P = np.take(E, kid, axis=0, out=buf.P[:G + 2 * w])                    # (G + 2w, d) rows in view
    if buf.passes > 1:
        return _update_in_passes(E, W, kid, P, out_ids, weight, lr, w, buf), float(pairs)
    X = windows(P, span, axis=0).transpose(0, 2, 1)                       # (G, 2w+1, d) view of P
    U = np.take(W, out_ids, axis=0, out=buf.U[:G])                        # (G, SK+1, d)
    loss, dX, dU = window_updates(X, U, weight, scale=lr, buffers=buf.kernel)  # changes times lr
    dP = P                                                                # reuse: rows already read
    dP[:] = 0.0                                                           # (G + 2w, d) per position
    for j in range(span):
        if j != w:
            dP[j:j + G] += dX[:, j]                                       # slot j of centre g is g + j
    scatter_add(E, kid, dP, subtract=True, work=buf.flat)                 # E -= lr * dE
    scatter_add(W, out_ids.ravel(), dU.reshape(-1, W.shape[1]), subtract=True, work=buf.flat)
    return loss, float(pairs)


def _update_in_passes(E, W, kid, P, out_ids, weight, lr, w, buf):
    """The block's update in ``p = buf.passes`` passes: pass o takes centres o, o + p, o + 2p, ...

    ``P`` (G + 2w, d) holds the rows of the block's positions; a pass reads them as the
    earlier passes left them and moves them in place, and reads the output rows from
    ``W`` as the earlier passes left it. With p = 2w + 1 the windows of one pass tile
    the positions, so no position's row is read before an update of it is applied: as
    in word2vec, where centre i + 1 reads the rows centre i has just moved (a row that
    occurs at two positions still moves as two copies, summed into E at the end).
    Returns the block's summed loss.
    """
    G, span, p = len(lr), 2 * w + 1, buf.passes
    P0 = buf.P0[:G + 2 * w]
    P0[:] = P                                                             # (G + 2w, d) at the start
    loss = 0.0
    for o in range(min(p, G)):
        n = len(range(o, G, p))                                           # centres in this pass
        X = windows(P, span, axis=0)[o::p].transpose(0, 2, 1)             # (n, 2w+1, d) view of P
        ids = out_ids[o::p]                                               # (n, SK+1)
        U = np.take(W, ids, axis=0, out=buf.U[:n])                        # (n, SK+1, d)
        part, dX, dU = window_updates(X, U, weight[o::p], scale=lr[o::p], buffers=buf.kernel)
        loss += part
        if p == span:                                                     # the windows tile P[o : o + n p]
            P[o:o + n * p].reshape(n, span, -1)[:] -= dX                  # (slot w's change is 0)
        else:
            for j in range(span):
                if j != w:
                    P[o + j::p][:n] -= dX[:, j]                           # slot j of centre o + kp is o + kp + j
        scatter_add(W, ids.ravel(), dU.reshape(-1, W.shape[1]), subtract=True, work=buf.flat)
    np.subtract(P0, P, out=P0)                                            # (G + 2w, d) minus the change
    scatter_add(E, kid, P0, subtract=True, work=buf.flat)                 # E += change, per position
    return loss
