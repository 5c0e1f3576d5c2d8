"""Turn what a user typed into numbers, or a plain-words reason why not.

Every function raises ``InputError`` (a ValueError) whose message can be shown on
screen as it is. No Streamlit here, so the rules are unit-tested directly.
"""
from __future__ import annotations

import math
import re

import numpy as np

MAX_TYPED_ENTRIES = 64
MAX_IDS = 256
MAX_TEXT = 4_000
"""Longest text a number box takes (``max_chars``: the browser stops a paste there);
64 entries x 16 rows or 256 ids fit comfortably."""
TOKENS_MAX_CHARS = 20_000
"""Longest text the Tokens screen encodes; longer text is cut with a message."""
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
    if len(tokens) > MAX_TYPED_ENTRIES:
        raise InputError(f"{name} has {len(tokens)} entries; at most {MAX_TYPED_ENTRIES} are allowed here.")
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


def parse_id_rows(text: str, name: str = "The ids", max_rows: int = 16) -> np.ndarray:
    """A matrix (``parse_matrix``) of whole numbers, as int64: B lines of T ids each."""
    ids = parse_matrix(text, name, max_rows=max_rows)
    if not np.all(ids == np.round(ids)):
        raise InputError(f"{name} must be whole numbers.")
    return ids.astype(np.int64)


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


_WHOLE = re.compile(r"[+-]?\d+(?:\.\d*)?(?:e[+-]?\d+)?|[+-]?\.\d+(?:e[+-]?\d+)?", re.IGNORECASE)
_GROUPED = re.compile(r"[+-]?[1-9]\d{0,2}(?:[,\s_]\d{3})+")


def parse_whole(text: str, name: str, low: int, high: int) -> int:
    """A whole number typed in a box, e.g. ``42``, ``1,000,000``, ``1 000 000`` or ``1e6``.

    Scientific notation is read exactly (``1e6`` is 1,000,000, ``2.5e3`` is 2,500); a value
    that is not whole (``1.5``, ``1e-3``) or outside ``low .. high`` is refused with a
    message saying so, never rounded or cut to its first digits.

    >>> parse_whole("1e6", "The seed", 0, 10**6), parse_whole("12,345", "n", 0, 10**6)
    (1000000, 12345)
    """
    t = text.strip()
    shown = repr(t[:20] + ("…" if len(t) > 20 else ""))
    if not t:
        raise InputError(f"{name} is empty. Type a whole number from {low:,} to {high:,}.")
    if len(t) > 40:
        raise InputError(f"{name}: {shown} is too long for a number from {low:,} to {high:,}.")
    if _GROUPED.fullmatch(t):
        t = re.sub(r"[,\s_]", "", t)
    if not _WHOLE.fullmatch(t):
        raise InputError(f"{name}: {shown} is not a number. Type a whole number from {low:,} to {high:,}.")
    from decimal import Decimal
    value = Decimal(t)                          # exact: no float rounding of 12345678901234567
    if value != value.to_integral_value():
        raise InputError(f"{name}: {shown} is not a whole number. Type a whole number from "
                         f"{low:,} to {high:,}.")
    if not low <= value <= high:
        raise InputError(f"{name}: {shown} is outside the range {low:,} to {high:,}.")
    return int(value)
