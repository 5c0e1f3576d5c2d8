"""The context-mixing stand-in: weights, a brute-force reference, and bank's two vectors."""
import numpy as np
import pytest

from core.context_mix import ambiguous_in_context, mix_with_neighbours, mixing_weights
from core.generated import generate_corpus, group_centroids
from lab_ui.widgets.presets import SOFTMAX_SETTINGS
from core.similarity import cosine
from core.skipgram import train
from core.vectors import Vectors


@pytest.fixture(scope="module")
def setup():
    g = generate_corpus()
    corpus = g.corpus()
    return g, corpus, train(corpus, SOFTMAX_SETTINGS)


@pytest.mark.parametrize("T,window", [(1, 2), (2, 1), (5, 2), (7, 3), (3, 5)])
def test_weights_rows_sum_to_one_and_respect_the_window(T, window):
    A = mixing_weights(T, window, 0.3)
    np.testing.assert_allclose(A.sum(axis=1), 1.0)
    i, j = np.indices((T, T))
    assert not A[np.abs(i - j) > window].any()
    if T > 1:
        np.testing.assert_allclose(np.diag(A), 0.3)


def test_single_token_keeps_its_row():
    E = np.array([[1.0, 2.0]])
    np.testing.assert_array_equal(mix_with_neighbours(E, [0]), E)


def test_mix_matches_a_loop():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(9, 4))
    ids = rng.integers(0, 9, size=8)
    window, s = 2, 0.4
    expected = []
    for t in range(len(ids)):
        near = [ids[j] for j in range(len(ids)) if 0 < abs(j - t) <= window]
        expected.append(s * E[ids[t]] + (1 - s) * E[near].mean(axis=0))
    np.testing.assert_allclose(mix_with_neighbours(E, ids, window, s), expected)


def test_self_weight_one_is_the_static_lookup():
    E = np.random.default_rng(1).normal(size=(5, 3))
    ids = [4, 0, 2, 2]
    np.testing.assert_array_equal(mix_with_neighbours(E, ids, self_weight=1.0), E[ids])


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError):
        mixing_weights(3, 2, 1.5)
    with pytest.raises(ValueError):
        mixing_weights(3, 0, 0.5)


def test_bank_gets_two_vectors_each_nearer_its_own_group(setup):
    g, corpus, result = setup
    p = ambiguous_in_context(Vectors(corpus.vocab, result.E), g)
    river, money = p.senses
    assert p.n_occurrences[river] > 20 and p.n_occurrences[money] > 20
    # the static row is one vector; the two sense averages differ
    assert not np.allclose(p.sense_vectors[river], p.sense_vectors[money])
    assert p.sense_similarity < 0.99
    # each sense average is nearer its own group than the static row is...
    assert p.sense_cos[river][river] > p.static_cos[river] + 0.1
    assert p.sense_cos[money][money] > p.static_cos[money] + 0.1
    # ...and, on these settings, nearer its own group than the other one
    assert p.sense_cos[river][river] > p.sense_cos[river][money]
    assert p.sense_cos[money][money] > p.sense_cos[money][river]


def test_preview_numbers_are_what_they_say(setup):
    g, corpus, result = setup
    p = ambiguous_in_context(Vectors(corpus.vocab, result.E), g, window=2, self_weight=0.5)
    bank = corpus.index("bank")
    np.testing.assert_array_equal(p.static, result.E[bank])
    centroids = group_centroids(Vectors(corpus.vocab, result.E), g.groups)
    assert p.static_cos["river"] == pytest.approx(cosine(result.E[bank], centroids["river"]))
    labels = np.array(p.occurrence_senses)
    money_rows = p.occurrence_vectors[labels == "money"]
    np.testing.assert_allclose(p.sense_vectors["money"], money_rows.mean(axis=0))
    # the first bank sentence, mixed by hand
    k = next(i for i, s in enumerate(g.sentence_sense) if s is not None)
    words = g.sentences[k].split()
    H = mix_with_neighbours(result.E, [corpus.index(w) for w in words])
    np.testing.assert_allclose(p.occurrence_vectors[0], H[words.index("bank")])


def test_with_self_weight_one_there_is_no_context(setup):
    g, corpus, result = setup
    p = ambiguous_in_context(Vectors(corpus.vocab, result.E), g, self_weight=1.0)
    assert p.sense_similarity == pytest.approx(1.0)
    assert p.sense_cos["river"] == pytest.approx(p.static_cos)
