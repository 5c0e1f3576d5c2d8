"""Play / pause over a list of steps, for the Train screen's replay and the Projections
screen's moving t-SNE: a slider over the steps that, while playing, moves one step on at each
run of its ``st.fragment(run_every=...)``."""
from __future__ import annotations

import streamlit as st


def start_at_the_end(key: str, steps: list[int]) -> None:
    """A slider whose steps changed (a new run) starts again at the last one."""
    if st.session_state.get(key) not in steps:
        st.session_state[key] = steps[-1]


def step_slider(label: str, steps: list[int], key: str, playing: bool) -> int:
    """The slider, moved one step on (wrapping round) when playing; the step shown."""
    if playing:
        i = steps.index(st.session_state[key])
        st.session_state[key] = steps[(i + 1) % len(steps)]
    from lab_ui.lesson.links import named
    return st.select_slider(label, steps, key=named(key, label))
