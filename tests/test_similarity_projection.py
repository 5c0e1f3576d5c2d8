"""Cosine (docs/lesson.md section 4), neighbours, mean embedding, PCA (section 8)."""
import numpy as np
import pytest

from core.corpus import Corpus
from core.projection import pca, procrustes_rotation
from core.similarity import (cosine, cosine_matrix, cosine_steps, mean_embedding, nearest,
                             similarity_order)


def test_worked_cosine():
    s = cosine_steps([1, 2, 2], [2, 1, 2])
    assert (s.dot, s.norm_u, s.norm_v) == (8.0, 3.0, 3.0)
    assert round(s.cosine, 3) == 0.889


def test_one_hot_vectors_are_orthogonal():
    S = cosine_matrix(np.eye(12))
    assert (S[~np.eye(12, dtype=bool)] == 0).all()


def test_cosine_ignores_length_but_dot_does_not():
    assert cosine([1, 2], [10, 20]) == pytest.approx(1.0)
    assert cosine([1, 2], [-1, -2]) == pytest.approx(-1.0)


def test_zero_vector_gives_zero_not_nan():
    with np.errstate(all="raise"):
        assert cosine([0, 0, 0], [1, 2, 3]) == 0.0
        S = cosine_matrix(np.array([[0.0, 0], [1, 1]]))
    assert np.isfinite(S).all()


def test_cosine_matrix_matches_pairwise_loop():
    X = np.random.default_rng(0).normal(size=(7, 4))
    S = cosine_matrix(X)
    for i in range(7):
        for j in range(7):
            assert S[i, j] == pytest.approx(cosine(X[i], X[j]))


def test_nearest_excludes_itself_and_sorts():
    X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [-1, 0]])
    out = nearest(X, 0, k=3)
    assert [j for j, _ in out] == [1, 2, 3]
    assert out[0][1] > out[1][1] > out[2][1]


def test_mean_embedding_is_blind_to_order():
    c = Corpus.from_text("the cat saw the dog")
    X = np.random.default_rng(0).normal(size=(c.V, 4))
    a = mean_embedding(X, c.encode("the cat saw the dog"))
    b = mean_embedding(X, c.encode("the dog saw the cat"))
    np.testing.assert_array_equal(a, b)


def test_similarity_order_is_a_permutation():
    S = cosine_matrix(np.random.default_rng(0).normal(size=(9, 3)))
    assert sorted(similarity_order(S).tolist()) == list(range(9))


def test_pca_matches_numpy_svd():
    X = np.random.default_rng(0).normal(size=(12, 4)) * [3, 2, 1, 0.5]
    p = pca(X, k=2)
    Xc = X - X.mean(0)
    U, s, Vt = np.linalg.svd(Xc, full_matrices=False)
    assert p.explained == pytest.approx(s[:2] ** 2 / (s ** 2).sum())
    assert p.kept == pytest.approx((s[0] ** 2 + s[1] ** 2) / (s ** 2).sum())
    for i in range(2):  # same directions up to sign, and the sign rule holds
        assert abs(p.components[i] @ Vt[i]) == pytest.approx(1.0)
        assert p.components[i][np.argmax(np.abs(p.components[i]))] > 0
    np.testing.assert_allclose(np.abs(p.coords), np.abs(U[:, :2] * s[:2]), atol=1e-12)


def test_pca_picture_does_not_depend_on_column_order():
    """Reordering columns reorders each direction's entries but keeps the largest one
    positive, so the sign rule draws the very same picture."""
    X = np.random.default_rng(1).normal(size=(10, 3))
    np.testing.assert_allclose(pca(X).coords, pca(X[:, [2, 0, 1]]).coords, atol=1e-12)


def test_pca_with_more_directions_than_columns():
    p = pca(np.random.default_rng(0).normal(size=(5, 1)), k=2)
    assert p.coords.shape == (5, 2) and p.explained[1] == 0


def test_procrustes_recovers_a_rotation():
    A = np.random.default_rng(0).normal(size=(20, 2))
    t = 0.7
    R = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
    np.testing.assert_allclose(procrustes_rotation(A, A @ R), R, atol=1e-12)
