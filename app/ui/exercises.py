"""Questions a student answers by hand; the app checks the answer and explains it.
The right answers are computed by core, never typed in."""
from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from ui.captions import number
from ui.common import plain


@dataclass(frozen=True)
class Exercise:
    key: str
    question: str
    answer: float
    explanation: str
    unit: str = ""
    rel_tol: float = 0.005      # how close counts as right (relative)
    abs_tol: float = 0.005      # ... or absolute, for answers near 0


def read_number(text: str) -> float | None:
    """A typed number, allowing thousands separators and a trailing %; None if not a number."""
    t = text.strip().replace(",", "").replace("_", "").replace(" ", "").rstrip("%")
    try:
        x = float(t)
    except ValueError:
        return None
    return x if x == x and abs(x) != float("inf") else None


def is_right(ex: Exercise, x: float) -> bool:
    return abs(x - ex.answer) <= max(ex.abs_tol, ex.rel_tol * abs(ex.answer))


def show(exercises: list[Exercise], title: str = "Try it by hand") -> None:
    with st.expander(title, expanded=False, icon=":material/edit:"):
        for i, ex in enumerate(exercises, 1):
            with st.form(key=ex.key, border=False):
                typed = st.text_input(f"{i}. {ex.question}", key=f"{ex.key}_answer")
                submitted = st.form_submit_button("Check")
            if submitted:
                x = read_number(typed)
                if x is None:
                    st.warning(f"“{plain(typed[:40])}” is not a number. Type digits, like 0.96 or 38597376.")
                elif is_right(ex, x):
                    st.success(f"Right. {ex.explanation}")
                else:
                    st.error(f"Not quite: you typed {number(x)}{ex.unit}. {ex.explanation}")
