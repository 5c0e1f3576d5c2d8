"""Long runs share the server fairly: a few slots, a queue, worker processes, cancellation.

A class of 40 shares one server. Light reruns (the lesson's 12-word run, a slider on a
small table) take milliseconds and go straight through. A *long* run (a pasted text of
hundreds of words, negative sampling over many epochs) needs a core for seconds, so:

* at most ``HEAVY_SLOTS`` long runs compute at once (one core is always left for the
  light reruns of everybody else); the others wait in arrival order and see their place
  in the queue;
* a long run computes in a worker process (``lab_ui.workers``), not in the server's own
  interpreter, where it would take turns with every student's rerun (``long_run``);
* a run whose browser tab has gone away stops at its next progress report, and so does a
  waiting one, so an abandoned job never holds a slot;
* a rerun (the student moved a slider again) stops the old run at its next progress
  report, because Streamlit interrupts a script at its next element update.

No Streamlit in ``JobSlots`` itself (it is tested with plain threads); ``heavy_slot``
connects it to a session and a placeholder element, and ``long_run`` to a worker.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator

import streamlit as st

from core import budget
from lab_ui import workers
from lab_ui.workers import Cancelled

log = logging.getLogger(__name__)

HEAVY_SLOTS = max(1, (os.cpu_count() or 2) - 1)
"""Long runs computing at once: all cores but one, which stays free for light reruns."""
LONG_RUN_SECONDS = 1.0
"""A run that ``core.budget`` expects to take longer than this is a long run (300 pasted
words at d_model 4 for 3,000 steps: about 3.7 s); a shorter one just runs."""
QUEUE_POLL_SECONDS = 0.25


class JobSlots:
    """At most ``slots`` holders at once; the others wait first come, first served."""

    def __init__(self, slots: int = HEAVY_SLOTS):
        if slots < 1:
            raise ValueError("at least one slot is needed")
        self.slots = slots
        self.running = 0
        self._queue: deque[object] = deque()
        self._cond = threading.Condition()

    def acquire(self, on_wait: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False) -> None:
        """Block until a slot is free and every earlier arrival has been served.
        While waiting, ``on_wait(place, running)`` is called about every QUEUE_POLL_SECONDS
        (place 1 = next in line); ``cancelled()`` returning True leaves the queue and
        raises ``Cancelled``. Any exception from ``on_wait`` also leaves the queue."""
        ticket = object()
        with self._cond:
            self._queue.append(ticket)
        try:
            while True:
                with self._cond:
                    if self._queue[0] is ticket and self.running < self.slots:
                        self._queue.popleft()
                        self.running += 1
                        self._cond.notify_all()
                        return
                    place, running = self._queue.index(ticket) + 1, self.running
                if cancelled():
                    raise Cancelled
                if on_wait is not None:
                    on_wait(place, running)
                with self._cond:
                    self._cond.wait(QUEUE_POLL_SECONDS)
        except BaseException:
            with self._cond:
                if ticket in self._queue:
                    self._queue.remove(ticket)
                    self._cond.notify_all()
            raise

    def release(self) -> None:
        with self._cond:
            self.running -= 1
            self._cond.notify_all()

    @property
    def waiting(self) -> int:
        with self._cond:
            return len(self._queue)


def is_long(work: float) -> bool:
    """Does a run of this much work (``core.budget`` units) need a long-run slot?"""
    return budget.seconds(work) > LONG_RUN_SECONDS


@st.cache_resource(show_spinner=False)
def job_slots() -> JobSlots:
    """One set of slots per server process, shared by every session."""
    return JobSlots()


def session_id() -> str | None:
    """The id of this script's browser session (None outside a Streamlit script run)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx
    ctx = get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_id


def session_gone(session: str | None = None) -> bool:
    """True when the browser session ``session`` (default: this script's) is no longer
    connected."""
    from streamlit.runtime import exists, get_instance
    session = session or session_id()
    if session is None or not exists():
        return False
    return not get_instance().is_active_session(session)


def _waiting_text(place: int, running: int) -> str:
    ahead = "you are next" if place == 1 else f"{place - 1} ahead of you"
    return (f"The server is busy with {running} long run{'s' if running != 1 else ''} from other "
            f"students. Your run waits for a free slot ({ahead}); it starts by itself.")


@contextmanager
def heavy_slot(placeholder=None) -> Iterator[None]:
    """Hold one of the server's long-run slots for the body of the ``with``.
    ``placeholder`` (an ``st.empty()``) shows the place in the queue while waiting."""
    slots = job_slots()
    started = time.monotonic()

    def show(place: int, running: int) -> None:
        if placeholder is not None:
            placeholder.info(_waiting_text(place, running), icon=":material/hourglass_top:")

    slots.acquire(show, session_gone)
    if placeholder is not None:
        placeholder.empty()
    waited = time.monotonic() - started
    if waited > 1:
        log.info("long run waited %.1f s for a slot", waited)
    try:
        yield
    finally:
        slots.release()


def long_run(fn: Callable[..., Any], *args, placeholder=None,
             callback: Callable[[int, float], bool | None] | None = None, stoppable: bool = True,
             **kwargs) -> Any:
    """``fn(*args, **kwargs)`` as a long run: wait for one of the server's long-run slots
    (the place in the queue shown in ``placeholder``), then compute it in a worker process.
    ``callback`` and ``stoppable``: as in ``lab_ui.workers.call``. Raises ``Cancelled`` when
    the session went away while waiting, or the run had to be ended."""
    with heavy_slot(placeholder):
        return workers.call(fn, *args, callback=callback, stoppable=stoppable, **kwargs)
