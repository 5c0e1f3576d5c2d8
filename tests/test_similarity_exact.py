"""core.similarity: its size limits on both sides, its defaults, small exact results and messages,
pinned exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core import similarity
from core.similarity import (cosine_matrix, cosine_steps, cosines_to, mean_embedding, nearest, nearest_indices, neighbour_overlap,
    norm, normalize_rows, similarity_order)
from tests.refusal import refused


TOO_LONG = similarity.MAX_VECTOR + 1


def test_cosine_steps_checks_and_products():
    s = cosine_steps([1, 2], [3, -4])
    assert s.products == (3.0, -8.0) and s.dot == -5.0
    assert cosine_steps([1, 0], [-1, 0]).cosine == -1.0
    assert cosine_steps([3], [2]).norm_u == 3.0
    for u, v in (([1, 2], [1, 2, 3]), ([[1, 2]], [[1, 2]])):
        with pytest.raises(ValueError, match=r"^Both vectors need the same length; got \d+ and \d+\.$"):
            cosine_steps(u, v)


def test_mean_embedding_of_a_batch_and_its_message():
    X = np.array([[0.0, 2.0], [4.0, 0.0], [1.0, 1.0]])
    np.testing.assert_array_equal(mean_embedding(X, [[0, 1], [2, 2]]), (X[0] + X[1] + 2 * X[2]) / 4)
    np.testing.assert_array_equal(mean_embedding(X, [2]), X[2])
    with pytest.raises(ValueError, match=r"^A sentence needs at least one word to average\.$"):
        mean_embedding(X, [])


def test_neighbour_overlap_of_two_trainings_names_each_bad_table():
    from core.similarity import neighbour_overlap

    small = np.eye(3)
    huge = np.broadcast_to(np.ones(1), (2**25 + 1, 1))        # one number too many, as a view
    refused(lambda: neighbour_overlap(huge, small, 0),
            "The first table has 33,554,433 numbers; at most 33,554,432 are allowed.")
    refused(lambda: neighbour_overlap(small, huge, 0),
            "The second table has 33,554,433 numbers; at most 33,554,432 are allowed.")
    refused(lambda: neighbour_overlap(np.ones(3), small, 0), "The first table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(small, np.ones(3), 0), "The second table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(small, np.eye(4), 0), "The two tables need the same rows (words); got 3 and 4.")


def test_similarity_names_each_bad_vector_and_index():
    from core.similarity import cosine_steps, cosines_to, mean_embedding, nearest, norm

    refused(lambda: norm(np.ones((2, 2))), "u must be a vector (1 dimension); got 2 dimension(s).")
    refused(lambda: norm(np.broadcast_to(np.ones(1), (1_000_001,))), "u has 1,000,001 numbers; at most 1,000,000 are allowed.")
    assert norm(np.broadcast_to(np.ones(1), (1_000_000,))) == pytest.approx(1000.0, rel=1e-12)
    refused(lambda: cosines_to(np.eye(2), np.ones((1, 2))), "v must be a vector (1 dimension); got 2 dimension(s).")
    refused(lambda: cosine_steps([np.nan, 1.0], [1.0, 1.0]), "u contains NaN or infinite values.")
    refused(lambda: cosine_steps([1.0, 1.0], [1.0, np.inf]), "v contains NaN or infinite values.")
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    refused(lambda: nearest(np.ones(3), 0), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: nearest(X, 3), "i must be at most 2 (and at least 0); got 3.")
    refused(lambda: nearest(X, -1), "i must be at least 0 (and at most 2); got -1.")
    refused(lambda: nearest(X, 0, k=3), "k must be at most 2 (and at least 0); got 3.")
    refused(lambda: nearest(X, 0, k=-1), "k must be at least 0 (and at most 2); got -1.")
    assert nearest(X, 2, k=0) == [] and [j for j, _ in nearest(X, 2, k=2)] == [1, 0]
    refused(lambda: mean_embedding(np.ones(3), [0]), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: mean_embedding(X, [5]), "The ids: 5 is outside the vocabulary (0 to 2).")
    refused(lambda: mean_embedding(X, []), "A sentence needs at least one word to average.")


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


def test_nearest_gives_five_by_default():
    X = np.random.default_rng(3).normal(size=(9, 3))
    assert nearest(X, 4) == nearest(X, 4, k=5) and len(nearest(X, 4)) == 5


def test_normalize_rows_keeps_zero_rows_zero():
    X = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0], [0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(normalize_rows(X), [[0, 0, 0], [0.6, 0, 0.8], [0, 0, 0]])


def test_similarity_order_of_zero_one_and_more_rows():
    assert similarity_order(np.zeros((0, 0))).tolist() == []
    assert similarity_order(np.ones((1, 1))).tolist() == [0]
    S = np.array([[1.0, 0.1, 0.2, 0.9],
                  [0.1, 1.0, 0.8, 0.0],
                  [0.2, 0.8, 1.0, 0.3],
                  [0.9, 0.0, 0.3, 1.0]])
    # start at the largest row total (row 2: 2.3), then always the most similar unplaced row
    assert similarity_order(S).tolist() == [2, 1, 0, 3]
