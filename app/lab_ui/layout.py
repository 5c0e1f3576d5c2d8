"""Layouts that hold at projector sizes (1024x768, 1280x720, 1920x1080, and 853x533 for a
laptop zoomed to 150%), with the sidebar open or collapsed.

The rule is viewport-independent: nothing is squeezed. Blocks sit in a *wrapping* row
(``st.container(horizontal=True)``): each block has its own width, and a block that does not
fit on the row moves to the next line. Metrics take the width of their value, so a value is
never cut off with an ellipsis; charts take their block's width (``width="container"``).
"""
from __future__ import annotations

from typing import Literal

import streamlit as st

Gap = Literal["xxsmall", "xsmall", "small", "medium", "large", "xlarge", "xxlarge"]
"""The space between blocks, by the names ``st.container(gap=...)`` takes."""

# Block widths in CSS px. A chart block plus a side panel fit side by side from about
# 500 + 280 + gap: narrower main areas stack them.
CHART = 500
PANEL = 280
HALF = 380
BIG_CHART = 800      # presenter mode: a 12-word heatmap with 18 px numbers


def chart_px() -> int:
    """Width and height of a main chart block: larger in presenter mode."""
    return BIG_CHART if st.session_state.get("present_mode") else CHART


def metrics(items: list[dict], key: str | None = None) -> None:
    """A row of ``st.metric`` (each item: its keyword arguments) that wraps instead of
    truncating: every metric is as wide as its own label and value."""
    with st.container(horizontal=True, gap="medium", key=key):
        for item in items:
            st.metric(**item, width="content")


def blocks(*widths: int, key: str | None = None, gap: Gap = "large"):
    """Containers of the given widths in one row that wraps: side by side when the main
    area is wide enough for all of them, stacked otherwise. A width larger than the main
    area shrinks to it."""
    from lab_ui.handout import handout
    if handout():                                  # a handout: one column, the page's width
        row = st.container(gap=gap, key=key)
        return [row.container() for _ in widths]
    row = st.container(horizontal=True, gap=gap, key=key)
    return [row.container(width=w) for w in widths]


def short_headers(config: dict, labels: dict[str, str]) -> dict:
    """A dataframe's column_config with shorter headers shown (the data keeps its column names,
    the full name is the header's tooltip), so a narrow table fits a 1024 px projector."""
    out = dict(config)
    for column, label in labels.items():
        base = out.get(column) or st.column_config.Column()
        conf = dict(base) if isinstance(base, dict) else base
        conf["label"], conf["help"] = label, column
        out[column] = conf
    return out
