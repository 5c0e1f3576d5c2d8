"""What a screen derives from a trained run, worked out once per run and server, not once per
session.

A cached run (``lab_ui.server.runs``) is one read-only object shared by every session that asks for
it, so what is derived from it (its cosine matrix, its PCA map, its chart specs, its tables)
is the same for all of them. Forty students opening the lesson's run each rebuilt all of it
(docs/performance.md, "A class on one server"); ``derived(result, name, build)`` builds it on
the first ask and hands the same value to the rest. Values are keyed by the run's identity, so
a run evicted from the cache (or a session's own stopped run, once gone) takes its derived values
with it; at most ``MAX_RUNS`` runs are remembered. Values must be treated as read-only (arrays are made so)."""
from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable, Hashable, TypeVar

import numpy as np

T = TypeVar("T")
MAX_RUNS = 64
"""As many runs as the run cache holds (``lab_ui.server.runs.MAX_RUNS``)."""

_lock = threading.RLock()   # re-entrant: a run freed while the lock is held calls _forget here
_runs: OrderedDict[int, tuple[weakref.ref, dict[Hashable, Any]]] = OrderedDict()


def derived(result: object, name: Hashable, build: Callable[[], T]) -> T:
    """``build()`` for this run and ``name``, computed once and then shared. ``name`` must
    hold every setting besides the run that the value depends on (a chart's size, presenter
    mode). Two sessions asking at once may both build it; the first stored value wins."""
    key = id(result)
    with _lock:
        entry = _runs.get(key)
        if entry is not None and entry[0]() is result:
            _runs.move_to_end(key)
            if name in entry[1]:
                return entry[1][name]
    value = build()
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    with _lock:
        entry = _runs.get(key)
        if entry is None or entry[0]() is not result:      # new, or an id reused by a new object
            entry = (weakref.ref(result, _forget(key)), {})
            _runs[key] = entry
        _runs.move_to_end(key)
        while len(_runs) > MAX_RUNS:
            _runs.popitem(last=False)
        return entry[1].setdefault(name, value)


def _forget(key: int) -> Callable[[weakref.ref], None]:
    """The callback that drops a run's values when the run itself is freed."""
    def forget(ref: weakref.ref) -> None:
        with _lock:
            if key in _runs and _runs[key][0] is ref:
                del _runs[key]
    return forget


def size() -> int:
    """How many runs have derived values remembered."""
    return len(_runs)


def clear() -> None:
    with _lock:
        _runs.clear()
