"""The server process's tunings, applied once per process by ``tune()`` (the router calls it
before it builds the navigation): they concern the whole process that serves every session,
not any screen.

* **One BLAS thread per matrix product.** Every session runs its script in a thread of its
  own, so a busy server already has its parallelism; a BLAS library that also starts a thread
  per core for every product makes those threads fight (a 1,000-word training step ran 3x
  slower beside a busy co-tenant, and up to 29x under heavy load: docs/performance.md,
  ``bench.blas_threads``). Worker processes set the same limit themselves (``lab_ui.server.workers``).
* **Two malloc arenas** (Linux with glibc). glibc gives a thread that finds the others' arenas
  busy one of its own (up to eight per core) and seldom hands their freed pages back;
  Streamlit runs every script run on a thread of its own, so a class's server kept growing
  (docs/performance.md, "A class on one server").
* **Big blocks in mappings of their own** (``lab_ui.server.memory.map_big_blocks``): a block of 1 MiB
  or more (a 5 MB message, its text) is handed back to the machine when it is freed, instead
  of staying in glibc's heap after the session that sent it has gone.
* **The imports out of the garbage collector's view.** A full collection over the ~123,000
  long-lived objects of a warm server (Streamlit, Altair, NumPy, pandas, pyarrow ...) took
  118-132 ms; frozen once they are all imported, under 1 ms (docs/performance.md, "Garbage
  collection"). Nothing imported is ever garbage. (Streamlit's own collection after every
  script run is off, ``.streamlit/config.toml``: it also walked every open session's objects;
  ``lab_ui.server.memory`` collects every 30 s.)
* **Memory handed back** every 30 s (``lab_ui.server.memory``), so a class's server shrinks back to
  its warm size a few minutes after big texts' sessions have ended.
* **The lesson's run warmed** (``lab_ui.server.warmup``): the Train screen's modules, its compiled
  script and the lesson's reference run prepared in a background thread, before a class opens
  the link together (docs/performance.md, "The first minute of a class").
"""
from __future__ import annotations

import ctypes
import gc
import sys

import altair  # noqa: F401  (imported before the freeze below, so that it is frozen too)
import numpy  # noqa: F401  (loads the BLAS library, so that the thread limit reaches it)
import pandas  # noqa: F401
import streamlit as st
from threadpoolctl import threadpool_limits

from lab_ui.server import warmup
from lab_ui.server.memory import map_big_blocks, start_releasing

M_ARENA_MAX = -8   # glibc's mallopt parameter number (malloc.h)


@st.cache_resource(show_spinner=False)
def one_blas_thread_per_product():
    """BLAS and OpenMP use one thread each in this process."""
    return threadpool_limits(limits=1)


@st.cache_resource(show_spinner=False)
def two_malloc_arenas() -> bool:
    """At most two malloc arenas (Linux with glibc). True if set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:                     # another C library (musl): nothing to set
        return False
    return libc.mallopt(M_ARENA_MAX, 2) == 1


@st.cache_resource(show_spinner=False)
def big_blocks_mapped() -> bool:
    """Blocks of 1 MiB or more in mappings of their own (``lab_ui.server.memory``). True if set."""
    return map_big_blocks()


@st.cache_resource(show_spinner=False)
def freeze_the_imports() -> bool:
    """Once per server process, not at every rerun: a freeze also takes every object alive at
    that moment (other sessions' pages and runs), and frozen objects that later become garbage
    in a reference cycle are never collected. Frozen at every rerun, a class's server grew by
    about 14 MiB a minute (docs/performance.md, "A class on one server")."""
    gc.freeze()
    return True


@st.cache_resource(show_spinner=False)
def give_memory_back():
    """The thread that hands freed heap pages back to the machine (``lab_ui.server.memory``)."""
    return start_releasing()


@st.cache_resource(show_spinner=False)
def warm_the_lesson():
    """The background thread that prepares the lesson's run (``lab_ui.server.warmup``)."""
    return warmup.start()


def tune() -> None:
    """Every tuning above, each once per server process (later calls cost a cache look-up)."""
    one_blas_thread_per_product()
    two_malloc_arenas()
    big_blocks_mapped()
    freeze_the_imports()
    give_memory_back()
    warm_the_lesson()
