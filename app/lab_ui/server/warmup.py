"""Work done once per server, when it starts, instead of by the first students of a class.

When a class opens the link in the same second, every student's first Train page arrives
together, and anything the first page needs that is not ready yet (the Train screen's modules,
its compiled script, the lesson's reference run and what the Result tab derives from it) is
built while forty sessions wait behind it. ``start()`` builds all of it in a background thread
as the server starts (the router calls it once per process), so the first student finds it
ready; a student who arrives earlier still gets it as before, from the same caches."""
from __future__ import annotations

import importlib
import logging
import threading
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


def compile_pages() -> None:
    """Streamlit compiles a page's script on its first run, under a lock the other sessions
    wait on; do it now. (Streamlit's own script cache: skipped if its internals change.)"""
    from streamlit.runtime import Runtime
    cache = getattr(Runtime.instance(), "_script_cache", None) if Runtime.exists() else None
    if cache is not None:
        for name in FIRST_PAGES:
            cache.get_bytecode(str(APP_DIR / file_of(name)))


def warm() -> None:
    """Everything above, in order; returns when done."""
    for name in TRAIN_MODULES:
        importlib.import_module(name)
    compile_pages()
    from lab_ui.server.runs import corpus_for, run
    from lab_ui.screens.train.train_result import run_heatmap_order, run_pca
    request = lesson_request()
    result = run(request)
    run_heatmap_order(result, corpus_for(request.text, request.window, request.max_vocab))
    run_pca(result)


def start() -> threading.Thread:
    """``warm()`` in a background thread; a failure is logged, never raised (the pages then
    build what they need as they would have)."""
    def run() -> None:
        try:
            warm()
        except Exception:
            logging.getLogger(__name__).exception("warming up the lesson's run failed")
    thread = threading.Thread(target=run, name="embedding-lab-warmup", daemon=True)
    thread.start()
    return thread
