"""core.tsne: the reference optimiser, defaults, bounds, messages and frames, pinned exactly (details
mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.projection import pca
from core.tsne import MAX_POINTS, conditional_probabilities, squared_distances, student_t_affinities, tsne
from tests.refusal import refused


def reference_tsne(X, perplexity, seed, n_iter, exaggeration, exaggeration_iter):
    """The optimiser as van der Maaten's reference code writes it, one formula per line."""
    n = len(X)
    Pc = conditional_probabilities(squared_distances(X), perplexity).P_cond   # the calibration (tested apart)
    P = np.maximum((Pc + Pc.T) / (2 * n), 1e-12)
    np.fill_diagonal(P, 0.0)
    P /= P.sum()
    eta = max(n / exaggeration / 4, 5.0)
    Y = np.random.default_rng(seed).normal(0.0, 1e-4, size=(n, 2))
    iY, gains = np.zeros_like(Y), np.ones_like(Y)
    for it in range(n_iter):
        PP = P * exaggeration if it < exaggeration_iter else P
        num = 1.0 / (1.0 + ((Y[:, None, :] - Y[None, :, :]) ** 2).sum(-1))
        np.fill_diagonal(num, 0.0)
        Q = num / num.sum()
        dY = 4.0 * np.einsum("ij,ijk->ik", (PP - Q) * num, Y[:, None, :] - Y[None, :, :])
        momentum = 0.5 if it < exaggeration_iter else 0.8
        gains = np.where((dY > 0) != (iY > 0), gains + 0.2, gains * 0.8)
        gains = np.maximum(gains, 0.01)
        iY = momentum * iY - eta * gains * dY
        Y = Y + iY
        Y = Y - Y.mean(axis=0)
    return pca(Y, k=2).coords


@pytest.fixture(scope="module")
def X():
    rng = np.random.default_rng(7)
    return np.vstack([rng.normal(0, 1, (6, 4)), rng.normal(4, 1, (6, 4))])     # (12, 4) two blobs


def test_tsne_takes_a_list_and_leaves_the_callers_table_alone():
    import numpy as np

    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    before = X.copy()
    a = tsne(X.tolist(), n_iter=20, seed=1)
    b = tsne(X, n_iter=20, seed=1)
    assert np.array_equal(X, before) and np.array_equal(a.coords, b.coords)


def test_tsne_stops_only_before_its_last_step_and_keeps_every_frame():
    import numpy as np

    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    r = tsne(X, n_iter=4, report_every=2, callback=lambda step, kl: step == 4)   # "stop" at the end
    assert (r.stopped, r.n_iter) == (False, 4)
    r = tsne(X, n_iter=4, report_every=1, callback=lambda step, kl: step == 3)
    assert (r.stopped, r.n_iter) == (True, 3)
    r = tsne(X, n_iter=5, frame_every=2)
    assert r.frame_steps.tolist() == [0, 2, 4, 5] and len(r.frames) == len(r.frame_kl) == 4
    with pytest.raises(ValueError, match="^Perplexity is an effective number of neighbours: it must be at least 1.$"):
        tsne(X, perplexity=True)


