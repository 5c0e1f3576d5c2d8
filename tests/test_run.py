"""core.run: one request, one entry, one result type, for every objective."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from core import budget
from core.bigtext import train_on_text
from core.cbow import train_cbow
from core.corpus import GUIDE_TEXT, Corpus
from core.negsampling import NegSamplingConfig, train_negsampling
from core.run import RunRequest, StepsCut, fit_steps, plan, run, shared_settings, work
from core.skipgram import SkipGramConfig, train
from core.word2vec import Word2VecConfig

CORPUS = Corpus.from_text(GUIDE_TEXT, window=2)


@pytest.mark.parametrize("objective, trainer", [("softmax", train), ("cbow", train_cbow)])
def test_a_full_batch_run_is_its_trainer_s_run_with_w_as_rows(objective, trainer):
    config = SkipGramConfig(steps=40, d_model=3, seed=5)
    r = run(RunRequest(objective, GUIDE_TEXT, config, replay_frames=None))
    direct = trainer(CORPUS, config)
    np.testing.assert_array_equal(r.E, direct.E)
    np.testing.assert_array_equal(r.W, direct.W.T)            # (V, d): one row per word
    np.testing.assert_array_equal(r.losses, direct.losses)
    np.testing.assert_array_equal(r.snapshot_steps, direct.snapshot_steps)
    assert r.vocab == CORPUS.vocab and r.config == config and r.cut is None
    assert r.cross_entropy == (direct.final_loss if objective == "softmax" else None)
    assert r.scores_per_pair == CORPUS.V and r.seconds > 0


def test_a_negative_sampling_run_is_its_trainer_s_run():
    config = NegSamplingConfig(epochs=6, negatives=3, d_model=3, seed=1)
    r = run(RunRequest("negsampling", GUIDE_TEXT, config))
    direct = train_negsampling(CORPUS, config)
    np.testing.assert_array_equal(r.E, direct.E)
    np.testing.assert_array_equal(r.W, direct.W.T)
    np.testing.assert_array_equal(r.losses, direct.losses)
    assert r.cross_entropy == direct.softmax_loss and r.scores_per_pair == 4 and r.snapshots.size == 0


def test_a_word2vec_run_is_train_on_text_s_run():
    text = "the cat sat\nthe dog sat\n" * 20
    config = Word2VecConfig(d_model=8, epochs=2, min_count=1)
    r = run(RunRequest("word2vec", text, config))
    direct = train_on_text(text, config)
    assert r.vocab == direct.vocab and r.words_done == direct.words_done
    np.testing.assert_array_equal(r.E, direct.E)
    np.testing.assert_array_equal(r.W, direct.W)              # word2vec keeps W as rows already
    assert r.E.shape == r.W.shape == (4, 8)


def test_a_request_refuses_a_config_of_another_objective():
    with pytest.raises(TypeError, match="NegSamplingConfig"):
        RunRequest("negsampling", GUIDE_TEXT, SkipGramConfig())
    with pytest.raises(ValueError, match="objective"):
        RunRequest("glove", GUIDE_TEXT, SkipGramConfig())


def test_the_budget_cut_is_asked_for_and_said_in_the_result():
    text = " ".join(f"w{i}" for i in range(300))
    config = SkipGramConfig(d_model=32, steps=5000)
    corpus = Corpus.from_text(text, window=2)
    steps, cut = fit_steps(corpus.V, 32, 5000, (1000, 2000, 5000))
    assert cut == StepsCut(5000, steps, cut.message) and steps < 5000
    assert "trained for **" in cut.message and f"{steps:,} steps" in cut.message
    assert steps <= budget.max_skipgram_steps(corpus.V, 32)
    asked = RunRequest("softmax", text, config, fit_budget=True, step_options=(1000, 2000, 5000))
    p = plan(asked, corpus)
    assert p.cut == cut and p.config == replace(config, steps=steps, snapshot_every=steps // 60)
    assert p.request == RunRequest("softmax", text, p.config, replay_frames=None)   # nothing left to plan
    assert plan(p.request, corpus) == type(p)(p.request)
    assert plan(replace(asked, fit_budget=False), corpus).config == replace(config, snapshot_every=5000 // 60)
    assert work(asked, corpus) == budget.skipgram_work(corpus.V, 32, steps)


def test_replay_frames_set_the_snapshot_spacing_from_the_steps_run():
    r = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(steps=300), replay_frames=60))
    assert r.config.snapshot_every == 5 and list(r.snapshot_steps[:3]) == [0, 5, 10]
    own = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(steps=300), replay_frames=None))
    assert own.config.snapshot_every == 50 and list(own.snapshot_steps) == [0, 50, 100, 150, 200, 250, 300]


def test_shared_settings_take_every_shared_field_but_the_target_s_own():
    config = SkipGramConfig(d_model=6, seed=9, init_std=0.2, lr=20.0)
    ns = shared_settings(config, NegSamplingConfig, epochs=3, negatives=2)
    assert ns == NegSamplingConfig(d_model=6, seed=9, init_std=0.2, epochs=3, negatives=2)
    assert ns.lr == NegSamplingConfig().lr                    # its own learning rate


def test_a_negative_sampling_run_stops_when_its_callback_asks():
    config = NegSamplingConfig(epochs=10)
    r = run(RunRequest("negsampling", GUIDE_TEXT, config), callback=lambda epoch, loss: epoch == 3)
    assert r.stopped and len(r.losses) == 3
    whole = run(RunRequest("negsampling", GUIDE_TEXT, config), callback=lambda epoch, loss: epoch == 10)
    assert not whole.stopped and len(whole.losses) == 10
