"""The run machinery of the Train screen's big-text path: counting a text, and word2vec's job.

* ``size_of`` counts a text's words (``core.bigtext.text_size``): a short text here, a long
  one in a background worker process (a 5 MB text takes 5-10 s to split), waiting for a slot
  of ``lab_ui.server.jobs``' PREPARE lane; the sizes are kept per server by the text's SHA-256.
* ``Word2VecJob`` is one word2vec run (``core.run``'s request, entry and result, as every
  other run), watched from a background thread and computed, text splitting included, in a
  background worker, after a slot of the LONG lane. Unlike ``lab_ui.server.runs.run`` it outlives
  the script run that started it (minutes of training) and is not shared between sessions. Every way a
  job ends is on the page (its result, or why there is none) and, unless it simply
  finished for an open tab, in the server's log.
"""
from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import OrderedDict

import streamlit as st

from core import run as core_run
from core.bigtext import TextSize, text_size, words_to_train_on_text
from core.run import RunRequest, RunResult
from core.skipgram import ConfigError
from core.word2vec import Word2VecConfig
from lab_ui.server import workers
from lab_ui.server.jobs import LONG, PREPARE, Cancelled, JobSlots, heavy_slot, session_gone
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


class Word2VecJob:
    """One word2vec run on a text, readable from the page while it trains."""

    def __init__(self, text: str, config: Word2VecConfig, key: tuple, n_words: int,
                 slots: JobSlots | None = None, session: str | None = None, owner: str | None = None):
        self.text, self.config, self.key, self.slots = text, config, key, slots
        self.session = session                              # the browser session that asked
        self.owner = owner                                  # the browser (lab_ui.server.jobs.owner_id)
        self.place: int | None = None                       # waiting: place in the queue (0: behind
                                                            # this browser's own run); None: not waiting
        self.total = max(1, n_words * config.epochs)       # words to read (then as the trainer counts)
        self.done, self.loss, self.started = 0, float("nan"), time.perf_counter()
        self.stop = threading.Event()
        self.result: RunResult | None = None
        self.error: str | None = None
        self.finished = threading.Event()
        self.shown = False                                  # set by the page run that drew the result

    def run(self) -> None:
        """The whole long run: wait for a slot of the server's LONG lane (lab_ui.server.jobs), then
        ``core.run.run`` of the word2vec request (text -> sentences -> train_word2vec) in a
        background worker, reporting progress.
        Every way it ends is one line in the server's log."""
        ticket = None
        try:
            if self.slots is not None:
                ticket = self.slots.acquire(on_wait=self._waiting, cancelled=self._cancelled,
                                            owner=self.owner, lane=LONG)
            self.place = None
            self.started = time.perf_counter()
            self.total = max(1, workers.call(words_to_train_on_text, self.text, self.config, stoppable=False,
                                             background=True, callback=lambda step, value: self._cancelled()))
            self.result = workers.call(core_run.run, RunRequest("word2vec", self.text, self.config),
                                       callback=self._progress, background=True)
            self.done = self.result.words_done        # reports are sampled: the last one may be older
            self._log_end()
        except Cancelled:
            self.place = None
            self.error = "Stopped before training could start: nothing was trained."
            self._log_end()
        except ConfigError as err:
            self.error = str(err)
        except WorkerError:
            log.exception("word2vec training failed: its worker process ended")
            self.error = ("Training stopped: the process that trained it ended unexpectedly (perhaps the "
                          "server ran short of memory). Nothing was kept; try fewer epochs or a shorter text.")
        except Exception:  # a bug must not show a traceback; the log keeps the details
            log.exception("word2vec training failed")
            self.error = "Training stopped with an unexpected error (the details are in the server's log)."
        finally:
            if ticket is not None and self.slots is not None:
                self.slots.release(ticket)
            self.finished.set()

    def _log_end(self) -> None:
        """One line per run that did not simply finish for a tab that is still open."""
        if self.session is not None and session_gone(self.session):
            log.warning("a word2vec run stopped: its session has gone away")
        elif self.result is None or self.result.stopped:
            log.info("a word2vec run was stopped by its student")

    def _waiting(self, place: int, running: int) -> None:
        self.place = place

    def _cancelled(self) -> bool:
        """Stop pressed, a new run started, or the browser tab closed."""
        if not self.stop.is_set() and session_gone(self.session):
            self.stop.set()
        return self.stop.is_set()

    def _progress(self, done: int, loss: float) -> bool:
        self.done, self.loss = done, loss
        return self._cancelled()

    @property
    def words_per_second(self) -> float:
        return self.done / max(time.perf_counter() - self.started, 1e-9)

    def start(self) -> None:
        threading.Thread(target=self.run, name="word2vec-job", daemon=True).start()
