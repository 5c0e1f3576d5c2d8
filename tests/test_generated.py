"""The generated corpus with known groups, the group-recovery score and the ambiguous word."""
from itertools import combinations

import numpy as np
import pytest

from core.generated import (AMBIGUOUS, DEFAULT_SENTENCES, GROUPS, MIN_SENTENCES, SENSES,
                            TEMPLATES, ambiguous_position, chance_level,
                            generate_corpus, group_centroids, group_recovery)
from core.skipgram import train
from core.vectors import Vectors
from lab_ui.widgets.presets import SOFTMAX_SETTINGS


@pytest.fixture(scope="module")
def gen():
    return generate_corpus()


@pytest.fixture(scope="module")
def trained(gen):
    corpus = gen.corpus(window=2)
    return corpus, train(corpus, SOFTMAX_SETTINGS)


# --- the generator ---------------------------------------------------------------------------

def test_deterministic_for_a_seed():
    a, b = generate_corpus(100, seed=3), generate_corpus(100, seed=3)
    assert a == b
    assert generate_corpus(100, seed=4).text != a.text


def test_text_is_the_sentences_one_per_line(gen):
    assert gen.text.split("\n") == gen.sentences
    assert len(gen.sentences) == len(gen.sentence_sense) == DEFAULT_SENTENCES
    assert gen.text == gen.text.lower()
    assert all(w.isalpha() for s in gen.sentences for w in s.split())


def test_size_suits_a_small_skipgram(gen):
    corpus = gen.corpus()
    assert 1000 <= len(corpus.words) <= 3000
    assert 40 <= corpus.V <= 70
    group_words = {w for m in gen.groups.values() for w in m}
    assert len(group_words) == sum(len(m) for m in gen.groups.values())  # groups are disjoint
    assert AMBIGUOUS not in group_words


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("n", [MIN_SENTENCES, DEFAULT_SENTENCES])
def test_every_group_word_and_both_senses_appear(n, seed):
    g = generate_corpus(n, seed=seed)
    words = {w for s in g.sentences for w in s.split()}
    for members in g.groups.values():
        assert set(members) <= words
    assert set(g.sentence_sense) == {None, *SENSES}


def test_sense_labels_match_the_sentences(gen):
    for sentence, sense in zip(gen.sentences, gen.sentence_sense):
        words = sentence.split()
        assert (AMBIGUOUS in words) == (sense is not None)
        if sense is not None:
            # the sentence also holds a word of the group its sense is named after
            assert set(words) & set(gen.groups[sense])
            other = SENSES[1 - SENSES.index(sense)]
            assert not set(words) & set(gen.groups[other])


def test_senses_are_balanced(gen):
    counts = [gen.sentence_sense.count(s) for s in SENSES]
    assert abs(counts[0] - counts[1]) <= 2
    assert sum(counts) > 0.1 * len(gen.sentences)


def test_templates_only_name_known_groups():
    for template, sense in TEMPLATES:
        for w in template.split():
            if w.startswith("{"):
                assert w[1:-1] in GROUPS
        assert sense in (None, *SENSES)


def test_too_few_sentences_is_refused():
    with pytest.raises(ValueError, match="at least"):
        generate_corpus(MIN_SENTENCES - 1)


# --- group recovery --------------------------------------------------------------------------

def _clusters(sizes, d=None, noise=0.05, seed=0):
    """A table whose groups are tight clusters around orthogonal axes."""
    rng = np.random.default_rng(seed)
    d = d or len(sizes)
    vocab, rows, groups = [], [], {}
    for g, n in enumerate(sizes):
        groups[f"g{g}"] = [f"w{g}_{i}" for i in range(n)]
        for w in groups[f"g{g}"]:
            vocab.append(w)
            rows.append(np.eye(d)[g] + noise * rng.normal(size=d))
    return np.array(rows), vocab, groups


def test_orthogonal_clusters_are_recovered_perfectly():
    E, vocab, groups = _clusters([4, 4, 5, 3])
    for k in (1, 2):
        r = group_recovery(Vectors(vocab, E), groups, k=k)
        assert r.overall == 1.0
        assert set(r.per_group.values()) == {1.0}
    r = group_recovery(Vectors(vocab, E), groups, k=3)   # the group of 3 has only 2 mates
    assert r.per_group["g0"] == 1.0 and r.per_group["g3"] == pytest.approx(2 / 3)


def test_words_outside_groups_are_not_candidates():
    E, vocab, groups = _clusters([3, 3])
    E = np.vstack([E, E[0] * 1.01])  # a near copy of w0_0 that belongs to no group
    r = group_recovery(Vectors(vocab + ["stray"], E), groups, k=2)
    assert r.overall == 1.0 and "stray" not in r.neighbours["w0_0"]


