"""Giving memory back to the machine once sessions have ended.

A server's Python frees a closed session's objects (its pasted text, its results) at once,
but glibc keeps the freed pages of its heaps for the next allocation, so the process's
resident memory stays at its peak. ``release_memory`` asks glibc to hand the free pages of
every heap back (``malloc_trim(0)``), and pyarrow (Streamlit's tables are sent as Arrow) to
release its pool's unused memory. ``start_releasing`` does it every ``EVERY_SECONDS`` in a
background thread, once per server process: the call takes milliseconds and runs outside the
interpreter lock (ctypes releases it). No Streamlit here; the router starts it.
"""
from __future__ import annotations

import ctypes
import logging
import sys
import threading

EVERY_SECONDS = 30.0
log = logging.getLogger(__name__)


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None     # glibc only (musl has none)


def release_memory() -> bool:
    """Hand free heap pages back to the machine; True if glibc's ``malloc_trim`` was called."""
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None:
        try:
            pyarrow.default_memory_pool().release_unused()
        except Exception:  # noqa: BLE001 - an older pyarrow: nothing to release
            pass
    libc = _libc()
    if libc is None:
        return False
    libc.malloc_trim(0)
    return True


def start_releasing(every: float = EVERY_SECONDS) -> threading.Thread:
    """A daemon thread calling ``release_memory`` every ``every`` seconds."""
    def loop() -> None:
        stop = threading.Event()
        while not stop.wait(every):
            try:
                release_memory()
            except Exception:  # noqa: BLE001 - never end the thread
                log.exception("releasing memory failed")

    thread = threading.Thread(target=loop, name="release-memory", daemon=True)
    thread.start()
    return thread
