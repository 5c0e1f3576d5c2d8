"""Input boxes that read what was typed exactly: whole numbers, and two sentences in a
toy vocabulary.

Streamlit's integer ``st.number_input`` reads the typed text with JavaScript's
``parseInt``, so ``1e6`` silently becomes 1 (and a link's ``1e6`` becomes 1,000,000).
These boxes are text boxes read by ``lab_ui.widgets.parse.parse_whole``: ``1e6``, ``1,000,000`` and
``1 000 000`` all mean one million, and ``1.5`` or ``abc`` get a message, never a guess.
"""
from __future__ import annotations

from typing import NamedTuple, overload

import numpy as np
import streamlit as st

from core.corpus import text_changes
from lab_ui.widgets.common import error, plain
from lab_ui.lesson.links import named
from lab_ui.widgets.parse import InputError, parse_whole


@overload
def whole_input(label: str, low: int, high: int, default: int, key: str, where=None, *,
                fallback: int, **kwargs) -> int: ...
@overload
def whole_input(label: str, low: int, high: int, default: int, key: str, where=None,
                fallback: None = None, **kwargs) -> int | None: ...


def whole_input(label: str, low: int, high: int, default: int, key: str, where=None,
                fallback: int | None = None, **kwargs) -> int | None:
    """A text box for a whole number in ``low .. high``. When what was typed is not one, an
    error under the box says why and the result is None, or ``fallback`` (and the message
    says that ``fallback`` is used). ``where``: a container or column (default: st)."""
    where = where if where is not None else st
    typed = where.text_input(label, str(default), key=named(key, label), max_chars=40, **kwargs)
    try:
        return parse_whole(typed, label, low, high)
    except InputError as err:
        with where:
            if fallback is None:
                error(err)
            else:
                st.warning(plain(f"{err} Using {label.lower()} {fallback:,} until it is fixed."))
        return fallback


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


MAX_SENTENCE = 500
"""Longest sentence the two-sentence boxes take (Limits and Position screens)."""


class TwoSentences(NamedTuple):
    ids_a: np.ndarray     # (T_a,) ids of sentence A in the corpus's vocabulary
    ids_b: np.ndarray     # (T_b,)
    text_a: str           # as typed
    text_b: str


def two_sentences(corpus, prefix: str, a: str = "the cat saw the dog",
                  b: str = "the dog saw the cat") -> TwoSentences:
    """Two side-by-side sentence boxes (keys ``{prefix}a`` and ``{prefix}b``), read as ids of
    the corpus's vocabulary; a word outside it, or an empty box, gets a message and stops the page."""
    c1, c2 = st.columns(2, gap="large")
    s1 = c1.text_input("Sentence A", a, key=named(f"{prefix}a", "Sentence A"), max_chars=MAX_SENTENCE, bind="query-params")
    s2 = c2.text_input("Sentence B", b, key=named(f"{prefix}b", "Sentence B"), max_chars=MAX_SENTENCE, bind="query-params")
    try:
        ids_a, ids_b = corpus.encode(s1), corpus.encode(s2)
    except KeyError as err:
        error(f"Use only the {corpus.V} words of the toy vocabulary ({err.args[0]}): "
              + ", ".join(corpus.vocab) + ".")
        st.stop()
    if len(ids_a) == 0 or len(ids_b) == 0:
        empty = [name for name, ids in (("Sentence A", ids_a), ("Sentence B", ids_b)) if len(ids) == 0]
        error(f"{' and '.join(empty)} {'have' if len(empty) > 1 else 'has'} no words: type at least one word "
              "of the toy vocabulary ("
              + ", ".join(corpus.vocab) + ").")
        st.stop()
    return TwoSentences(ids_a, ids_b, s1, s2)
