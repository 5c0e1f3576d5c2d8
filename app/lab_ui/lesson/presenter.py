"""Presenter mode, lesson order, and the reset to the lesson's settings.

* Presenter mode: one switch (or ``present=1`` in the page address). The sidebar navigation
  gives way to Previous / Next buttons at the end of the screen, chart text grows to at least
  18 px, scatter points are labelled where a label has room (``lab_ui.widgets.charts`` reads
  ``presenting()``), and every text of the page is 18 px or more, captions at the body text's
  colour (``PRESENTER_CSS``).
* Every screen ends with a "Next: <screen>" button, in lesson order (``lab_ui.screens.registry``).
* ``reset_button``: "Back to the lesson's run" forgets every setting of the screen and leaves a
  clean page address (only ``present=1`` and ``theme=dark`` stay, if they are on).
* The dark theme's switch (``lab_ui.widgets.theme``) sits beside the presenter switch.
"""
from __future__ import annotations

import streamlit as st

from lab_ui.lesson.handout import TABLES_KEY
from lab_ui.widgets import theme
from lab_ui.widgets.layout import page_style
from lab_ui.screens.registry import HOME, Screen, neighbours

PRESENT_KEY = "present"          # the link parameter
MODE_KEY = "present_mode"        # the session's own record (widget state can be cleaned up)
RESET_LABEL = "Back to the lesson's run"


# Presenter mode's one page style, a fixed string (no data in it): captions as large and as
# dark as the body text, since Streamlit's small grey captions fade on a projector.
# Every text at 18 px or more: the root grows to 21 px, so Streamlit's small texts (0.875 rem:
# widget labels and options, buttons, tabs, metric labels, expanders) are 18.4 px, while the
# body's paragraphs and the headings are held near their usual size (18 px text) so that each
# screen's key result stays above the fold; inline code, captions and token chips are set to
# 18 px; tables, drawn on a canvas at 14.9 px, are zoomed to 18.6 px (inside 80% of their
# column, so they keep to it). Captions lose their 0.6 opacity and take the body text's colour.
PRESENTER_CSS = """<style>
html { font-size: 21px !important; }
[data-testid="stMarkdownContainer"] :is(p, li) { font-size: 18px; }
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] * {
  font-size: 18px !important; color: rgb(17, 24, 39) !important; opacity: 1 !important; }
[data-testid="stMarkdownContainer"] code, [data-testid="stMarkdownContainer"] .chip,
[data-testid="stMarkdownContainer"] .chip * { font-size: 18px !important; }
[data-testid="stElementContainer"]:has([data-testid="stDataFrame"]) { zoom: 1.25; max-width: 80% !important; }
[data-testid="stMainBlockContainer"] { padding-top: 4rem; }
[data-testid="stMainBlockContainer"] h1 { font-size: 1.7rem; }
[data-testid="stMainBlockContainer"] h2 { font-size: 1.2rem; }
[data-testid="stMainBlockContainer"] h3 { font-size: 1.2rem; }
</style>"""


def presenting() -> bool:
    """Presenter mode is on. The first run of a session reads it from the address."""
    if MODE_KEY not in st.session_state:
        st.session_state[MODE_KEY] = st.query_params.get(PRESENT_KEY) == "1"
    return bool(st.session_state[MODE_KEY])


def _sync_address() -> None:
    if st.session_state.get(MODE_KEY):
        if st.query_params.get(PRESENT_KEY) != "1":
            st.query_params[PRESENT_KEY] = "1"
    elif PRESENT_KEY in st.query_params:
        del st.query_params[PRESENT_KEY]


def _flip() -> None:
    # The switch's state can be missing when its callback runs (seen right after the developer
    # menu's "Clear caches"): keep the mode as it was rather than fail the whole page.
    st.session_state[MODE_KEY] = bool(st.session_state.get("present_switch", presenting()))
    _sync_address()


def switch(where) -> None:
    where.toggle("Presenter mode", value=presenting(), key="present_switch", on_change=_flip,
                 help="For a projector: Previous/Next buttons instead of the sidebar, larger chart "
                      "text, labels on every point that has room for one. A link with present=1 opens in this mode.")


def _link(where, page: Screen, label: str, icon: str) -> None:
    params = {**({PRESENT_KEY: "1"} if presenting() else {}), **theme.link_params()}
    where.page_link(page.file, label=label, icon=icon, query_params=params or None)


def top_bar(current_file: str) -> None:
    """Before the screen: the presenter switch in the sidebar (presenter mode hides the sidebar;
    its switch then sits with Previous / Next at the end of the screen, keeping the top of
    every screen for its content)."""
    page_style()
    if presenting():
        _sync_address()
        st.html(PRESENTER_CSS)
    else:
        switch(st.sidebar)
        theme.switch(st.sidebar)
    theme.style()          # after the presenter's sheet: its dark captions turn light


def next_button(current_file: str) -> None:
    """The last element of every screen: a button to the next screen in lesson order, and in
    presenter mode Previous / Next and the switch."""
    prev, nxt = neighbours(current_file)
    st.divider()
    with st.container(horizontal=True, gap="large", vertical_alignment="center", key="lesson_nav"):
        if presenting() and prev:
            _link(st, prev, f"Previous: {prev.title}", ":material/arrow_back:")
        if nxt:
            _link(st, nxt, f"Next: {nxt.title}", ":material/arrow_forward:")
        else:
            _link(st, HOME, "Back to the start: Home", ":material/home:")
        if presenting():
            switch(st)
            theme.switch(st)


def _reset(prefixes: tuple[str, ...], defaults: dict) -> None:
    for key in list(st.session_state):
        if str(key).startswith(prefixes) and key not in defaults:
            del st.session_state[key]
    # Widgets bound to the address would read their old value back from it: set them instead
    # (a bound widget at its default leaves the address).
    for key, value in defaults.items():
        st.session_state[key] = value
    for key in list(st.query_params):
        if key not in defaults and key not in (TABLES_KEY, theme.THEME_KEY):   # the reader's own switches stay
            del st.query_params[key]
    _sync_address()


def reset_button(*prefixes: str, key: str, defaults: dict | None = None) -> None:
    """"Back to the lesson's run": every widget whose key starts with one of ``prefixes``
    returns to its default (``defaults``: the values of widgets bound to the page address),
    and the page address loses its settings."""
    st.button(RESET_LABEL, key=key, icon=":material/restart_alt:", on_click=_reset,
              args=(prefixes, defaults or {}),
              help="Forget every change on this screen and show the lesson's own settings again.")
