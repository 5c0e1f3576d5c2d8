"""Shared pieces of the real-model screens: a model or tokenizer loaded once per server process
(or a clear message with the install command, stopping this screen only), and the capped text box."""
from __future__ import annotations

import streamlit as st

from core.encodings import EncodingUnavailable
from core.pretrained import ModelUnavailable, load_table
from core.tokenizer import TokenizerUnavailable, clean_text, encoding

TEXT_MAX_CHARS = 500          # typed text is cut here (with a note): every token gets a row shown
UNAVAILABLE = (ModelUnavailable, EncodingUnavailable, TokenizerUnavailable)


@st.cache_resource(show_spinner="Loading the real model (once per server)…")
def _table(name: str):
    return load_table(name)


@st.cache_resource(show_spinner=False)
def _encoding(name: str):
    return encoding(name)


def table_or_stop(name: str):
    """The real table ``name``; if its package is missing or its file wrong, say how to install it
    and stop this screen (every other screen works as before)."""
    try:
        return _table(name)
    except UNAVAILABLE as err:
        st.error(f"This screen needs a real model that is not available here. {err} "
                 "Every other screen works without it.")
        st.stop()


def encoding_or_none(name: str):
    """The tokenizer ``name``, or None when its files are not installed."""
    try:
        return _encoding(name)
    except UNAVAILABLE:
        return None


def encoding_or_stop(name: str):
    """The tokenizer ``name``; if it is not installed, say how and stop this screen."""
    try:
        return _encoding(name)
    except UNAVAILABLE as err:
        st.error(f"This screen needs a tokenizer that is not available here. {err} "
                 "Every other screen works without it.")
        st.stop()


def text_box(label: str, default: str, key: str, height: int = 90) -> str:
    """A text area bound to the page address, cut at ``TEXT_MAX_CHARS`` with a note."""
    raw = st.text_area(f"{label} (up to {TEXT_MAX_CHARS} characters)", default, key=key, height=height,
                       bind="query-params", max_chars=TEXT_MAX_CHARS)
    text, notes = clean_text(raw, TEXT_MAX_CHARS)
    for note in notes:
        st.info(note)
    return text
