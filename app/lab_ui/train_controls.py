"""The Train screen's corpus chooser and the option lists of its sliders."""
from __future__ import annotations

import streamlit as st

from lab_ui.bigtext_view import is_big
from lab_ui.common import plain
from lab_ui.presets import SOFTMAX_SETTINGS

from core.bigtext import MAX_SOFTMAX_VOCAB
from core.corpus import GUIDE_TEXT
from core.generated import generate_corpus

LR_OPTIONS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
STEP_OPTIONS = [0, 100, 250, 500, 1000, 2000, 3000, 5000]
MAX_CORPUS_CHARS = 20_000
"""The full softmax's texts are cut here (its pairs and V x V pictures grow with the text)."""
TRAIN_VOCAB_CAP = MAX_SOFTMAX_VOCAB
"""The Train screen's full softmax keeps at most this many distinct words (rarer ones become
<unk>); texts with more are trained with word2vec instead (core.bigtext)."""
MAX_TEXT_MB = 5
"""Largest own text, uploaded or pasted (.streamlit/config.toml server.maxUploadSize matches)."""
MAX_TEXT_CHARS = MAX_TEXT_MB * 1_000_000
SOURCES = ["The lesson's 33 words", "Word groups (generated)", "Paste your own text"]
GENERATED = SOURCES[1]


def corpus_controls() -> tuple[str, str]:
    """Let the user pick the training text; return it and a note on anything changed."""
    src = st.radio("Training text", SOURCES, horizontal=True, key="train_source", bind="query-params")
    if src == SOURCES[0]:
        st.caption(f"“{GUIDE_TEXT}”")
        return GUIDE_TEXT, ""
    if src == GENERATED:
        g = generated()
        st.caption(f"{len(g.sentences)} short sentences written by the app's own generator from "
                   f"{len(g.groups)} known word groups ("
                   + ", ".join(g.groups) + f"). The word “{g.ambiguous}” is used in both river "
                   "sentences and money sentences. First lines: “"
                   + " / ".join(g.sentences[:4]) + " …”")
        st.button("Use the settings that suit this text", on_click=_use_generated_settings,
                  key="train_use_generated",
                  help=f"d_model {SOFTMAX_SETTINGS.d_model}, learning rate {SOFTMAX_SETTINGS.lr:g}, "
                       f"{SOFTMAX_SETTINGS.steps:,} steps")
        return g.text, ""
    return own_text()


def own_text() -> tuple[str, str]:
    """An uploaded .txt file or pasted text, at most MAX_TEXT_CHARS characters."""
    upload = st.file_uploader(f"Upload a .txt file (up to {MAX_TEXT_MB} MB)", type=["txt"],
                              key="train_upload")
    text = st.text_area(
        f"… or paste your text (up to {MAX_TEXT_CHARS:,} characters; lower-cased, punctuation "
        f"dropped). Up to {TRAIN_VOCAB_CAP} different words: the lesson's full softmax trains on the first "
        f"{MAX_CORPUS_CHARS:,} characters; more different words: word2vec trains on all of it",
        GUIDE_TEXT, height=120, key="train_text", max_chars=MAX_TEXT_CHARS)
    notes = []
    if upload is not None:
        raw = upload.getvalue()
        text = raw.decode("utf-8", errors="replace")
        notes.append(f"Using the uploaded file “{plain(upload.name)}” ({len(raw) / 1e6:.2f} MB); the "
                     "text box is ignored while a file is loaded.")
        if "\ufffd" in text and b"\xef\xbf\xbd" not in raw:
            notes.append("Some bytes were not UTF-8 text and were replaced.")
    if len(text) >= MAX_TEXT_CHARS:
        notes.append(f"The text reaches the limit of {MAX_TEXT_CHARS:,} characters; anything "
                     f"beyond it was cut.")
        text = text[:MAX_TEXT_CHARS]
    if not is_big(text) and len(text) > MAX_CORPUS_CHARS:
        notes.append(f"Your text has {len(text):,} characters; only the first {MAX_CORPUS_CHARS:,} are used.")
        text = text[:MAX_CORPUS_CHARS]
    return text, " ".join(notes)


BOUND = {"train_d_model": "d_model", "train_lr": "learning rate", "train_window": "window",
         "train_steps": "steps", "train_seed": "seed", "train_source": "training text"}


def link_values() -> dict[str, list[str]]:
    """The bound settings as the page's address gave them (read before the widgets run)."""
    return {k: st.query_params.get_all(k) for k in BOUND if st.query_params.get_all(k)}


def _same(raw: str, value) -> bool:
    try:
        return float(raw) == float(value)
    except (TypeError, ValueError):
        return raw == str(value)


def link_notice(given: dict[str, list[str]]) -> None:
    """Say which values from a shared link could not be used (Streamlit drops them quietly
    and falls back to the default)."""
    dropped = []
    for key, raw in given.items():
        value = st.session_state.get(key)
        if len(raw) > 1 or not _same(raw[0], value):
            shown = plain(", ".join(repr(r[:30]) for r in raw[:3]))
            dropped.append(f"{BOUND[key]} = {shown} (using {value})")
    if dropped:
        st.warning("Some settings in this link are not valid and were replaced by the defaults: "
                   + "; ".join(dropped) + ".")


@st.cache_data(max_entries=1, show_spinner=False)
def generated():
    """The built-in corpus with known groups (deterministic)."""
    return generate_corpus()


def _use_generated_settings() -> None:
    st.session_state["train_d_model"] = SOFTMAX_SETTINGS.d_model
    st.session_state["train_lr"] = SOFTMAX_SETTINGS.lr
    st.session_state["train_steps"] = SOFTMAX_SETTINGS.steps
    st.session_state["train_window"] = 2
