"""Embedding Lab: the router. Page config, the navigation, and nothing else."""
import ctypes
import sys
from pathlib import Path

import numpy  # noqa: F401  (loads the BLAS library, so that the limit below reaches it)
import streamlit as st
from threadpoolctl import threadpool_limits

M_ARENA_MAX = -8   # glibc's mallopt parameter number (malloc.h)


@st.cache_resource(show_spinner=False)
def one_blas_thread_per_product():
    """Every session runs its script in a thread of its own, so a busy server already has
    its parallelism; a BLAS library that also starts a thread per core for every matrix
    product makes those threads fight (a 1,000-word training step ran 3x slower beside a
    busy co-tenant, and up to 29x under heavy load: docs/performance.md, bench.blas_threads).
    Once per server process: BLAS and OpenMP use one thread each."""
    return threadpool_limits(limits=1)


one_blas_thread_per_product()


@st.cache_resource(show_spinner=False)
def two_malloc_arenas() -> bool:
    """Once per server process, on Linux with glibc: at most two malloc arenas. glibc gives a
    thread that finds the others' arenas busy one of its own (up to eight per core) and seldom
    hands their freed pages back; Streamlit runs every script run on a thread of its own, so a
    class's server kept growing (docs/performance.md, "A class on one server"). True if set."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:                     # another C library (musl): nothing to set
        return False
    return libc.mallopt(M_ARENA_MAX, 2) == 1


two_malloc_arenas()

# Streamlit runs a full garbage collection after every script run. Over the ~145,000 long-lived
# objects of a warm server (Streamlit, Altair, NumPy, pandas, pyarrow ...) that took 80-110 ms per
# rerun; moved out of the collector's view once they are all imported, it takes 7-14 ms
# (docs/performance.md). Nothing imported is ever garbage, so freezing it loses nothing.
import gc  # noqa: E402

import altair  # noqa: E402,F401
import pandas  # noqa: E402,F401

from lab_ui.handout import handout, handout_link, tables_switch  # noqa: E402
from lab_ui import links  # noqa: E402
from lab_ui.memory import start_releasing  # noqa: E402
from lab_ui.train_controls import BOUND as TRAIN_BOUND, OLD_TAB_NAMES  # noqa: E402
from lab_ui.presenter import LESSON, next_button, presenting, top_bar  # noqa: E402


@st.cache_resource(show_spinner=False)
def freeze_the_imports() -> bool:
    """Once per server process, not at every rerun: a freeze also takes every object alive at
    that moment (other sessions' pages and runs), and frozen objects that later become garbage
    in a reference cycle are never collected. Frozen at every rerun, a class's server grew by
    about 14 MiB a minute (docs/performance.md, "A class on one server")."""
    gc.freeze()
    return True


freeze_the_imports()


@st.cache_resource(show_spinner=False)
def give_memory_back():
    """Once per server process: a thread that hands freed heap pages back to the machine every
    30 s, so a class's server shrinks back to its warm size a few minutes after big texts'
    sessions have ended (lab_ui.memory; docs/reliability.md, "One student's attack")."""
    return start_releasing()


give_memory_back()

# A local icon file: a Material or emoji page icon makes the browser fetch it from the internet.
st.set_page_config(page_title="Embedding Lab", page_icon=str(Path(__file__).parent / "icon.png"),
                   layout="wide")

pages = {file: st.Page(file, title=title, icon=icon, default=(i == 0))
         for i, (file, title, icon) in enumerate(LESSON)}
files = list(pages)
# Presenter mode hides the sidebar navigation: Previous / Next buttons take its place.
# One flat list, no section headings: Streamlit draws a section's heading inside the list's <ul>,
# which screen readers and axe-core's list/listitem rules refuse (docs/classroom.md, "Accessibility").
pg = st.navigation([pages[f] for f in files],
                   position="hidden" if presenting() or handout() else "sidebar",
                   expanded=True)   # every screen listed: no "View more" between a class and screen 10
current = next(f for f, p in pages.items() if p.url_path == pg.url_path)
links.follow_renames({"train_tab": OLD_TAB_NAMES})
link = links.given()        # a lesson link's settings, before the screen reads them
slot = st.container()       # its notices, if the screen cannot use some of them
links.apply_hide(slot)
if handout():               # printing: the screen alone, in one column
    pg.run()
else:
    top_bar(current)
    if not presenting():
        tables_switch(st.sidebar)
    pg.run()
    if not presenting():    # presenter mode keeps the sidebar closed
        handout_link(st.sidebar)
        links.builder(st.sidebar, current)
    next_button(current)
links.notice(slot, link, skip=set(TRAIN_BOUND))   # the Train screen words its own notice
