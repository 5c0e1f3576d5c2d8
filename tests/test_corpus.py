"""The reference corpus of docs/lesson.md section 5, and the splitting rules."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, UNK, Corpus, CorpusError, context_pairs, split_words

REF_VOCAB = "and cat dog log mat on ran sat saw the then to".split()


@pytest.fixture(scope="module")
def corpus():
    return Corpus.from_text(GUIDE_TEXT, window=2)


def test_reference_text_has_33_words():
    assert len(GUIDE_TEXT.split()) == 33


def test_reference_vocabulary(corpus):
    assert corpus.vocab == REF_VOCAB


def test_reference_pairs(corpus):
    assert corpus.n_pairs == 126
    first = [(corpus.vocab[a], corpus.vocab[b]) for a, b in zip(corpus.inputs[:4], corpus.targets[:4])]
    assert first == [("the", "cat"), ("the", "sat"), ("cat", "the"), ("cat", "sat")]


def test_pairs_match_a_brute_force_double_loop(corpus):
    words = GUIDE_TEXT.split()
    expected = [(words[i], words[j]) for i in range(len(words)) for j in range(len(words))
                if j != i and abs(i - j) <= 2]
    got = [(corpus.vocab[a], corpus.vocab[b]) for a, b in zip(corpus.inputs, corpus.targets)]
    assert got == expected


def test_cooccurrence_counts_the_pairs(corpus):
    C = corpus.cooccurrence
    assert C.shape == (12, 12)
    assert C.sum() == 126
    brute = np.zeros((12, 12))
    for a, b in zip(corpus.inputs, corpus.targets):
        brute[a, b] += 1
    np.testing.assert_array_equal(C, brute)
    np.testing.assert_array_equal(C, C.T)  # a symmetric window gives symmetric counts
    # "the" has all 11 other words as neighbours somewhere
    the = corpus.index("the")
    assert (C[the, np.arange(12) != the] > 0).all()


@pytest.mark.parametrize("window", [1, 3, 5])
def test_pair_count_formula(window):
    n = 33
    ids = np.arange(n)
    inputs, _ = context_pairs(ids, window)
    assert len(inputs) == sum(min(n - 1, i + window) - max(0, i - window) for i in range(n))


def test_punctuation_and_case_are_dropped():
    assert split_words("The Cat, the cat! THE CAT?") == ["the", "cat"] * 3
    assert split_words("don't stop — well-known\r\nwords\x00here") == [
        "don't", "stop", "well-known", "words", "here"]
    assert split_words("猫 sat 🐱 on") == ["猫", "sat", "on"]


@pytest.mark.parametrize("text", ["", "   \n\t", "!!! ... ???", "hello", "🐱🐶"])
def test_too_little_text_is_refused_with_a_message(text):
    with pytest.raises(CorpusError, match="at least two words"):
        Corpus.from_text(text)


def test_one_distinct_word_is_refused():
    with pytest.raises(CorpusError, match="only one distinct word"):
        Corpus.from_text("la la la la")


@pytest.mark.parametrize("window", [0, -1, 11, 2.5])
def test_bad_window_is_refused(window):
    with pytest.raises(CorpusError, match="window"):
        Corpus.from_text(GUIDE_TEXT, window=window)


def test_window_larger_than_text_pairs_everything():
    c = Corpus.from_text("a b c", window=10)
    assert c.n_pairs == 6


def test_vocabulary_cap_keeps_the_most_frequent_words():
    c = Corpus.from_text(GUIDE_TEXT, max_vocab=4)
    assert c.vocab == sorted(["the", "cat", "and", UNK])  # "and" and "dog" tie at 3: alphabetical
    assert c.n_dropped_words == 9
    assert len(c.words) == 33


def test_encode_and_unknown_words(corpus):
    assert corpus.encode("the DOG") .tolist() == [9, 2]
    with pytest.raises(KeyError, match="zebra"):
        corpus.encode("the zebra")
