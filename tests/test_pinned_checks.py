"""The core's checks and small results, pinned exactly: bounds, messages, and the rotation
check, found loose by mutation testing (docs/quality.md)."""
import numpy as np
import pytest

from core.corpus import Corpus, CorpusError
from core.embedding import lookup
from core.honesty import random_orthogonal, rotate, rotation_check
from core.similarity import cosine_steps
from core.skipgram import ConfigError, SkipGramConfig


def test_rotation_check_measures_the_rotated_table():
    X = np.random.default_rng(0).normal(size=(6, 3))
    r = rotation_check(X, seed=2)
    np.testing.assert_allclose(r.rotated, X @ random_orthogonal(3, 2), rtol=1e-12)
    np.testing.assert_array_equal(rotate(X, 2), r.rotated)
    np.testing.assert_array_equal(rotate(X), X @ random_orthogonal(3, 0))
    np.testing.assert_array_equal(rotation_check(X).rotated, rotate(X, 0))
    assert 0 <= r.max_cosine_change < 1e-12 and r.share_entries_changed == 1.0
    same = rotation_check(np.array([[1.0, 0.0], [0.0, 0.0]]), seed=0)       # the zero row cannot move
    assert same.share_entries_changed == pytest.approx(
        np.mean(np.abs(same.rotated - np.array([[1.0, 0.0], [0.0, 0.0]])) > 1e-9))
    assert rotate(np.eye(2, dtype=int), 1).dtype == np.float64


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


def test_lookup_messages_name_the_bad_id_and_the_range():
    W = np.zeros((5, 2))
    with pytest.raises(IndexError, match=r"^Token id 5 is outside the vocabulary \(0 to 4\)\.$"):
        lookup(W, [1, 5])
    with pytest.raises(IndexError, match=r"^Token id -1 is outside the vocabulary \(0 to 4\)\.$"):
        lookup(W, [-1, 9])
    with pytest.raises(IndexError, match=r"^Token id 0 is|^Token ids must be whole numbers\.$"):
        lookup(W, [0.5])
    assert lookup(W, [0, 4]).shape == (2, 2)


def test_cosine_steps_checks_and_products():
    s = cosine_steps([1, 2], [3, -4])
    assert s.products == (3.0, -8.0) and s.dot == -5.0
    assert cosine_steps([1, 0], [-1, 0]).cosine == -1.0
    assert cosine_steps([3], [2]).norm_u == 3.0
    for u, v in (([1, 2], [1, 2, 3]), ([[1, 2]], [[1, 2]])):
        with pytest.raises(ValueError, match=r"^Both vectors need the same length; got \d+ and \d+\.$"):
            cosine_steps(u, v)


@pytest.mark.parametrize("field, ok, bad, message", [
    ("d_model", [1, 256], [0, 257], r"^d_model must be a whole number from 1 to 256\.$"),
    ("lr", [1e-9], [0.0], r"^The learning rate must be a positive number\.$"),
    ("steps", [0, 20_000], [-1, 20_001], r"^Steps must be a whole number from 0 to 20,000\.$"),
    ("seed", [0, 2**63 - 1], [-1, 2**63], r"^The seed must be a whole number from 0 to 2\*\*63 - 1\.$"),
    ("init_std", [1e-9], [0.0], r"^The initial standard deviation must be a positive number\.$"),
    ("snapshot_every", [1], [0], r"^snapshot_every must be at least 1\.$"),
])
def test_skipgram_settings_bounds(field, ok, bad, message):
    for value in ok:
        assert getattr(SkipGramConfig(**{field: value}), field) == value
    for value in bad:
        with pytest.raises(ConfigError, match=message):
            SkipGramConfig(**{field: value})
