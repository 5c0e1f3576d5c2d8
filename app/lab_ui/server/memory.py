"""Giving memory back to the machine once sessions have ended.

Three things kept a class's memory after its tabs had closed (docs/reliability.md, "One
student's attack"), and ``release_memory`` undoes each:

1. **Expired sessions stayed.** Streamlit 1.67 keeps a closed tab's session (its widget
   values, a pasted 5 MB text among them, and its ``st.session_state``) for
   ``server.disconnectedSessionTTL`` (120 s) in a TTL cache that drops expired entries only
   when it is written to or its length is asked for: on a server nobody connects to any
   more, never. ``expire_sessions`` asks for that reaping (no public API does; it reaches
   the session manager's storage, and does nothing if a later Streamlit arranges it
   otherwise), then collects the garbage those sessions leave in reference cycles.
2. glibc keeps the freed pages of its heaps for the next allocation: ``malloc_trim(0)``
   hands them back.
3. pyarrow (Streamlit's tables are sent as Arrow) keeps its pool's unused memory: released.
4. What the app keeps per session outside ``st.session_state`` (a stopped run's partial result,
   ``lab_ui.server.runs``) stayed after its session had ended: each such store registers a
   ``forget(ended)`` with ``forget_sessions_with``, and the release calls it with
   ``session_ended``.

Before any of that, ``map_big_blocks`` (called once by the router) makes glibc give every block
of ``MMAP_THRESHOLD`` or more its own mapping, returned to the machine the moment it is freed.
By default glibc raises that threshold to the size of each big block freed (up to 32 MiB), so
after the first 5 MB message every later one was carved out of the heaps, and ``malloc_trim``
never returns the free space at the top of a thread's heap: after one student's five tabs had
pasted 5 MB texts, the server held 186 MiB of free heap, about 115 MiB of it resident, minutes
after the last tab closed (docs/reliability.md, "Memory").

``start_releasing`` does it every ``EVERY_SECONDS`` in a background thread, once per server
process (the router starts it): the trim takes milliseconds and runs outside the interpreter
lock (ctypes releases it). Each release also runs one full garbage collection, in place of the
one Streamlit runs after every script run (``runner.postScriptGC``, off in
``.streamlit/config.toml``): that one walks every open session's objects, so with forty tabs
open each new page paid for the other thirty-nine (docs/performance.md, "The first minute of a
class"); one collection every 30 s keeps reference cycles from piling up just the same.
"""
from __future__ import annotations

import ctypes
import gc
import logging
import sys
import threading
from contextlib import nullcontext
from typing import Callable

EVERY_SECONDS = 30.0
M_MMAP_THRESHOLD = -3          # glibc's mallopt parameter number (malloc.h)
MMAP_THRESHOLD = 1 << 20
"""Blocks of this many bytes or more get a mapping of their own (a fixed value also stops glibc
moving the threshold, and its trim threshold, up after each big block is freed)."""
log = logging.getLogger(__name__)
_FORGETTERS: list[Callable[[Callable[[str], bool]], int]] = []


def forget_sessions_with(forget: Callable[[Callable[[str], bool]], int]) -> None:
    """Register ``forget(ended)``: it drops what it keeps for every session id that
    ``ended(session_id)`` says has ended for good, and returns how many it dropped."""
    if forget not in _FORGETTERS:
        _FORGETTERS.append(forget)


def session_ended(session_id: str) -> bool:
    """True when the server no longer knows ``session_id``: neither open nor waiting to
    reconnect (False outside a running Streamlit server, where nothing ever ends)."""
    from streamlit import runtime
    if not runtime.exists():
        return False
    manager = getattr(runtime.get_instance(), "_session_mgr", None)
    return manager is not None and manager.get_session_info(session_id) is None


def _libc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") else None     # glibc only (musl has none)


def map_big_blocks(threshold: int = MMAP_THRESHOLD) -> bool:
    """Once per process, on Linux with glibc: every block of ``threshold`` bytes or more in a
    mapping of its own (``mallopt(M_MMAP_THRESHOLD)``). True if set."""
    libc = _libc()
    return libc is not None and libc.mallopt(M_MMAP_THRESHOLD, threshold) == 1


def expire_sessions() -> int:
    """Drop the sessions whose time to reconnect has passed; how many were dropped (0 outside
    a running Streamlit server)."""
    from streamlit import runtime
    if not runtime.exists():
        return 0
    manager = getattr(runtime.get_instance(), "_session_mgr", None)
    cache = getattr(getattr(manager, "_session_storage", None), "_cache", None)
    if cache is None or not hasattr(cache, "expire"):
        return 0
    with getattr(manager, "_storage_lock", None) or nullcontext():
        removed = cache.expire()                 # [(session id, SessionInfo)]
    for _, info in removed:                      # as Streamlit ends a session it will not keep:
        try:                                     # its uploaded files and script thread go too
            info.session.shutdown()
        except Exception:  # noqa: BLE001 - one session must not stop the others' release
            log.exception("ending an expired session failed")
    return len(removed)


def release_memory() -> bool:
    """Drop expired sessions, collect the garbage (reference cycles, the dropped sessions'
    among them) and hand free memory back to the machine; True if glibc's ``malloc_trim``
    was called."""
    dropped = expire_sessions()
    if dropped:
        log.info("dropped %d expired session%s", dropped, "s" if dropped != 1 else "")
    for forget in list(_FORGETTERS):
        try:
            forget(session_ended)
        except Exception:  # noqa: BLE001 - one store must not stop the release
            log.exception("forgetting ended sessions failed")
    gc.collect()
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


def start_releasing(every: float = EVERY_SECONDS, stop: threading.Event | None = None) -> threading.Thread:
    """A daemon thread calling ``release_memory`` every ``every`` seconds (until ``stop`` is set)."""
    stop = stop or threading.Event()

    def loop() -> None:
        while not stop.wait(every):
            try:
                release_memory()
            except Exception:  # noqa: BLE001 - never end the thread
                log.exception("releasing memory failed")

    thread = threading.Thread(target=loop, name="release-memory", daemon=True)
    thread.start()
    return thread