def test_tsne_takes_exactly_its_largest_table():
    # At the limits the table is accepted, so the next check (the perplexity) speaks.
    perplexity_message = "Perplexity is an effective number of neighbours: it must be at least 1."
    refused(lambda: tsne(np.zeros((MAX_POINTS, 1)), perplexity=0.5), perplexity_message)
    too_many = f"Exact t-SNE works on every pair of points (n^2 per step): at most {MAX_POINTS:,} points here; "
    refused(lambda: tsne(np.zeros((MAX_POINTS + 1, 1)), perplexity=0.5), too_many + f"this table has {MAX_POINTS + 1:,}.")
    # 2**24 numbers (128 MiB): three rows as wide as that allows, without storing them.
    widest = np.broadcast_to(np.float32(0), (4, 2**22))
    refused(lambda: tsne(widest, perplexity=0.5), perplexity_message)
    wider = np.broadcast_to(np.float32(0), (3, 2**24 // 3 + 1))
    refused(lambda: tsne(wider, perplexity=0.5), too_many + "this table has 3.")


def test_tsne_names_each_bad_setting():
    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    refused(lambda: tsne(X, k=4), "k must be at most 3 (and at least 1); got 4.")
    refused(lambda: tsne(X, k=0), "k must be at least 1 (and at most 3); got 0.")
    refused(lambda: tsne(X, seed=-1), "seed must be at least 0; got -1.")
    refused(lambda: tsne(X, n_iter=10_001), "n_iter must be at most 10,000 (and at least 0); got 10,001.")
    refused(lambda: tsne(X, exaggeration_iter=-1), "exaggeration_iter must be at least 0; got -1.")
    refused(lambda: tsne(X, report_every=0), "report_every must be at least 1; got 0.")
    refused(lambda: tsne(X, frame_every=-1), "frame_every must be at least 0 (and at most 10,000); got -1.")
    refused(lambda: tsne(X, frame_every=10_001), "frame_every must be at most 10,000 (and at least 0); got 10,001.")
    refused(lambda: tsne(X, early_exaggeration=0), "early_exaggeration must be above 0; got 0.")
    refused(lambda: tsne(X, early_exaggeration=1000.5), "early_exaggeration must be at most 1000; got 1000.5.")
    refused(lambda: tsne(X, learning_rate=0), "learning_rate must be above 0; got 0.")
    refused(lambda: tsne(X, learning_rate=1e6 + 1), "learning_rate must be at most 1e+06; got 1e+06.")
    refused(lambda: tsne(X, metric="manhattan"), "metric must be 'euclidean' or 'cosine', not 'manhattan'.")
    r = tsne(X, k=3, n_iter=2, exaggeration_iter=0, early_exaggeration=1000, learning_rate=1e6,
             report_every=1, frame_every=10_000)
    assert r.coords.shape == (6, 3)


def test_squared_distances_have_an_exact_zero_diagonal():
    X = np.array([[1e8 + 0.1, 3.3], [0.7, 1e-3], [2.2, 5.5]])
    D2 = squared_distances(X)
    assert (np.diag(D2) == 0.0).all()
    assert D2[0, 1] == pytest.approx(((X[0] - X[1]) ** 2).sum(), rel=1e-12)


def test_the_perplexity_cap_never_goes_below_one():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    r = tsne(X, perplexity=5.0, n_iter=0)          # cap (3 - 1) / 3 < 1: raised to 1, not 2
    assert r.perplexity_used == 1.0


def test_calibrated_betas_are_the_precisions_of_the_returned_rows():
    X = np.random.default_rng(4).normal(size=(12, 3))
    D2 = squared_distances(X)
    cal = conditional_probabilities(D2, perplexity=4.0)
    for i in range(12):
        j, m = [a for a in range(12) if a != i][:2]
        ratio = cal.P_cond[i, j] / cal.P_cond[i, m]
        assert ratio == pytest.approx(np.exp(-cal.beta[i] * (D2[i, j] - D2[i, m])), rel=1e-9)
    np.testing.assert_allclose(cal.perplexities, 4.0, rtol=1e-4)


@pytest.mark.parametrize("exaggeration", [12.0, 0.5])      # 0.5: a learning rate above the floor of 5
def test_tsne_follows_the_reference_optimiser(X, exaggeration):
    # 60 steps, 20 of them exaggerated: long enough for both phases, short enough that float
    # rounding (different summation orders) stays far below the tolerance
    got = tsne(X, perplexity=3.0, seed=4, n_iter=60, early_exaggeration=exaggeration, exaggeration_iter=20)
    want = reference_tsne(X, 3.0, 4, 60, exaggeration, 20)
    np.testing.assert_allclose(got.coords, want, atol=1e-8 * np.abs(want).max())
    assert got.learning_rate == max(12 / exaggeration / 4, 5.0)


def test_tsne_defaults(X):
    r = tsne(X)
    same = tsne(X, perplexity=5.0, k=2, seed=0, n_iter=1000, early_exaggeration=12.0, exaggeration_iter=250,
                metric="euclidean", perplexity_cap=1 / 3)
    np.testing.assert_array_equal(r.coords, same.coords)
    assert r.n_iter == 1000 and r.perplexity_asked == 5.0
    assert tsne(X, n_iter=5, k=3).coords.shape == (12, 3)
    assert tsne(X.astype(int), n_iter=5).coords.dtype == np.float64


def test_tsne_bounds_and_messages(X):
    assert tsne(X, perplexity=1.0, n_iter=2).perplexity_used == 1.0
    assert tsne(X, perplexity=30, perplexity_cap=1.0, n_iter=2).perplexity_used == 11.0
    for kwargs, msg in (({"X": X[:2]}, r"^t-SNE needs a table of at least 3 rows\.$"),
                        ({"X": np.full((3, 2), np.nan)}, r"^The table contains NaN or infinite values\.$"),
                        ({"X": X, "perplexity": 0.99}, r"^Perplexity is an effective number of neighbours: it must "
                                                        r"be at least 1\.$"),
                        ({"X": X, "perplexity_cap": 1.01}, r"^perplexity_cap is a share of n - 1: it must be "
                                                           r"above 0 and at most 1\.$")):
        with pytest.raises(ValueError, match=msg):
            tsne(**kwargs)


def test_student_t_kernel_matches_its_formula():
    Y = np.random.default_rng(1).normal(size=(5, 2))
    Q, num = student_t_affinities(Y)
    want = 1.0 / (1.0 + ((Y[:, None] - Y[None, :]) ** 2).sum(-1))
    np.fill_diagonal(want, 0.0)
    np.testing.assert_allclose(num, want, rtol=1e-12)
    np.testing.assert_allclose(Q, want / want.sum(), rtol=1e-12)
