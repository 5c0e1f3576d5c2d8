"""core.relations: analogies, odd-one-out rounds, the made-up relations text, their defaults and
refusals, pinned exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.relations import METHODS, analogy, axis_positions, relations_text
from tests.refusal import refused


def analogy_table():
    rng = np.random.default_rng(5)
    vocab = [f"w{i}" for i in range(10)]
    return rng.normal(size=(10, 4)), vocab


def test_the_made_up_relations_text_starts_from_seed_0():
    assert relations_text() == relations_text(0)
    assert relations_text() != relations_text(1)


def test_an_analogy_lists_five_answers_by_default_and_keeps_its_method():
    E, vocab = analogy_table()
    a = analogy(E, vocab, "w0", "w1", "w2")
    assert len(a.answers) == 5 and a.method == METHODS[0]
    assert a.answers == analogy(E, vocab, "w0", "w1", "w2", k=6).answers[:5]
    for method in METHODS[1:]:
        assert analogy(E, vocab, "w0", "w1", "w2", method=method).method == method


def test_missing_words_are_all_named():
    E, vocab = analogy_table()
    with pytest.raises(KeyError) as caught:
        axis_positions(E, vocab, "cat", "dog")
    assert caught.value.args[0] == "not in the vocabulary: cat, dog"
    with pytest.raises(KeyError) as caught:
        analogy(E, vocab, "w0", "cat", "dog")
    assert caught.value.args[0] == "not in the vocabulary: cat, dog"


def test_odd_one_out_scores_are_mean_cosines_with_the_others():
    import numpy as np

    from core.relations import odd_one_out

    E = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [5.0, 5.0]])
    odd, scores = odd_one_out(E, ["a", "b", "c", "d"], ["a", "b", "c"])
    # cosines: a.b 0.8, a.c 0, b.c 0.6; each word's mean over the two others
    assert odd == "c"
    assert scores == pytest.approx({"a": 0.4, "b": 0.7, "c": 0.3}, abs=1e-12)


def test_analogies_name_what_is_missing_and_list_k_answers():
    from core.relations import accuracy, analogy, axis_positions

    vocab = ["man", "king", "woman", "queen", "x", "y", "z"]
    E = np.array([[1.0, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1], [1, 0.2, 0.1], [0.3, 0.3, 0.3], [0, 0.1, 1]])
    with pytest.raises(KeyError) as caught:
        analogy(E, vocab, "man", "prince", "aunt")
    assert caught.value.args == ("not in the vocabulary: prince, aunt",)
    refused(lambda: analogy(E, vocab, "man", "king", "woman", method="sum"),
            "method must be one of b - a + c, nearest to b, nearest to c.")
    r = analogy(E, vocab, "man", "king", "woman", expected="queen")
    assert (r.a, r.b, r.c, r.expected, r.method) == ("man", "king", "woman", "queen", "b - a + c")
    assert [w for w, _ in r.answers] == ["queen", "z", "y", "x"] and r.correct    # k = 5, but 4 are left
    assert len(analogy(E, vocab, "man", "king", "woman", k=2).answers) == 2
    # the question's four words are the whole vocabulary: it is still asked (and the one word
    # left after the question's own three is the answer, whatever the method)
    assert accuracy(E[:4], vocab[:4], [("man", "king", "woman", "queen")]) == {
        "b - a + c": (1, 1), "nearest to b": (1, 1), "nearest to c": (1, 1)}
    with pytest.raises(KeyError) as caught:
        axis_positions(E, vocab, "man", "girl")
    assert caught.value.args == ("not in the vocabulary: girl",)


def test_odd_one_out_rounds_take_three_words_of_one_relation_and_one_of_another():
    from core.relations import RELATIONS, odd_one_out_round

    relation_of = {w: name for name, (_, _, pairs) in RELATIONS.items() for f, s, _ in pairs for w in (f, s)}
    for seed in range(40):
        words, odd = odd_one_out_round(seed)
        others = [w for w in words if w != odd]
        assert len(set(words)) == 4 and odd in words
        assert len({relation_of[w] for w in others}) == 1 and relation_of[odd] != relation_of[others[0]]
