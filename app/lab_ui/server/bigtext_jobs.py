"""Counting a big own text before it is trained: the Train screen's first step for a big text.

``size_of`` counts a text's words (``core.bigtext.text_size``): a short text here, a long
one in a background worker process (a 5 MB text takes 5-10 s to split), waiting for a slot
of ``lab_ui.server.jobs``' PREPARE lane; the sizes are kept per server by the text's SHA-256.
The word2vec run itself is the run service's (``lab_ui.server.runs.start`` and ``poll``).
"""
from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict

import streamlit as st

from core.bigtext import TextSize, text_size
from lab_ui.server import workers
from lab_ui.server.jobs import PREPARE, Cancelled, heavy_slot, session_gone
from lab_ui.server.workers import WorkerError

PREPARE_IN_PROCESS_CHARS = 50_000
"""Texts up to this long are counted in the server's own interpreter (about 0.1 s); a longer one
(a 5 MB text: 5-10 s of splitting into words) is counted in a background worker, one text at a
time per browser (``lab_ui.server.jobs.PREPARE``), so its seconds never stall the class."""
log = logging.getLogger(__name__)


class _Sizes:
    """The sizes of the texts counted so far, by the text's SHA-256: at most ``size`` (a few
    numbers each), least recently used dropped first. One per server process."""

    def __init__(self, size: int = 256):
        self.size, self._lock = size, threading.Lock()
        self._items: OrderedDict[str, TextSize] = OrderedDict()

    def get(self, key: str) -> TextSize | None:
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
            return self._items.get(key)

    def put(self, key: str, value: TextSize) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)


_SIZES = _Sizes()


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@st.cache_data(max_entries=64, show_spinner=False)
def _small_size(text: str) -> TextSize:
    return text_size(text)


def size_of(text: str) -> TextSize:
    """``core.bigtext.text_size(text)``: in this interpreter for a short text; for a long one
    in a background worker, waiting for a slot of the PREPARE lane, with a note on the page
    while it waits and counts. A browser tab that closes meanwhile stops it; a worker that
    dies is said on the page."""
    if len(text) <= PREPARE_IN_PROCESS_CHARS:
        return _small_size(text)
    key = digest(text)
    if (size := _SIZES.get(key)) is not None:
        return size
    box = st.empty()
    try:
        with heavy_slot(box, PREPARE):
            if (size := _SIZES.get(key)) is None:          # another tab may have counted it meanwhile
                box.info(f"Counting the words of your text ({len(text):,} characters); this takes a "
                         "few seconds.", icon=":material/hourglass_top:")
                size = workers.call(text_size, text, stoppable=False, background=True,
                                    callback=lambda step, value: session_gone())
                _SIZES.put(key, size)
    except Cancelled:
        log.warning("counting a text's words stopped: its session has gone away")
        st.stop()
    except WorkerError:
        log.exception("counting a text's words failed in its worker process")
        box.error("Counting the words of this text failed: the process doing it ended unexpectedly "
                  "(perhaps the server ran short of memory). Try a shorter text.")
        st.stop()
    box.empty()
    return size


def is_big(text: str) -> bool:
    """True when the text has too many distinct words for the lesson's full softmax."""
    return size_of(text).objective == "word2vec"
