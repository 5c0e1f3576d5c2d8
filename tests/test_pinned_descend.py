"""The full-batch loop (core.skipgram.descend) with a stand-in gradient, pinned where mutation
testing (docs/quality.md, section 4) found it loose: a gradient of W that stops being finite,
an update that overflows W alone, the vocabulary a run reports, and the callback check.

``descend`` takes the loss-and-gradient function as an argument, so a test can hand it one
whose numbers it controls and check where the run stops.
"""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, descend, init_params, train


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
