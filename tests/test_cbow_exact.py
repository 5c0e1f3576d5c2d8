"""core.cbow: its defaults, row signals and the printed floor, pinned exactly (details mutation testing
found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.cbow import train_cbow
from core.corpus import Corpus, GUIDE_TEXT
from core.skipgram import SkipGramConfig


def test_cbow_defaults_to_the_reference_settings_and_checks_its_callback():
    corpus = Corpus.from_text(GUIDE_TEXT)
    default, explicit = train_cbow(corpus), train_cbow(corpus, SkipGramConfig())
    np.testing.assert_array_equal(default.E, explicit.E)
    assert len(default.losses) == SkipGramConfig().steps + 1
    with pytest.raises(TypeError, match=r"^callback must be a function callback\(step, loss\) or None\.$"):
        train_cbow(corpus, SkipGramConfig(steps=2), callback="every step")


def test_row_signals_count_occurrences_pairs_and_shares_by_hand():
    from core.cbow import row_signals

    # "the cat saw the dog", window 1: contexts [cat] [the saw] [cat the] [saw dog] [the]
    c = Corpus.from_text("the cat saw the dog", window=1)
    at = {w: i for i, w in enumerate(c.vocab)}
    s = row_signals(c)
    want = {"the": (2, 3, 3, 2.0), "cat": (1, 2, 2, 1.5), "saw": (1, 2, 2, 1.0), "dog": (1, 1, 1, 0.5)}
    for w, (occ, pairs, uses, weight) in want.items():
        got = (s.occurrences[at[w]], s.skipgram_pairs[at[w]], s.cbow_uses[at[w]], s.cbow_weight[at[w]])
        assert got == (occ, pairs, uses, weight), w
    assert s.occurrences.dtype.kind == s.cbow_uses.dtype.kind == "i"       # counts, shown as whole numbers
    # a word twice in one context counts as one use, with its two shares of the mean
    c = Corpus.from_text("the cat the", window=1)                 # contexts [cat] [the the] [cat]
    s, at = row_signals(c), {w: i for i, w in enumerate(c.vocab)}
    assert (s.cbow_uses[at["the"]], s.cbow_weight[at["the"]]) == (1, 1.0)
    assert (s.cbow_uses[at["cat"]], s.cbow_weight[at["cat"]]) == (2, 2.0)


def test_a_cbow_floor_of_zero_is_printed_as_0_not_minus_0():
    import math

    from core.cbow import loss_floor

    floor = loss_floor(Corpus.from_text("a b", window=1))      # each bag has one centre: no loss left
    assert floor == 0.0 and math.copysign(1.0, floor) == 1.0 and f"{floor:.3f}" == "0.000"
