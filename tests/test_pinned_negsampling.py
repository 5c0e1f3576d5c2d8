"""Negative sampling and table initialisation details found loose by mutation testing
(docs/quality.md): the settings' bounds, and the comparison's group recovery."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.embedding import init_table
from core.generated import generate_corpus, group_recovery
from core.negsampling import MAX_EPOCHS, MAX_NEGATIVES, NegSamplingConfig, compare_objectives
from core.skipgram import ConfigError, SkipGramConfig
from core.vectors import Vectors


def test_init_table_is_seed_zero_noise_around_zero():
    np.testing.assert_array_equal(init_table(4, 3), np.random.default_rng(0).normal(0.0, 0.02, (4, 3)))
    big = init_table(400, 50, std=1.0)
    assert abs(big.mean()) < 0.01 and abs(big.std() - 1.0) < 0.01


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
        want = group_recovery(Vectors(corpus.vocab, run.E), g.groups, 2)
        assert rec.overall == want.overall and rec.per_word == want.per_word
    assert cmp.softmax.E.shape == (corpus.V, 6) and cmp.negsampling.E.shape == (corpus.V, 6)
    assert len(cmp.softmax.losses) == 41
    assert 0 < cmp.softmax_seconds < 60 and 0 < cmp.negsampling_seconds < 60
    assert cmp.negsampling_seconds == cmp.negsampling.seconds
    default = compare_objectives(Corpus.from_text(GUIDE_TEXT), None, NegSamplingConfig(epochs=1), groups=None)
    assert len(default.softmax.losses) == SkipGramConfig().steps + 1
    assert default.softmax_recovery is None and default.negsampling_recovery is None
    k3 = compare_objectives(corpus, sm_cfg, ns_cfg, groups=g.groups)
    assert k3.softmax_recovery.overall == group_recovery(Vectors(corpus.vocab, k3.softmax.E), g.groups, 3).overall


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
