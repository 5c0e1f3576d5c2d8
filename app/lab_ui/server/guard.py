"""Keeping runs stoppable, and saying when the budget refuses one.

(The budget's cut of a run's steps is ``core.run.plan``'s, asked for in the request.)

* ``Stopper`` is the ``callback`` a core routine receives: it returns True (stop, keep
  the partial result) when the user pressed Stop or moved any other control (Streamlit
  then has a rerun waiting), or when the browser tab has gone away. A waiting rerun is
  raised again after the core returns, so Streamlit carries on exactly as it would have.
"""
from __future__ import annotations

import time
from typing import Callable

import streamlit as st

from lab_ui.server.jobs import session_gone
from lab_ui.server.streamlit_private import ScriptControlException, get_run_yield_check

CHECK_SECONDS = 0.002
"""How often (at most) a run asks Streamlit whether a rerun or stop is waiting, in seconds."""


class Stopper:
    """A core callback answering "stop now?" (True: stop and keep the partial result). It asks
    Streamlit whether a rerun or stop is waiting at its first call and then at most every
    ``check_seconds`` (the lesson's run makes a step in about 0.1 ms: asking at each one was a
    tenth of a new run's CPU time). Every ``every`` calls it also runs ``on_step(step, value)``
    (a progress bar) and asks whether the session is still there.

    Streamlit's ``runner.fastReruns`` starts the next run at once in a new thread and only
    asks this one to stop, so answering soon matters: the next run waits for the stopped run's
    partial result (``lab_ui.server.runs``); ``check_seconds`` keeps that wait a blink."""

    def __init__(self, on_step=None, every: int = 10, check_seconds: float = CHECK_SECONDS):
        self.on_step, self.every = on_step, max(1, every)
        self.check_seconds = check_seconds
        self.pending: ScriptControlException | None = None   # a rerun/stop Streamlit asked for
        self.gone = False
        self._calls = 0
        self._next_check = float("-inf")      # time.perf_counter() of the next question
        self._check: Callable[[], None] | None = None        # this thread's question, looked up once
        self._looked_up = False

    def __call__(self, step: int, value: float) -> bool:
        self._calls += 1
        report = self._calls % self.every == 0
        try:
            if report and self.on_step is not None:
                self.on_step(step, value)
            now = time.perf_counter()
            if now >= self._next_check:
                self._next_check = now + self.check_seconds
                if not self._looked_up:       # the script run's check: the same for the whole run
                    self._check, self._looked_up = get_run_yield_check(), True
                if self._check is not None:
                    self._check()
        except ScriptControlException as request:
            self.pending = request
            return True
        if report:
            self.gone = session_gone()
        return self.gone

    def resume(self) -> None:
        """Hand a waiting rerun or stop back to Streamlit (call after the core returned)."""
        if self.pending is not None:
            raise self.pending


def show_refusal(message: str) -> None:
    """A run that does not fit the budget: say why and what fits (text is our own)."""
    st.warning(message, icon=":material/timer:")
