"""Projection honesty and meaningless axes (docs/lesson.md section 8)."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.corpus import GUIDE_TEXT, Corpus
from core.honesty import neighbour_overlap, random_orthogonal, rotate
from core.projection import pca
from core.similarity import cosine, cosine_matrix, nearest_indices, normalize_rows
from core.skipgram import train


@pytest.fixture(scope="module")
def reference_table():
    return train(Corpus.from_text(GUIDE_TEXT)).E


def brute_force_overlap(X, Y, k):
    """The definition, one word at a time, with plain loops."""
    n = len(X)
    shares = []
    for i in range(n):
        others = [j for j in range(n) if j != i]
        by_cos = sorted(others, key=lambda j: (-cosine(X[i], X[j]), j))[:k]
        by_dist = sorted(others, key=lambda j: (sum((Y[i] - Y[j]) ** 2), j))[:k]
        shares.append(len(set(by_cos) & set(by_dist)) / k)
    return np.array(shares)


def test_picture_that_is_the_table_keeps_everything():
    """For unit rows |u - v|^2 = 2 - 2 cos(u, v), so distance and cosine rank alike."""
    X = normalize_rows(np.random.default_rng(0).normal(size=(15, 2)))
    for k in (1, 3, 14):
        r = neighbour_overlap(X, X, k=k)
        assert r.mean == 1.0 and (r.per_row == 1.0).all()


@pytest.mark.parametrize("seed, k", [(0, 1), (1, 3), (2, 5)])
def test_matches_brute_force_loop(seed, k):
    rng = np.random.default_rng(seed)
    X, Y = rng.normal(size=(20, 6)), rng.normal(size=(20, 2))
    r = neighbour_overlap(X, Y, k=k)
    np.testing.assert_array_equal(r.per_row, brute_force_overlap(X, Y, k))
    assert r.mean == pytest.approx(r.per_row.mean())


def test_k_is_clamped_to_the_other_rows():
    rng = np.random.default_rng(0)
    r = neighbour_overlap(rng.normal(size=(5, 3)), rng.normal(size=(5, 2)), k=100)
    assert r.k == 4 and r.mean == 1.0          # every other word is a neighbour in both
    assert r.table_neighbours.shape == r.picture_neighbours.shape == (5, 4)


def test_ties_go_to_the_lower_index_and_self_is_excluded():
    assert (nearest_indices(np.zeros((4, 4)), k=2) == [[1, 2], [0, 2], [0, 1], [0, 1]]).all()
    r = neighbour_overlap(np.eye(4), np.zeros((4, 2)), k=2)  # everything tied everywhere
    np.testing.assert_array_equal(r.table_neighbours, r.picture_neighbours)


def test_a_random_picture_scores_about_k_over_n_minus_one():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 8))
    scores = [neighbour_overlap(X, rng.normal(size=(30, 2)), k=5).mean for _ in range(200)]
    assert np.mean(scores) == pytest.approx(5 / 29, abs=0.02)


def test_reference_table_pca_picture(reference_table):
    r = neighbour_overlap(reference_table, pca(reference_table).coords, k=3)
    assert r.per_row.shape == (12,) and 0 < r.mean < 1
    assert set(np.unique(r.per_row * 3)) <= {0.0, 1.0, 2.0, 3.0}


def test_bad_input_is_refused():
    with pytest.raises(ValueError, match="same rows"):
        neighbour_overlap(np.eye(4), np.eye(3))
    with pytest.raises(ValueError, match="at least 2"):
        neighbour_overlap(np.eye(1), np.eye(1))
    with pytest.raises(ValueError, match="k must"):
        neighbour_overlap(np.eye(3), np.eye(3), k=0)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 25), d=st.integers(1, 6),
       k=st.integers(1, 30))
def test_overlap_is_a_share_and_ignores_turns_of_either_side(seed, n, d, k):
    rng = np.random.default_rng(seed)
    X, Y = rng.normal(size=(n, d)), rng.normal(size=(n, 2))
    r = neighbour_overlap(X, Y, k=k)
    assert ((0 <= r.per_row) & (r.per_row <= 1)).all() and 0 <= r.mean <= 1
    np.testing.assert_allclose(r.per_row * r.k, np.round(r.per_row * r.k))
    # Turning the table, or turning, shifting and scaling the picture, changes no neighbour.
    turned = neighbour_overlap(rotate(X, seed), 3 * Y @ random_orthogonal(2, seed) + 1, k=k)
    np.testing.assert_array_equal(turned.per_row, r.per_row)


@pytest.mark.parametrize("d", [1, 2, 4, 16])
def test_random_orthogonal_is_orthogonal_and_seeded(d):
    Q = random_orthogonal(d, seed=3)
    np.testing.assert_allclose(Q.T @ Q, np.eye(d), atol=1e-12)
    np.testing.assert_allclose(Q @ Q.T, np.eye(d), atol=1e-12)
    np.testing.assert_array_equal(Q, random_orthogonal(d, seed=3))
    assert d == 1 or not np.allclose(Q, random_orthogonal(d, seed=4))


def test_random_orthogonal_is_unbiased():
    """Without the sign fix, QR puts every first column on one side (mean near -0.64)."""
    first = np.array([random_orthogonal(2, seed=s)[0, 0] for s in range(2000)])
    dets = np.array([np.linalg.det(random_orthogonal(2, seed=s)) for s in range(400)])
    assert abs(first.mean()) < 0.06                  # cos(angle) averages 0 on the circle
    assert (first ** 2).mean() == pytest.approx(0.5, abs=0.05)
    assert 0.4 < (dets > 0).mean() < 0.6             # rotations and reflections alike


def test_rotation_keeps_every_cosine_and_changes_every_column(reference_table):
    X = reference_table
    Xr = rotate(X, seed=0)
    np.testing.assert_allclose(cosine_matrix(Xr), cosine_matrix(X), atol=1e-12)
    np.testing.assert_allclose(np.linalg.norm(Xr, axis=1), np.linalg.norm(X, axis=1))
    for j in range(X.shape[1]):
        assert not np.allclose(Xr[:, j], X[:, j], atol=1e-3)
    np.testing.assert_allclose(pca(Xr).explained, pca(X).explained)  # PCA picture's spread too


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 15), d=st.integers(2, 8))
def test_rotation_property(seed, n, d):
    X = np.random.default_rng(seed).normal(size=(n, d))
    Xr = rotate(X, seed)
    np.testing.assert_allclose(Xr @ Xr.T, X @ X.T, atol=1e-9)      # all dot products kept
    np.testing.assert_allclose(cosine_matrix(Xr), cosine_matrix(X), atol=1e-9)
