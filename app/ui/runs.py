"""Cached, screen-level wrappers around deterministic core calls.

``st.cache_data`` is keyed by the arguments (text, window and the hyperparameters),
shared by every session, and bounded by ``max_entries`` so a class full of students
cannot grow it without limit. The tokenizer is a read-only loaded thing:
``st.cache_resource``.
"""
from __future__ import annotations

import streamlit as st

from core.corpus import Corpus
from core.skipgram import SkipGramConfig, TrainResult, train
from core.tokenizer import gpt2

MAX_TRAIN_ENTRIES = 64


@st.cache_data(max_entries=128, show_spinner=False)
def corpus_for(text: str, window: int, max_vocab: int | None = None) -> Corpus:
    return Corpus.from_text(text, window=window, max_vocab=max_vocab)


@st.cache_data(max_entries=MAX_TRAIN_ENTRIES, show_spinner=False)
def train_run(text: str, window: int, d_model: int, lr: float, steps: int, seed: int,
              init_std: float = 0.1, max_vocab: int | None = None, _progress=None) -> TrainResult:
    """Train once per distinct setting; ``_progress`` (not part of the key) is a
    ``st.progress`` element that the run updates about 20 times."""
    corpus = corpus_for(text, window, max_vocab)
    config = SkipGramConfig(d_model=d_model, lr=lr, steps=steps, seed=seed, init_std=init_std,
                            snapshot_every=max(1, steps // 60))
    every = max(1, steps // 20)

    def report(step: int, loss: float) -> None:
        if _progress is not None and (step % every == 0 or step == steps):
            _progress.progress(step / max(steps, 1), text=f"Training: step {step:,} of {steps:,}, loss {loss:.3f}")

    return train(corpus, config, callback=report)


@st.cache_resource(show_spinner=False)
def tokenizer():
    """GPT-2's encoding from the bundled file (raises TokenizerUnavailable if it is damaged)."""
    return gpt2()
