"""Sentences that compare or count, chosen by the numbers they describe.

Every function here takes the very numbers a chart or table shows and returns the sentence
to print beside it, so a caption cannot say the opposite of its chart. Pure Python: no
Streamlit, testable on its own (tests/test_caption_rules.py).
"""
from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

import numpy as np

from core.params import GPT2_VOCAB_SIZE
from core.position import Repeat
from core.senses import SenseLean


def number(x: float, digits: int = 6) -> str:
    """A number as a person writes it: thousands separators, never scientific notation.

    >>> number(38597376.0), number(0.889), number(0.35), number(-2.5e-7), number(100000.4)
    ('38,597,376', '0.889', '0.35', '-0.00000025', '100,000')
    """
    x = float(x)
    if not math.isfinite(x):
        return str(x)
    if x == int(x) and abs(x) < 1e18:
        return f"{int(x):,}"
    if abs(x) >= 1:
        decimals = max(0, digits - len(str(int(abs(x)))))
        text = f"{x:,.{decimals}f}"
        return text.rstrip("0").rstrip(".") if decimals else text   # 100,000 keeps its zeros
    decimals = digits - 1 - math.floor(math.log10(abs(x)))
    return f"{x:.{decimals}f}".rstrip("0").rstrip(".")


def last_finite_step(losses: np.ndarray) -> int:
    """The last step with a loss (a run that blew up stops before the step that failed)."""
    return len(losses) - 1


def first_rise(losses: np.ndarray) -> int:
    """The first update that raised the loss (``len(losses)`` if none did): the loss fell at
    every update before it.

    >>> first_rise(np.array([2.487, 2.469, 2.285, 6.795]))
    3
    """
    rises = np.flatnonzero(np.diff(losses) > 0)               # update t+1 raised the loss
    return int(rises[0]) + 1 if rises.size else len(losses)


def divergence(losses: np.ndarray, diverged_step: int, lr: float, factor: float) -> str:
    """The alert for a run that blew up, naming the same steps as the metrics beside it, and
    telling how the loss got there: falling at first or not, higher after each update or not."""
    last = last_finite_step(losses)
    rise = first_rise(losses)
    shown = losses[rise - 1:last + 1]                         # from the lowest point reached first
    each = bool(np.all(np.diff(shown) > 0))
    if rise == 1:
        path = "From the first update on, each update "
    else:
        path = (f"The loss fell for the first {rise - 1:,} update{'s' if rise > 2 else ''} "
                f"({losses[0]:.3f} to {losses[rise - 1]:.3f}); from update {rise:,} on, each update ")
    landing = ("landed higher than the one before" if each else
               "missed the bottom, and the loss went up and down instead of settling")
    return (f"**Training blew up at step {diverged_step:,}.** With learning rate {lr:g} an update "
            "can overshoot: instead of stepping down into the valley of the loss, it jumps to the far "
            f"side. {path}overshot and {landing}. The loss went from {losses[0]:.3f} at step 0 to "
            f"{losses[last]:.3f} at step {last:,}; update {diverged_step:,} took it past {factor:g} "
            "times its starting value (or made it stop being a number), so the app stopped the run "
            f"there and shows the table as it was at step {last:,}. "
            "**Try a smaller learning rate** (0.5 is the lesson's setting).")


def vectors_title(steps_done: int) -> str:
    """Heading of the similarity heatmap: trained vectors, or the random starting ones."""
    if steps_done == 0:
        return "Cosine similarity of the starting vectors (no training yet)"
    return f"Cosine similarity of the trained vectors (after {steps_done:,} steps)"


ALL_KEPT = 0.9995
"""A picture that keeps this share of the spread or more is said to keep all of it."""


def percent_shares(explained: np.ndarray) -> tuple[str, str, str]:
    """The two directions' shares of the spread and the lost rest, written as percents that add
    up to 100 and agree with the kept share the picture's title shows (``round(100 (e1 + e2))``).

    Each share is rounded on its own to ``d`` decimals and the rest is ``100 - first - second``
    (so within one unit of the last decimal of ``100 (1 - e1 - e2)``); ``d`` is the fewest
    decimals (0 to 2) for which ``first + second`` rounds to the title's whole percent and the
    rest is not 0 while something is said to be lost (below ``ALL_KEPT``).

    >>> percent_shares(np.array([0.394, 0.306]))        # 39% + 31% + 30%, not 39% + 31% + 29%
    ('39%', '31%', '30%')
    >>> percent_shares(np.array([0.376, 0.238]))        # 38% + 24% = 62% kept, but the title says 61%
    ('37.6%', '23.8%', '38.6%')
    """
    e1, e2 = (100 * float(x) for x in explained[:2])
    title = round(e1 + e2)
    for d in (0, 1, 2):
        first, second = round(e1, d), round(e2, d)
        rest = round(100 - first - second, d)
        if round(first + second) == title and (rest > 0 or e1 + e2 >= 100 * ALL_KEPT):
            break
    return f"{first:.{d}f}%", f"{second:.{d}f}%", f"{rest:.{d}f}%"


