"""Defaults that the docstrings promise, and small results passed through: pinned where
mutation testing (docs/quality.md, section 4) found that a default could change (a seed of 1,
six neighbours, a power of 1.75) or a field be dropped without any core test noticing.

Each default is checked against the same call with the value written out, and against a
different value, so the check fails if the default moves.
"""
import numpy as np
import pytest

from core.cbow import train_cbow
from core.corpus import GUIDE_TEXT, Corpus
from core.position import LEARNED_INIT_STD, learned_start
from core.relations import METHODS, analogy, axis_positions, relations_text
from core.sgns import noise_distribution
from core.skipgram import SkipGramConfig
from core.vectors import Vectors


def test_cbow_defaults_to_the_reference_settings_and_checks_its_callback():
    corpus = Corpus.from_text(GUIDE_TEXT)
    default, explicit = train_cbow(corpus), train_cbow(corpus, SkipGramConfig())
    np.testing.assert_array_equal(default.E, explicit.E)
    assert len(default.losses) == SkipGramConfig().steps + 1
    with pytest.raises(TypeError, match=r"^callback must be a function callback\(step, loss\) or None\.$"):
        train_cbow(corpus, SkipGramConfig(steps=2), callback="every step")


def test_a_learned_position_table_starts_from_seed_0():
    start = learned_start(3, 4)
    np.testing.assert_array_equal(start, np.random.default_rng(0).normal(0.0, LEARNED_INIT_STD, (3, 4)))
    assert not np.array_equal(start, learned_start(3, 4, seed=1))


def test_the_largest_position_base_is_1e12_exactly():
    from core.position import sinusoidal

    assert sinusoidal(2, 2, base=1e12).shape == (2, 2)
    with pytest.raises(ValueError, match=r"^The base must be at most 1e\+12; got 1e\+12\.$"):
        sinusoidal(2, 2, base=1e12 + 0.5)                    # the next representable halves past it


def test_the_made_up_relations_text_starts_from_seed_0():
    assert relations_text() == relations_text(0)
    assert relations_text() != relations_text(1)


def analogy_table():
    rng = np.random.default_rng(5)
    vocab = [f"w{i}" for i in range(10)]
    return rng.normal(size=(10, 4)), vocab


def test_an_analogy_lists_five_answers_by_default_and_keeps_its_method():
    E, vocab = analogy_table()
    a = analogy(Vectors(vocab, E), "w0", "w1", "w2")
    assert len(a.answers) == 5 and a.method == METHODS[0]
    assert a.answers == analogy(Vectors(vocab, E), "w0", "w1", "w2", k=6).answers[:5]
    for method in METHODS[1:]:
        assert analogy(Vectors(vocab, E), "w0", "w1", "w2", method=method).method == method


def test_missing_words_are_all_named():
    E, vocab = analogy_table()
    with pytest.raises(KeyError) as caught:
        axis_positions(Vectors(vocab, E), "cat", "dog")
    assert caught.value.args[0] == "not in the vocabulary: cat, dog"
    with pytest.raises(KeyError) as caught:
        analogy(Vectors(vocab, E), "w0", "cat", "dog")
    assert caught.value.args[0] == "not in the vocabulary: cat, dog"


def test_the_noise_distribution_raises_counts_to_three_quarters_by_default():
    ids = np.array([0] * 16 + [1])                             # counts 16 and 1: 16 ** 0.75 = 8
    np.testing.assert_allclose(noise_distribution(ids, 3), [8 / 9, 1 / 9, 0.0], rtol=1e-12)