def test_random_vectors_score_about_chance():
    sizes = [len(m) for m in GROUPS.values()]
    groups = GROUPS
    vocab = [w for m in groups.values() for w in m]
    tables = (np.random.default_rng(s).normal(size=(len(vocab), 8)) for s in range(200))
    scores = [group_recovery(Vectors(vocab, E), groups).overall for E in tables]
    assert np.mean(scores) == pytest.approx(chance_level(sizes), abs=0.02)


@pytest.mark.parametrize("sizes", [[2, 3], [2, 3, 4], [4, 4, 4]])
def test_chance_level_by_brute_force(sizes):
    """Average precision@k over every possible set of k neighbours, for every word."""
    labels = [g for g, n in enumerate(sizes) for _ in range(n)]
    M = len(labels)
    for k in range(1, M):
        per_word = []
        for w in range(M):
            others = [j for j in range(M) if j != w]
            subsets = list(combinations(others, k))
            per_word.append(np.mean([sum(labels[j] == labels[w] for j in s) / k for s in subsets]))
        assert np.mean(per_word) == pytest.approx(chance_level(sizes))
    E, vocab, groups = _clusters(sizes)
    r = group_recovery(Vectors(vocab, E), groups, k=1)
    assert r.chance == pytest.approx(chance_level(sizes))
    assert r.per_group_chance["g0"] == pytest.approx((sizes[0] - 1) / (M - 1))


def test_recovery_checks_its_inputs():
    E, vocab, groups = _clusters([2, 2])
    with pytest.raises(ValueError):
        group_recovery(Vectors(vocab, E), groups, k=4)
    with pytest.raises(KeyError, match="missing"):
        group_recovery(Vectors(vocab, E), {"g0": ["w0_0", "missing"]}, k=1)


def test_trained_table_recovers_the_groups(gen, trained):
    corpus, result = trained
    r = group_recovery(Vectors(corpus.vocab, result.E), gen.groups, k=3)
    assert r.chance == pytest.approx(3 / 27)
    assert r.overall >= 0.9 > 3 * r.chance
    assert min(r.per_group.values()) >= 0.75


def test_an_untrained_table_does_not(gen):
    corpus = gen.corpus()
    E = np.random.default_rng(0).normal(0, 0.1, (corpus.V, 12))
    assert group_recovery(Vectors(corpus.vocab, E), gen.groups).overall < 0.35


# --- the ambiguous word ----------------------------------------------------------------------

def test_centroid_is_the_mean_of_unit_rows():
    E, vocab, groups = _clusters([3, 2], noise=0.3)
    c = group_centroids(Vectors(vocab, E), groups)
    U = E[:3] / np.linalg.norm(E[:3], axis=1, keepdims=True)
    np.testing.assert_allclose(c["g0"], U.mean(axis=0))


def test_position_between_two_orthogonal_groups():
    E, vocab, groups = _clusters([3, 3, 3], noise=0.0)
    E = np.vstack([E, [1.0, 1.0, 0.0], [2.0, 0.0, 0.0]])
    vocab = vocab + ["both", "onlya"]
    p = ambiguous_position(Vectors(vocab, E), groups, "both", "g0", "g1")
    assert p.centroid_a == pytest.approx(np.sqrt(0.5)) and p.centroid_b == pytest.approx(np.sqrt(0.5))
    assert p.members_a == pytest.approx(np.sqrt(0.5)) and p.to_centroid["g2"] == pytest.approx(0.0)
    q = ambiguous_position(Vectors(vocab, E), groups, "onlya", "g0", "g1")
    assert (q.centroid_a, q.centroid_b) == (pytest.approx(1.0), pytest.approx(0.0))
    with pytest.raises(KeyError):
        ambiguous_position(Vectors(vocab, E), groups, "nope", "g0", "g1")


def test_bank_sits_between_river_and_money(gen, trained):
    corpus, result = trained
    p = ambiguous_position(Vectors(corpus.vocab, result.E), gen.groups, AMBIGUOUS, *SENSES)
    others = [v for g, v in p.to_centroid.items() if g not in SENSES]
    assert min(p.centroid_a, p.centroid_b) > max(others)   # its two groups are its nearest
    assert abs(p.centroid_a - p.centroid_b) < 0.3           # and it is not one of them
    # a real member of either group is far nearer its own centroid than bank is
    river_member = ambiguous_position(Vectors(corpus.vocab, result.E), gen.groups, "river", *SENSES)
    assert river_member.centroid_a > max(p.centroid_a, p.centroid_b) + 0.3
