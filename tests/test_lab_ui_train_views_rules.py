"""lab_ui.train_views' helpers, tested directly (no screen): the objective comparison sends the
long run to a worker with the very configs it was given, and caches it; the heatmap's words are
the most frequent ones, ordered by similarity (the screens: tests/app/test_values_train_tabs.py)."""
from __future__ import annotations

import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.generated import generate_corpus
from core.negsampling import NegSamplingConfig, compare_objectives
from core.similarity import cosine_matrix, similarity_order
from core.skipgram import SkipGramConfig
from lab_ui import train_views
from lab_ui.train_controls import TRAIN_VOCAB_CAP


@pytest.mark.parametrize("long", [True, False])
def test_the_objective_comparison_runs_the_configs_it_was_given(monkeypatch, long):
    config = SkipGramConfig(steps=50, seed=2, d_model=3)
    ns = NegSamplingConfig(d_model=3, epochs=4, negatives=2, seed=2)
    calls = []

    def long_run(fn, *args, placeholder=None, callback=None, stoppable=True, **kwargs):
        calls.append((args, kwargs, placeholder, stoppable))
        return fn(*args, **kwargs)                       # in this process, as the worker would

    monkeypatch.setattr(train_views, "long_run", long_run)
    monkeypatch.setattr(train_views, "is_long", lambda work: long)
    train_views._objective_cache.clear()
    cmp = train_views._objectives(GUIDE_TEXT, 2, config, ns, False, placeholder="queue")
    corpus = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    expected = compare_objectives(corpus, config, ns)
    assert (cmp.softmax_loss, cmp.negsampling_loss) == (expected.softmax_loss, expected.negsampling_loss)
    if long:
        (args, kwargs, placeholder, stoppable), = calls
        assert args[1:] == (config, ns) and kwargs == {"groups": None}
        assert placeholder == "queue" and stoppable is False
    else:
        assert calls == []
    assert train_views._objectives(GUIDE_TEXT, 2, config, ns, False) is cmp       # cached
    train_views._objective_cache.clear()


def test_the_objective_comparison_on_the_generated_text_scores_its_groups(monkeypatch):
    g = generate_corpus()
    config, ns = SkipGramConfig(steps=30, d_model=4), NegSamplingConfig(d_model=4, epochs=1, negatives=2)
    train_views._objective_cache.clear()
    cmp = train_views._objectives(g.text, 2, config, ns, True)
    corpus = Corpus.from_text(g.text, window=2, max_vocab=TRAIN_VOCAB_CAP)
    expected = compare_objectives(corpus, config, ns, groups=g.groups)
    assert cmp.softmax_recovery.overall == expected.softmax_recovery.overall
    train_views._objective_cache.clear()


def test_the_heatmap_shows_the_most_frequent_words_ordered_by_similarity(monkeypatch):
    monkeypatch.setattr(train_views, "MAX_HEATMAP_WORDS", 7)
    corpus = Corpus.from_text(generate_corpus().text, window=2)
    S = cosine_matrix(np.random.default_rng(0).normal(size=(corpus.V, 5)))
    shown = corpus.most_frequent(7)
    order = train_views.heatmap_order(S, corpus)
    assert list(order) == list(shown[similarity_order(S[np.ix_(shown, shown)])])
    assert sorted(order) == sorted(shown)
