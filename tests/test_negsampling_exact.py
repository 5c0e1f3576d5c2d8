"""core.negsampling: its settings' bounds, its epoch loss and time, a blow-up, the comparison with the
softmax, pinned exactly (details mutation testing found loose: docs/quality.md)."""

import types

import numpy as np
import pytest

from core.corpus import Corpus, GUIDE_TEXT
from core.generated import generate_corpus, group_recovery
from core.negsampling import MAX_EPOCHS, MAX_NEGATIVES, NegSamplingConfig, compare_objectives
from core.skipgram import BLOWUP_FACTOR, ConfigError, SkipGramConfig, loss_and_grads
import core.negsampling as negsampling


@pytest.fixture(scope="module")
def guide():
    return Corpus.from_text(GUIDE_TEXT)


class _Clock:
    """A stand-in for time.perf_counter: each call jumps far ahead, and an epoch's
    stop reading is always exactly ``epoch`` seconds after its start reading."""

    def __init__(self):
        self.calls = 0

    def perf_counter(self):
        self.calls += 1
        epoch, stop = divmod(self.calls - 1, 2)       # calls 1, 2 are epoch 0's start, stop ...
        return 1000.0 * (epoch + 1) + stop * (epoch + 1)


def test_negative_sampling_time_is_the_sum_of_each_epochs_own_time(guide, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(negsampling, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    r = negsampling.train_negsampling(guide, negsampling.NegSamplingConfig(epochs=3))
    assert clock.calls == 6                          # a start and a stop reading per epoch
    assert r.seconds == 1.0 + 2.0 + 3.0              # only the updates are timed, and every epoch is


@pytest.mark.parametrize("which", ["E", "W"])
def test_negative_sampling_stops_when_either_table_overflows(guide, monkeypatch, which):
    import numpy as np

    calls = []

    def fake(E, W, centres, contexts, negatives):
        calls.append(1)
        dE, dW = np.full_like(E, 1e-3), np.full_like(W, 1e-3)
        if len(calls) == 2:                            # finite, but the update overflows
            (dE if which == "E" else dW)[...] = -1e308
        return 1.0, dE, dW

    monkeypatch.setattr(negsampling, "ns_loss_and_grads", fake)
    config = negsampling.NegSamplingConfig(lr=10.0, epochs=3)
    r = negsampling.train_negsampling(guide, config)
    assert r.diverged and r.diverged_step == 2 and r.steps == 2 and len(calls) == 2
    E0, W0 = negsampling.init_params(guide.V, config, np.random.default_rng(config.seed))
    np.testing.assert_allclose(r.E, E0 - 1e-2)         # the tables after the one good update
    np.testing.assert_allclose(r.W, W0 - 1e-2)


def test_negative_sampling_gradients_keep_float32_tables_in_float32():
    import numpy as np

    rng = np.random.default_rng(0)
    E, W = rng.normal(size=(5, 3)).astype(np.float32), rng.normal(size=(3, 5)).astype(np.float32)
    loss, dE, dW = negsampling.ns_loss_and_grads(E, W, np.array([0, 1]), np.array([2, 3]),
                                                 np.array([[4, 2], [3, 0]]))
    assert dE.dtype == dW.dtype == np.float32


@pytest.mark.parametrize("field, ok, bad, message", [
    ("d_model", [1, 256], [0, 257], r"^d_model must be"),
    ("lr", [1e-9], [0.0, float("nan")], r"^The learning rate must be"),
    ("epochs", [0, MAX_EPOCHS], [-1, MAX_EPOCHS + 1], r"^Epochs must be"),
    ("batch_size", [1], [0], r"^The batch size must be"),
    ("negatives", [1, MAX_NEGATIVES], [0, MAX_NEGATIVES + 1], r"^The number of negatives must be"),
    ("power", [0.0], [-0.1], r"^The power must be"),
    ("seed", [0, 2**63 - 1], [-1, 2**63], r"^The seed must be"),
    ("init_std", [1e-9], [0.0], r"^The initial standard deviation must be"),
])
def test_negsampling_settings_bounds(field, ok, bad, message):
    for value in ok:
        assert getattr(NegSamplingConfig(**{field: value}), field) == value
    for value in bad:
        with pytest.raises(ConfigError, match=message):
            NegSamplingConfig(**{field: value})


def test_compare_objectives_scores_each_run_on_the_groups():
    g = generate_corpus()
    corpus = Corpus.from_text(g.text, window=2)
    sm_cfg = SkipGramConfig(d_model=6, steps=40)
    ns_cfg = NegSamplingConfig(d_model=6, epochs=2)
    cmp = compare_objectives(corpus, sm_cfg, ns_cfg, groups=g.groups, k=2)
    for run, rec in ((cmp.softmax, cmp.softmax_recovery), (cmp.negsampling, cmp.negsampling_recovery)):
        want = group_recovery(run.E, corpus.vocab, g.groups, 2)
        assert rec.overall == want.overall and rec.per_word == want.per_word
    assert cmp.softmax.E.shape == (corpus.V, 6) and cmp.negsampling.E.shape == (corpus.V, 6)
    assert len(cmp.softmax.losses) == 41
    assert 0 < cmp.softmax_seconds < 60 and 0 < cmp.negsampling_seconds < 60
    assert cmp.negsampling_seconds == cmp.negsampling.seconds
    default = compare_objectives(Corpus.from_text(GUIDE_TEXT), None, NegSamplingConfig(epochs=1), groups=None)
    assert len(default.softmax.losses) == SkipGramConfig().steps + 1
    assert default.softmax_recovery is None and default.negsampling_recovery is None
    k3 = compare_objectives(corpus, sm_cfg, ns_cfg, groups=g.groups)
    assert k3.softmax_recovery.overall == group_recovery(k3.softmax.E, corpus.vocab, g.groups, 3).overall


def test_negatives_follow_the_power_and_a_blow_up_is_reported_quietly():
    from core.negsampling import train_negsampling
    corpus = Corpus.from_text(GUIDE_TEXT)
    a = train_negsampling(corpus, NegSamplingConfig(epochs=3, power=0.75))
    b = train_negsampling(corpus, NegSamplingConfig(epochs=3, power=0.0))
    assert not np.array_equal(a.E, b.E)                  # the noise distribution matters
    big = train_negsampling(corpus, NegSamplingConfig(epochs=50, lr=1e6, init_std=10.0))   # no RuntimeWarning
    assert big.diverged and big.diverged_step is not None


def test_epoch_loss_is_the_pair_weighted_mean_of_its_batches():
    from core.negsampling import train_negsampling
    from core.skipgram import loss_and_grads
    corpus = Corpus.from_text(GUIDE_TEXT)                       # 126 pairs: batches of 64 and 62
    r = train_negsampling(corpus, NegSamplingConfig(epochs=2, batch_size=64))
    s = r.step_losses
    assert r.steps == len(s) == 4
    np.testing.assert_allclose(r.losses, [(64 * s[0] + 62 * s[1]) / 126, (64 * s[2] + 62 * s[3]) / 126],
                               rtol=1e-12)
    assert r.vocab == corpus.vocab and not r.diverged and r.diverged_step is None
    assert len(r.softmax_losses) == 3
    assert r.softmax_loss == r.softmax_losses[-1] == loss_and_grads(r.E, r.W, corpus.cooccurrence)[0]


def test_a_blow_up_keeps_the_last_good_table_and_names_its_step():
    from core.negsampling import train_negsampling
    corpus = Corpus.from_text(GUIDE_TEXT)
    big = train_negsampling(corpus, NegSamplingConfig(epochs=50, lr=1e6, init_std=10.0))
    assert big.diverged and big.steps <= big.diverged_step <= big.steps + 1   # the update that blew up
    assert np.isfinite(big.E).all() and np.isfinite(big.W).all()


def test_negative_sampling_blow_up_keeps_the_last_good_table_and_its_own_loss(guide):
    from core.negsampling import NegSamplingConfig, train_negsampling

    r = train_negsampling(guide, NegSamplingConfig(lr=20.0, epochs=30))
    assert r.diverged and r.diverged_step == 5 and r.steps == 4 and len(r.losses) == 2
    assert r.step_losses.max() <= BLOWUP_FACTOR * r.step_losses[0]
    # the reported loss is that of the table it returns, not of the last finished epoch
    assert r.softmax_loss == loss_and_grads(r.E, r.W, guide.cooccurrence)[0]
    assert r.softmax_loss == pytest.approx(3.1649374278301443, rel=1e-9)
    assert r.softmax_losses[-1] > 90
    calm = train_negsampling(guide, NegSamplingConfig(epochs=3))
    assert not calm.diverged and calm.softmax_loss == calm.softmax_losses[-1]
