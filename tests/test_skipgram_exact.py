"""core.skipgram: the training loop's guards and divergence rule, the softmax and the loss floor, the
settings' bounds, pinned exactly (details mutation testing found loose: docs/quality.md)."""

import dataclasses

import numpy as np
import pytest

from core.corpus import Corpus, GUIDE_TEXT
from core.skipgram import (BLOWUP_FACTOR, ConfigError, SkipGramConfig, descend, init_params, log_softmax, loss_and_grads,
    loss_and_grads_pairs, loss_floor, softmax, train)
import core.skipgram as skipgram


@pytest.fixture(scope="module")
def corpus():
    return Corpus.from_text(GUIDE_TEXT)


def stand_in(bad_step, make_dW):
    """loss 1.0 and zero gradients, except dW = make_dW(W) at call number bad_step (0-based)."""
    calls = []

    def loss_and_grads(E, W):
        calls.append(1)
        dW = make_dW(W) if len(calls) - 1 == bad_step else np.zeros_like(W)
        return 1.0, np.zeros_like(E), dW

    return loss_and_grads


@pytest.fixture(scope="module")
def guide():
    return Corpus.from_text(GUIDE_TEXT)


def _reference_blow_up(corpus, config):
    """Plain gradient descent, stopped at the first loss above BLOWUP_FACTOR x the first."""
    E, W = init_params(corpus.V, config)
    losses, params = [], [(E, W)]
    for _ in range(config.steps + 1):
        loss, dE, dW = loss_and_grads(E, W, corpus.cooccurrence)
        if losses and loss > BLOWUP_FACTOR * losses[0]:
            return losses, params[-2]
        losses.append(loss)
        E, W = E - config.lr * dE, W - config.lr * dW
        params.append((E, W))
    return losses, None


def _fake_gradients(monkeypatch, bad_step, dE_value, dW_value=0.0):
    """loss_and_grads returning a steady loss, and at call ``bad_step`` the given gradients."""
    calls = []

    def fake(E, W, C, n=None, block=128):
        calls.append(1)
        if len(calls) - 1 == bad_step:
            return 1.0, np.full_like(E, dE_value), np.full_like(W, dW_value)
        return 1.0, np.full_like(E, 1e-3), np.full_like(W, 1e-3)

    monkeypatch.setattr(skipgram, "loss_and_grads", fake)


@pytest.mark.parametrize("field, ok, bad, message", [
    ("d_model", [1, 256], [0, 257], r"^d_model must be a whole number from 1 to 256\.$"),
    ("lr", [1e-9], [0.0], r"^The learning rate must be a positive number\.$"),
    ("steps", [0, 20_000], [-1, 20_001], r"^Steps must be a whole number from 0 to 20,000\.$"),
    ("seed", [0, 2**63 - 1], [-1, 2**63], r"^The seed must be a whole number from 0 to 2\*\*63 - 1\.$"),
    ("init_std", [1e-9], [0.0], r"^The initial standard deviation must be a positive number\.$"),
    ("snapshot_every", [1], [0], r"^snapshot_every must be at least 1\.$"),
])
def test_skipgram_settings_bounds(field, ok, bad, message):
    for value in ok:
        assert getattr(SkipGramConfig(**{field: value}), field) == value
    for value in bad:
        with pytest.raises(ConfigError, match=message):
            SkipGramConfig(**{field: value})


def test_log_softmax_rows_of_a_matrix():
    Z = np.array([[1.0, 2.0, 3.0], [-5.0, 0.0, 50.0]])
    want = Z - np.log(np.exp(Z - Z.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)) - Z.max(axis=1, keepdims=True)
    np.testing.assert_allclose(log_softmax(Z), want, rtol=1e-12)
    np.testing.assert_allclose(np.exp(log_softmax(Z)).sum(axis=1), 1.0)
    np.testing.assert_allclose(log_softmax(np.array([1000.0, 0.0])), [0.0, -1000.0], atol=1e-12)


def test_log_softmax_uses_each_rows_own_maximum():
    Z = np.array([[0.0, 1.0], [-2000.0, -2001.0]])          # a global maximum would underflow row 2
    a, b = -np.log1p(np.e), 1 - np.log1p(np.e)
    np.testing.assert_allclose(log_softmax(Z), [[a, b], [b, a]], rtol=1e-12)


