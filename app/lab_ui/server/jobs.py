"""Long runs share the server fairly: lanes of slots, a fair queue, worker processes, cancellation.

A class of 40 shares one server. Light reruns (the lesson's 12-word run, a slider on a
small table) take milliseconds and go straight through. A *long* run needs a core for
seconds or minutes, so it waits for a slot of its *lane* and computes in a worker process
(``lab_ui.server.workers``), not in the server's own interpreter, where it would take turns with
every student's rerun:

* ``SHORT``: runs that fit ``core.budget``'s few seconds (a pasted text of hundreds of words,
  negative sampling over many epochs); ``PREPARE``: splitting a big own text into words (a
  5 MB text takes seconds); ``LONG``: word2vec on a big text (minutes). Each lane has
  ``HEAVY_SLOTS`` slots (one core stays free for the light reruns), so a run of a few
  seconds never waits behind a run of minutes;
* **one student, one slot**: the tabs of one browser (``owner_id``) hold at most one slot in
  all lanes together and at most one place in the queue; their other runs wait behind their
  own run, take no one's place and are never served before another student's;
* within a lane, the waiting runs are served first come, first served and see their place;
* a run whose browser tab has gone away stops at its next progress report, and so does a
  waiting one, so an abandoned job never holds a slot;
* a rerun (the student moved a slider again) stops the old run at its next progress
  report, because Streamlit interrupts a script at its next element update.

No Streamlit in ``JobSlots`` itself (it is tested with plain threads); ``heavy_slot``
connects it to a session and a placeholder element (``lab_ui.server.runs.run`` then trains in a worker).
"""
from __future__ import annotations

import binascii
import hashlib
import itertools
import logging
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

import streamlit as st

from core import budget
from lab_ui.server.streamlit_private import session_active, session_id
from lab_ui.server.workers import Cancelled

log = logging.getLogger(__name__)

HEAVY_SLOTS = max(1, (os.cpu_count() or 2) - 1)
"""Long runs computing at once in each lane: all cores but one, which stays free for light reruns."""
LONG_RUN_SECONDS = 0.5
"""A run that ``core.budget`` expects to take longer than this is a long run; a shorter one
just runs, in the server's own interpreter. Half a second, not a second: the estimate is
within about a factor of 2, and a pasted text of 300 words (about 130 different ones, d_model 4,
3,000 steps) is estimated at 0.98 s but trains for about 2 s of one core. Trained in the
server, its 2 s held the interpreter against every rerun of the class (and a student's
run took turns with them: 4.4 s during one student's attack on a quiet machine). The
lesson's runs (12 words: 0.37 s at any d_model) and the generated word groups (0.35 s) stay
in the server."""
QUEUE_POLL_SECONDS = 0.25
SHORT, PREPARE, LONG = "short", "prepare", "long"
LANES = (SHORT, PREPARE, LONG)
BROWSER_COOKIE = "_streamlit_xsrf"
"""The cookie Streamlit sets on the page for its XSRF check: one token per browser, shared by
its tabs and sent with every tab's websocket (``st.context.cookies``)."""
_anonymous = itertools.count(1)


@dataclass(eq=False)
class Ticket:
    """One run's claim on a slot: who asked (``owner``), in which lane."""

    owner: str
    lane: str = SHORT


class JobSlots:
    """Slots in lanes, one per owner at a time, the waiting served first come, first served.

    The rules, for each free slot of a lane: the next run served is the run of that lane
    that joined the line first, among the runs whose owner holds no slot (in any lane) and
    has no earlier run still waiting. An owner's later run joins the line only when the run
    before it gets its slot. So one owner holds at most one slot and one place in the
    queue, and the owner's other runs are never served before anyone who was already
    waiting."""

    def __init__(self, slots: int = HEAVY_SLOTS):
        if slots < 1:
            raise ValueError("at least one slot is needed")
        self.slots = slots
        self._queue: list[Ticket] = []          # waiting, in arrival order
        self._holders: list[Ticket] = []        # holding a slot
        self._cond = threading.Condition()

    def _places(self, lane: str) -> list[Ticket]:
        """The queue of ``lane`` as it will be served: each owner's first waiting run, when
        the owner holds no slot (call with the lock held)."""
        busy, seen, out = {t.owner for t in self._holders}, set(), []
        for t in self._queue:
            if t.owner not in seen and t.owner not in busy and t.lane == lane:
                out.append(t)
            seen.add(t.owner)
        return out

    def place(self, ticket: Ticket) -> int:
        """1 = served next in its lane; 0 = waiting behind its own owner's run."""
        with self._cond:
            places = self._places(ticket.lane)
            return places.index(ticket) + 1 if ticket in places else 0

    def running_in(self, lane: str) -> int:
        with self._cond:
            return sum(t.lane == lane for t in self._holders)

    def acquire(self, on_wait: Callable[[int, int], None] | None = None,
                cancelled: Callable[[], bool] = lambda: False,
                owner: str | None = None, lane: str = SHORT) -> Ticket:
        """Block until ``owner``'s run gets a slot of ``lane`` by the rules above; the ticket
        to ``release``. While waiting, ``on_wait(place, running)`` is called about every
        QUEUE_POLL_SECONDS (place 1 = next in line, 0 = behind the owner's own run; running: runs
        holding a slot of this lane); ``cancelled()`` returning True leaves the queue and
        raises ``Cancelled``. Any exception from ``on_wait`` also leaves the queue."""
        if lane not in LANES:
            raise ValueError(f"unknown lane {lane!r}")
        ticket = Ticket(owner or f"anonymous-{next(_anonymous)}", lane)
        with self._cond:
            self._queue.append(ticket)
        try:
            while True:
                with self._cond:
                    places = self._places(lane)
                    running = sum(t.lane == lane for t in self._holders)
                    if places and places[0] is ticket and running < self.slots:
                        self._queue.remove(ticket)
                        self._holders.append(ticket)
                        self._rejoin(ticket.owner)
                        self._cond.notify_all()
                        return ticket
                    place = places.index(ticket) + 1 if ticket in places else 0
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

    def _rejoin(self, owner: str) -> None:
        """The owner's waiting runs (if any) join the line now, at its end, in their own
        order (lock held)."""
        later = [t for t in self._queue if t.owner == owner]
        self._queue = [t for t in self._queue if t.owner != owner] + later

    def release(self, ticket: Ticket) -> None:
        with self._cond:
            self._holders.remove(ticket)
            self._cond.notify_all()

    @property
    def running(self) -> int:
        with self._cond:
            return len(self._holders)

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


