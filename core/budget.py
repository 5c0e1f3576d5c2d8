"""Compute budgets: how long a run will take, estimated *before* it starts.

A class shares one server. Every run a screen can start is first priced in
*work units* by a simple cost model, then compared with a budget. Work that does
not fit is refused or scaled down with a message saying why and what would fit,
so no control combination can make a student wait for minutes or slow the class.

Cost models (one unit ~ one multiply-add of a single BLAS thread; ``RATE`` units
per second were measured on the project's 2-core machine, one BLAS thread,
``python -m bench.budget`` prints the measurement)::

    full-softmax skip-gram, per step  = STEP_OVERHEAD + V^2 * (d + SOFTMAX_PER_SCORE)
        (three (V, V, d) products, plus exp / log / scaling of the (V, V) scores)
    negative sampling, per epoch      = pairs * (K + 1) * (d + NS_PER_SCORE) * NS_SCATTER
                                        + one full-softmax loss evaluation
    exact t-SNE, per iteration        = STEP_OVERHEAD / 2 + n^2 * TSNE_PER_PAIR
    word2vec on a big text, per word  = WORD2VEC_UNITS_PER_WORD
                                        * max(d/50 * (window+1)/6 * (K+1)/6, 1/4)
        (a measured speed, WORD2VEC_WORDS_PER_SECOND at d 50, window 5, K 5, scaled by the
        work per word read: (window + 1) context words, each scoring K + 1 words of d numbers)

The estimate is deliberately rough (within about a factor of 2); what matters is
that it grows the way the real work grows, so the budget cuts in at the right place.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.checks import whole

RATE = 3.6e9
"""Work units per second (measured: one BLAS thread, idle 2-core VM)."""
BUDGET_SECONDS = 4.0
"""The longest one run may take: a few seconds, then the next student's turn."""
BUDGET = RATE * BUDGET_SECONDS

STEP_OVERHEAD = 4.3e5          # Python and call overhead of one training step, in units
SOFTMAX_PER_SCORE = 40         # exp, log, max, scaling: units per entry of the (V, V) scores
NS_PER_SCORE = 18              # sigmoid, log and bookkeeping per scored word, in units of d
NS_SCATTER = 72                # np.add.at scatter and sampling cost per scored (word, dim)
TSNE_PER_PAIR = 20             # units per (i, j) pair per t-SNE iteration
WORD2VEC_WORDS_PER_SECOND = 50_000
"""A deliberately low estimate of core.word2vec's speed at d_model 50, window 5, K 5: one epoch
of the tests' generated 3 MB text (406,462 words) runs at 370,000 to 450,000 words per second of
one core's CPU time, but a shared server gives a run only part of a core (the same run took
1.5 s of wall clock at a load of 7 and 16.5 s at a load of 11 on the 2-core test machine;
docs/performance.md, word2vec). The screen shows the real speed while it runs."""
WORD2VEC_UNITS_PER_WORD = RATE / WORD2VEC_WORDS_PER_SECOND
"""Units of one word read at the benchmark's setting (72,000: the speed above in this model's unit)."""
WORD2VEC_MIN_SCALE = 0.25      # a tiny model's work per word is counted as a quarter at least
MAX_WORDS_TO_READ = 12_000_000
"""Budget of one word2vec run, in words read (words x epochs): about four minutes at
WORD2VEC_WORDS_PER_SECOND. A background job's budget, not ``BUDGET``'s few seconds."""


def skipgram_step(V: int, d_model: int) -> float:
    """Units of one full-batch softmax step on a vocabulary of ``V`` words.

    >>> skipgram_step(12, 4) == STEP_OVERHEAD + 144 * 44
    True
    """
    V, d = whole(V, "V", 1), whole(d_model, "d_model", 1)
    return STEP_OVERHEAD + V * V * (d + SOFTMAX_PER_SCORE)


def skipgram_work(V: int, d_model: int, steps: int) -> float:
    """Units of a whole full-softmax run: ``(steps + 1)`` loss-and-gradient evaluations."""
    return (whole(steps, "steps", 0) + 1) * skipgram_step(V, d_model)


def negsampling_work(V: int, n_pairs: int, d_model: int, negatives: int, epochs: int) -> float:
    """Units of ``epochs`` passes of negative sampling over ``n_pairs`` pairs, ``K`` negatives.

    Each pass scores ``n_pairs * (K + 1)`` words of width ``d`` and then evaluates the
    full-softmax loss once (to put both objectives on one scale).
    """
    pairs, K = whole(n_pairs, "n_pairs", 0), whole(negatives, "negatives", 1)
    d, E = whole(d_model, "d_model", 1), whole(epochs, "epochs", 0)
    per_epoch = pairs * (K + 1) * (d + NS_PER_SCORE) * NS_SCATTER + skipgram_step(V, d)
    return E * per_epoch + skipgram_step(V, d)