def test_a_gradient_of_w_that_is_not_finite_stops_the_run_at_that_step(corpus):
    config = SkipGramConfig(steps=5, lr=0.1)
    r = descend(stand_in(2, lambda W: np.full_like(W, np.inf)), corpus, config)
    assert (r.diverged, r.diverged_step, len(r.losses)) == (True, 2, 2)
    E0, W0 = init_params(corpus.V, config)
    np.testing.assert_array_equal(r.W, W0)                  # the parameters behind the last finite loss


def test_an_update_that_overflows_w_alone_stops_the_run(corpus):
    config = SkipGramConfig(steps=5, lr=1e6)
    r = descend(stand_in(1, lambda W: np.full_like(W, 1e303)), corpus, config)    # finite, but lr x dW is not
    assert (r.diverged, r.diverged_step, len(r.losses)) == (True, 2, 2)
    assert np.isfinite(r.W).all()


def test_a_run_reports_its_corpus_vocabulary(corpus):
    r = train(corpus, SkipGramConfig(steps=1))
    assert r.vocab == corpus.vocab and r.vocab is not corpus.vocab


def test_train_checks_its_callback(corpus):
    with pytest.raises(TypeError, match=r"^callback must be a function callback\(step, loss\) or None\.$"):
        train(corpus, SkipGramConfig(steps=2), callback="every step")


def test_train_names_a_wrong_corpus_or_config_by_its_type(corpus):
    with pytest.raises(TypeError, match=r"^train needs a core\.corpus\.Corpus, not str\.$"):
        train("the cat sat")
    with pytest.raises(TypeError, match=r"^config must be a SkipGramConfig, not dict\.$"):
        train(corpus, {"steps": 3})


def test_snapshots_are_priced_as_steps_over_every_plus_two(corpus, monkeypatch):
    import core.skipgram as skipgram

    config = SkipGramConfig(steps=11, snapshot_every=5, d_model=3)    # snapshots at 0, 5, 10 and 11
    entries = (11 // 5 + 2) * corpus.V * 3
    monkeypatch.setattr(skipgram, "MAX_SNAPSHOT_ENTRIES", entries)
    assert len(train(corpus, config).snapshots) == 4                  # exactly the limit: allowed
    monkeypatch.setattr(skipgram, "MAX_SNAPSHOT_ENTRIES", entries - 1)
    with pytest.raises(skipgram.ConfigError) as caught:
        train(corpus, config)
    assert str(caught.value) == (f"Keeping 4 snapshots of a {corpus.V} x 3 table needs too much memory; "
                                 "raise snapshot_every.")


def test_the_divergence_rule_at_its_edges():
    from core.skipgram import has_diverged

    assert not has_diverged(10.0, 1.0) and has_diverged(10.000001, 1.0)   # past 10 times, not at it
    assert has_diverged(float("nan"), 1.0, np.zeros(2)) and has_diverged(float("inf"), None)
    assert has_diverged(1.0, 1.0, np.zeros(2), np.array([np.nan]))
    assert not has_diverged(1.0, 1.0, np.zeros(2), np.ones(2))


def test_a_sum_that_overflows_is_looked_at_number_by_number():
    from core.divergence import all_finite

    with np.errstate(over="ignore", invalid="ignore"):             # as the trainers call it
        assert all_finite(np.array([1e308, 1e308]), 2.5)            # the sum is inf, every number finite
        assert not all_finite(np.array([1e308, 1e308, np.nan]))
        assert not all_finite(np.array([np.inf, -np.inf]))          # the sum is nan
    assert not all_finite(np.zeros(3), float("-inf")) and all_finite(np.zeros(0), 0)


def test_each_step_looks_at_the_next_table_only_once(corpus, monkeypatch):
    # E - lr dE finite means dE finite (E is): the gradients need no look of their own.
    import core.divergence as divergence

    looked: list[int] = []
    real = divergence.all_finite
    monkeypatch.setattr(divergence, "all_finite",
                        lambda *a: looked.append(sum(isinstance(x, np.ndarray) for x in a)) or real(*a))
    r = train(corpus, SkipGramConfig(steps=20))
    assert not r.diverged and sum(looked) == 2 * 21              # E - lr dE and W - lr dW, per loss


def test_softmax_is_the_normalised_exponential_and_stable():
    Z = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
    want = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(softmax(Z), want, rtol=1e-12)
    np.testing.assert_allclose(softmax(Z + 1000.0), want, rtol=1e-12)     # shift-invariant, no overflow
    np.testing.assert_allclose(softmax(np.array([2.0, 0.0])), np.exp([2.0, 0.0]) / np.exp([2.0, 0.0]).sum())
    np.testing.assert_array_equal(softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])).round(3), [[0.5, 0.5], [1.0, 0.0]])


