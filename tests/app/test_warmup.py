"""Work done once per server: the lesson's run warmed at start (lab_ui.server.warmup), and what the
Result tab derives from a run built once and shared by the sessions showing it (lab_ui.server.per_run)."""
import gc

import numpy as np

from lab_ui.server import per_run, warmup
from lab_ui.server.runs import corpus_for, run, run_cache
from lab_ui.screens.train.train_result import run_cosines, run_heatmap_order, run_pca
from core.similarity import cosine_matrix
from tests.app.conftest import assert_clean, metric, open_screen


class Run:
    """A stand-in for a run: per_run keys by identity only."""


def test_a_derived_value_is_built_once_per_run_and_shared():
    calls = []

    def build(x):
        calls.append(x)
        return np.full(3, x)

    a, b = Run(), Run()
    first = per_run.derived(a, "v", lambda: build(1))
    assert per_run.derived(a, "v", lambda: build(2)) is first      # the second ask reuses it
    assert per_run.derived(b, "v", lambda: build(3))[0] == 3        # another run: its own
    assert per_run.derived(a, ("v", 2), lambda: build(4))[0] == 4   # another name: its own
    assert calls == [1, 3, 4]
    assert not first.flags.writeable                                # shared arrays are read-only


def test_a_freed_run_takes_its_derived_values_with_it():
    before = per_run.size()
    run = Run()
    per_run.derived(run, "v", lambda: 1)
    assert per_run.size() == before + 1
    del run
    gc.collect()
    assert per_run.size() == before


def test_the_result_tabs_derived_values_are_the_cores():
    request = warmup.lesson_request()
    result = run(request)
    corpus = corpus_for(request.text, request.window, request.max_vocab)
    np.testing.assert_array_equal(run_cosines(result), cosine_matrix(result.E))
    assert run_cosines(result) is run_cosines(result)
    assert sorted(run_heatmap_order(result, corpus)) == list(range(corpus.V))
    assert run_pca(result).coords.shape == (corpus.V, 2)


def test_the_warm_up_trains_exactly_the_run_the_train_screen_opens_with():
    """After warm(), opening Train at its starting settings trains nothing new: the run the
    screen asks for is the warmed one (a warm-up keyed differently would add a run)."""
    run_cache().clear()
    warmup.warm()
    assert len(run_cache()) == 1
    warmed = run(warmup.lesson_request())
    at = open_screen("train", tables=False)
    assert_clean(at)
    assert len(run_cache()) == 1
    assert metric(at, "loss, step 0") == f"{warmed.losses[0]:.3f}"
    assert metric(at, f"loss, step {len(warmed.losses) - 1:,}") == f"{warmed.final_loss:.3f}"


def test_the_router_starts_the_warm_up_once_per_server(monkeypatch):
    """Two sessions: the warm-up starts for the first only (a cached resource of the process)."""
    import streamlit as st

    started = []
    monkeypatch.setattr(warmup, "start", lambda: started.append(1))
    st.cache_resource.clear()
    for _ in range(2):
        assert_clean(open_screen("home", tables=False))
    assert started == [1]


def test_the_pages_the_warm_up_compiles_are_the_registrys_scripts():
    from lab_ui import APP_DIR
    from lab_ui.screens.registry import file_of
    assert [(APP_DIR / file_of(name)).is_file() for name in warmup.FIRST_PAGES] == [True, True]
