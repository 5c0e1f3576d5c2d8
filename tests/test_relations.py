"""core.relations: the made-up relations text, analogies against their baselines, axes, odd one out."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.relations import (LESSON_QUESTIONS, METHODS, RELATIONS, accuracy, analogy, axis_positions,
                            odd_one_out, odd_one_out_round, relation_questions, relation_sides, relations_text,
                            side_split)
from core.skipgram import SkipGramConfig, train
from core.vectors import Vectors


def labels(words):
    """A table of these labels with one dummy column: side_split reads only its labels."""
    return Vectors(words, np.zeros((len(words), 1)))


@pytest.fixture(scope="module")
def learned():
    corpus = Corpus.from_text(relations_text(), window=1)
    return corpus, train(corpus, SkipGramConfig(d_model=16, lr=1.0, steps=1500)).E


def test_the_text_has_every_word_in_its_sentences():
    text = relations_text(seed=3, per_word=2)
    sentences = [s.split() for s in text.split(" . ")]
    assert all(len(s) == 3 for s in sentences)
    n_words = sum(2 * len(pairs) for _, _, pairs in RELATIONS.values())
    assert len(sentences) == 2 * n_words
    for first_roles, second_roles, pairs in RELATIONS.values():
        for first, second, identity in pairs:
            for word, roles in ((first, first_roles), (second, second_roles)):
                mine = [s for s in sentences if s[1] == word]
                assert len(mine) == 2
                assert all(identity in (s[0], s[2]) and ({s[0], s[2]} - {identity}) <= set(roles) for s in mine)
    assert relations_text(seed=3, per_word=2) == text
    assert relations_text(seed=4, per_word=2) != text


def test_analogy_offset_on_a_hand_made_table():
    # rows = role + identity, exactly: the offset must find the fourth word.
    vocab = ["man", "woman", "king", "queen", "apple"]
    male, female, royal, plain, fruit = np.eye(5)[:, :5]
    E = np.array([male + plain, female + plain, male + royal, female + royal, fruit])
    found = analogy(Vectors(vocab, E), "man", "woman", "king", k=2, expected="queen")
    assert found.correct and found.answers[0] == ("queen", pytest.approx(1.0))
    assert [w for w, _ in found.answers] == ["queen", "apple"]       # a, b, c are never answers
    assert analogy(Vectors(vocab, E), "man", "woman", "king", k=1, method="nearest to c").answers[0][0] == "queen"
    with pytest.raises(KeyError, match="duke"):
        analogy(Vectors(vocab, E), "man", "duke", "king")
    with pytest.raises(ValueError, match="method"):
        analogy(Vectors(vocab, E), "man", "woman", "king", method="guess")


def test_the_questions_of_a_relation():
    qs = relation_questions("male - female")
    assert len(qs) == 30 and ("king", "queen", "man", "woman") in qs
    assert all(a != c for a, _, c, _ in qs)


def test_learned_table_answers_every_relation_and_beats_both_baselines(learned):
    corpus, E = learned
    for name in RELATIONS:
        scores = accuracy(Vectors(corpus.vocab, E), relation_questions(name))
        right, asked = scores["b - a + c"]
        assert asked == 30 and right >= 28, (name, scores)
        assert right > max(scores["nearest to b"][0], scores["nearest to c"][0]), (name, scores)


def test_the_lesson_table_passes_only_as_well_as_its_baselines():
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E = train(corpus, SkipGramConfig()).E
    scores = accuracy(Vectors(corpus.vocab, E), LESSON_QUESTIONS)
    assert set(scores) == set(METHODS)
    assert len(set(scores.values())) == 1, scores          # the offset adds nothing over b or c alone


def test_axis_positions_are_cosines_with_the_direction(learned):
    corpus, E = learned
    pos = axis_positions(Vectors(corpus.vocab, E), "he", "she")
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    v = corpus.vocab
    axis = U[v.index("she")] - U[v.index("he")]
    np.testing.assert_allclose(pos, U @ axis / np.linalg.norm(axis))
    assert pos[v.index("she")] == pos.max() and pos[v.index("he")] == pos.min()
    with pytest.raises(ValueError, match="no axis"):
        axis_positions(Vectors(["a", "b"], np.ones((2, 3))), "a", "b")


def test_relation_sides_finds_opposite_sides_by_pair_or_role_word():
    assert relation_sides("he", "she") == ("male - female", 0, 1)
    assert relation_sides("queen", "man") == ("male - female", 1, 0)
    assert relation_sides("france", "city") == ("country - capital", 0, 1)
    assert relation_sides("man", "king") is None            # same side
    assert relation_sides("man", "paris") is None           # two relations
    assert relation_sides("crown", "queen") is None         # an identity word is on no side


def test_side_split_by_hand():
    vocab = ["he", "she", "king", "queen", "man", "woman", "boy", "girl"]
    pos = np.array([-1.0, 1.0, 0.1, 0.5, 0.2, 0.4, 0.3, 0.6])
    s = side_split(pos, labels(vocab), "he", "she")
    x, y = np.array([0.1, 0.2, 0.3]), np.array([0.5, 0.4, 0.6])     # the pairs whose words are in vocab
    assert (s.relation, s.away, s.towards, s.pairs, s.ordered, s.apart) == ("male - female", "male", "female",
                                                                            3, 3, True)
    assert s.gap == pytest.approx(y.mean() - x.mean())
    assert s.spread == pytest.approx(np.sqrt((x.var(ddof=1) + y.var(ddof=1)) / 2))
    pos[vocab.index("girl")] = 0.15                                  # girl now behind boy and man
    s = side_split(pos, labels(vocab), "he", "she")
    assert (s.ordered, s.apart) == (2, False)
    reverse = side_split(pos, labels(vocab), "she", "he")                    # the other way round
    assert (reverse.away, reverse.towards, reverse.ordered) == ("female", "male", 1)
    assert reverse.gap == pytest.approx(-s.gap)
    left_out = side_split(pos, labels(vocab), "man", "woman")                # (man, woman) itself is left out
    assert left_out.pairs == 2
    assert side_split(pos, labels(vocab), "king", "man") is None


def test_on_the_learned_table_pair_words_split_their_sides_but_role_words_do_not(learned):
    corpus, E = learned
    v = corpus.vocab
    he_she = side_split(axis_positions(Vectors(v, E), "he", "she"), Vectors(v, E), "he", "she")
    man_woman = side_split(axis_positions(Vectors(v, E), "man", "woman"), Vectors(v, E), "man", "woman")
    assert not he_she.apart and he_she.ordered < he_she.pairs and abs(he_she.gap) < he_she.spread
    assert man_woman.apart and man_woman.pairs == 5 and man_woman.gap > 3 * man_woman.spread


def test_odd_one_out_is_the_lowest_mean_cosine():
    E = np.array([[1.0, 0], [1, 0.1], [1, -0.1], [0, 1]])
    odd, means = odd_one_out(Vectors(list("abcd"), E), list("abcd"))
    assert odd == "d"
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    assert means["d"] == pytest.approx((U[3] @ U[:3].T).mean())


@pytest.mark.parametrize("seed", range(6))
def test_a_round_has_three_of_a_kind_and_the_learned_table_finds_the_fourth(learned, seed):
    corpus, E = learned
    words, odd = odd_one_out_round(seed)
    assert len(set(words)) == 4 and odd in words
    relation_of = {w: n for n, (_, _, pairs) in RELATIONS.items() for a, b, _ in pairs for w in (a, b)}
    others = {relation_of[w] for w in words if w != odd}
    assert len(others) == 1 and relation_of[odd] not in others
    assert odd_one_out_round(seed) == (words, odd)


def test_side_split_counts_only_words_strictly_further_along():
    """A pair whose two words sit at the same place is not ordered, and sides that touch are not apart."""
    vocab = ["he", "she", "king", "queen", "man", "woman", "boy", "girl"]
    pos = np.array([-1.0, 1.0, 0.25, 0.5, 0.5, 0.5, 0.0, 0.75])   # man = woman; queen = max of the male side
    s = side_split(pos, labels(vocab), "he", "she")
    assert (s.pairs, s.ordered, s.apart) == (3, 2, False)
    assert s.gap == (0.5 + 0.5 + 0.75) / 3 - (0.25 + 0.5 + 0.0) / 3
    pos[vocab.index("woman")] = 0.5 + 2.0**-20                       # a hair further along: ordered, and apart
    pos[vocab.index("queen")] = 0.5 + 2.0**-20
    s = side_split(pos, labels(vocab), "he", "she")
    assert (s.ordered, s.apart) == (3, True)


def test_side_split_needs_two_pairs_with_both_words_known():
    """Pairs holding a or b, or a word outside the vocabulary, are left out; fewer than 2 left: None."""
    vocab = ["he", "she", "king", "queen", "man", "woman", "boy"]      # girl unknown: (boy, girl) left out
    pos = np.array([-1.0, 1.0, 0.1, 0.5, 0.2, 0.4, 0.3])
    two = side_split(pos, labels(vocab), "he", "she")
    assert two.pairs == 2 and two.gap == pytest.approx((0.5 + 0.4) / 2 - (0.1 + 0.2) / 2)
    assert two.spread == pytest.approx(np.sqrt((np.var([0.1, 0.2], ddof=1) + np.var([0.5, 0.4], ddof=1)) / 2))
    assert side_split(pos, labels(vocab), "man", "woman") is None             # only (king, queen) is left
    assert side_split(pos, labels(vocab), "king", "woman") is None            # a from one pair, b from another: both left out
    split = side_split(pos, labels(["king", "queen", "man", "woman", "boy", "girl", "he"]), "he", "queen")
    assert (split.pairs, split.away, split.towards) == (2, "male", "female")
    no_boy = ["he", "she", "king", "queen", "man", "woman", "girl"]   # boy unknown: (boy, girl) left out too
    assert side_split(pos, labels(no_boy), "he", "she").pairs == 2
