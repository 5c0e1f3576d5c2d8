"""The reference run of docs/lesson.md section 5, gradient checks, divergence and the loss floor."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import (ConfigError, SkipGramConfig, init_params, loss_and_grads,
                           loss_and_grads_pairs, loss_floor, train)
from tests.gradcheck import numerical_gradient


@pytest.fixture(scope="module")
def corpus():
    return Corpus.from_text(GUIDE_TEXT, window=2)


@pytest.fixture(scope="module")
def reference(corpus):
    return train(corpus, SkipGramConfig())


def test_defaults_are_the_reference_run():
    c = SkipGramConfig()
    assert (c.d_model, c.lr, c.steps, c.seed, c.init_std) == (4, 0.5, 3000, 0, 0.1)


def test_reference_losses(reference):
    assert len(reference.losses) == 3001
    assert round(float(reference.losses[0]), 3) == 2.487
    assert round(float(reference.losses[3000]), 3) == 1.713
    assert not reference.diverged


def test_initialisation_order_e_then_w(corpus):
    E, W = init_params(12, SkipGramConfig())
    rng = np.random.default_rng(0)
    np.testing.assert_array_equal(E, rng.normal(0, 0.1, (12, 4)))
    np.testing.assert_array_equal(W, rng.normal(0, 0.1, (4, 12)))


def test_uniform_guess_costs_ln_12(corpus):
    E, W = np.zeros((12, 4)), np.zeros((4, 12))
    assert loss_and_grads(E, W, corpus.cooccurrence)[0] == pytest.approx(np.log(12))
    assert round(np.log(12), 3) == 2.485


def test_reference_run_matches_a_per_pair_training_loop(corpus, reference):
    """The lesson's formulation, pair by pair, trained independently, gives the same table."""
    cfg = SkipGramConfig(steps=200)
    E, W = init_params(corpus.V, cfg)
    for _ in range(cfg.steps):
        _, dE, dW = loss_and_grads_pairs(E, W, corpus.inputs, corpus.targets)
        E, W = E - cfg.lr * dE, W - cfg.lr * dW
    fast = train(corpus, cfg)
    np.testing.assert_allclose(fast.E, E, atol=1e-12)
    np.testing.assert_allclose(fast.W, W, atol=1e-12)


def test_count_gradient_equals_per_pair_gradient():
    rng = np.random.default_rng(7)
    c = Corpus.from_text(" ".join(rng.choice(list("abcdefghij"), 200)), window=3)
    E, W = rng.normal(size=(c.V, 5)), rng.normal(size=(5, c.V))
    l1, dE1, dW1 = loss_and_grads(E, W, c.cooccurrence)
    l2, dE2, dW2 = loss_and_grads_pairs(E, W, c.inputs, c.targets)
    assert l1 == pytest.approx(l2, abs=1e-12)
    np.testing.assert_allclose(dE1, dE2, atol=1e-12)
    np.testing.assert_allclose(dW1, dW2, atol=1e-12)


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(1)
    c = Corpus.from_text("a b c a d b a c e", window=2)
    E, W = rng.normal(size=(c.V, 3)), rng.normal(size=(3, c.V))
    _, dE, dW = loss_and_grads(E, W, c.cooccurrence)
    for P, dP in ((E, dE), (W, dW)):
        num = numerical_gradient(lambda: loss_and_grads(E, W, c.cooccurrence)[0], P)
        np.testing.assert_allclose(dP, num, atol=1e-7)


def test_loss_floor_is_below_every_run_and_above_zero(corpus, reference):
    floor = loss_floor(corpus)
    assert 0 < floor < reference.losses[-1]
    # a wide model trained long gets close to the floor, never below it
    wide = train(corpus, SkipGramConfig(d_model=16, lr=2.0, steps=4000))
    assert floor <= wide.losses.min() < floor + 0.05


def test_loss_floor_is_the_empirical_neighbour_distribution(corpus):
    C = corpus.cooccurrence
    P = C / C.sum(axis=1, keepdims=True)
    brute = -sum(C[i, j] * np.log(P[i, j]) for i in range(12) for j in range(12) if C[i, j]) / 126
    assert loss_floor(corpus) == pytest.approx(brute)


def test_callback_sees_every_step(corpus):
    seen = []
    r = train(corpus, SkipGramConfig(steps=10), callback=lambda s, loss: seen.append((s, loss)))
    assert [s for s, _ in seen] == list(range(11))
    np.testing.assert_array_equal([loss for _, loss in seen], r.losses)


def test_snapshots(corpus):
    r = train(corpus, SkipGramConfig(steps=120, snapshot_every=50))
    assert r.snapshot_steps.tolist() == [0, 50, 100, 120]
    assert r.snapshots.shape == (4, 12, 4)
    np.testing.assert_array_equal(r.snapshots[-1], r.E)
    np.testing.assert_array_equal(r.snapshots[0], init_params(12, SkipGramConfig())[0])


@pytest.mark.parametrize("lr", [15.0, 50.0, 1000.0])
def test_divergence_is_a_result_state(corpus, lr):
    r = train(corpus, SkipGramConfig(lr=lr))
    assert r.diverged and r.diverged_step is not None
    assert np.isfinite(r.losses).all() and np.isfinite(r.E).all()
    assert len(r.losses) == r.diverged_step
    assert r.snapshot_steps[-1] == len(r.losses) - 1


def test_zero_steps(corpus):
    r = train(corpus, SkipGramConfig(steps=0))
    assert len(r.losses) == 1 and r.snapshots.shape[0] == 1


@pytest.mark.parametrize("kwargs", [dict(d_model=0), dict(d_model=10_000), dict(lr=0.0),
                                    dict(lr=float("nan")), dict(steps=-1), dict(seed=-5),
                                    dict(seed=2**70), dict(init_std=0.0)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ConfigError):
        SkipGramConfig(**kwargs)


def test_block_size_does_not_change_the_result():
    rng = np.random.default_rng(2)
    c = Corpus.from_text(" ".join(rng.choice([f"w{i}" for i in range(300)], 3000)), window=2)
    E, W = rng.normal(size=(c.V, 6)), rng.normal(size=(6, c.V))
    full = loss_and_grads(E, W, c.cooccurrence, block=10_000)
    for block in (1, 7, 128):
        part = loss_and_grads(E, W, c.cooccurrence, block=block)
        assert part[0] == pytest.approx(full[0], rel=1e-12)
        np.testing.assert_allclose(part[1], full[1], atol=1e-13)
        np.testing.assert_allclose(part[2], full[2], atol=1e-13)
    pairs = loss_and_grads_pairs(E, W, c.inputs, c.targets)
    assert full[0] == pytest.approx(pairs[0], rel=1e-12)
    np.testing.assert_allclose(full[1], pairs[1], atol=1e-12)
