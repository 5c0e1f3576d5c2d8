"""The CBOW screen's controls, its bounded run cache and its tables (no math: core does it)."""
from __future__ import annotations

import time

import pandas as pd
import streamlit as st

from lab_ui import layout
from lab_ui.inputs import whole_input
from lab_ui.train_controls import LR_OPTIONS, STEP_OPTIONS
from core.cbow import train_cbow
from core.corpus import Corpus
from core.skipgram import SkipGramConfig, TrainResult, train

# The Train screen's main controls, with the same ranges and defaults (the lesson's run).
DEFAULTS = {"cbow_d_model": 4, "cbow_lr": 0.5, "cbow_window": 2, "cbow_steps": 3000, "cbow_seed": "0"}


def controls() -> tuple[SkipGramConfig, int]:
    """The row of sliders: the config both models train with, and the window."""
    bar = layout.controls_bar("cbow")
    c = [layout.control(bar, px) for px in (layout.slider_px(31), layout.slider_px(len(LR_OPTIONS) - 1),
                                           layout.slider_px(4), layout.slider_px(len(STEP_OPTIONS) - 1),
                                           layout.MIN_CONTROL)]
    d_model = c[0].slider("d_model", 1, 32, 4, key="cbow_d_model", bind="query-params",
                          help="The vector width: how many numbers each word's vector has.")
    lr = c[1].select_slider("Learning rate", LR_OPTIONS, 0.5, key="cbow_lr", bind="query-params",
                            help="How big each update step is. Too big and training blows up.")
    window = c[2].slider("Window", 1, 5, 2, key="cbow_window", bind="query-params",
                         help="How many words on each side count as neighbours (skip-gram) or as "
                              "the context (CBOW).")
    steps = c[3].select_slider("Steps", STEP_OPTIONS, 3000, key="cbow_steps", bind="query-params",
                               help="Number of full-batch gradient-descent updates, for both models.")
    seed = whole_input("Seed", 0, 1_000_000, 0, "cbow_seed", where=c[4], fallback=0, bind="query-params",
                       help="Which random starting tables, from 0 to 1,000,000: both models start "
                            "from the same E and W.")
    config = SkipGramConfig(d_model=int(d_model), lr=float(lr), steps=int(steps), seed=int(seed))
    return config, int(window)


@st.cache_data(max_entries=16, show_spinner=False)    # 16 runs of a 12-word table: well under 1 MB each
def cbow_run(text: str, window: int, config: SkipGramConfig) -> tuple[TrainResult, float, float]:
    """CBOW's run for these settings, and the seconds this machine took to train CBOW and,
    right after it, skip-gram with the same settings (the skip-gram *result* shown on the screen
    comes from the Train screen's cache, ``lab_ui.runs.train_run``; it is the same run)."""
    corpus = Corpus.from_text(text, window=window)
    start = time.perf_counter()
    result = train_cbow(corpus, config)
    cbow_seconds = time.perf_counter() - start
    start = time.perf_counter()
    train(corpus, config)
    return result, cbow_seconds, time.perf_counter() - start


def loss_table(sg: TrainResult, cb: TrainResult) -> pd.DataFrame:
    """Step by step, both losses (a run that stopped early has blanks after its last step)."""
    return (pd.DataFrame({"skip-gram loss": pd.Series(sg.losses), "CBOW loss": pd.Series(cb.losses)})
            .rename_axis("step").reset_index())


def neighbour_table(vocab: list[str], sg_nn, cb_nn) -> pd.DataFrame:
    """The two top-k lists side by side, cosines to 2 decimals."""
    return pd.DataFrame({"skip-gram: neighbour": [vocab[j] for j, _ in sg_nn],
                         "skip-gram: cosine": [round(c, 2) for _, c in sg_nn],
                         "CBOW: neighbour": [vocab[j] for j, _ in cb_nn],
                         "CBOW: cosine": [round(c, 2) for _, c in cb_nn]})


def signals_table(vocab: list[str], s) -> pd.DataFrame:
    """``core.cbow.row_signals`` as a table, one row per word."""
    return pd.DataFrame({"word": vocab, "occurrences": s.occurrences,
                         "skip-gram: pairs from its row": s.skipgram_pairs.astype(int),
                         "CBOW: predictions with it in the context": s.cbow_uses,
                         "CBOW: its total share of those averages": s.cbow_weight.round(2)})


_COS = st.column_config.NumberColumn(format="%.2f")
NN_HEADERS = layout.short_headers({"skip-gram: cosine": _COS, "CBOW: cosine": _COS},
                                  {"skip-gram: neighbour": "skip-gram", "skip-gram: cosine": "cos",
                                   "CBOW: neighbour": "CBOW", "CBOW: cosine": "cos "})
"""Short headers, so the side-by-side table fits a 853 px wide page (full names in the tooltips)."""
SIGNAL_HEADERS = layout.short_headers({"CBOW: its total share of those averages": st.column_config.NumberColumn(
    format="%.2f")}, {"occurrences": "count", "skip-gram: pairs from its row": "skip-gram pairs",
                      "CBOW: predictions with it in the context": "CBOW uses",
                      "CBOW: its total share of those averages": "CBOW share"})


def milliseconds(seconds: float) -> str:
    return f"{1000 * seconds:,.0f} ms"
