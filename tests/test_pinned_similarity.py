"""core.similarity's size limits and small results, pinned where mutation testing
(docs/quality.md, section 4) found them loose: a limit dropped or moved by one, the dot
product of orthogonal or parallel vectors, the default number of neighbours.

The table limits (256 MiB, 5,000 rows) are lowered with monkeypatch so that a test can reach
them with a small table: the functions read the module's limit when they are called.
"""
import numpy as np
import pytest

from core import similarity
from core.similarity import (cosine_matrix, cosine_steps, cosines_to, mean_embedding, nearest,
                             nearest_indices, neighbour_overlap, norm)

TOO_LONG = similarity.MAX_VECTOR + 1


def refused(call, message, kind=ValueError):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_the_dot_product_of_orthogonal_and_of_parallel_vectors():
    s = cosine_steps([1.0, 0.0], [0.0, 1.0])
    assert (s.dot, s.cosine) == (0.0, 0.0)
    s = cosine_steps([2.0, 0.0], [3.0, 0.0])                 # scaled to unit entries, their product is 1
    assert (s.dot, s.norm_u, s.norm_v, s.cosine) == (6.0, 2.0, 3.0, 1.0)
    assert cosine_steps([-2.0, 0.0], [3.0, 0.0]).dot == -6.0


def test_a_vector_longer_than_the_limit_is_refused_by_its_own_name():
    long = np.ones(TOO_LONG)
    message = f"u has {TOO_LONG:,} numbers; at most {similarity.MAX_VECTOR:,} are allowed."
    refused(lambda: cosine_steps(long, long), message)
    refused(lambda: norm(long), message)
    refused(lambda: cosines_to(np.ones((1, TOO_LONG)), long),
            f"v has {TOO_LONG:,} numbers; at most {similarity.MAX_VECTOR:,} are allowed.")
    assert cosines_to(np.ones((1, 4)), np.ones(4)).tolist() == [1.0]


def test_the_length_of_an_empty_vector_is_zero():
    assert norm([]) == 0.0 and norm(np.zeros(3)) == 0.0


def test_tables_larger_than_the_limit_are_refused(monkeypatch):
    monkeypatch.setattr(similarity, "MAX_TABLE", 12)
    X = np.arange(1.0, 13.0).reshape(4, 3)                    # 12 entries: allowed
    assert mean_embedding(X, [0, 3]).tolist() == [5.5, 6.5, 7.5]
    assert [j for j, _ in nearest(X, 0, k=1)] == [1]
    big = np.ones((5, 3))                                     # 15 entries
    refused(lambda: mean_embedding(big, [0]), "The table has 15 numbers; at most 12 are allowed.")
    refused(lambda: nearest(big, 0), "The table has 15 numbers; at most 12 are allowed.")


def test_a_cosine_matrix_of_exactly_the_row_limit(monkeypatch):
    monkeypatch.setattr(similarity, "MAX_ROWS", 3)
    np.testing.assert_array_equal(cosine_matrix(np.eye(3)), np.eye(3))
    refused(lambda: cosine_matrix(np.eye(4)), "A cosine matrix of 4 rows is too large; at most 3.")


def test_neighbour_overlap_looks_at_five_neighbours_by_default():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(9, 3))
    Y = X + rng.normal(scale=0.3, size=(9, 3))

    def top(T, k):                                            # by brute force: sort every cosine
        U = T / np.linalg.norm(T, axis=1, keepdims=True)
        c = U @ U[0]
        return [j for j in np.argsort(-c, kind="stable") if j != 0][:k]

    for k in (5, 6):
        expected = [j for j in top(X, k) if j in top(Y, k)]
        assert neighbour_overlap(X, Y, 0, k=k) == expected
    assert neighbour_overlap(X, Y, 0) == [j for j in top(X, 5) if j in top(Y, 5)]
    assert neighbour_overlap(X, Y, 0) != neighbour_overlap(X, Y, 0, k=6)     # this case tells them apart


def test_own_columns_of_several_rows():
    S = np.array([[5.0, 4.0, 3.0, 2.0], [1.0, 2.0, 3.0, 4.0]])
    np.testing.assert_array_equal(nearest_indices(S, 2, own=[[0, 1], [3, 2]]), [[2, 3], [1, 0]])


def test_normalize_rows_of_a_table_without_columns_and_past_the_limit(monkeypatch):
    from core.similarity import normalize_rows

    assert normalize_rows(np.zeros((3, 0))).shape == (3, 0)
    np.testing.assert_array_equal(normalize_rows(np.array([[3.0, 4.0], [0.0, 0.0]])), [[0.6, 0.8], [0.0, 0.0]])
    monkeypatch.setattr(similarity, "MAX_TABLE", 12)
    assert normalize_rows(np.ones((4, 3))).shape == (4, 3)
    refused(lambda: normalize_rows(np.ones((5, 3))), "The table has 15 numbers; at most 12 are allowed.")
