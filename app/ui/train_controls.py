"""The Train screen's corpus chooser and the option lists of its sliders."""
from __future__ import annotations

import streamlit as st

from core.corpus import GUIDE_TEXT

LR_OPTIONS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
STEP_OPTIONS = [0, 100, 250, 500, 1000, 2000, 3000, 5000]
MAX_CORPUS_CHARS = 20_000
MAX_VOCAB = 300
SOURCES = ["The lesson's 33 words", "Paste your own text"]


def corpus_controls() -> tuple[str, str]:
    """Let the user pick the training text; return it and a note on anything changed."""
    src = st.radio("Training text", SOURCES, horizontal=True, key="train_source", bind="query-params")
    if src == SOURCES[0]:
        st.caption(f"“{GUIDE_TEXT}”")
        return GUIDE_TEXT, ""
    text = st.text_area(
        f"Your text (up to {MAX_CORPUS_CHARS:,} characters; lower-cased, punctuation dropped; "
        f"the {MAX_VOCAB} most frequent words are kept, the rest become <unk>)",
        GUIDE_TEXT, height=120, key="train_text", max_chars=None)
    notes = []
    if len(text) > MAX_CORPUS_CHARS:
        notes.append(f"Your text has {len(text):,} characters; only the first {MAX_CORPUS_CHARS:,} are used.")
        text = text[:MAX_CORPUS_CHARS]
    return text, " ".join(notes)
