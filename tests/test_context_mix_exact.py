"""core.context_mix: the mixing defaults, the self weight's bounds, the ambiguous-word preview, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import dataclasses

import numpy as np
import pytest

from core.context_mix import ambiguous_in_context, mix_with_neighbours, mixing_weights
from core.generated import generate_corpus


@pytest.fixture(scope="module")
def bank():
    g = generate_corpus(60)
    vocab = sorted({w for s in g.sentences for w in s.split()})
    E = np.random.default_rng(0).normal(size=(len(vocab), 6))
    return g, vocab, E


def test_mixing_defaults_are_a_window_of_two_and_half_for_the_token_itself():
    A = mixing_weights(5)
    expected = np.array([[0.5, 0.25, 0.25, 0, 0],
                         [1 / 6, 0.5, 1 / 6, 1 / 6, 0],
                         [0.125, 0.125, 0.5, 0.125, 0.125],
                         [0, 1 / 6, 1 / 6, 0.5, 1 / 6],
                         [0, 0, 0.25, 0.25, 0.5]])
    np.testing.assert_allclose(A, expected, atol=1e-15)
    E = np.arange(10.0).reshape(5, 2)
    np.testing.assert_allclose(mix_with_neighbours(E, [0, 1, 2, 3, 4]), expected @ E, atol=1e-12)


def test_a_self_weight_of_exactly_zero_or_one_is_allowed_and_more_is_refused():
    np.testing.assert_array_equal(mixing_weights(3, 1, 0.0), [[0, 1, 0], [0.5, 0, 0.5], [0, 1, 0]])
    np.testing.assert_array_equal(mixing_weights(3, 1, 1.0), np.eye(3))
    with pytest.raises(ValueError, match=r"^self_weight must be at most 1; got 1\.5\.$"):
        mixing_weights(3, 1, 1.5)


def test_the_ambiguous_word_preview_counts_each_sense_and_uses_the_defaults(bank):
    g, vocab, E = bank
    # keep 3 river sentences and 1 money sentence, so the two counts differ
    keep = [i for i, s in enumerate(g.sentence_sense) if s == "river"][:3] + \
           [i for i, s in enumerate(g.sentence_sense) if s == "money"][:1]
    small = dataclasses.replace(g, sentences=[g.sentences[i] for i in keep],
                                sentence_sense=[g.sentence_sense[i] for i in keep])
    p = ambiguous_in_context(E, vocab, small)
    assert p.word == "bank" and p.senses == ("river", "money")
    assert p.n_occurrences == {"river": 3, "money": 1}
    q = ambiguous_in_context(E, vocab, small, window=2, self_weight=0.5)
    np.testing.assert_array_equal(p.occurrence_vectors, q.occurrence_vectors)
    assert p.sense_similarity == q.sense_similarity
    first = small.sentences[0].split()
    H = mix_with_neighbours(E, [vocab.index(w) for w in first], 2, 0.5)
    np.testing.assert_array_equal(p.occurrence_vectors[0], H[first.index("bank")])


def test_the_ambiguous_word_preview_explains_what_is_missing(bank):
    g, vocab, E = bank
    with pytest.raises(KeyError, match="'bank' is not in the vocabulary"):
        ambiguous_in_context(E, [w for w in vocab if w != "bank"] + ["zzz"], g)
    only_river = dataclasses.replace(g, sentence_sense=[s if s == "river" else None for s in g.sentence_sense])
    with pytest.raises(ValueError, match=r"^'bank' needs at least one sentence of each sense\.$"):
        ambiguous_in_context(E, vocab, only_river)