def session_gone(session: str | None = None) -> bool:
    """True when the browser session ``session`` (default: this script's) is no longer
    connected."""
    session = session or session_id()
    return session is not None and not session_active(session)


def owner_id() -> str | None:
    """Who is asking, as one browser: a hash of the token of Streamlit's XSRF cookie, which
    every tab of a browser shares (the cookie's masked form differs per page load, the token
    inside does not). Without that cookie (XSRF protection off, AppTest), this tab's session
    id; None outside a Streamlit script run. A student can still use several browsers (or a
    private window): the rule bounds what one browser holds, not what one person owns."""
    token = browser_token(st.context.cookies.get(BROWSER_COOKIE, "")) if session_id() else None
    if token:
        return "browser-" + hashlib.sha256(token).hexdigest()[:16]
    return session_id()


def browser_token(cookie: str) -> bytes | None:
    """The token inside an XSRF cookie of form ``2|mask|masked token|time`` (or an old
    unmasked one); None when it is not one.

    >>> browser_token("2|01020304|00000000|1700000000")
    b'\\x01\\x02\\x03\\x04'
    >>> browser_token("not a cookie") is None
    True
    """
    value = cookie.strip("\"'")
    try:
        if value.startswith("2|"):
            _, mask_hex, masked_hex, _ = value.split("|")
            mask, masked = binascii.a2b_hex(mask_hex), binascii.a2b_hex(masked_hex)
            if len(mask) != 4 or not masked:
                return None
            return bytes(b ^ mask[i % 4] for i, b in enumerate(masked))
        raw = binascii.a2b_hex(value)
        return raw or None
    except (ValueError, binascii.Error):
        return None


def _waiting_text(place: int, running: int) -> str:
    if place == 0:
        return ("Another run of yours (in this tab or another tab of this browser) is training or "
                "waiting: this one starts when it is over, so that every student gets a turn.")
    ahead = "you are next" if place == 1 else f"{place - 1} ahead of you"
    return (f"The server is busy with {running} long run{'s' if running != 1 else ''} from other "
            f"students. Your run waits for a free slot ({ahead}); it starts by itself.")


@contextmanager
def heavy_slot(placeholder=None, lane: str = SHORT, *, owner: str | None = None,
               cancelled: Callable[[], bool] | None = None,
               on_wait: Callable[[int, int], None] | None = None,
               slots: JobSlots | None = None) -> Iterator[None]:
    """Hold one of the server's long-run slots of ``lane`` for the body of the ``with``.
    ``placeholder`` (an ``st.empty()``) shows the place in the queue while waiting;
    ``on_wait(place, running)`` hears it too. By default the slot is this browser's
    (``owner_id``) and the wait ends (``Cancelled``) when this script's tab has gone away; a
    background thread, which has no script run, passes its ``owner`` and ``cancelled``."""
    slots = slots if slots is not None else job_slots()
    started = time.monotonic()

    def show(place: int, running: int) -> None:
        if on_wait is not None:
            on_wait(place, running)
        if placeholder is not None:
            placeholder.info(_waiting_text(place, running), icon=":material/hourglass_top:")

    ticket = slots.acquire(show, cancelled or session_gone,
                           owner=owner if owner is not None else owner_id(), lane=lane)
    if placeholder is not None:
        placeholder.empty()
    waited = time.monotonic() - started
    if waited > 1:
        log.info("long run waited %.1f s for a slot", waited)
    try:
        yield
    finally:
        slots.release(ticket)
