"""The app's one run service, and cached wrappers around other deterministic core calls.

The app's one road to a trained run (``core.run``), for every objective: caching, the
budget's verdict (``core.run.work`` in ``core.budget``'s units: quiet, light or long), the
queue, the worker process, progress and Stop. Two ways in, one road:

* ``run(request, progress, stop_key)``: a page's run, which the page waits for (a blink, or a
  long run of seconds with a progress bar and a Stop button);
* ``start(request, n_words, state_key)`` / ``poll(state_key)``: a background run (word2vec
  on a big text: minutes), which outlives the script run that started it; the page's
  fragment polls it. Start or poll, nothing else.

Every long run, either way, is one ``LongRun``: a slot of its lane (``lab_ui.server.jobs``'
fair queue: one slot per browser), ``core.run.run`` in a worker process, progress, Stop, a
run stopped when its tab closes, and one line in the server's log when it did not simply
finish. Results live in one ``RunCache`` per server (``run_cache``, an
``st.cache_resource``), keyed by the frozen ``RunRequest`` as planned, shared by all sessions and bounded both in
count and in bytes, so a class full of students cannot grow it without limit.
Why not ``st.cache_data``: a cold run must drive a progress bar, and ``st.cache_data``
refuses functions that update an element created outside them. Cached arrays are
made read-only, so no session can change another session's result.
Small deterministic helpers use ``st.cache_data``; the tokenizer, a read-only loaded
thing, uses ``st.cache_resource``.
"""
from __future__ import annotations

import functools
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from dataclasses import fields, is_dataclass, replace
from typing import Callable, Generic, Hashable, Iterable, TypeVar

import numpy as np
import streamlit as st

from core import budget
from core import run as core_run
from core.corpus import Corpus
from core.config_rules import ConfigError
from core.run import RunRequest, RunResult
from core.tokenizer import gpt2
from lab_ui.server.guard import Stopper
from lab_ui.server import jobs, memory, workers
from lab_ui.server.jobs import LONG, LONG_RUN_SECONDS, SHORT, Cancelled, JobSlots, heavy_slot, is_long, owner_id, session_gone
from lab_ui.server.streamlit_private import session_id
from lab_ui.server.workers import WorkerError

log = logging.getLogger(__name__)

MAX_RUNS = 64
PREPARE_PROCESSES = os.cpu_count() or 2
"""Worker processes that train the runs ``prepare`` is given (at server start: one per core)."""
MAX_RUN_BYTES = 48 * 2**20
MAX_BACKGROUND_RUN_BYTES = MAX_RUN_BYTES // 8
"""A finished background run is kept in the shared store only when its arrays and its text
together take at most this (6 MiB): a 5 MB text's word2vec run would push the class's runs
out of the store. A bigger one stays with the tab that trained it."""
SHARED_WAIT_SECONDS = 2.0
"""How long a light run waits for another session that is training the same run."""
QUIET_SECONDS = LONG_RUN_SECONDS
"""Runs estimated (``core.budget``) at most this long get no progress bar or Stop button (the
lesson's reference run: 0.36 s estimated, about as long to train): a bar that flashes for a
blink only adds drawing to the page (about 25 updates of the page). Every longer run is a
long run, so its bar (and its place in the queue) shows."""


R = TypeVar("R")
"""The kind of result a cache holds (a RunResult)."""


