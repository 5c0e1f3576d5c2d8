"""Questions a student answers by hand; the app checks the answer and explains it.
The right answers are computed by core, never typed in."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

import streamlit as st

from lab_ui.widgets.captions import number
from lab_ui.widgets.common import plain
from lab_ui.lesson.links import named


@dataclass(frozen=True)
class Exercise:
    key: str
    question: str
    answer: float
    explanation: str
    unit: str = ""
    rel_tol: float = 0.005      # how close counts as right (relative), for decimal answers
    abs_tol: float = 0.005      # ... or absolute, for answers near 0
    exact: bool | None = None   # counts must be exact; None: exact when the answer is an int

    @property
    def is_count(self) -> bool:
        return isinstance(self.answer, int) if self.exact is None else self.exact


_THOUSANDS_COMMA = re.compile(r"[+-]?[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")   # 38,597,376(.5)
_THOUSANDS_DOT = re.compile(r"[+-]?[1-9]\d{0,2}(?:\.\d{3})+,\d+")          # 1.234,5
_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")                                  # 0,96


def read_number(text: str) -> float | None:
    """A typed number; None if it is not one. Read the way people write numbers:

    * thousands separators: ``38,597,376``, ``38 597 376``, ``38_597_376``, ``1.234,5``;
    * a decimal comma: ``0,96`` is 0.96 (a comma followed by other than groups of three
      digits, or after a leading 0, cannot be a thousands separator);
    * scientific notation: ``3.86e7``; a trailing ``%`` is dropped.

    >>> [read_number(t) for t in ("0,96", "38,597,376", "1.234,5", "1e6", "0,960", "x")]
    [0.96, 38597376.0, 1234.5, 1000000.0, 0.96, None]
    """
    t = re.sub(r"[\s_\u00a0\u202f]", "", text).rstrip("%")
    if _THOUSANDS_COMMA.fullmatch(t):
        t = t.replace(",", "")
    elif _THOUSANDS_DOT.fullmatch(t):
        t = t.replace(".", "").replace(",", ".")
    elif _DECIMAL_COMMA.fullmatch(t):
        t = t.replace(",", ".")
    if len(t) > 60:
        return None
    try:
        x = float(t)
    except ValueError:
        return None
    return x if math.isfinite(x) else None


def typed_answer(ex: Exercise, text: str) -> float | None:
    """What a typed answer means for this exercise: a ``%`` sign means hundredths, unless
    the exercise asks for a percentage (``unit="%"``), where ``0.35`` and ``0.35%`` agree.

    >>> cos = Exercise("k", "A cosine?", 0.96, "")
    >>> typed_answer(cos, "0.96%"), typed_answer(cos, "96 %"), typed_answer(cos, "0.96")
    (0.0096, 0.96, 0.96)
    """
    x = read_number(text)
    if x is None or ex.unit == "%" or not text.strip().endswith("%"):
        return x
    return x / 100


def is_right(ex: Exercise, x: float) -> bool:
    """Counts must match exactly; decimals within ``max(abs_tol, rel_tol * |answer|)``."""
    if ex.is_count:
        return x == ex.answer
    return abs(x - ex.answer) <= max(ex.abs_tol, ex.rel_tol * abs(ex.answer))


def show(exercises: list[Exercise], title: str = "Try it by hand") -> None:
    with st.expander(title, expanded=False, icon=":material/edit:"):
        for i, ex in enumerate(exercises, 1):
            with st.form(key=ex.key, border=False):
                question = f"{i}. {ex.question}"
                typed = st.text_input(question, key=named(f"{ex.key}_answer", question), max_chars=60)
                submitted = st.form_submit_button("Check")
            if submitted:
                x = typed_answer(ex, typed)
                if x is None:
                    st.warning(f"“{plain(typed[:40])}” is not a number. Type digits, like 0.96 or 38597376.")
                elif is_right(ex, x):
                    st.success(f"Right. {ex.explanation}")
                else:
                    st.error(f"Not quite: you typed {number(x)}{ex.unit}. {ex.explanation}")
