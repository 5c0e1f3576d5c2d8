"""Work done once per server, when it starts, instead of by the first students of a class.

When a class opens the link in the same second, every student's first Train page arrives
together, and anything the first page needs that is not ready yet (the Train screen's modules,
its compiled script, the lesson's reference run and what the Result tab derives from it) is
built while forty sessions wait behind it. ``start()`` builds all of it in a background thread
as the server starts (the router calls it once per process), so the first student finds it
ready.

Then it trains **the lesson's slider grid** (``lesson_grid``): every position of the Train
screen's d_model and window sliders at the lesson's other settings (seed, learning rate, steps),
160 runs, in one worker process per core (``lab_ui.server.runs.prepare``), kept for the server's
life. A class following the lesson then finds every run it can reach with those two sliders
trained, whatever moment the students arrive. ``EMBEDDING_LAB_LESSON_GRID=0`` in the server's
environment skips the grid (the test suite does, so that every test server starts in a blink).

A page opened while the warm-up runs waits for it, with a progress bar (``wait_while_warming``):
the teacher's own first visit, before the class, is that wait; deploy.warm's visit returns when
it is over."""
from __future__ import annotations

import importlib
import itertools
import logging
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from core.corpus import GUIDE_TEXT
from lab_ui import APP_DIR
from lab_ui.screens.registry import file_of
from core.run import RunRequest
from core.skipgram import SkipGramConfig

FIRST_PAGES = ("home", "train")
"""The screens a class opens first (``lab_ui.screens.registry`` names): compiled at start."""
TRAIN_MODULES = ("lab_ui.screens.train.train_result", "lab_ui.screens.train.train_views",
                 "lab_ui.screens.train.bigtext_view", "lab_ui.widgets.find_word",
                 "lab_ui.screens.train.train_controls", "lab_ui.widgets.pickers", "lab_ui.widgets.player",
                 "lab_ui.screens.views.projection_views", "core.honesty", "core.negsampling", "core.export",
                 "core.generated", "core.senses")
"""What the Train screen imports on its first run."""


def lesson_request() -> RunRequest:
    """The run the Train screen asks for at its starting settings (the widgets' defaults,
    ``train_controls.LESSON_DEFAULTS``), built by the screen's own ``train_request``: the
    run cache keys on the planned request, so the warmed run is the one the screen finds."""
    from lab_ui.screens.train.train_controls import LESSON_DEFAULTS, train_request
    values: dict[str, Any] = dict(LESSON_DEFAULTS)
    window = int(values.pop("window"))
    return train_request(GUIDE_TEXT, window, SkipGramConfig(**values))


GRID_VARIABLE = "EMBEDDING_LAB_LESSON_GRID"
"""Set to 0 in the server's environment to skip the lesson's slider grid at start."""
WAIT_SECONDS = 60.0
"""The longest a page waits for the warm-up (on a slow machine it then trains what it needs)."""


def lesson_grid() -> list[RunRequest]:
    """Every (d_model, window) of the Train screen's two sliders at the lesson's other starting
    settings, as the screen asks for them (``train_request``), nearest the lesson's run first
    (by how many slider steps away it is): 32 x 5 = 160 runs."""
    from lab_ui.screens.train.train_controls import CONTROLS, LESSON_DEFAULTS, Slider, train_request
    d_slider, w_slider = CONTROLS["d_model"], CONTROLS["window"]
    assert isinstance(d_slider, Slider) and isinstance(w_slider, Slider)
    values: dict[str, Any] = dict(LESSON_DEFAULTS)
    d0, w0 = int(values.pop("d_model")), int(values.pop("window"))
    cells = itertools.product(range(d_slider.low, d_slider.high + 1), range(w_slider.low, w_slider.high + 1))
    order = sorted(cells, key=lambda cell: (abs(cell[0] - d0) + abs(cell[1] - w0), cell))
    return [train_request(GUIDE_TEXT, w, SkipGramConfig(d_model=d, **values)) for d, w in order]


def grid_wanted() -> bool:
    return os.environ.get(GRID_VARIABLE, "1").strip() != "0"


@dataclass
class Warming:
    """How far the warm-up has got: runs of the grid ``done`` of ``total``; ``finished`` is set
    when it is over (done, failed or skipped)."""

    total: int = 0
    done: int = 0
    finished: threading.Event = field(default_factory=threading.Event)

    def count(self, _request=None) -> None:
        self.done += 1


STATE: Warming | None = None
"""The warm-up of this server process (None: not started)."""


def compile_pages() -> None:
    """Streamlit compiles a page's script on its first run, under a lock the other sessions
    wait on; do it now. (Streamlit's own script cache: skipped if its internals change.)"""
    from streamlit.runtime import Runtime
    cache = getattr(Runtime.instance(), "_script_cache", None) if Runtime.exists() else None
    if cache is not None:
        for name in FIRST_PAGES:
            cache.get_bytecode(str(APP_DIR / file_of(name)))


def warm(state: Warming | None = None) -> None:
    """Everything above, in order, the lesson's grid last (unless ``grid_wanted()`` says no);
    returns when done. ``state``: where to count the grid's runs."""
    state = Warming() if state is None else state
    for name in TRAIN_MODULES:
        importlib.import_module(name)
    compile_pages()
    from lab_ui.server.runs import corpus_for, prepare, run
    from lab_ui.screens.train.train_result import run_heatmap_order, run_pca
    request = lesson_request()
    result = run(request)
    run_heatmap_order(result, corpus_for(request.text, request.window, request.max_vocab))
    run_pca(result)
    if grid_wanted():
        grid = lesson_grid()
        state.total = len(grid)
        prepare(grid, on_done=state.count)


def start() -> threading.Thread:
    """``warm()`` in a background thread; a failure is logged, never raised (the pages then
    build what they need as they would have). ``STATE`` follows it."""
    global STATE
    state = STATE = Warming()

    def run() -> None:
        try:
            warm(state)
        except Exception:
            logging.getLogger(__name__).exception("warming up the lesson's run failed")
        finally:
            state.finished.set()
    thread = threading.Thread(target=run, name="embedding-lab-warmup", daemon=True)
    thread.start()
    return thread


def wait_while_warming(seconds: float = WAIT_SECONDS) -> None:
    """In a page: while the server's warm-up runs, wait for it (at most ``seconds``) under a
    progress bar, then clear it. Nothing is drawn once the warm-up is over."""
    state = STATE
    if state is None or state.finished.is_set():
        return
    import streamlit as st
    box = st.empty()
    deadline = time.monotonic() + seconds
    while not state.finished.wait(0.25) and time.monotonic() < deadline:
        if state.total:
            box.progress(min(1.0, state.done / state.total),
                         text=f"The server is getting the lesson ready (once, as it starts): "
                              f"{state.done} of {state.total} runs trained.")
        else:
            box.progress(0.0, text="The server is getting the lesson ready (once, as it starts).")
    box.empty()
