"""Keeping runs stoppable, and saying when the budget refuses one.

(The budget's cut of a run's steps is ``core.run.plan``'s, asked for in the request.)

* ``Stopper`` is the ``callback`` a core routine receives: it returns True (stop, keep
  the partial result) when the user pressed Stop or moved any other control (Streamlit
  then has a rerun waiting), or when the browser tab has gone away. A waiting rerun is
  raised again after the core returns, so Streamlit carries on exactly as it would have.
"""
from __future__ import annotations

import streamlit as st

from lab_ui.server.jobs import session_gone
from lab_ui.server.streamlit_private import ScriptControlException, get_run_yield_check


class Stopper:
    """A core callback answering "stop now?" at every step (a cheap check: Streamlit takes
    a lock only when a rerun or stop is waiting). Every ``every`` calls it also runs
    ``on_step(step, value)`` (a progress bar) and asks whether the session is still there.

    Streamlit's ``runner.fastReruns`` starts the next run at once in a new thread and only
    asks this one to stop, so answering within a step matters: the next run waits for the
    stopped run's partial result (``lab_ui.server.runs``)."""

    def __init__(self, on_step=None, every: int = 10):
        self.on_step, self.every = on_step, max(1, every)
        self.pending: ScriptControlException | None = None   # a rerun/stop Streamlit asked for
        self.gone = False
        self._calls = 0

    def __call__(self, step: int, value: float) -> bool:
        self._calls += 1
        report = self._calls % self.every == 0
        try:
            if report and self.on_step is not None:
                self.on_step(step, value)
            check = get_run_yield_check()
            if check is not None:
                check()
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
