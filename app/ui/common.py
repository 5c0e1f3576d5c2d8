"""Small display helpers shared by the screens."""
from __future__ import annotations

import pandas as pd
import streamlit as st


def intro(title: str, text: str) -> None:
    """Title and the two or three sentences that say what the screen is for."""
    st.title(title)
    st.markdown(text)


def chart_with_table(chart, table: pd.DataFrame, label: str = "Show the numbers as a table",
                     key: str | None = None, stretch: bool = True) -> None:
    """Every chart has its numbers one click away. ``stretch``: fill the column's width
    (for charts built with ``width="container"``)."""
    width = "stretch" if stretch else "content"
    if isinstance(chart, dict):           # a cached Vega-Lite spec from ui.charts
        st.vega_lite_chart(spec=chart, width=width)
    else:
        st.altair_chart(chart, width=width)
    with st.expander(label):
        st.dataframe(table, hide_index=True, key=key)


def vector_frame(v, name: str = "value", prefix: str = "dim") -> pd.DataFrame:
    """A vector as a one-row table with columns dim 0, dim 1, ..."""
    return pd.DataFrame([list(v)], columns=[f"{prefix} {i}" for i in range(len(v))], index=[name])


_MD_SPECIAL = set("\\`*_{}[]()#+-.!<>|~:$&=\"'")


def plain(text: str) -> str:
    """User text made safe to show inside Markdown: every punctuation character that
    Markdown or Streamlit could read as formatting (links, images, HTML, :colour[] and
    :material/...: directives, LaTeX) is backslash-escaped, so it shows as typed."""
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in str(text))


def error(message) -> None:
    """An error box for a message that may quote what the user typed."""
    st.error(plain(message))


def fixed_decimals(df: pd.DataFrame, decimals: int) -> dict:
    """A column_config that shows every float column with the same number of decimals."""
    return {c: st.column_config.NumberColumn(format=f"%.{decimals}f")
            for c in df.columns if pd.api.types.is_float_dtype(df[c])}
