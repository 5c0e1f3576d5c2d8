"""core.corpus: its bounds and refusals word for word, the text changes, the pairs' order, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core import corpus as corpus_module
from core.corpus import Corpus, CorpusError, GUIDE_TEXT, TextChanges, context_pairs, text_changes
from tests.refusal import refused


def test_corpus_bounds_and_messages():
    assert Corpus.from_text("a b").V == 2
    with pytest.raises(CorpusError, match=r"^The text needs at least two words"):
        Corpus.from_text("a")
    with pytest.raises(CorpusError, match=r"^The text uses only one distinct word \('la'\); .*Add at least one "
                                          r"other word\.$"):
        Corpus.from_text("la la la")
    assert Corpus.from_text("a b c", max_vocab=3).n_dropped_words == 0
    assert Corpus.from_text("a b c", max_vocab=2).V <= 3
    assert Corpus.from_text("a a b c", max_vocab=2).n_dropped_words == 2     # b and c became <unk>
    with pytest.raises(CorpusError, match=r"^The vocabulary cap must be at least 2\.$"):
        Corpus.from_text("a b c", max_vocab=1)
    c = Corpus.from_text("b a b c b a")
    assert c.ids.dtype == np.int64 and c.cooccurrence.dtype == np.float64
    np.testing.assert_array_equal(c.most_frequent(3), [c.vocab.index(w) for w in ("b", "a", "c")])
    np.testing.assert_array_equal(Corpus.from_text("z y x").most_frequent(2), [0, 1])   # ties: alphabetical


def test_encode_gives_int64_ids_even_when_empty():
    c = Corpus.from_text(GUIDE_TEXT)
    assert c.encode("").dtype == np.int64 and c.encode("the dog").dtype == np.int64


def test_variation_selectors_are_exactly_the_two_unicode_ranges():
    from core.corpus import _is_variation_selector, split_words

    inside = [0xFE00, 0xFE07, 0xFE0F, 0xE0100, 0xE0150, 0xE01EF]
    outside = [0xFDFF, 0xFE10, 0xE00FF, 0xE01F0, 0x0301, ord("a")]
    assert all(_is_variation_selector(c) for c in inside)
    assert not any(_is_variation_selector(c) for c in outside)
    # a mark stays in the word; an emoji-style selector after a word is not part of its spelling
    assert split_words("sx\u0301 sun\ufe0f") == ["sx\u0301", "sun"]


def test_text_changes_of_plain_and_unusual_text():
    from core.corpus import text_changes

    c = text_changes("the cat sat.")                     # plain ASCII: nothing to report
    assert (c.normalised, c.n_normalised, c.dropped, c.n_dropped, bool(c)) == ([], 0, [], 0, False)
    # upper case alone is not a change; the full-width A is (to "a"); the two cats are dropped;
    # DEL (127) and "!" are ASCII and not counted
    c = text_changes("CAT \uff21 dog \U0001f431\U0001f431 x\x7f!")
    assert c.normalised == [("\uff21", "a")] and c.n_normalised == 1
    assert c.dropped == ["\U0001f431"] and c.n_dropped == 2 and bool(c)


def test_a_corpus_lookup_names_what_is_not_a_word():
    with pytest.raises(TypeError, match="^A word must be a string, not int.$"):
        Corpus.from_text("a b").index(3)


def test_corpus_refusals_word_for_word():
    from core.corpus import Corpus, CorpusError, whole_count

    def no(call, message, kind=CorpusError):
        refused(call, message, kind)

    for w in (0, 11, True, 2.0):
        no(lambda w=w: Corpus.from_text("a b", window=w), "The window must be a whole number from 1 to 10.")
    assert Corpus.from_text("a b", window=1).window == 1 and Corpus.from_text("a b", window=10).window == 10
    no(lambda: Corpus.from_text("a b", max_vocab=2.0), "max_vocab must be a whole number or None, not float.",
       TypeError)
    no(lambda: Corpus.from_text("a b", max_vocab=1), "The vocabulary cap must be at least 2.")
    no(lambda: Corpus.from_text("a b", max_vocab=5001), "The vocabulary cap must be at most 5,000.")
    assert Corpus.from_text("a b c", max_vocab=2).V == 2 and Corpus.from_text("a b", max_vocab=5000).V == 2
    no(lambda: Corpus.from_text(b"a b"), "The text must be a string, not bytes.", TypeError)
    no(lambda: Corpus.from_text("a" * 20_000_001), "The text has 20,000,001 characters; at most 20,000,000.")
    no(lambda: Corpus.from_text("cat"),
       "The text needs at least two words (letters or digits) to make a single (centre, context) pair; it has 1.")
    no(lambda: Corpus.from_text("cat cat"), "The text uses only one distinct word ('cat'); with a single word "
       "there is nothing to tell apart. Add at least one other word.")
    no(lambda: Corpus.from_text(" ".join(f"w{i}" for i in range(5001))),
       "The text has 5,001 distinct words; at most 5,000 fit (pass max_vocab to keep only the most frequent).")
    assert Corpus.from_text(" ".join(f"w{i}" for i in range(5000))).V == 5000
    no(lambda: whole_count(1.0), "n must be a whole number, not float.", TypeError)
    no(lambda: whole_count(-1), "n must be at least 0; got -1.", ValueError)
    assert whole_count(0) == 0 and type(whole_count(np.int64(3))) is int


def test_context_pairs_list_each_centre_left_to_right():
    inputs, targets = context_pairs(np.array([10, 11, 12, 13]), 2)
    assert inputs.tolist() == [10, 10, 11, 11, 11, 12, 12, 12, 13, 13]
    assert targets.tolist() == [11, 12, 10, 12, 13, 10, 11, 13, 11, 12]


def test_text_changes_counts_only_what_is_more_than_lower_casing():
    assert text_changes("café CAFÉ") == TextChanges([], 0, [], 0)            # é is é in lower case: no change
    assert not text_changes("café")
    ligatures = text_changes("ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ Ａ")
    assert [a for a, _ in ligatures.normalised] == ["ﬁ", "ﬂ", "ﬀ", "ﬃ", "ﬄ"]           # five examples by default
    assert ligatures.n_normalised == 8
    assert len(text_changes("ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ Ａ", examples=7).normalised) == 7


def test_text_changes_drops_every_non_ascii_non_word_character():
    c = text_changes("a\x80b")                                 # U+0080, the first non-ASCII character
    assert (c.dropped, c.n_dropped) == (["\x80"], 1)
    c = text_changes("é a\x7fb")                              # U+007F, the last ASCII one: dropped, not reported
    assert (c.dropped, c.n_dropped, c.n_normalised) == ([], 0, 0)


def test_a_text_with_only_dropped_characters_has_changes():
    c = text_changes("a 🐱")
    assert (c.n_normalised, c.n_dropped) == (0, 1) and bool(c) is True
    c = text_changes("ﬁsh")
    assert (c.n_normalised, c.n_dropped) == (1, 0) and bool(c) is True
    assert bool(TextChanges([], 0, [], 0)) is False


def test_a_text_of_exactly_the_character_limit_is_read(monkeypatch):
    monkeypatch.setattr(corpus_module, "MAX_TEXT_CHARS", 11)
    assert Corpus.from_text("ab cd ab cd").V == 2                            # 11 characters: allowed
    with pytest.raises(CorpusError, match=r"^The text has 12 characters; at most 11\.$"):
        Corpus.from_text("ab cd ab cde")


def test_split_words_names_what_is_not_a_text():
    from core.corpus import split_words

    with pytest.raises(TypeError, match=r"^The text must be a string, not int\.$"):
        split_words(3)
