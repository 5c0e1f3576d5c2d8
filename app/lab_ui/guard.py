"""Keeping runs short and stoppable: the screen side of core.budget.

* ``fit_steps`` scales a full-softmax run down to what the budget allows and says so.
* ``Stopper`` is the ``callback`` a core routine receives: it returns True (stop, keep
  the partial result) when the user pressed Stop or moved any other control (Streamlit
  then has a rerun waiting), or when the browser tab has gone away. A waiting rerun is
  raised again after the core returns, so Streamlit carries on exactly as it would have.
"""
from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException
from streamlit.runtime.scriptrunner_utils.script_run_context import get_run_yield_check

from core import budget
from lab_ui.jobs import session_gone


def fit_steps(V: int, d_model: int, steps: int, options=()) -> tuple[int, str]:
    """The steps to run (``steps`` or fewer) and a message when they had to be cut.

    ``options``: the step slider's values; the cut-down number is the largest option
    that fits (a round number otherwise)."""
    most = budget.max_skipgram_steps(V, d_model)
    if steps <= most:
        return steps, ""
    fits = [s for s in options if s <= most]
    used = max(fits) if fits else budget.nice_floor(most)
    verdict = budget.check(budget.skipgram_work(V, d_model, steps),
                           f"{steps:,} steps of the full softmax on {V:,} words at d_model {d_model}",
                           f"at most {most:,} steps at this width")
    return used, (verdict.message + f" This run was trained for **{used:,} steps** instead; "
                  "a smaller d_model (or a shorter text) leaves room for more.")


class Stopper:
    """A core callback answering "stop now?" at every step (a cheap check: Streamlit takes
    a lock only when a rerun or stop is waiting). Every ``every`` calls it also runs
    ``on_step(step, value)`` (a progress bar) and asks whether the session is still there.

    Streamlit's ``runner.fastReruns`` starts the next run at once in a new thread and only
    asks this one to stop, so answering within a step matters: the next run waits for the
    stopped run's partial result (``lab_ui.runs``)."""

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
