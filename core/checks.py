"""Argument checks shared by the core: plain messages instead of obscure errors.

Rules, the same everywhere in ``core``:

* a *whole number* is a Python or NumPy integer; ``True`` and ``False`` are refused
  (they are integers to Python, but never what a caller meant), and so are floats,
  even ``3.0``;
* a *number* is a real, finite value (``nan`` and ``inf`` are refused);
* an *array* of numbers is converted to float64 and must be finite, of the expected
  number of dimensions, and not larger than a stated limit (so nothing allocates
  V^2 or runs n^2 x iterations unboundedly).

Wrong type -> ``TypeError``; right type, wrong value -> ``ValueError``. Both messages
name the argument and the allowed range.
"""
from __future__ import annotations

import math
import numbers

import numpy as np

MAX_ROWS = 5_000
"""Most rows of anything the core squares: an (n, n) cosine or distance matrix, a corpus's
(V, V) counts, the rows of an uploaded table (200 MB in float64 at 5,000)."""
MAX_TABLE = 2**25
"""Most numbers in one table the core builds or multiplies (256 MiB in float64)."""


def whole(value, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an int, if it is a whole number in ``[low, high]``.

    >>> whole(3, "k", 1, 5)
    3
    >>> whole(True, "k")
    Traceback (most recent call last):
    TypeError: k must be a whole number, not bool.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, not {type(value).__name__}.")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be at least {low:,}" + (f" (and at most {high:,})" if high is not None
                                                               else "") + f"; got {value:,}.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be at most {high:,}" + (f" (and at least {low:,})" if low is not None
                                                               else "") + f"; got {value:,}.")
    return value


def number(value, name: str, low: float | None = None, high: float | None = None,
           low_open: bool = False) -> float:
    """``value`` as a float, if it is a finite real number in the range.

    ``low_open``: ``low`` itself is not allowed (for "must be positive").

    >>> number(0.5, "lr", 0, low_open=True)
    0.5
    >>> number(float("nan"), "lr")
    Traceback (most recent call last):
    ValueError: lr must be a finite number; got nan.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}.")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be a finite number; got {x}.")
    if low is not None and (x < low or (low_open and x == low)):
        raise ValueError(f"{name} must be {'above' if low_open else 'at least'} {low:g}; got {x:g}.")
    if high is not None and x > high:
        raise ValueError(f"{name} must be at most {high:g}; got {x:g}.")
    return x


def array(X, name: str, ndim: int, max_size: int | None = None, min_rows: int = 0) -> np.ndarray:
    """``X`` as a finite float64 array with ``ndim`` dimensions and at most ``max_size`` entries.

    >>> array([[1, 2], [3, 4]], "X", 2).shape
    (2, 2)
    """
    try:
        A = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an array of numbers.") from None
    if A.ndim != ndim:
        shape = "a vector (1 dimension)" if ndim == 1 else f"a table ({ndim} dimensions)"
        raise ValueError(f"{name} must be {shape}; got {A.ndim} dimension(s).")
    if max_size is not None and A.size > max_size:
        raise ValueError(f"{name} has {A.size:,} numbers; at most {max_size:,} are allowed.")
    if len(A) < min_rows:
        raise ValueError(f"{name} needs at least {min_rows} rows; got {len(A)}.")
    if not np.isfinite(A).all():
        raise ValueError(f"{name} contains NaN or infinite values.")
    return A


class IdError(ValueError, IndexError):
    """An id or index that is not a whole number in range (both a ValueError and, for
    callers that catch lookups failing, an IndexError)."""


def indices(ids, name: str, n: int, max_size: int | None = None) -> np.ndarray:
    """``ids`` as an int64 array of whole numbers in ``0 .. n - 1`` (no negative indexing).

    >>> indices([0, 2], "ids", 3)
    array([0, 2])
    """
    try:
        A = np.asarray(ids)
    except (TypeError, ValueError):
        raise IdError(f"{name} must be whole numbers.") from None
    if A.dtype == bool or not (np.issubdtype(A.dtype, np.integer) or A.size == 0):
        raise IdError(f"{name} must be whole numbers.")
    if max_size is not None and A.size > max_size:
        raise IdError(f"{name}: {A.size:,} given; at most {max_size:,} are allowed.")
    if A.size and (A.min() < 0 or A.max() >= n):
        bad = int(A.min()) if A.min() < 0 else int(A.max())
        raise IdError(f"{name}: {bad} is outside the vocabulary (0 to {n - 1}).")
    return A.astype(np.int64)
