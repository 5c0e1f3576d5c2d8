"""Shared pieces of the real-model screens: a model or tokenizer loaded once per server process
(or a clear message with the install command, stopping this screen only), and the capped text box."""
from __future__ import annotations

import streamlit as st

from lab_ui.links import named

from core.encodings import EncodingUnavailable
from core.pretrained import ModelUnavailable, load_table
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
