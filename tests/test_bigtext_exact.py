"""core.bigtext: a text's size, its sentences, the word2vec estimate and the sense split, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import itertools
import string

import pytest

from core.bigtext import MAX_SOFTMAX_VOCAB, text_sentences, text_size
from core.vectors import Vectors


def distinct_words(n):
    """n different two-letter words: aa ab ac ..."""
    return [a + b for a, b in itertools.islice(itertools.product(string.ascii_lowercase, repeat=2), n)]


def test_suggested_epochs_aim_at_1_2_million_words_between_5_and_20():
    """The choice nearest (by ratio) to 1.2 million words read: 10 and 20 meet where
    1.2e6 / n = sqrt(10 * 20), at n = 84,852.8; 5 and 10 at n = 169,705.6."""
    from core.bigtext import suggested_epochs

    cases = {0: 20, 1: 20, 60_000: 20, 63_158: 20, 84_852: 20, 84_853: 10, 96_000: 10, 169_705: 10,
             169_706: 5, 240_000: 5, 1_000_000: 5, 10**9: 5}
    assert {n: suggested_epochs(n) for n in cases} == cases


def test_estimate_scales_the_benchmark_speed_by_the_work_per_word():
    """One cost model: core.run.estimate prices word2vec with core.run.work, in core.budget's
    units, at the same seconds as before the rate moved to core.budget."""
    from core import budget
    from core.run import RunRequest, estimate, work
    from core.skipgram import SkipGramConfig
    from core.word2vec import Word2VecConfig

    def est(n_words, **config):
        return estimate(RunRequest("word2vec", "", Word2VecConfig(**config)), n_words)

    assert (budget.WORD2VEC_WORDS_PER_SECOND, budget.MAX_WORDS_TO_READ) == (50_000, 12_000_000)
    assert budget.WORD2VEC_UNITS_PER_WORD == 72_000 == budget.RATE / 50_000
    # d 100, window 2, K 11: twice the width, half the context words, twice the scores = 2x
    e = est(250_000, d_model=100, window=2, negative=11, epochs=4)
    assert (e.words_to_read, e.within_budget) == (1_000_000, True)
    assert e.seconds == pytest.approx(1_000_000 / 50_000 * 2.0, rel=1e-12)
    assert e.work == pytest.approx(1_000_000 * 72_000 * 2.0, rel=1e-12)
    # a tiny model's work (1/30 of the benchmark's) is counted as a quarter at least
    e = est(100_000, d_model=10, window=1, negative=2, epochs=3)
    assert e.seconds == pytest.approx(300_000 / 50_000 * 0.25, rel=1e-12)
    # d 50, window 5, K 5 is the benchmark itself; the budget includes its last word
    e = est(600_000, d_model=50, window=5, negative=5, epochs=20)
    assert (e.words_to_read, e.seconds, e.within_budget) == (12_000_000, 240.0, True)
    assert not est(600_001, epochs=20).within_budget
    # work counts the text's words itself when not told: 6 words x 2 epochs
    request = RunRequest("word2vec", "the cat sat\nthe dog sat", Word2VecConfig(epochs=2))
    assert work(request) == budget.word2vec_work(12, 50, 5, 5) == 12 * 72_000
    with pytest.raises(ValueError, match="word2vec"):
        estimate(RunRequest("softmax", "a b", SkipGramConfig()), 2)


def test_sense_split_groups_the_neighbours_along_their_main_direction():
    import numpy as np

    from core.bigtext import sense_split

    vocab = ["bank", "coins", "money", "cash", "river", "x"]
    E = np.array([[1.0, 1.0], [1.0, 0.45], [0.5, 0.15], [10.0, 1.0], [0.2, 1.0], [-1.0, -1.0]])
    s = sense_split(Vectors(vocab, E), "bank", k=4)
    # cosines to bank, by hand; "x" points the other way and is not among the 4 nearest
    cos = {"coins": 1.45 / np.sqrt(2 * 1.2025), "money": 0.65 / np.sqrt(2 * 0.2725),
           "river": 1.2 / np.sqrt(2 * 1.04), "cash": 11 / np.sqrt(2 * 101)}
    names = ["coins", "money", "river", "cash"]                  # 0.935, 0.880, 0.832, 0.774
    assert s.word == "bank" and [w for w, _ in s.neighbours] == names
    assert [c for _, c in s.neighbours] == pytest.approx([cos[n] for n in names], rel=1e-12)
    # the split: unit rows (cash's length of 10 must not pull the direction), centred, projected
    # on the covariance's top eigenvector with its largest entry made positive; group 1 is the
    # side at or above zero: three money words against one river word
    rows = E[[1, 2, 4, 3]]
    U = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    Uc = U - U.mean(axis=0)
    v = np.linalg.eigh(Uc.T @ Uc)[1][:, -1]
    v = v * np.sign(v[np.argmax(np.abs(v))])
    up = Uc @ v >= 0
    assert s.groups == {"group 1": [n for n, u in zip(names, up) if u],
                        "group 2": [n for n, u in zip(names, up) if not u]}
    assert s.groups == {"group 1": ["coins", "money", "cash"], "group 2": ["river"]}
    # bank's cosine to each group's centroid (the mean of its members' unit rows)
    for g, key in (("group 1", "centroid_a"), ("group 2", "centroid_b")):
        c = U[[names.index(w) for w in s.groups[g]]].mean(axis=0)
        want = np.array([1.0, 1.0]) @ c / (np.sqrt(2) * np.linalg.norm(c))
        assert getattr(s.position, key) == pytest.approx(want, rel=1e-12)
    assert (s.position.word, s.position.group_a, s.position.group_b) == ("bank", "group 1", "group 2")
    # the map: bank then its neighbours, nearest first, at their true distances (2-D rows)
    pts = E[[0, 1, 2, 4, 3]]
    want_d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    got_d = np.linalg.norm(s.coords[:, None] - s.coords[None], axis=2)
    assert s.coords.shape == (5, 2) and got_d == pytest.approx(want_d, abs=1e-9)


def test_sense_split_of_neighbours_all_one_way_still_makes_two_groups():
    import warnings

    import numpy as np

    from core.bigtext import sense_split

    vocab = ["w", "a", "b", "c", "d", "zero"]
    E = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 0.0], [0.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # no mean of an empty group, no 0 / 0
        s = sense_split(Vectors(vocab[:5], E[:5]), "w", k=4)
        # every neighbour has cosine 0 to w: ties keep the vocabulary's order; one direction,
        # no spread to split along: the nearer half, then the rest
        assert [n for n, _ in s.neighbours] == ["a", "b", "c", "d"]
        assert s.groups == {"group 1": ["a", "b"], "group 2": ["c", "d"]}
        assert (s.position.centroid_a, s.position.centroid_b) == (0.0, 0.0)
        # a zero row is a neighbour too (cosine 0) and stays a zero "unit" row: centred, the
        # four (1, 0) rows sit at +0.2 and the zero row at -0.8 along (1, 0)
        s = sense_split(Vectors(vocab, E), "w", k=5)
    assert s.groups == {"group 1": ["a", "b", "c", "d"], "group 2": ["zero"]}


def test_sense_split_default_k_clamp_and_refusals():
    import numpy as np

    from core.bigtext import sense_split

    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(20)]
    E = rng.normal(size=(20, 3))
    assert len(sense_split(Vectors(vocab, E), "w0").neighbours) == 12                # k = 12 by default
    assert len(sense_split(Vectors(vocab[:5], E[:5]), "w0", k=12).neighbours) == 4   # at most V - 1
    assert len(sense_split(Vectors(vocab[:3], E[:3]), "w0", k=12).neighbours) == 2
    with pytest.raises(ValueError, match="^Splitting neighbours needs at least 3 words in the vocabulary.$"):
        sense_split(Vectors(vocab[:2], E[:2]), "w0")
    with pytest.raises(ValueError, match="^Splitting neighbours needs at least 3 words"):
        sense_split(Vectors(vocab, E), "w0", k=1)
    with pytest.raises(KeyError, match="'nope' is not in the vocabulary"):
        sense_split(Vectors(vocab, E), "nope")


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
