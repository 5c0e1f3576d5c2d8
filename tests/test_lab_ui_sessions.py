"""lab_ui.server.jobs.session_id and lab_ui.server.runs.train_run's record of a run stopped because its
browser tab closed, tested directly (no screen)."""
from __future__ import annotations

import logging
from types import SimpleNamespace

import numpy as np
import streamlit.runtime.scriptrunner as scriptrunner

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train
from core.run import RunRequest
from lab_ui.server import guard, jobs, runs

GONE = "its session has gone away"


def test_session_id_is_the_script_run_s_own_and_none_outside_a_run(monkeypatch):
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx", lambda suppress_warning=False: None)
    assert jobs.session_id() is None
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx",
                        lambda suppress_warning=False: SimpleNamespace(session_id="tab-7f3a"))
    assert jobs.session_id() == "tab-7f3a"


def _light_run(monkeypatch, caplog, gone_while_training: bool, gone_at_the_end: bool):
    """The Stopper asks ``guard.session_gone`` during training; ``runs.run`` asks
    ``runs.session_gone`` once more after it."""
    monkeypatch.setattr(guard, "session_gone", lambda: gone_while_training)
    monkeypatch.setattr(runs, "session_gone", lambda: gone_at_the_end)
    config = SkipGramConfig(d_model=3, steps=200, seed=4242)     # a run no other test caches
    runs.run_cache().clear()
    with caplog.at_level(logging.WARNING):
        result = runs.run(RunRequest("softmax", GUIDE_TEXT, config, 2))
    runs._PARTIALS.take("")                                       # the bare run's session is ""
    runs.run_cache().clear()
    full = train(Corpus.from_text(GUIDE_TEXT, window=2), config)
    return result, full


def test_a_run_whose_tab_closed_while_it_trained_stops_and_is_logged(monkeypatch, caplog):
    """The tab closed during training (the Stopper saw it) but the last check after it does
    not see it any more: the run stopped early all the same, so the log counts it."""
    result, full = _light_run(monkeypatch, caplog, gone_while_training=True, gone_at_the_end=False)
    assert result.stopped and len(result.losses) < len(full.losses)
    np.testing.assert_array_equal(result.losses, full.losses[: len(result.losses)])
    assert caplog.text.count(GONE) == 1


def test_a_run_with_its_tab_open_is_not_logged_as_gone(monkeypatch, caplog):
    result, full = _light_run(monkeypatch, caplog, gone_while_training=False, gone_at_the_end=False)
    assert not result.stopped
    np.testing.assert_array_equal(result.losses, full.losses)
    assert GONE not in caplog.text