class RunCache(Generic[R]):
    """A thread-safe least-recently-used store of training results.

    ``claim``/``release``: when many sessions ask for the same new run at once (a class
    opening the lesson), one trains it and the others wait for its result instead of
    training it again each.

    ``keep``: a run kept for the server's life, outside the least-recently-used part and its
    bounds (the lesson's slider grid, ``prepare``: a fixed set, so bounded by construction);
    a class on seeds of its own cannot push it out."""

    def __init__(self, max_entries: int = MAX_RUNS, max_bytes: int = MAX_RUN_BYTES):
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._items: OrderedDict[Hashable, tuple[R, int]] = OrderedDict()
        self._kept: dict[Hashable, tuple[R, int]] = {}
        self._lock = threading.Lock()
        self._training: dict[Hashable, threading.Event] = {}

    def claim(self, key: Hashable) -> threading.Event | None:
        """None: the caller trains ``key`` (and calls ``release`` after). Otherwise another
        session is training it: the event is set when it has finished (or given up)."""
        with self._lock:
            if key in self._training:
                return self._training[key]
            self._training[key] = threading.Event()
            return None

    def release(self, key: Hashable) -> None:
        with self._lock:
            done = self._training.pop(key, None)
        if done is not None:
            done.set()

    def get(self, key: Hashable) -> R | None:
        with self._lock:
            if key in self._kept:
                return self._kept[key][0]
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key][0]

    def put(self, key: Hashable, result: R) -> None:
        size = _freeze_arrays(result)
        with self._lock:
            self._items[key] = (result, size)
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries or (
                    len(self._items) > 1 and self.nbytes > self.max_bytes):
                self._items.popitem(last=False)

    def keep(self, key: Hashable, result: R) -> None:
        """Store ``result`` for the server's life (never evicted; ``clear`` still drops it)."""
        size = _freeze_arrays(result)
        with self._lock:
            self._items.pop(key, None)
            self._kept[key] = (result, size)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._kept.clear()

    @property
    def nbytes(self) -> int:
        """Bytes of the least-recently-used part (what ``max_bytes`` bounds)."""
        return sum(size for _, size in self._items.values())

    @property
    def kept_bytes(self) -> int:
        return sum(size for _, size in self._kept.values())

    @property
    def kept(self) -> int:
        """How many runs are kept for the server's life."""
        return len(self._kept)

    def __len__(self) -> int:
        return len(self._items) + len(self._kept)


def _freeze_arrays(result) -> int:
    """Make every array in a result dataclass (and in the dataclasses it holds) read-only;
    return their total size in bytes."""
    size = 0
    for f in fields(result):
        value = getattr(result, f.name)
        if isinstance(value, np.ndarray):
            value.flags.writeable = False
            size += value.nbytes
        elif is_dataclass(value) and not isinstance(value, type):
            size += _freeze_arrays(value)
    return size


@st.cache_resource(show_spinner=False)
def run_cache() -> RunCache[RunResult]:
    """The server's one store of finished runs, keyed by their ``RunRequest`` (every objective)."""
    return RunCache()


@st.cache_data(max_entries=8, show_spinner=False)    # a pasted corpus holds a (300, 300) count matrix
def corpus_for(text: str, window: int, max_vocab: int | None = None) -> Corpus:
    return Corpus.from_text(text, window=window, max_vocab=max_vocab)


UNIT = {"softmax": "step", "cbow": "step", "negsampling": "epoch"}
"""What a page run's progress counts, by objective (core.run.total)."""
BACKGROUND_OBJECTIVES = ("word2vec",)
"""The objectives that train in the background (``start``): minutes, not seconds."""


