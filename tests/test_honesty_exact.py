"""core.honesty: rotations, the rotation check and neighbour overlap, their defaults and refusals,
pinned exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core import honesty
from core.honesty import neighbour_overlap, random_orthogonal, rotate, rotation_check
from tests.refusal import refused


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


def test_neighbours_of_marks_which_table_neighbours_the_picture_keeps():
    import numpy as np

    from core.honesty import neighbour_overlap

    X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
    Y = np.array([[0.0], [5.0], [1.0], [6.0]])
    o = neighbour_overlap(X, Y, k=2)
    # row 0: by cosine 1 (0.994), then 3 (0.110); in the picture its nearest are 2 (1 away), 1 (5 away)
    assert o.neighbours_of(0) == [(1, True), (3, False)]
    # row 1: by cosine 0 (0.994), then 3 (0.220); in the picture 3 (1 away), 2 (4 away)
    assert o.neighbours_of(1) == [(0, False), (3, True)]
    assert o.neighbours_of(3) == [(2, True), (1, True)]
    with pytest.raises(ValueError, match=r"^i must be at least 0 \(and at most 3\); got -1\.$"):
        o.neighbours_of(-1)
    with pytest.raises(ValueError, match=r"^i must be at most 3 \(and at least 0\); got 4\.$"):
        o.neighbours_of(4)


def test_neighbour_overlap_of_exactly_the_row_limit(monkeypatch):
    monkeypatch.setattr(honesty, "MAX_ROWS", 3)
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    assert honesty.neighbour_overlap(X, X[:, :1], k=1).k == 1
    refused(lambda: honesty.neighbour_overlap(np.eye(4), np.eye(4), k=1),
            "Neighbours of 4 rows need an n x n matrix; at most 3 rows.")


def test_honesty_and_mixing_name_each_bad_input():
    from core.context_mix import mixing_weights
    from core.honesty import neighbour_overlap, random_orthogonal

    refused(lambda: mixing_weights(0), "T must be at least 1 (and at most 10,000); got 0.")
    refused(lambda: mixing_weights(10_001), "T must be at most 10,000 (and at least 1); got 10,001.")
    refused(lambda: mixing_weights(3, window=0), "window must be at least 1; got 0.")
    refused(lambda: mixing_weights(3, self_weight=1.5), "self_weight must be at most 1; got 1.5.")
    refused(lambda: mixing_weights(3, self_weight=-0.5), "self_weight must be at least 0; got -0.5.")
    assert mixing_weights(1).tolist() == [[1.0]]              # alone in its sentence: all itself
    X = np.eye(3)
    refused(lambda: neighbour_overlap(X, np.ones(3)), "The picture must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(np.broadcast_to(np.ones(1), (2**24 + 1, 1)), X),
            "The table has 16,777,217 numbers; at most 16,777,216 are allowed.")
    refused(lambda: neighbour_overlap(X, np.broadcast_to(np.ones(1), (2**24 + 1, 1))),
            "The picture has 16,777,217 numbers; at most 16,777,216 are allowed.")
    refused(lambda: neighbour_overlap(X, X, k=0), "k must be at least 1; got 0.")
    refused(lambda: random_orthogonal(0), "d must be at least 1 (and at most 2,048); got 0.")
    refused(lambda: random_orthogonal(2049), "d must be at most 2,048 (and at least 1); got 2,049.")
    refused(lambda: random_orthogonal(2, seed=-1), "seed must be at least 0; got -1.")
    assert random_orthogonal(1).shape == (1, 1) and abs(random_orthogonal(1, seed=0)[0, 0]) == 1.0


def test_neighbour_overlap_compares_three_neighbours_by_default():
    X = np.random.default_rng(1).normal(size=(8, 4))
    Y = np.random.default_rng(2).normal(size=(8, 2))
    r = neighbour_overlap(X, Y)
    assert r.k == 3 and r.table_neighbours.shape == (8, 3)
    assert r.mean == neighbour_overlap(X, Y, k=3).mean


def test_neighbour_overlap_refuses_rows_that_do_not_match():
    with pytest.raises(ValueError, match=r"^The table and the picture need the same rows; got 4 and 3\.$"):
        neighbour_overlap(np.ones((4, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"^Neighbours need at least 2 rows\.$"):
        neighbour_overlap(np.ones((1, 2)), np.ones((1, 2)))


def test_random_rotations_use_seed_zero_by_default():
    np.testing.assert_array_equal(random_orthogonal(4), random_orthogonal(4, seed=0))
    assert not np.allclose(random_orthogonal(4), random_orthogonal(4, seed=1))
    X = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(rotate(X), X @ random_orthogonal(4, seed=0))


def test_the_rotation_check_counts_only_entries_that_moved():
    # A rotation that happens to keep some entries: a 1-D table turned by +-1 keeps every
    # entry or flips it; entries equal to 0 never move.
    X = np.array([[0.0], [2.0], [0.0], [-1.0]])
    r = rotation_check(X, seed=0)
    q = float(random_orthogonal(1, seed=0)[0, 0])
    assert q in (1.0, -1.0)
    assert r.share_entries_changed == (0.0 if q == 1.0 else 0.5)


def test_tied_neighbours_come_in_index_order_even_among_many():
    from core.generated import group_recovery
    from core.honesty import nearest_indices

    S = np.tile(np.array([1.0, 0.5] * 20), (40, 1))          # 20 tied best columns per row
    np.testing.assert_array_equal(nearest_indices(S, 6)[1], [0, 2, 4, 6, 8, 10])
    vocab = [f"w{i}" for i in range(40)]
    E = np.array([[1.0, 0.0]] * 20 + [[0.0, 1.0]] * 20)       # two groups of 20 identical rows
    r = group_recovery(E, vocab, {"a": vocab[:20], "b": vocab[20:]}, k=5)
    assert r.neighbours["w0"] == ["w1", "w2", "w3", "w4", "w5"]
    assert r.neighbours["w20"] == ["w21", "w22", "w23", "w24", "w25"]
