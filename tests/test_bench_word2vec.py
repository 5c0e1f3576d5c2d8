"""bench.word2vec's measures, without gensim: neighbour agreement, Spearman, WordSim parsing.

No timings are asserted (benchmarks are scripts that print tables).
"""
import numpy as np
import pytest

from bench.word2vec import (agreement, agreement_matrix, core_variants, gap_interval, paired_difference,
                            pair_values, parse_settings, parse_variant, read_wordsim, spearman, top_neighbours, wordsim)


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


def test_pair_values_take_each_pair_once():
    M = np.array([[1.0, 0.5, 0.7], [0.5, 1.0, 0.6], [0.7, 0.6, 1.0]])
    assert sorted(pair_values(M, same_side=True).tolist()) == [0.5, 0.6, 0.7]   # no run against itself
    assert pair_values(M[:2], same_side=False).size == 6


def test_agreement_matrix_compares_every_run_with_every_other():
    a, b = {"x": {"p", "q"}}, {"x": {"p", "r"}}
    np.testing.assert_allclose(agreement_matrix([a, b], [a]), [[0.2], [0.1]])   # shared / k, k = 10


def test_gap_interval_is_the_difference_of_means_and_brackets_it():
    rng = np.random.default_rng(1)
    gg = np.full((5, 5), 0.55) + rng.normal(0, 0.005, (5, 5))
    gg = (gg + gg.T) / 2
    np.fill_diagonal(gg, 1.0)
    cg = 0.54 + rng.normal(0, 0.005, (5, 4))
    gap, lo, hi = gap_interval(gg, cg, draws=500)
    assert gap == pytest.approx(cg.mean() - gg[np.triu_indices(5, k=1)].mean())
    assert lo < gap < hi and hi - lo < 0.02                # brackets the estimate, narrowly here
    assert hi < 0                                          # 0.01 below with noise 0.005: a clear gap
    same = gap_interval(gg, gg[:, :4] * 0 + gg[np.triu_indices(5, k=1)].mean(), draws=500)
    assert same[0] == pytest.approx(0.0, abs=1e-12) and same[1] < 0 < same[2]


def test_core_variants_put_the_default_row_first_and_label_each_block_size():
    expected = ("core, expected window", "expected_window=true")
    assert core_variants(None) == [("core", ""), expected]          # every run: the default and expected window
    assert core_variants(None, expected_window=False) == [("core", "")]
    assert core_variants([24, 64, 24], expected_window=False) == [
        ("core", ""), ("core, blocks of 24 words", "block_words=24"),
        ("core, blocks of 64 words", "block_words=64")]   # a repeat is one row
    assert core_variants(None, context_negatives=True, expected_window=False) == [
        ("core", ""), ("core, negatives per context word", "negative_sets=2w")]
    assert core_variants(None, variants=["block_passes=3", "block_passes=3"]) == [
        ("core", ""), expected, ("core, block_passes=3", "block_passes=3")]


@pytest.mark.parametrize("window", [2, 5])
def test_parse_variant_reads_config_fields_and_multiples_of_the_window(window):
    got = parse_variant("negative_sets=2w, block_passes=2w+1,block_words=48,sample=1e-4", window)
    assert got == {"negative_sets": 2 * window, "block_passes": 2 * window + 1, "block_words": 48,
                   "sample": 1e-4}
    assert isinstance(got["block_words"], int)
    assert parse_variant("expected_window=true", window) == {"expected_window": True}
    assert parse_variant("expected_window=False", window) == {"expected_window": False}
    for bad in ["block_passes", "=3", "block passes=3", "block_passes=three", "block_passes=2x"]:
        with pytest.raises(ValueError, match="field=number or field=true/false"):
            parse_variant(bad, window)


def test_paired_difference_is_per_core_seed_with_its_standard_error():
    base = np.array([[0.50, 0.52, 0.54], [0.52, 0.54, 0.50]])      # 2 gensim seeds x 3 core seeds
    other = base + np.array([[0.001, 0.003, 0.002], [0.003, 0.001, 0.002]])
    mean, se = paired_difference(other, base)
    # each core seed's mean over gensim's seeds moves by 0.002: no spread, so no error
    assert mean == pytest.approx(0.002) and se == pytest.approx(0.0, abs=1e-12)
    shifted = base + np.array([0.0, 0.002, 0.004])                 # core seeds move by 0, 2, 4 thousandths
    mean, se = paired_difference(shifted, base)
    assert mean == pytest.approx(0.002) and se == pytest.approx(0.002 / np.sqrt(3))
    assert paired_difference(base, shifted)[0] == pytest.approx(-0.002)   # the sign says which row is higher


def test_parse_settings_reads_d_and_window_pairs():
    assert parse_settings("50:5,100:2") == [(50, 5), (100, 2)]
    assert parse_settings(" 50:2 ") == [(50, 2)]
    for bad in ("50", "50:x", "50:5,", "0:5"):
        with pytest.raises(ValueError):
            parse_settings(bad)
