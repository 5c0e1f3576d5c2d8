"""Turn what a user typed into numbers, or a plain-words reason why not.

Every function raises ``InputError`` (a ValueError) whose message can be shown on
screen as it is. No Streamlit here, so the rules are unit-tested directly.
"""
from __future__ import annotations

import math
import re

import numpy as np

MAX_ENTRIES = 64
MAX_IDS = 256
_SPLIT = re.compile(r"[,\s;]+")


class InputError(ValueError):
    """Input that cannot be used; the message says what to type instead."""


def _number(token: str, where: str) -> float:
    try:
        x = float(token)
    except ValueError:
        raise InputError(f"{where}: {token[:20]!r} is not a number. Use digits like 1, -0.5 or 2e-3.") from None
    if not math.isfinite(x):
        raise InputError(f"{where}: {token[:20]!r} is not a finite number; nan and inf cannot be used.")
    if abs(x) > 1e6:
        raise InputError(f"{where}: {token[:20]!r} is too large; keep entries between -1,000,000 and 1,000,000.")
    return x


def parse_vector(text: str, name: str = "The vector") -> np.ndarray:
    """Numbers separated by commas or spaces, e.g. ``1, 2, 2`` -> array([1., 2., 2.])."""
    tokens = [t for t in _SPLIT.split(text.strip().strip("[]()")) if t]
    if not tokens:
        raise InputError(f"{name} is empty. Type numbers separated by commas, e.g. 1, 2, 2.")
    if len(tokens) > MAX_ENTRIES:
        raise InputError(f"{name} has {len(tokens)} entries; at most {MAX_ENTRIES} are allowed here.")
    return np.array([_number(t, name) for t in tokens])


def parse_matrix(text: str, name: str = "The matrix", max_rows: int = 16) -> np.ndarray:
    """One row per line, numbers separated by commas or spaces; all rows the same length."""
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    if not lines:
        raise InputError(f"{name} is empty. Type one row per line, e.g. 1, 2 on the first line.")
    if len(lines) > max_rows:
        raise InputError(f"{name} has {len(lines)} rows; at most {max_rows} are allowed here.")
    rows = [parse_vector(ln, f"{name}, row {k}") for k, ln in enumerate(lines)]
    widths = {len(r) for r in rows}
    if len(widths) > 1:
        detail = ", ".join(f"row {k}: {len(r)}" for k, r in enumerate(rows))
        raise InputError(f"{name} has rows of different lengths ({detail}). Every row needs the same number of entries.")
    return np.vstack(rows)


def parse_ids(text: str, vocab_size: int, name: str = "The ids") -> np.ndarray:
    """Whole numbers in ``0 .. vocab_size - 1`` separated by commas or spaces."""
    tokens = [t for t in _SPLIT.split(text.strip().strip("[]()")) if t]
    if not tokens:
        raise InputError(f"{name} are empty. Type whole numbers separated by commas, e.g. 15, 824, 391.")
    if len(tokens) > MAX_IDS:
        raise InputError(f"{name}: {len(tokens)} given; at most {MAX_IDS} are allowed here.")
    ids = []
    for t in tokens:
        if not re.fullmatch(r"[+-]?\d{1,15}", t):
            raise InputError(f"{name}: {t[:20]!r} is not a whole number.")
        i = int(t)
        if not 0 <= i < vocab_size:
            raise InputError(f"{name}: {i} is outside the vocabulary; ids run from 0 to {vocab_size - 1:,}.")
        ids.append(i)
    return np.array(ids, dtype=np.int64)
