"""Work done once per server: the lesson's run warmed at start (lab_ui.server.warmup), and what the
Result tab derives from a run built once and shared by the sessions showing it (lab_ui.server.per_run)."""
import gc
import threading
import time
from dataclasses import dataclass, replace

import numpy as np

from lab_ui.server import per_run, warmup
from lab_ui.server.runs import RunCache, corpus_for, prepare, run, run_cache
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


def test_the_lesson_grid_is_every_position_of_the_two_sliders_nearest_first():
    """Every (d_model, window) the Train screen's sliders reach, the other settings the lesson's,
    each as the screen asks for it; the lesson's own run first, then by slider steps away."""
    from itertools import product
    from lab_ui.screens.train.train_controls import CONTROLS
    grid = warmup.lesson_grid()
    d, w = CONTROLS["d_model"], CONTROLS["window"]
    cells = [(r.config.d_model, r.window) for r in grid]
    assert sorted(cells) == sorted(product(range(d.low, d.high + 1), range(w.low, w.high + 1)))
    assert len(cells) == len(set(cells)) == 160
    lesson = warmup.lesson_request()
    assert grid[0] == lesson
    steps = [abs(c[0] - lesson.config.d_model) + abs(c[1] - lesson.window) for c in cells]
    assert steps == sorted(steps)
    for r in grid:      # only the two sliders differ from the lesson's run
        assert replace(r, window=lesson.window, config=replace(r.config, d_model=lesson.config.d_model)) == lesson


def test_prepare_trains_the_runs_in_workers_as_core_does_and_the_screen_finds_them():
    """The runs prepared at start are the core's own, to the last bit, kept under the key the
    screen asks with: opening Train at one of them trains nothing."""
    from core import run as core_run
    run_cache().clear()
    grid = warmup.lesson_grid()[:3]
    assert prepare(grid + grid[:1], processes=2) == 3             # each run once
    assert prepare(grid, processes=2) == 0                        # kept: nothing to train again
    assert run_cache().kept == len(run_cache()) == 3
    for request in grid:
        mine = core_run.run(request)
        kept = run(request)
        np.testing.assert_array_equal(kept.losses, mine.losses)
        np.testing.assert_array_equal(kept.E, mine.E)
    d, w = grid[2].config.d_model, grid[2].window
    at = open_screen("train", tables=False, train_d_model=str(d), train_window=str(w))
    assert_clean(at)
    assert len(run_cache()) == 3
    assert metric(at, f"loss, step {len(kept.losses) - 1:,}") == f"{run(grid[2]).final_loss:.3f}"


def test_a_kept_run_outlives_the_caches_bounds():
    """A class on seeds of its own fills the least-recently-used part; the kept runs stay."""
    @dataclass
    class Result:
        E: np.ndarray

    cache = RunCache(max_entries=2, max_bytes=10**6)
    cache.keep("lesson", Result(np.zeros(3)))
    for i in range(5):
        cache.put(i, Result(np.zeros(3)))
    assert cache.get("lesson") is not None and cache.get(0) is None and cache.get(4) is not None
    assert (len(cache), cache.kept, cache.kept_bytes) == (3, 1, 24)
    assert not cache.get("lesson").E.flags.writeable
    cache.clear()
    assert len(cache) == 0


def test_the_warm_up_trains_the_grid_when_asked_and_counts_it(monkeypatch):
    monkeypatch.setenv(warmup.GRID_VARIABLE, "1")
    two = warmup.lesson_grid()[:2]
    monkeypatch.setattr(warmup, "lesson_grid", lambda: two)
    run_cache().clear()
    state = warmup.Warming()
    warmup.warm(state)
    assert (state.total, state.done, run_cache().kept, len(run_cache())) == (2, 2, 2, 2)
    monkeypatch.setenv(warmup.GRID_VARIABLE, "0")
    assert not warmup.grid_wanted()


def test_a_page_opened_while_the_server_warms_up_waits_for_it(monkeypatch):
    """The router waits for the warm-up (here: one that ends after 1 s), then draws the page with
    nothing of the wait left."""
    state = warmup.Warming(total=160, done=40)
    monkeypatch.setattr(warmup, "STATE", state)
    threading.Timer(1.0, state.finished.set).start()
    t0 = time.perf_counter()
    at = open_screen("home", tables=False)
    assert time.perf_counter() - t0 >= 1.0
    assert_clean(at)
    assert not at.get("progress")
