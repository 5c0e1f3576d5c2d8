"""lab_ui.screens.train.train_views' helpers, tested directly (no screen): the negative-sampling tab's run goes
to a worker (when long) with the very config it was given, built from the softmax config's shared
settings, and is cached; the heatmap's words are the most frequent ones, ordered by similarity
(the screens: tests/app/test_values_train_tabs.py)."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.generated import generate_corpus
from core.negsampling import NegSamplingConfig, train_negsampling
from core.similarity import cosine_matrix, similarity_order
from core.skipgram import SkipGramConfig
from lab_ui.screens.train import train_views
from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP


@pytest.mark.parametrize("long", [True, False])
def test_the_negative_sampling_run_trains_the_config_it_was_given(monkeypatch, long):
    """The tab's run goes through lab_ui.server.runs.run like every run: a long one to a worker with
    the very request (as planned), a short one here; both cached; the figures are core's."""
    from core.run import RunRequest, plan
    from lab_ui.server import runs
    ns = NegSamplingConfig(d_model=3, epochs=4, negatives=2, seed=2)
    request = RunRequest("negsampling", GUIDE_TEXT, ns, 2, max_vocab=TRAIN_VOCAB_CAP)
    calls = []

    def call(fn, *args, callback=None, stoppable=True, grace=0.0, background=False, **kwargs):
        calls.append((fn, args))                          # the worker's own options are not fn's
        return fn(*args, callback=callback, **kwargs)     # in this process, as the worker would

    monkeypatch.setattr(runs.workers, "call", call)
    monkeypatch.setattr(runs, "is_long", lambda work: long)
    monkeypatch.setattr(runs, "heavy_slot", lambda placeholder, *args, **kwargs: contextlib.nullcontext())
    runs.run_cache().clear()
    r = runs.run(request)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    expected = train_negsampling(corpus, ns)
    assert r.cross_entropy == expected.softmax_loss and (r.E == expected.E).all()
    if long:
        (fn, args), = calls
        assert fn is runs.core_run.run and args == (plan(request).request,)
    else:
        assert calls == []
    assert runs.run(request) is r                        # cached
    runs.run_cache().clear()


def test_the_negative_sampling_config_takes_the_softmax_config_s_shared_settings():
    from core.run import shared_settings
    config = SkipGramConfig(d_model=5, seed=3, init_std=0.2, lr=20.0)
    ns = shared_settings(config, NegSamplingConfig, epochs=100, negatives=5)
    assert ns == NegSamplingConfig(d_model=5, lr=1.0, epochs=100, batch_size=64, negatives=5, seed=3, init_std=0.2)


def test_the_heatmap_shows_the_most_frequent_words_ordered_by_similarity(monkeypatch):
    monkeypatch.setattr(train_views, "MAX_HEATMAP_WORDS", 7)
    corpus = Corpus.from_text(generate_corpus().text, window=2)
    S = cosine_matrix(np.random.default_rng(0).normal(size=(corpus.V, 5)))
    shown = corpus.most_frequent(7)
    order = train_views.heatmap_order(S, corpus)
    assert list(order) == list(shown[similarity_order(S[np.ix_(shown, shown)])])
    assert sorted(order) == sorted(shown)