def tsne_work(n: int, n_iter: int) -> float:
    """Units of exact t-SNE on ``n`` points for ``n_iter`` iterations (n^2 per iteration)."""
    n, it = whole(n, "n", 1), whole(n_iter, "n_iter", 0)
    return it * (STEP_OVERHEAD / 2 + n * n * TSNE_PER_PAIR)


def word2vec_work(words_to_read: int, d_model: int, window: int, negative: int) -> float:
    """Units of word2vec reading ``words_to_read`` words (words x epochs) at width ``d_model``,
    largest window ``window`` and ``negative`` negatives per pair.

    >>> seconds(word2vec_work(1_000_000, 50, 5, 5))      # the benchmark's setting
    20.0
    >>> seconds(word2vec_work(1_000_000, 100, 2, 11))    # 2x the width, 1/2 the context, 2x the scores
    40.0
    """
    words = whole(words_to_read, "words_to_read", 0)
    d, w, K = whole(d_model, "d_model", 1), whole(window, "window", 1), whole(negative, "negative", 1)
    scale = (d / 50) * ((w + 1) / 6) * ((K + 1) / 6)
    return words * WORD2VEC_UNITS_PER_WORD * max(scale, WORD2VEC_MIN_SCALE)


def seconds(work: float) -> float:
    """Estimated wall-clock seconds of ``work`` units on one core."""
    return work / RATE


@dataclass(frozen=True)
class Verdict:
    """Whether a run fits the budget, and a plain sentence saying so."""

    fits: bool
    work: float          # estimated units
    budget: float        # units allowed
    message: str         # empty when the run fits

    @property
    def seconds(self) -> float:
        return seconds(self.work)


def check(work: float, what: str, fits_instead: str = "", budget: float = BUDGET) -> Verdict:
    """Compare ``work`` with ``budget``; the message names the run and what would fit.

    >>> check(1.0, "x").fits
    True
    >>> v = check(BUDGET * 10, "This run", "at most 300 steps")
    >>> v.fits, v.message.split(",")[0]
    (False, 'This run would take about 40 seconds here')
    """
    if work <= budget:
        return Verdict(True, work, budget, "")
    msg = (f"{what} would take about {seconds(work):,.0f} seconds here, and each run gets at most "
           f"{seconds(budget):g} seconds so that a whole class can share the machine.")
    if fits_instead:
        msg += f" What fits: {fits_instead}."
    return Verdict(False, work, budget, msg)


def max_skipgram_steps(V: int, d_model: int, budget: float = BUDGET) -> int:
    """The most full-softmax steps that fit the budget at this vocabulary and width.

    >>> max_skipgram_steps(12, 4) >= 3000      # the lesson's reference run fits
    True
    >>> max_skipgram_steps(301, 32) < 5000     # 5,000 steps on 300 pasted words do not
    True
    """
    return max(0, int(budget // skipgram_step(V, d_model)) - 1)


def max_negsampling_epochs(V: int, n_pairs: int, d_model: int, negatives: int,
                           budget: float = BUDGET) -> int:
    """The most negative-sampling epochs that fit ``budget`` (which may be what is left)."""
    one = negsampling_work(V, n_pairs, d_model, negatives, 1) - skipgram_step(V, d_model)
    return max(0, int((budget - skipgram_step(V, d_model)) // one))


def max_tsne_points(n_iter: int, budget: float = BUDGET) -> int:
    """The most points exact t-SNE can place in ``n_iter`` iterations within the budget."""
    it = max(1, whole(n_iter, "n_iter", 0))
    room = budget / it - STEP_OVERHEAD / 2
    return max(0, int((room / TSNE_PER_PAIR) ** 0.5)) if room > 0 else 0


def nice_floor(n: int) -> int:
    """``n`` rounded down to 1, 2 or 5 times a power of ten (for readable step counts).

    >>> [nice_floor(x) for x in (0, 7, 3400, 999)]
    [0, 5, 2000, 500]
    """
    n = int(n)
    if n <= 0:
        return 0
    p = 10 ** (len(str(n)) - 1)
    return max(m * p for m in (1, 2, 5) if m * p <= n)