def pca_reading(d_model: int, explained: np.ndarray) -> str:
    """What the PCA map keeps and loses, for the shares of spread it shows."""
    kept = float(np.sum(explained[:2]))
    first, second, rest = percent_shares(explained)
    shares = f"{first} and {second}"
    if kept >= ALL_KEPT:
        why = ("vectors have only this many numbers" if d_model <= 2 else
               "vectors happen to lie in a flat plane")
        return (f"PCA lays the {d_model}-number vectors flat along the directions in which they "
                f"spread most ({shares} of the spread). Here the {why}, so the picture keeps all of "
                "their spread: distances on the map are the real distances between the vectors.")
    return (f"PCA lays the {d_model}-number vectors flat along the two directions in which they "
            f"spread most: {shares} of the spread. The other {rest} is lost, so two "
            "words can look close here and still be far apart.")


def objectives(V: int, softmax_seconds: float, ns_seconds: float, ns_scores: int) -> str:
    """Which objective was faster on this text (by the seconds column), and why that can change."""
    shown_sm, shown_ns = round(softmax_seconds, 3), round(ns_seconds, 3)      # as the table shows them
    ratio = shown_sm / shown_ns if shown_ns > 0 else (1.0 if shown_sm == 0 else float("inf"))
    if 0.9 <= ratio <= 1.1:
        speed = (f"On {V:,} words both took about the same time ({softmax_seconds:.3f} s and "
                 f"{ns_seconds:.3f} s): the softmax over so few words is cheap.")
    elif ratio > 1:
        speed = (f"Here negative sampling was faster ({ns_seconds:.3f} s against "
                 f"{softmax_seconds:.3f} s for the full softmax).")
    else:
        speed = (f"Here negative sampling was slower ({ns_seconds:.3f} s against "
                 f"{softmax_seconds:.3f} s): on {V:,} words the full softmax is cheap, and the "
                 "sampling and small batches cost more than they save.")
    fewer = f"{GPT2_VOCAB_SIZE // ns_scores:,} times fewer"
    if ns_scores < V:
        saving = (f"Its real saving is the middle column: it scores {ns_scores} words per pair instead "
                  f"of all {V:,}. With GPT-2's {GPT2_VOCAB_SIZE:,} tokens that is about {fewer}.")
    else:
        saving = (f"The middle column shows no saving here: it scores {ns_scores} words per pair, "
                  f"{'as many as' if ns_scores == V else 'more than'} the {V:,} a full softmax scores "
                  f"on this text. It pays off on a large vocabulary: with GPT-2's "
                  f"{GPT2_VOCAB_SIZE:,} tokens, {ns_scores} words instead of all is about {fewer}.")
    return (f"Both losses are the full-softmax cross-entropy of the final vectors, so they are on "
            f"one scale. {speed} {saving}")


def floors_differ(window_a: int, floor_a: float, loss_a: float, window_b: int, floor_b: float,
                  loss_b: float) -> str:
    """Runs A and B with different windows: their losses have different floors (the best any
    model can do on each task), so the sentence compares each run's distance above its own
    floor, ``loss - floor``, and not the losses.

    >>> floors_differ(2, 1.702, 1.713, 3, 2.05, 2.10)[:72]
    'A and B count neighbours in different windows (2 and 3), so their losses'
    """
    gap_a, gap_b = loss_a - floor_a, loss_b - floor_b
    if abs(gap_b - gap_a) < 0.0005:
        which = f"B ends as close to its floor as A (both {gap_a:.3f} above it)"
    else:
        which = (f"B ends {'closer to' if gap_b < gap_a else 'further from'} its floor than A: "
                 f"{gap_b:.3f} above it against {gap_a:.3f}")
    return (f"A and B count neighbours in different windows ({window_a} and {window_b}), so their losses "
            f"have different floors, the best any model can reach: {floor_a:.3f} for A and {floor_b:.3f} "
            f"for B. Comparing the two losses would mostly compare the two tasks; compare instead how far "
            f"each run is above its own floor. {which}.")


CLEAR_SPEEDUP = 1.5
"""The smallest ratio of two timings called a difference. One full-batch run of the lesson's
table timed six times on the shared 2-core test machine (load about 11) took from 1.15 to 1.78
times as long in CBOW as in skip-gram: a single timing there can be off by half."""


SHORTEST_TIMED = 0.010
"""Seconds: two runs that both took less are not compared (a timing that short is mostly the
machine's noise, and the screen shows whole milliseconds: 0 ms and 0 ms have no ratio)."""


