"""Whole-number boxes that read what was typed exactly.

Streamlit's integer ``st.number_input`` reads the typed text with JavaScript's
``parseInt``, so ``1e6`` silently becomes 1 (and a link's ``1e6`` becomes 1,000,000).
These boxes are text boxes read by ``lab_ui.parse.parse_whole``: ``1e6``, ``1,000,000`` and
``1 000 000`` all mean one million, and ``1.5`` or ``abc`` get a message, never a guess.
"""
from __future__ import annotations

import streamlit as st

from core.corpus import text_changes
from lab_ui.common import error, plain
from lab_ui.parse import InputError, parse_whole


def whole_input(label: str, low: int, high: int, default: int, key: str, where=None,
                fallback: int | None = None, **kwargs) -> int | None:
    """A text box for a whole number in ``low .. high``. When what was typed is not one, an
    error under the box says why and the result is None, or ``fallback`` (and the message
    says that ``fallback`` is used). ``where``: a container or column (default: st)."""
    where = where if where is not None else st
    typed = where.text_input(label, str(default), key=key, max_chars=40, **kwargs)
    try:
        return parse_whole(typed, label, low, high)
    except InputError as err:
        with where:
            if fallback is None:
                error(err)
            else:
                st.warning(plain(f"{err} Using {label.lower()} {fallback:,} until it is fixed."))
        return fallback


MAX_SENTENCE = 500


def sentence_pair(corpus, prefix: str) -> tuple[list[int], list[int], tuple[str, str]]:
    """Two sentences of the toy vocabulary side by side (the Limits and Position screens' order
    test; widget keys ``<prefix>_a`` and ``<prefix>_b``): their ids, and the texts as typed.
    A word outside ``corpus``'s vocabulary, or an empty sentence, stops the screen with a message."""
    c1, c2 = st.columns(2, gap="large")
    s1 = c1.text_input("Sentence A", "the cat saw the dog", key=f"{prefix}_a", max_chars=MAX_SENTENCE)
    s2 = c2.text_input("Sentence B", "the dog saw the cat", key=f"{prefix}_b", max_chars=MAX_SENTENCE)
    try:
        ids_a, ids_b = corpus.encode(s1), corpus.encode(s2)
        if len(ids_a) == 0 or len(ids_b) == 0:
            raise KeyError("each sentence needs at least one word")
    except KeyError as err:
        error(f"Use only the {corpus.V} words of the toy vocabulary ({err.args[0]}): "
              + ", ".join(corpus.vocab) + ".")
        st.stop()
    return ids_a, ids_b, (s1, s2)


@st.cache_data(max_entries=8, show_spinner=False)
def text_changes_for(text: str):
    """``core.corpus.text_changes``, once per text (it reads every character: ~2 s per MB)."""
    return text_changes(text)


def word_rule_note(changes) -> str:
    """A notice on what ``core.corpus.text_changes`` found, quoting examples literally."""
    parts = []
    if changes.n_normalised:
        shown = ", ".join(f"{plain(a)} → {plain(b)}" for a, b in changes.normalised)
        parts.append(f"{changes.n_normalised:,} character(s) were rewritten by the word rule's "
                     f"Unicode normalisation ({shown}; an accent typed separately is joined to "
                     "its letter)")
    if changes.n_dropped:
        shown = " ".join(plain(c) for c in changes.dropped)
        parts.append(f"{changes.n_dropped:,} character(s) that are not letters, marks or digits "
                     f"were dropped ({shown})")
    return "Your text was changed before training: " + "; ".join(parts) + "."
