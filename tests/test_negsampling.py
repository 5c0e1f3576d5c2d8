"""Negative sampling: gradients against finite differences, a per-pair reference, training."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.generated import generate_corpus, group_recovery
from core.negsampling import (NegSamplingConfig, compare_objectives, log_sigmoid, noise_distribution,
                              ns_loss_and_grads, train_negsampling)
from core.skipgram import ConfigError, SkipGramConfig, init_params, loss_and_grads
from core.vectors import Vectors
from tests.gradcheck import numerical_gradient

GENERATED_SETTINGS = NegSamplingConfig(d_model=12, lr=1.0, epochs=10, batch_size=64, negatives=5)
"""Settings that recover the groups of core.generated's default corpus (about 0.99)."""


def _batch(seed=0, V=7, d=3, B=6, K=4):
    rng = np.random.default_rng(seed)
    E, W = rng.normal(size=(V, d)), rng.normal(size=(d, V))
    centres = np.array([0, 1, 1, 2, 5, 0])[:B]       # repeated centres
    contexts = np.array([3, 3, 4, 6, 1, 3])[:B]      # repeated contexts
    negatives = rng.integers(0, V, size=(B, K))
    negatives[0, 0] = contexts[0]                    # an accidental positive: skipped
    negatives[2, 1] = negatives[2, 2]                # a repeated negative: counted twice
    return E, W, centres, contexts, negatives


def _sigmoid(s):
    return 1.0 / (1.0 + np.exp(-s))


def test_loss_matches_the_formula_pair_by_pair():
    E, W, centres, contexts, negatives = _batch()
    per_pair = []
    for c, t, negs in zip(centres, contexts, negatives):
        x = E[c]
        loss = -np.log(_sigmoid(W[:, t] @ x))
        loss -= sum(np.log(_sigmoid(-W[:, n] @ x)) for n in negs if n != t)
        per_pair.append(loss)
    assert ns_loss_and_grads(E, W, centres, contexts, negatives)[0] == pytest.approx(np.mean(per_pair))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradients_match_central_finite_differences(seed):
    E, W, centres, contexts, negatives = _batch(seed)
    _, dE, dW = ns_loss_and_grads(E, W, centres, contexts, negatives)
    for P, dP in ((E, dE), (W, dW)):
        num = numerical_gradient(lambda: ns_loss_and_grads(E, W, centres, contexts, negatives)[0], P)
        np.testing.assert_allclose(dP, num, rtol=1e-6, atol=1e-8)


def test_gradients_touch_only_the_rows_and_columns_used():
    E, W, centres, contexts, negatives = _batch()
    _, dE, dW = ns_loss_and_grads(E, W, centres, contexts, negatives)
    unused_rows = sorted(set(range(7)) - set(centres))
    unused_cols = sorted(set(range(7)) - set(contexts) - set(negatives.ravel()))
    assert not dE[unused_rows].any() and not dW[:, unused_cols].any()


def test_zero_parameters_cost_ln2_per_question():
    E, W = np.zeros((4, 2)), np.zeros((2, 4))
    loss, _, _ = ns_loss_and_grads(E, W, np.array([0]), np.array([1]), np.array([[1, 2, 3]]))
    assert loss == pytest.approx(3 * np.log(2))  # 1 positive + 2 kept negatives


def test_log_sigmoid_is_stable():
    s = np.array([-800.0, -5.0, 0.0, 5.0, 800.0])
    out = log_sigmoid(s)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out[1:4], np.log(_sigmoid(s[1:4])))


def test_noise_distribution_is_counts_to_the_power():
    ids = np.array([0] * 16 + [1] * 1 + [3] * 81)
    q = noise_distribution(ids, 4, power=0.75)
    expected = np.array([8.0, 1.0, 0.0, 27.0]) / 36.0
    np.testing.assert_allclose(q, expected)


def test_initialisation_is_skipgrams():
    corpus = Corpus.from_text(GUIDE_TEXT)
    r = train_negsampling(corpus, NegSamplingConfig(epochs=0, d_model=4, seed=0, init_std=0.1))
    E, W = init_params(corpus.V, SkipGramConfig())
    np.testing.assert_array_equal(r.E, E)
    np.testing.assert_array_equal(r.W, W)
    assert r.softmax_loss == pytest.approx(2.487, abs=5e-4)  # the reference run's step-0 loss


def test_deterministic_for_a_seed():
    corpus = Corpus.from_text(GUIDE_TEXT)
    a = train_negsampling(corpus, NegSamplingConfig(epochs=5, batch_size=8))
    b = train_negsampling(corpus, NegSamplingConfig(epochs=5, batch_size=8))
    np.testing.assert_array_equal(a.E, b.E)
    np.testing.assert_array_equal(a.step_losses, b.step_losses)
    c = train_negsampling(corpus, NegSamplingConfig(epochs=5, batch_size=8, seed=1))
    assert not np.array_equal(a.E, c.E)


def test_steps_callback_and_softmax_scale():
    corpus = Corpus.from_text(GUIDE_TEXT)  # 126 pairs
    seen = []
    r = train_negsampling(corpus, NegSamplingConfig(epochs=3, batch_size=50),
                          callback=lambda e, loss: seen.append((e, loss)))
    assert r.steps == 9 and len(r.step_losses) == 9    # batches of 50, 50, 26
    assert [e for e, _ in seen] == [1, 2, 3]
    np.testing.assert_allclose([loss for _, loss in seen], r.losses)
    assert r.softmax_loss == pytest.approx(loss_and_grads(r.E, r.W, corpus.cooccurrence)[0])
    assert len(r.softmax_losses) == 4 and r.seconds > 0


@pytest.mark.parametrize("kwargs", [dict(d_model=0), dict(lr=0.0), dict(lr=float("nan")),
                                    dict(epochs=-1), dict(batch_size=0), dict(negatives=0),
                                    dict(seed=-1), dict(init_std=0.0), dict(power=-1.0)])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ConfigError):
        NegSamplingConfig(**kwargs)


def test_divergence_is_a_flag_not_an_exception():
    corpus = Corpus.from_text(GUIDE_TEXT)
    r = train_negsampling(corpus, NegSamplingConfig(lr=1e6, epochs=50, init_std=1.0))
    assert r.diverged and r.diverged_step is not None
    assert np.isfinite(r.E).all() and np.isfinite(r.W).all()
    assert np.isfinite(r.step_losses).all()


def test_training_on_the_generated_corpus():
    g = generate_corpus()
    corpus = g.corpus()
    r = train_negsampling(corpus, GENERATED_SETTINGS)
    assert not r.diverged
    assert r.losses[-1] < 0.8 * r.losses[0]
    assert r.softmax_losses[-1] < r.softmax_losses[0] - 0.5  # also better on the softmax's scale
    rec = group_recovery(Vectors(corpus.vocab, r.E), g.groups, k=3)
    assert rec.overall >= 0.8 > 3 * rec.chance


def test_compare_objectives_on_the_reference_text():
    corpus = Corpus.from_text(GUIDE_TEXT)
    cmp = compare_objectives(corpus, SkipGramConfig(), NegSamplingConfig(epochs=200, batch_size=16))
    assert cmp.softmax_loss == pytest.approx(1.713, abs=5e-4)
    assert cmp.softmax_loss < cmp.negsampling_loss < np.log(12)
    assert (cmp.softmax_scores_per_pair, cmp.negsampling_scores_per_pair) == (12, 6)
    assert cmp.softmax_recovery is None and cmp.softmax_seconds > 0
