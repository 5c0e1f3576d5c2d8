"""Lookup = one-hot times matrix; the sparse backward pass (docs/lesson.md sections 2 and 6)."""
import numpy as np
import pytest

from core.embedding import (init_table, lookup, lookup_backward, one_hot, one_hot_lookup,
                            sgd_step)
from tests.gradcheck import numerical_gradient


def test_one_hot_times_matrix_is_the_row():
    W = np.array([[1, 2], [3, 4], [5, 6]])
    np.testing.assert_array_equal(one_hot([1], 3) @ W, [[3, 4]])


def test_character_model_row_20_is_t():
    W1 = np.random.default_rng(1).normal(size=(27, 16))
    assert np.array_equal(one_hot(20, 27) @ W1, W1[20])  # exactly, not approximately
    assert np.array_equal(one_hot_lookup(W1, [[20, 1, 0]]), lookup(W1, [[20, 1, 0]]))


def test_lookup_shapes():
    W = init_table(50, 8, rng=0)
    ids = np.array([[1, 2, 3], [4, 5, 6]])
    assert lookup(W, ids).shape == (2, 3, 8)


@pytest.mark.parametrize("bad", [[-1], [50], [[0, 99]]])
def test_ids_outside_the_vocabulary_are_refused(bad):
    with pytest.raises(IndexError, match="outside the vocabulary"):
        lookup(init_table(50, 4), bad)


def test_init_std():
    assert abs(init_table(5000, 64, std=0.02, rng=0).std() - 0.02) < 0.001
    assert abs(init_table(5000, 64, std=1.0, rng=0).std() - 1.0) < 0.02


def test_backward_touches_only_used_rows_and_sums_repeats():
    ids = np.array([[15, 824, 391, 15]])
    g = np.random.default_rng(0).normal(size=(1, 4, 4))
    grad = lookup_backward(ids, g, 50_257)
    touched = np.flatnonzero(np.any(grad != 0, axis=1))
    assert touched.tolist() == [15, 391, 824]
    np.testing.assert_allclose(grad[15], g[0, 0] + g[0, 3])
    np.testing.assert_array_equal(grad[824], g[0, 1])
    assert np.count_nonzero(grad) == 3 * 4


def test_backward_matches_finite_differences():
    rng = np.random.default_rng(3)
    W = rng.normal(size=(6, 3))
    ids = np.array([[0, 2, 2, 5]])
    target = rng.normal(size=(1, 4, 3))

    def loss(W):
        return 0.5 * ((lookup(W, ids) - target) ** 2).sum()

    grad = lookup_backward(ids, lookup(W, ids) - target, 6)
    num = numerical_gradient(lambda: loss(W), W)
    np.testing.assert_allclose(grad, num, atol=1e-7)


def test_sgd_step_changes_only_the_used_rows():
    table = init_table(50_257, 4, std=0.02, rng=0)
    ids = np.array([[15, 824, 391]])
    grad = lookup_backward(ids, np.ones((1, 3, 4)), 50_257)
    upd = sgd_step(table, grad, lr=0.1)
    assert upd.changed_rows.tolist() == [15, 391, 824]
    np.testing.assert_allclose(upd.table[15], table[15] - 0.1)
    untouched = np.setdiff1d(np.arange(50_257), [15, 391, 824])
    assert np.array_equal(upd.table[untouched], table[untouched])