def speed_verdict(name_a: str, seconds_a: float, name_b: str, seconds_b: float,
                  clear: float = CLEAR_SPEEDUP, unit: float = 0.001) -> str:
    """Which of two timed runs was quicker, only when the slower took at least ``clear`` times
    as long; otherwise "about the same", with the ratio. The ratio is that of the times as
    shown, rounded to ``unit`` seconds (whole milliseconds), so it agrees with them; two runs
    both under ``SHORTEST_TIMED`` are not compared.

    >>> speed_verdict("CBOW", 0.304, "skip-gram", 0.313)[:65]
    'CBOW and skip-gram took about the same time (the slower took 1.0 '
    >>> speed_verdict("CBOW", 0.1, "skip-gram", 0.2)
    'CBOW was quicker (skip-gram took 2.0 times as long)'
    >>> speed_verdict("CBOW", 0.0004, "skip-gram", 0.0026)[:60]
    'CBOW and skip-gram both took under 10 ms, too little to time'
    """
    (fast, fast_name), (slow, slow_name) = sorted([(round(seconds_a / unit), name_a),
                                                   (round(seconds_b / unit), name_b)])
    if max(seconds_a, seconds_b) < SHORTEST_TIMED:
        return (f"{name_a} and {name_b} both took under {SHORTEST_TIMED * 1000:.0f} ms, too little "
                "to time apart (so short a timing is mostly the machine's noise)")
    at_least = "at least " if fast == 0 else ""              # under half a unit: shown as 0
    ratio = slow / max(fast, 1)
    if ratio < clear:
        return (f"{name_a} and {name_b} took about the same time (the slower took {ratio:.1f} times as "
                f"long; one timing can be off by half, so only {clear:.1f} times or more counts as quicker)")
    return f"{fast_name} was quicker ({slow_name} took {at_least}{ratio:.1f} times as long)"


def _shares(words: list[str]) -> dict[str, Fraction]:
    n = len(words)
    return {w: Fraction(c, n) for w, c in Counter(words).items()}


def order_verdict(words_a: list[str], words_b: list[str], same_vector: bool, cos: float) -> tuple[str, str]:
    """(kind, sentence) for the Limits screen's two averaged sentences. ``kind`` is
    "same-sentence", "collapsed" (different sentences, one vector) or "different"."""
    if words_a == words_b:
        return "same-sentence", "Same sentence, same vector: now change the order in one of them."
    bag_a, bag_b = sorted(words_a), sorted(words_b)
    if same_vector:
        if bag_a == bag_b:
            how = "Both use the same words the same number of times"
        else:
            share = ", ".join(f"{w} {s.numerator}/{s.denominator}" for w, s in sorted(_shares(words_a).items()))
            how = (f"Both use the same words in the same proportions ({share} of the words in each), "
                   f"though not the same number of times ({len(words_a)} word{'s' if len(words_a) != 1 else ''} "
                   f"against {len(words_b)})")
        return "collapsed", (f"**Identical vectors** (cosine {cos:.2f}), although the sentences differ. "
                             f"{how}, and an average only counts what share of the rows each word is.")
    if set(words_a) == set(words_b):
        why = (f"the same words in different proportions ({' '.join(bag_a)} vs {' '.join(bag_b)}), "
               "so the averages weight the rows differently")
    else:
        why = f"different words ({' '.join(bag_a)} vs {' '.join(bag_b)})"
    return "different", (f"Different vectors (cosine {cos:.2f}): the sentences use {why}. Reorder the "
                         "same words to see them collapse into one.")


def init_comparison(d_model: int, small: np.ndarray, big: np.ndarray, small_std: float,
                    uniform: float) -> str:
    """What the two loss curves of the initialisation demo show, read off the curves."""
    steps = len(small) - 1
    below = np.flatnonzero(big[: len(small)] < small[: len(big)])
    start = (f"With std 1 the model starts confidently wrong: loss {big[0]:.2f} at step 0, against "
             f"{uniform:.3f} for a uniform guess; with std {small_std:g} every score starts near 0 "
             f"and the loss starts at {small[0]:.3f}.")
    if below.size:
        first = int(below[0])
        lead = ("and stays lower to the end" if bool(np.all(big[first:] < small[first:])) else
                f"and ends at {big[-1]:.3f} against {small[-1]:.3f}")
        verdict = (f" At width {d_model}, the std 1 curve drops below the std {small_std:g} curve at step "
                   f"{first:,} {lead}.")
    else:
        verdict = (f" At width {d_model}, std 1 never catches up in {steps:,} steps: it ends at "
                   f"{big[-1]:.3f}, against {small[-1]:.3f} for std {small_std:g}"
                   + (f", still worse than a uniform guess ({uniform:.3f})." if big[-1] > uniform else "."))
    return start + verdict


