"""Choosing one word of a vocabulary: one click for the lesson's small vocabularies, a
dropdown for big ones.

A dropdown (``st.selectbox``) costs two clicks and, in the page, most of a pick's time: its
overlay and focus handling took about 100 ms of the browser's main thread per pick, more
than the rest of the rerun. A row of buttons (``st.pills``) shows every word at once and
picks with one click. It stops paying when the row grows into a wall of words, so big
vocabularies keep the dropdown (which can be typed into). Either way the widget keeps its
key and its binding to the page address, so lesson links (``?train_word=dog``) still work.
"""
from __future__ import annotations

import streamlit as st

from lab_ui.widgets.common import plain

PILL_WORDS = 16
"""Vocabularies up to this many words are picked from buttons; bigger ones from a dropdown."""


def word_picker(label: str, vocab: list[str], default: str, key: str, where=None) -> str:
    """One word of ``vocab``, ``default`` first; never empty (a word's button cannot be
    clicked off). ``where``: a container or column (default: st)."""
    where = where if where is not None else st
    if st.session_state.get(key, default) not in vocab:   # a word of another text, kept under the
        del st.session_state[key]                          # same key by the other kind of widget
    if len(vocab) > PILL_WORDS:
        return where.selectbox(label, vocab, index=vocab.index(default), key=key, bind="query-params")
    word = where.pills(label, vocab, default=default, required=True, key=key, bind="query-params",
                       format_func=plain)          # a pasted word shows as typed, never as Markdown
    return word if word in vocab else default
