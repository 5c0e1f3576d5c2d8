"""t-SNE (docs/lesson.md section 8): calibration, gradient, clusters, seeds, perplexity cap."""
import warnings

import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.projection import procrustes_rotation
from core.skipgram import train
from core.tsne import (conditional_probabilities, joint_probabilities, kl_gradient,
                       squared_distances, tsne)
from tests.gradcheck import numerical_gradient


def clusters(n_per=20, d=10, seed=0):
    """Three Gaussian blobs, centres far apart compared with their spread."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(0, 10, (3, d))
    X = np.vstack([c + rng.normal(0, 1, (n_per, d)) for c in centres])
    return X, np.repeat(np.arange(3), n_per)


@pytest.fixture(scope="module")
def reference_table():
    return train(Corpus.from_text(GUIDE_TEXT)).E


@pytest.mark.parametrize("perplexity", [1.5, 2.0, 5.0, 12.0])
def test_calibrated_perplexity_matches_target(perplexity):
    X = np.random.default_rng(0).normal(size=(40, 5))
    cal = conditional_probabilities(squared_distances(X), perplexity)
    np.testing.assert_allclose(cal.perplexities, perplexity, rtol=1e-3)
    np.testing.assert_allclose(cal.P_cond.sum(axis=1), 1.0)
    assert (np.diag(cal.P_cond) == 0).all()
    for i, row in enumerate(cal.P_cond):  # the reported perplexity is really 2^H of the row
        p = np.array([row[j] for j in range(40) if j != i and row[j] > 0])
        assert 2 ** -(p * np.log2(p)).sum() == pytest.approx(perplexity, rel=1e-3)


@pytest.mark.parametrize("scale", [1e-8, 1.0, 1e8])
def test_calibration_works_at_any_scale(scale):
    D2 = squared_distances(np.random.default_rng(1).normal(size=(25, 3))) * scale
    cal = conditional_probabilities(D2, 4.0)
    np.testing.assert_allclose(cal.perplexities, 4.0, rtol=1e-3)


def test_joint_probabilities_symmetric_and_sum_to_one():
    X = np.random.default_rng(2).normal(size=(9, 3))
    P = joint_probabilities(conditional_probabilities(squared_distances(X), 3.0).P_cond)
    np.testing.assert_allclose(P, P.T)
    assert P.sum() == pytest.approx(1.0)


def test_gradient_matches_finite_differences():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(8, 4))
    P = joint_probabilities(conditional_probabilities(squared_distances(X), 3.0).P_cond)
    Y = rng.normal(size=(8, 2))
    _, grad = kl_gradient(P, Y)
    num = numerical_gradient(lambda: kl_gradient(P, Y)[0], Y)
    np.testing.assert_allclose(grad, num, atol=1e-7)


def test_well_separated_clusters_stay_apart():
    X, label = clusters()
    Y = tsne(X, perplexity=10, seed=0).coords
    D2 = squared_distances(Y)
    np.fill_diagonal(D2, np.inf)
    assert (label[D2.argmin(axis=1)] == label).all()   # nearest picture-neighbour: same cluster
    centres = np.array([Y[label == c].mean(axis=0) for c in range(3)])
    spread = max(np.linalg.norm(Y[label == c] - centres[c], axis=1).max() for c in range(3))
    gap = min(np.linalg.norm(centres[a] - centres[b]) for a in range(3) for b in range(a + 1, 3))
    assert gap > 3 * spread


def test_same_seed_same_picture_other_seed_other_picture():
    X, _ = clusters(n_per=8)
    a, b = tsne(X, seed=7), tsne(X, seed=7)
    np.testing.assert_array_equal(a.coords, b.coords)
    assert a.kl == b.kl
    assert not np.allclose(a.coords, tsne(X, seed=8).coords)


@pytest.mark.parametrize("perplexity", [2, 5, 30])
def test_twelve_points_every_lesson_setting(perplexity, reference_table):
    r = tsne(reference_table, perplexity=perplexity)
    assert r.coords.shape == (12, 2) and np.isfinite(r.coords).all() and np.isfinite(r.kl)
    assert r.perplexity_asked == perplexity
    assert r.perplexity_used == min(perplexity, 11 / 3)
    assert r.clamped == (perplexity > 11 / 3)
    np.testing.assert_allclose(r.perplexities, r.perplexity_used, rtol=1e-3)


def test_too_large_perplexity_is_clamped_and_reported(reference_table):
    big = tsne(reference_table, perplexity=30)
    capped = tsne(reference_table, perplexity=11 / 3)
    assert big.clamped and not capped.clamped
    np.testing.assert_array_equal(big.coords, capped.coords)   # 5 and 30 draw the same picture
    full = tsne(reference_table, perplexity=30, perplexity_cap=1.0)
    assert full.perplexity_used == 11.0
    np.testing.assert_allclose(full.perplexities, 11.0, rtol=1e-3)


@pytest.mark.parametrize("kwargs, words", [
    (dict(perplexity=0.5), "at least 1"),
    (dict(perplexity=float("nan")), "at least 1"),
    (dict(metric="manhattan"), "metric"),
    (dict(perplexity_cap=0.0), "share"),
])
def test_bad_settings_are_refused_in_plain_words(kwargs, words):
    with pytest.raises(ValueError, match=words):
        tsne(np.eye(5), **kwargs)


def test_bad_tables_are_refused():
    with pytest.raises(ValueError, match="at least 3 rows"):
        tsne(np.eye(2))
    with pytest.raises(ValueError, match="NaN"):
        tsne(np.array([[0.0, 1], [1, 0], [np.nan, 0]]))


def test_reference_table_runs_without_any_warning(reference_table):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with np.errstate(all="raise"):
            for metric in ("euclidean", "cosine"):
                r = tsne(reference_table, perplexity=2, metric=metric)
                assert np.isfinite(r.coords).all() and r.kl >= 0


def test_cosine_metric_ignores_row_lengths(reference_table):
    scales = 2.0 ** np.arange(-6, 6)[:, None]       # powers of 2 keep every rounding identical
    a = tsne(reference_table, metric="cosine").coords
    b = tsne(reference_table * scales, metric="cosine").coords
    np.testing.assert_array_equal(a, b)


def test_picture_is_centred_on_its_own_axes():
    X, _ = clusters(n_per=6)
    Y = tsne(X, perplexity=4).coords
    np.testing.assert_allclose(Y.mean(axis=0), 0, atol=1e-9)
    assert Y[:, 0].var() >= Y[:, 1].var()
    assert abs(np.cov(Y.T)[0, 1]) < 1e-9 * Y.var()


def test_callback_reports_kl_during_the_run():
    X, _ = clusters(n_per=5)
    seen = []
    r = tsne(X, perplexity=3, n_iter=300, callback=lambda step, kl: seen.append((step, kl)))
    assert [s for s, _ in seen] == list(range(50, 301, 50))
    assert seen[-1][1] == pytest.approx(r.kl)
    assert r.n_iter == 300


def test_frames_show_the_picture_forming_without_changing_it():
    """frame_every keeps the start and every 25th picture with its KL; the result is the same."""
    X = np.random.default_rng(3).normal(size=(40, 6))
    plain = tsne(X, perplexity=5, seed=2, n_iter=300)
    r = tsne(X, perplexity=5, seed=2, n_iter=300, frame_every=25)
    np.testing.assert_array_equal(r.coords, plain.coords)
    assert r.kl == plain.kl
    assert list(r.frame_steps) == list(range(0, 301, 25))
    assert r.frames.shape == (13, 40, 2) and r.frame_kl.shape == (13,)
    assert r.frame_kl[-1] == pytest.approx(r.kl)
    assert r.frame_kl[-1] < r.frame_kl[0]                        # the picture got better
    assert np.abs(r.frames[0]).max() < 1e-3                       # a tiny random start
    np.testing.assert_allclose(r.frames[5].mean(axis=0), 0, atol=1e-9)   # centred
    np.testing.assert_allclose(r.frames[-1], r.coords, atol=1e-12)        # the film ends on the picture
    short = tsne(X, perplexity=5, seed=2, n_iter=300)
    assert short.frames is None and short.frame_steps is None


def test_every_frame_gets_the_finished_pictures_turn():
    """The frames are the iterates turned by the one rotation/reflection that puts the finished
    picture on its principal axes: the last frame is the picture. A run stopped 50 steps
    earlier has the same iterates, so its frames are the longer run's frames under one fixed
    turn (its own finished picture's axes against the longer run's), every frame alike; and
    the longer run's frame at that step is not the shorter run's picture, which each frame
    would be if it were turned onto its own axes. Exact algebra: it holds on any BLAS kernel,
    wherever the chaotic iterates themselves land."""
    X = np.random.default_rng(1).normal(size=(30, 5))
    r = tsne(X, perplexity=5, seed=3, frame_every=50)
    short = tsne(X, perplexity=5, seed=3, frame_every=50, n_iter=950)
    np.testing.assert_allclose(r.frames[-1], r.coords, atol=1e-12)
    np.testing.assert_allclose(short.frames[-1], short.coords, atol=1e-12)
    assert list(short.frame_steps) == list(r.frame_steps[:-1])
    Q = procrustes_rotation(short.frames[-1], r.frames[-2])     # (2, 2) the one turn between them
    np.testing.assert_allclose(Q @ Q.T, np.eye(2), atol=1e-12)
    scale = np.abs(r.coords).max()
    np.testing.assert_allclose(short.frames @ Q, r.frames[:-1], atol=1e-9 * scale)
    assert np.abs(r.frames[-2] - short.coords).max() > 1e-6 * scale


def test_frames_of_a_stopped_run_end_at_the_stop():
    X = np.random.default_rng(3).normal(size=(20, 4))
    r = tsne(X, perplexity=5, n_iter=300, frame_every=40, callback=lambda i, kl: i >= 100, report_every=50)
    assert r.stopped and r.n_iter == 100
    assert list(r.frame_steps) == [0, 40, 80, 100]
