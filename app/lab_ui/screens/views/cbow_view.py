"""The CBOW screen's controls (the Train screen's), its two run requests and its tables (no math: core does it)."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.screens.train.train_controls import lesson_run, run_controls
from core.corpus import GUIDE_TEXT
from core.run import RunRequest, RunResult
from core.skipgram import SkipGramConfig

DEFAULTS = lesson_run("cbow")
"""The reset button's values: the Train screen's reference run, on this screen's widgets."""


def controls() -> tuple[SkipGramConfig, int]:
    """The Train screen's row of sliders (``train_controls.CONTROLS``, keys ``cbow_<field>``):
    the config both models train with, and the window."""
    return run_controls(layout.controls_bar("cbow"), prefix="cbow")


def cbow_requests(config: SkipGramConfig, window: int) -> tuple[RunRequest, RunRequest]:
    """Skip-gram's and CBOW's runs on the lesson's text with the same config and window."""
    return (RunRequest("softmax", GUIDE_TEXT, config, window), RunRequest("cbow", GUIDE_TEXT, config, window))


def loss_table(sg: RunResult, cb: RunResult) -> pd.DataFrame:
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