def sense_reading(lean: SenseLean) -> str:
    """Where the ambiguous word's one row ended up, from ``core.senses.sense_lean``: its closest
    group centres in order, and whether it leans to one of its two meanings or sits between."""
    w, a, b = lean.word, lean.sense_a, lean.sense_b
    cos = dict(lean.ranking)
    order = ", then ".join(f"{g} ({c:.2f})" for g, c in lean.ranking[:3])
    start = (f"“{w}” has one row for both its meanings. By cosine to each group's centre it is closest "
             f"to {order}.")
    if lean.leans is None:
        verdict = (f" It is about as close to the {a} words as to the {b} words ({cos[a]:.2f} and "
                   f"{cos[b]:.2f}, less than {lean.tie:.2f} apart): the one row sits between the two "
                   "meanings, fully in neither.")
    else:
        other = b if lean.leans == a else a
        verdict = (f" It leans to the {lean.leans} meaning ({cos[lean.leans]:.2f} against {cos[other]:.2f} "
                   f"for {other}), yet every use of “{w}” for {other} must use this same row.")
    return start + verdict + " That is the static-embedding problem, measured."


def direction_note(names: list[str], left: int) -> str:
    """What the Your-own-vectors screen does with rows of zeros (``names``: their labels,
    already quoted for Markdown) when ``left`` rows have a direction.

    >>> direction_note(["a", "b"], 5)[:60]
    'The rows a, b are all zeros: a row of zeros has no direction'
    """
    n = len(names)
    listed = ", ".join(names[:5]) + (f" and {n - 5:,} more" if n > 5 else "")
    rest = (f"{left:,} rows remain." if left >= 2 else
            "fewer than two rows remain, so there are no neighbours to show.")
    return (f"The row{'s' if n != 1 else ''} {listed} {'are' if n != 1 else 'is'} all zeros: a row of zeros "
            "has no direction, so its cosine with any word is undefined (0 / 0). "
            f"{'They are' if n != 1 else 'It is'} left out of the nearest words and the pictures; {rest}")


def places_reading(positions: bool, repeats: list[tuple[str, str, Repeat | None]]) -> str:
    """What the Position screen's tables of vectors show: ``repeats`` is (sentence name, word,
    ``core.position.first_repeat``) per sentence; the sentence says "another vector" only for a
    word whose two rows below differ, and "the same vector" only for one whose rows are equal."""
    start = ("With positions, the vector that enters the model at place *t* is the word's row plus the "
             "position vector of *t*: `x_t = E[word] + P[t]`." if positions else
             "Without positions, the vector that enters the model at place *t* is the word's row "
             "alone: `x_t = E[word]`.")
    found = [(name, word, r) for name, word, r in repeats if r is not None]
    if not found:
        return start + " No word appears twice in these sentences: type one twice to compare its places."
    name, word, r = found[0]
    where = f"“{word}” at places {r.first} and {r.second} of sentence {name}"
    if r.same:
        return (start + f" The same word at another place is the same vector: {where} has "
                "identical rows below.")
    return start + f" The same word at another place is now another vector: {where} has different rows below."


def compare_settings(a: dict[str, float], b: dict[str, float]) -> str:
    """Which of run B's settings differ from run A's (same names, in order), so that the
    Compare tab says how many things a difference between the curves can come from.

    >>> compare_settings({"d_model": 4, "window": 2}, {"d_model": 8, "window": 2})
    'B changes one setting of A: d_model (4 → 8). A difference between the two runs comes from it.'
    """
    changed = [f"{name} ({a[name]:g} → {b[name]:g})" for name in a if b[name] != a[name]]
    if not changed:
        return "B has the same settings as A, so its curve lies on A's: change one of B's settings."
    if len(changed) == 1:
        return (f"B changes one setting of A: {changed[0]}. A difference between the two runs comes "
                "from it.")
    return (f"B changes {len(changed)} settings of A: {', '.join(changed)}. A difference between the "
            "two runs can come from any of them: to see what one setting does, change only that one.")


def one_dimension(S: np.ndarray) -> str:
    """Why every cosine is +1 or -1 when d_model = 1, with the counts of each read off the
    (V, V) cosine matrix ``S`` of the one-number vectors (each pair of words once)."""
    upper = S[np.triu_indices(len(S), k=1)]                    # (V (V - 1) / 2,) every pair once
    same, opposite = int(np.sum(upper > 0.5)), int(np.sum(upper < -0.5))
    return ("With d_model = 1 each vector is a single number, so every vector lies on one line: two "
            "words point either the same way (cosine +1) or opposite ways (cosine -1), never in "
            f"between. Here {same:,} of the {upper.size:,} pairs of words are +1 and {opposite:,} are -1. "
            "A second number lets vectors point in any direction of a plane; move d_model up to see "
            "the cosines spread out.")
