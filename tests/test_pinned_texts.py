"""A text's counts, its sentences and what the word rule changed, pinned exactly.

Found by mutation testing (docs/quality.md, section 4): these core functions were checked only
through the screens' tests, which do not judge a core mutant, so a count read from the wrong
variable or a threshold moved by one went unnoticed by the core's own tests.
"""
import itertools
import string

import pytest

from core import corpus as corpus_module
from core.bigtext import MAX_SOFTMAX_VOCAB, text_sentences, text_size
from core.corpus import Corpus, CorpusError, TextChanges, text_changes


def distinct_words(n):
    """n different two-letter words: aa ab ac ..."""
    return [a + b for a, b in itertools.islice(itertools.product(string.ascii_lowercase, repeat=2), n)]


def test_text_size_counts_characters_lines_words_and_distinct_words():
    text = "The cat sat.\n\nthe dog SAT\n"                       # 26 characters, 2 non-empty lines
    s = text_size(text)
    assert (s.n_chars, s.n_lines, s.n_words, s.n_distinct, s.objective) == (26, 2, 6, 4, "softmax")
    s = text_size("a b\nc")                                    # every count differs from the others
    assert (s.n_chars, s.n_lines, s.n_words, s.n_distinct) == (5, 2, 3, 3)


def test_text_size_picks_word2vec_only_above_the_softmax_vocabulary():
    text = "a b c a\nd"                                         # 4 distinct words
    assert text_size(text, max_softmax_vocab=4).objective == "softmax"       # exactly the limit: softmax
    assert text_size(text, max_softmax_vocab=3).objective == "word2vec"
    assert MAX_SOFTMAX_VOCAB == 300
    at_limit, above = " ".join(distinct_words(300)), " ".join(distinct_words(301))
    assert text_size(at_limit).objective == "softmax" and text_size(at_limit).n_distinct == 300
    assert text_size(above).objective == "word2vec" and text_size(above).n_distinct == 301


def test_text_sentences_are_the_non_empty_lines_as_words():
    assert text_sentences("The cat.\n\n  \nA dog, a DOG!\r\nend") == [["the", "cat"], ["a", "dog", "a", "dog"], ["end"]]
    assert text_sentences("") == []


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
