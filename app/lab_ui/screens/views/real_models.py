"""Shared pieces of the real-model screens: a model or tokenizer loaded once per server process
(or a clear message with the install command, stopping this screen only), and the capped text box."""
from __future__ import annotations

import streamlit as st

from lab_ui.lesson.links import named

from core.encodings import EncodingUnavailable
from core.pretrained import MODELS_INSTALL, ModelUnavailable, installed, load_table
from core.tokenizer import TokenizerUnavailable, clean_text, encoding

TEXT_MAX_CHARS = 500          # typed text is cut here (with a note): every token gets a row shown
UNAVAILABLE = (ModelUnavailable, EncodingUnavailable, TokenizerUnavailable)


@st.cache_resource(max_entries=3, show_spinner="Loading the real model (once per server)…")
def _table(name: str):
    return load_table(name)


@st.cache_resource(max_entries=8, show_spinner=False)
def _encoding(name: str):
    return encoding(name)


def _or_stop(load, name: str, what: str):
    """``load(name)``; if its files are missing or wrong, say how to install them and stop this
    screen (every other screen works as before)."""
    try:
        return load(name)
    except UNAVAILABLE as err:
        st.error(f"This screen needs {what} that is not available here. {err} "
                 "Every other screen works without it.")
        st.stop()


def table_or_stop(name: str):
    """The real table ``name``, or a message with the install command and this screen stopped."""
    return _or_stop(_table, name, "a real model")


def encoding_or_stop(name: str):
    """The tokenizer ``name``, or a message with the install command and this screen stopped."""
    return _or_stop(_encoding, name, "a tokenizer")


def encoding_or_none(name: str):
    """The tokenizer ``name``, or None when its files are not installed."""
    try:
        return _encoding(name)
    except UNAVAILABLE:
        return None


def text_box(label: str, default: str, key: str, height: int = 90) -> str:
    """A text area bound to the page address, cut at ``TEXT_MAX_CHARS`` with a note."""
    shown = f"{label} (up to {TEXT_MAX_CHARS} characters)"
    raw = st.text_area(shown, default, key=named(key, shown), height=height,
                       bind="query-params", max_chars=TEXT_MAX_CHARS)
    text, notes = clean_text(raw, TEXT_MAX_CHARS)
    for note in notes:
        st.info(note)
    return text


TOY_TABLE = "the lesson's toy table"
REAL_TABLES = {"GloVe 6B 50d (real words)": "glove-6b-50d", "SmolLM2-135M's token table": "smollm2-135m"}


def table_choice(where, key: str, toy: str = TOY_TABLE, label: str = "Table") -> str | None:
    """A choice of table bound to the page address: the toy one first (the default), then the
    real tables that are installed. Returns the real table's name, or None for the toy one.
    With a model package missing its choice is left out and a note says how to install it."""
    real = {shown: name for shown, name in REAL_TABLES.items() if installed(name)}
    choice = where.radio(label, [toy, *real], key=named(key, label), bind="query-params", horizontal=True,
                         help="The first table is trained by this app; the real ones "
                              "are read from the installed model files.")
    if len(real) < len(REAL_TABLES):
        missing = [shown for shown, name in REAL_TABLES.items() if shown not in real]
        where.caption(f"Not installed here: {', '.join(missing)}. Install the real models with "
                      f"`{MODELS_INSTALL}`.")
    return real.get(choice)


def real_or_none(name: str):
    """The real table ``name``, or None after a message (this block only; the screen goes on)."""
    try:
        return _table(name)
    except UNAVAILABLE as err:
        st.error(f"The real table is not available here. {err}")
        return None
