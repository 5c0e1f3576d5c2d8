"""t-SNE's optimiser and the group-recovery score against plain reference versions, and their
bounds and messages: details found loose by mutation testing (docs/quality.md)."""
import numpy as np
import pytest

from core.generated import group_recovery
from core.projection import pca
from core.tsne import conditional_probabilities, squared_distances, student_t_affinities, tsne
from core.vectors import Vectors


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


def test_group_recovery_against_a_loop():
    rng = np.random.default_rng(3)
    vocab = [f"w{i}" for i in range(9)]
    E = rng.normal(size=(9, 3))
    E[4] = E[3]                                     # a tie: broken by the order of the groups
    groups = {"a": ["w0", "w3", "w4"], "b": ["w1", "w2", "w5"], "c": ["w6", "w8"]}
    words = [w for m in groups.values() for w in m]
    label = {w: g for g, m in groups.items() for w in m}
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    r = group_recovery(Vectors(vocab, E), groups)
    assert r.k == 3
    for w in words:
        i = vocab.index(w)
        others = sorted((o for o in words if o != w), key=lambda o: (-(U[i] @ U[vocab.index(o)]), words.index(o)))
        assert r.neighbours[w] == others[:3]
        assert r.per_word[w] == sum(label[o] == label[w] for o in others[:3]) / 3
    assert r.overall == np.mean(list(r.per_word.values()))
    assert r.chance == (3 * 2 + 3 * 2 + 2 * 1) / (8 * 7)
    assert group_recovery(Vectors(vocab, E), groups, k=7).k == 7
    with pytest.raises(ValueError, match=r"^k must be from 1 to 7 \(the number of other group words\)\.$"):
        group_recovery(Vectors(vocab, E), groups, k=8)
    with pytest.raises(KeyError, match=r"group words not in the vocabulary: \['zz'\]"):
        group_recovery(Vectors(vocab, E), {"a": ["w0", "zz"], "b": ["w1", "w2"]})
    assert group_recovery(Vectors(vocab, E), {"a": ["w0", "w1"], "b": ["w2", "w3"]}, k=1).chance == pytest.approx(1 / 3)