@pytest.mark.parametrize("lr", [15.0, 200.0])
def test_a_finite_blow_up_stops_the_run_at_the_first_loss_past_the_factor(guide, lr):
    config = SkipGramConfig(lr=lr, steps=300)
    losses, (E, W) = _reference_blow_up(guide, config)
    r = train(guide, config)
    assert r.diverged and r.diverged_step == len(losses) == {15.0: 25, 200.0: 2}[lr]
    np.testing.assert_array_equal(r.losses, losses)
    assert r.losses.max() <= BLOWUP_FACTOR * r.losses[0]          # nothing past the factor is kept
    np.testing.assert_array_equal(r.E, E)
    np.testing.assert_array_equal(r.W, W)


def test_a_non_finite_gradient_alone_stops_the_run(guide, monkeypatch):
    _fake_gradients(monkeypatch, bad_step=3, dE_value=np.inf)
    r = train(guide, SkipGramConfig(lr=1.0, steps=10))
    assert r.diverged and r.diverged_step == 3 and len(r.losses) == 3
    E0, W0 = init_params(guide.V, SkipGramConfig())
    np.testing.assert_allclose(r.E, E0 - 2e-3)            # the parameters behind losses[-1]
    np.testing.assert_allclose(r.W, W0 - 2e-3)


def test_an_update_that_overflows_stops_the_run_with_the_last_finite_table(guide, monkeypatch):
    _fake_gradients(monkeypatch, bad_step=2, dE_value=-1e308)   # finite, but E - lr * dE is not
    r = train(guide, SkipGramConfig(lr=10.0, steps=10))
    assert r.diverged and r.diverged_step == 3 and len(r.losses) == 3
    E0, _ = init_params(guide.V, SkipGramConfig())
    np.testing.assert_allclose(r.E, E0 - 2e-2)
    assert np.isfinite(r.E).all() and r.snapshot_steps[-1] == 2


def test_the_loss_shifts_each_row_by_its_own_largest_score():
    # One centre's scores near 800, another's near 0: a shared shift would underflow the second.
    E = np.array([[40.0, 0.0], [0.01, 0.02], [0.0, -0.03]])
    W = np.array([[20.0, 19.0, 0.1], [0.5, -0.2, 0.3]])
    C = np.array([[0.0, 2, 1], [3, 0, 1], [1, 2, 0]])
    inputs = np.repeat(np.arange(3), C.sum(1).astype(int))
    targets = np.concatenate([np.repeat(np.arange(3), C[c].astype(int)) for c in range(3)])
    loss, dE, dW = loss_and_grads(E, W, C)
    loss_ref, dE_ref, dW_ref = loss_and_grads_pairs(E, W, inputs, targets)
    assert np.isfinite(loss) and loss == pytest.approx(loss_ref, rel=1e-12)
    np.testing.assert_allclose(dE, dE_ref, atol=1e-12)
    np.testing.assert_allclose(dW, dW_ref, atol=1e-12)


def test_the_loss_floor_divides_each_row_by_its_own_total(guide):
    # The floor is -(1/N) sum C[c,t] log(C[c,t] / n[c]) with n[c] the *row* total; a
    # corpus's counts are symmetric, so this uneven table tells rows from columns.
    C = np.array([[0.0, 3, 1], [1, 0, 0], [2, 2, 0]])
    odd = dataclasses.replace(guide, cooccurrence=C)
    nz = C > 0
    expected = -(C[nz] * np.log((C / C.sum(1, keepdims=True))[nz])).sum() / C.sum()
    assert loss_floor(odd) == pytest.approx(expected, rel=1e-15)
    assert loss_floor(odd) == pytest.approx(-(3 * np.log(0.75) + np.log(0.25) + 4 * np.log(0.5)) / 9, rel=1e-14)
