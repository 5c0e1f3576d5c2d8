"""bench.word2vec's measures, without gensim: neighbour agreement, Spearman, WordSim parsing.

No timings are asserted (benchmarks are scripts that print tables).
"""
import numpy as np
import pytest

from bench.word2vec import agreement, read_wordsim, spearman, top_neighbours, wordsim


def test_spearman_against_hand_computed_ranks():
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # ties get their mean rank: x ranks [0, 1.5, 1.5, 3], y ranks [0, 1, 2, 3]
    expected = np.corrcoef([0, 1.5, 1.5, 3], [0, 1, 2, 3])[0, 1]
    assert spearman([1, 5, 5, 9], [1, 2, 3, 4]) == pytest.approx(expected)


def test_top_neighbours_and_agreement():
    E = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9], [-1.0, 0.0]])
    vocab = ["a", "b", "c", "d", "e"]
    nb = top_neighbours(E, vocab, ["a", "c"], k=2)
    assert nb == {"a": {"b", "d"}, "c": {"d", "b"}}
    other = {"a": {"b", "e"}, "c": {"d", "b"}}
    assert agreement(nb, other, k=2) == pytest.approx((0.5 + 1.0) / 2)


def test_wordsim_reads_the_file_and_uses_covered_pairs(tmp_path):
    path = tmp_path / "ws.tsv"
    path.write_text("# comment\nWord 1\tWord 2\tHuman (mean)\na\tb\t9.0\na\tc\t1.0\nb\tc\t2.0\nx\ty\t5.0\n")
    pairs = read_wordsim(str(path))
    assert pairs == [("a", "b", 9.0), ("a", "c", 1.0), ("b", "c", 2.0), ("x", "y", 5.0)]
    E = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    rho, covered = wordsim(E, ["a", "b", "c"], pairs)
    assert covered == 3 and rho == pytest.approx(1.0)