def run(request: RunRequest, progress=None, stop_key: str | None = None) -> RunResult:
    """``core.run.run(request)``, once per distinct run for the whole server: the cache key is
    the request as planned (``core.run.plan``: after the budget's cut), so every setting of its
    config tells runs apart, and two requests that train the same run share it; ``result.cut``
    is this request's own. Every screen
    that trains the lesson's objectives (softmax, CBOW, negative sampling) comes here.

    On a cold run expected (``core.run.work``) to take more than a blink (``QUIET_SECONDS``),
    ``progress`` (an ``st.empty()`` placeholder) shows a progress bar, updated about 20 times,
    and is cleared after. A long run (``lab_ui.server.jobs.is_long``) waits for a long-run slot and
    trains in a worker process; a light one trains here, shared by the sessions that ask for
    it at once.

    ``stop_key``: also show a Stop button (a widget with this key) under the bar. A run
    stopped by it is kept for this session only (never cached) and returned with
    ``stopped=True`` until the user asks to train to the end (``resume_training``).
    Moving any control, or closing the tab, also stops a cold run early (``lab_ui.server.guard``)."""
    if request.objective not in UNIT:
        raise ValueError(f"A {request.objective} run trains in the background: runs.start, not runs.run.")
    planned = _plan(request)
    cut = planned.cut
    key = planned.request                         # what is trained: requests that train the same run share it
    cache = run_cache()
    result = cache.get(key)
    if result is not None:
        return _with_cut(result, cut)
    if stop_key and st.session_state.get(f"{stop_key}_held"):
        held = _wait_for_partial(key)
        if held is not None:
            return _with_cut(held, cut)
        st.session_state.pop(f"{stop_key}_held", None)
    corpus = corpus_for(request.text, request.window, request.max_vocab)
    total, unit = core_run.total(key), UNIT[key.objective]
    work = core_run.work(key, corpus)
    heavy = is_long(work)
    if budget.seconds(work) <= QUIET_SECONDS:
        progress = None
    claimed = heavy or _claim(cache, key)         # long runs are per student; light ones are shared
    if not claimed and (result := cache.get(key)) is not None:
        return _with_cut(result, cut)

    bar = None

    def draw() -> None:
        """The progress bar and the Stop button in ``progress`` (after any queue)."""
        nonlocal bar
        if progress is not None:
            box = progress.container()
            bar = box.progress(0.0, text="Training...")
            if stop_key:
                box.button("Stop training", key=stop_key, on_click=_hold, args=(stop_key,),
                           icon=":material/stop_circle:",
                           help="Stop now and show the run as far as it got.")

    def report(step: int, loss: float) -> None:
        if bar is not None:
            bar.progress(step / max(total, 1),
                         text=f"Training: {unit} {step:,} of {total:,}, loss {loss:.3f}")

    try:
        if heavy:      # a long run: a slot of the server's long-run lane, then a worker process
            stopper = Stopper(report, every=5)    # reports about every 0.1 s: the bar moves twice a second
            job = LongRun(key, total, corpus=corpus, lane=SHORT, background=False, session=session_id(),
                          owner=owner_id(), placeholder=progress, on_start=draw, on_progress=stopper)
            job.run()                             # here, in this script run: the page waits for it
            if isinstance(job.exception, Cancelled):    # the tab closed while the run waited
                st.stop()
            if job.exception is not None:
                raise job.exception
            assert job.result is not None
            result = job.result
        else:
            draw()
            stopper = Stopper(report, every=max(1, total // 20) if unit == "step" else 1)
            result = core_run.run(key, callback=stopper, corpus=corpus)
            if not result.stopped:
                cache.put(key, result)
    finally:
        if claimed and not heavy:
            cache.release(key)
    if result.stopped:
        if not heavy and (stopper.gone or session_gone()):    # the tab closed while the run trained
            _log_gone()
        _PARTIALS.put(_session(), (key, result))
        stopper.resume()                      # a rerun the user asked for goes ahead now
        return _with_cut(result, cut)
    _PARTIALS.take(_session())
    if progress is not None:
        progress.empty()
    return _with_cut(result, cut)


class LongRun:
    """One long run: a slot of its lane (``lab_ui.server.jobs``: a fair queue, one slot per
    browser), then ``core.run.run`` of the planned ``request`` in a worker process, reporting
    progress, stoppable (``stop``, or its tab closing). The one road of every long run, taken
    two ways:

    * ``run()`` inside a page's script run (``lab_ui.server.runs.run``: seconds; the page
      waits): ``placeholder`` shows the place in the queue, ``on_start()`` draws the bar and
      ``on_progress(done, loss)`` (a ``lab_ui.server.guard.Stopper``) moves it and says when
      to stop;
    * ``start()`` in a background thread (``lab_ui.server.runs.start``: word2vec, minutes),
      outliving the script run that started it; the page's fragment reads ``place``,
      ``done``, ``total``, ``finished``, ``result`` and ``error``.

    A finished, complete run goes into the server's ``run_cache`` (a background one only up
    to ``MAX_BACKGROUND_RUN_BYTES``). Every way a run ends is on the page (its result, or why
    there is none) and, unless it simply finished for an open tab, in the server's log."""

    def __init__(self, request: RunRequest, total: int, *, corpus: Corpus | None = None,
                 lane: str = LONG, background: bool = True, slots: JobSlots | None = None,
                 session: str | None = None, owner: str | None = None, placeholder=None,
                 on_start: Callable[[], None] | None = None,
                 on_progress: Callable[[int, float], bool] | None = None):
        self.request, self.corpus, self.lane, self.background = request, corpus, lane, background
        self.slots = slots                                  # None: the server's (jobs.job_slots)
        self.session = session                              # the browser session that asked
        self.owner = owner                                  # the browser (lab_ui.server.jobs.owner_id)
        self.placeholder, self.on_start, self.on_progress = placeholder, on_start, on_progress
        self.place: int | None = None                       # waiting: place in the queue (0: behind
                                                            # this browser's own run); None: not waiting
        self.total = max(1, total)                          # what progress counts up to (core.run.total)
        self.done, self.loss, self.started = 0, float("nan"), time.perf_counter()
        self.stop = threading.Event()
        self.result: RunResult | None = None
        self.error: str | None = None                       # why there is no result (for the page)
        self.exception: BaseException | None = None         # what ended it (a page run raises it again)
        self.finished = threading.Event()
        self.shown = False                                  # set by the page run that drew the result

    def start(self) -> None:
        threading.Thread(target=self.run, name=f"{self.request.objective}-run", daemon=True).start()

    def finish(self, result: RunResult | None = None, error: str | None = None) -> None:
        """End without training: a result found in the cache, or why nothing may train."""
        self.result, self.error = result, error
        if result is not None:
            self.done = self.total = max(1, result.words_done or self.total)
        self.finished.set()

    def run(self) -> None:
        """The whole long run; every way it ends is kept (``result``, ``error``, ``exception``)."""
        try:
            with heavy_slot(self.placeholder, self.lane, owner=self.owner, cancelled=self._cancelled,
                            on_wait=self._waiting, slots=self.slots):
                self.place = None
                self.started = time.perf_counter()
                if self.background:   # a text of megabytes: even counting its words is the worker's job
                    self.total = max(1, workers.call(core_run.total, self.request, stoppable=False,
                                                     background=True,
                                                     callback=lambda step, value: self._cancelled()))
                if self.on_start is not None:
                    self.on_start()
                self.result = workers.call(core_run.run, self.request, corpus=self.corpus,
                                           callback=self._progress, background=self.background)
            if self.result.words_done:
                self.done = self.result.words_done    # reports are sampled: the last one may be older
            if not self.result.stopped:
                self._keep(self.result)
            self._log_end()
        except Cancelled as err:
            self.place, self.exception = None, err
            self.error = "Stopped before training could start: nothing was trained."
            self._log_end()
        except ConfigError as err:            # settings that cannot be trained: the message says why
            self.exception, self.error = err, str(err)
        except WorkerError as err:
            if self.background:                 # a page run raises it again, to its page
                log.exception("a long run failed: its worker process ended")
            self.exception = err
            self.error = ("Training stopped: the process that trained it ended unexpectedly (perhaps the "
                          "server ran short of memory). Nothing was kept; try fewer epochs or a shorter text.")
        except Exception as err:  # a bug must not show a traceback; the log keeps the details
            if self.background:
                log.exception("a long run failed")
            self.exception = err
            self.error = "Training stopped with an unexpected error (the details are in the server's log)."
        finally:
            self.finished.set()

    def _keep(self, result: RunResult) -> None:
        """Into the server's store, where every session finds it (a big background run: not)."""
        if not self.background or _freeze_arrays(result) + len(self.request.text) <= MAX_BACKGROUND_RUN_BYTES:
            run_cache().put(self.request, result)

    def _log_end(self) -> None:
        """One line per run that did not simply finish for a tab that is still open."""
        if self.session is not None and session_gone(self.session):
            log.warning("a long %s run stopped: its session has gone away", self.request.objective)
        elif self.result is None or self.result.stopped:
            log.info("a long %s run was stopped by its student", self.request.objective)

    def _waiting(self, place: int, running: int) -> None:
        self.place = place

    def _cancelled(self) -> bool:
        """Stop pressed, a new run started, or the browser tab closed."""
        if not self.stop.is_set() and session_gone(self.session):
            self.stop.set()
        return self.stop.is_set()

    def _progress(self, done: int, loss: float) -> bool:
        self.done, self.loss = done, loss
        if self.on_progress is not None and self.on_progress(done, loss):
            self.stop.set()
        return self._cancelled()

    @property
    def words_per_second(self) -> float:
        return self.done / max(time.perf_counter() - self.started, 1e-9)


def start(request: RunRequest, n_words: int, state_key: str) -> LongRun:
    """Start a background request (word2vec on a text of ``n_words`` words) for this browser
    tab and keep it in ``st.session_state[state_key]``, where ``poll`` finds it.

    The budget's verdict first (``core.run.estimate``, from ``core.run.work``): a request over
    the budget does not train (its ``error`` says why). A run the server has finished before
    comes back finished at once, from ``run_cache``. Otherwise it waits for a slot of the LONG
    lane and trains in a background worker. One background run per tab: a new one stops the
    tab's previous one."""
    if request.objective not in BACKGROUND_OBJECTIVES:
        raise ValueError(f"A {request.objective} run is a page's run: runs.run, not runs.start.")
    old = poll(state_key)
    if old is not None:
        old.stop.set()                         # one run per tab: a new one ends the old one
    key = core_run.plan(request).request
    estimate = core_run.estimate(key, n_words)
    job = LongRun(key, estimate.words_to_read, slots=jobs.job_slots(), session=session_id(),
                  owner=owner_id())
    st.session_state[state_key] = job
    if not estimate.within_budget:
        job.finish(error=f"This run would read {estimate.words_to_read:,} words, more than the "
                         f"{budget.MAX_WORDS_TO_READ:,} one run may read on this shared machine.")
    elif (cached := run_cache().get(key)) is not None:
        job.finish(result=cached)
    else:
        job.start()
    return job


def prepare(requests: Iterable[RunRequest], processes: int = PREPARE_PROCESSES,
            on_done: Callable[[RunRequest], None] | None = None) -> int:
    """Train ``requests`` before any student asks (the lesson's slider grid, at server start:
    ``lab_ui.server.warmup``) and keep them in ``run_cache`` for the server's life (``keep``).

    Each request is planned as ``run`` plans it (the same key, so a page finds it), then trained
    by ``core.run.run`` in one of ``processes`` worker processes of their own (at the workers'
    lower priority, ``workers.WORKER_NICE``: a student's page comes first), ended after, not in
    the server's interpreter. A request already stored is kept as it is; one a student is
    training at that moment is left to that student. ``on_done(request)`` after each one,
    in order of completion. Returns how many were trained here."""
    cache = run_cache()
    todo = deque(dict.fromkeys(_plan(request).request for request in requests))   # unique, in order
    pool = workers.Pool(max_idle=processes)
    lock, trained = threading.Lock(), [0]

    def drain() -> None:
        while True:
            with lock:
                if not todo:
                    return
                key = todo.popleft()
            if (stored := cache.get(key)) is not None:
                cache.keep(key, stored)
            elif cache.claim(key) is None:
                try:
                    cache.keep(key, pool.call(core_run.run, key, stoppable=False))
                    with lock:
                        trained[0] += 1
                except Exception:  # a worker that cannot start or dies: the pages train it as before
                    log.exception("preparing a run in a worker process failed")
                    return
                finally:
                    cache.release(key)
            if on_done is not None:
                with lock:              # two threads count: one at a time
                    on_done(key)

    threads = [threading.Thread(target=drain, name=f"prepare-{i}", daemon=True) for i in range(max(1, processes))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    pool.close()
    return trained[0]


def poll(state_key: str) -> LongRun | None:
    """This tab's background run kept under ``state_key`` (None: none started)."""
    return st.session_state.get(state_key)


@functools.lru_cache(maxsize=64)
def _plan(request: RunRequest) -> core_run.Plan:
    """``core.run.plan(request)``, remembered: a rerun that finds its run in the cache builds
    no corpus (only a budget cut needs the corpus's size)."""
    corpus = corpus_for(request.text, request.window, request.max_vocab) if request.fit_budget else None
    return core_run.plan(request, corpus)


def _with_cut(result: RunResult, cut: core_run.StepsCut | None) -> RunResult:
    """The stored run, saying what the budget did to this request (the same object when nothing)."""
    return result if result.cut == cut else replace(result, cut=cut)


def _claim(cache: RunCache, key: Hashable) -> bool:
    """True: this session trains the run. False: another session was training it and has
    finished (its result is in the cache unless it was stopped), or did not within
    SHARED_WAIT_SECONDS; then this session trains it too."""
    training = cache.claim(key)
    if training is None:
        return True
    training.wait(SHARED_WAIT_SECONDS)
    return False


def _log_gone() -> None:
    """One line in the server's log per run stopped because its session went away (the
    classroom load test counts them)."""
    logging.getLogger(__name__).warning("a long run stopped: its session has gone away")


class _Partials:
    """The last run each session stopped early, as (key, result): at most ``size`` sessions.

    Not in ``st.session_state``: Streamlit discards what a run writes there after it was
    told to stop, and the Stop button's rerun starts (in a new thread) before the stopped
    run has handed its result over."""

    def __init__(self, size: int = 16):
        self.size, self._lock = size, threading.Lock()
        self._items: OrderedDict[str, tuple] = OrderedDict()

    def put(self, session: str, item: tuple) -> None:
        with self._lock:
            self._items[session] = item
            self._items.move_to_end(session)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, session: str):
        with self._lock:
            return self._items.get(session)

    def take(self, session: str):
        with self._lock:
            return self._items.pop(session, None)

    def forget(self, ended) -> int:
        """Drop the partial runs of the sessions ``ended(session)`` says have ended; how many."""
        with self._lock:
            gone = [session for session in self._items if ended(session)]
            for session in gone:
                del self._items[session]
        return len(gone)


_PARTIALS = _Partials()
memory.forget_sessions_with(_PARTIALS.forget)   # a closed tab's partial run goes with its session


def _session() -> str:
    return session_id() or ""


def _wait_for_partial(key: RunRequest, seconds: float = 3.0):
    """The run stopped by the Stop button, once its thread has handed it over (the stopped
    run answers within a training step; this run may have started a moment before)."""
    deadline = time.monotonic() + seconds
    while True:
        held = _PARTIALS.get(_session())
        if held is not None and held[0] == key:
            return held[1]
        if time.monotonic() > deadline:
            return None
        time.sleep(0.02)


def _hold(stop_key: str) -> None:
    st.session_state[f"{stop_key}_held"] = True


def resume_training(stop_key: str) -> None:
    """Forget a stopped run, so the next script run trains these settings to the end."""
    st.session_state.pop(f"{stop_key}_held", None)
    _PARTIALS.take(_session())


@st.cache_resource(show_spinner=False)
def tokenizer():
    """GPT-2's encoding from the bundled file (raises TokenizerUnavailable if it is damaged)."""
    return gpt2()
