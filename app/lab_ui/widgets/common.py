"""Small display helpers shared by the screens."""
from __future__ import annotations

import functools
import re
from typing import Literal

import pandas as pd
import streamlit as st


def intro(title: str, text: str) -> None:
    """Title and the two or three sentences that say what the screen is for (and, once per
    run, the browser-side paste limit of ``lab_ui.widgets.paste_guard``)."""
    from lab_ui.widgets.paste_guard import install
    install()
    st.title(title)
    st.markdown(text)


def chart_with_table(chart, table: pd.DataFrame, label: str = "Show the numbers as a table",
                     key: str = "", stretch: bool = True) -> None:
    """Every chart has its numbers one click away, and its PNG and SVG files beside them
    (``lab_ui.lesson.handout``); in a handout, or with the sidebar's "Open every chart's table",
    the numbers are open. ``key``: the table's key (its box is ``<key>_box``). ``stretch``:
    fill the column's width (for charts built with ``width="container"``; a spec with a width in
    px keeps it).

    A closed box holds nothing: the table and the file buttons are built, sent and drawn
    only while the box is open (``lazy_box``), because a dozen tables drawn inside closed
    boxes on every rerun were the largest part of the page's work after a slider move.

    The chart's ARIA label is ``lab_ui.widgets.charts.summary``: its kind, its title, and that its
    numbers are in the table (WCAG 1.1.1, a text alternative for every chart)."""
    from lab_ui.widgets.charts import on_screen, summary
    from lab_ui.widgets.theme import dark, dark_spec
    from lab_ui.lesson.handout import every_table_open, handout
    width: Literal["stretch", "content"] = "stretch" if stretch else "content"
    columns = list(table.columns) if isinstance(table, pd.DataFrame) else []
    on_dark = dark() and not handout()    # a handout prints in the light theme
    if isinstance(chart, dict):           # a cached Vega-Lite spec from lab_ui.widgets.charts
        spec = on_screen(chart, print_view=handout())
        if isinstance(spec.get("width"), int):   # a plot of a fixed width (its axes on top): as built
            width = "content"
        # its text alternative: Vega puts the description on an SVG chart's element as its ARIA
        # label; a canvas has none, so the same words come first in a hidden image label
        spec = {**spec, "description": summary(chart, columns)}
        text_alternative(spec["description"])
        st.vega_lite_chart(spec=dark_spec(spec) if on_dark else spec, width=width)
    else:
        chart = altair_chart(chart, columns, width=width)
    if every_table_open():
        with st.expander(label, expanded=True):
            _numbers(chart, table, key)
    else:
        lazy_box(label, f"{key}_box", _numbers, chart, table, key)


def altair_chart(chart, columns: list[str], width: Literal["stretch", "content"] = "stretch", key: str | None = None):
    """An Altair chart drawn as every chart of the app: its text alternative first (its kind,
    title and table ``columns``), SVG when presenting or printing, recoloured on the dark page
    (a handout prints light). Returns the chart with its description."""
    from lab_ui.widgets.charts import summary
    from lab_ui.widgets.theme import dark, dark_spec
    from lab_ui.lesson.handout import handout
    chart = chart.properties(description=summary(_outline(chart), columns))
    text_alternative(str(chart.description))
    if handout() or st.session_state.get("present_mode"):   # SVG, as on_screen draws specs there
        chart = chart.properties(usermeta={"embedOptions": {"renderer": "svg"}})
    if dark() and not handout():           # the dark theme recolours the chart's own spec
        st.vega_lite_chart(spec=dark_spec(chart.to_dict()), width=width, key=key)
    else:
        st.altair_chart(chart, width=width, key=key)
    return chart


def text_alternative(text: str) -> None:
    """A hidden image label (``role="img"``, ``aria-label=text``) read just before a chart
    (built, escaped, by ``lab_ui.widgets.chips.image_label_html``)."""
    from lab_ui.widgets.chips import image_label_html
    st.html(image_label_html(text))


def more(label: str):
    """A box of further numbers or explanation under a result: closed on screen, open in a
    handout (a closed box prints nothing of what it holds)."""
    from lab_ui.lesson.handout import handout
    return st.expander(label, expanded=handout())


def _outline(chart) -> dict:
    """An Altair chart's marks and title as a small Vega-Lite dict (``to_dict`` would validate
    the whole chart, tens of ms): what ``lab_ui.widgets.charts.summary`` reads."""
    def mark(c) -> str:
        m = getattr(c, "mark", None)
        return m if isinstance(m, str) else str(getattr(m, "type", "") or "")
    parts = list(getattr(chart, "layer", None) or []) + [chart]
    title = getattr(chart, "title", "")
    return {"title": title if isinstance(title, (str, list)) else "",
            "layer": [{"mark": mark(c)} for c in parts if mark(c)]}


@st.fragment
def lazy_box(label: str, key: str, fill, *args) -> None:
    """An expander whose content, ``fill(*args)``, is built, sent and drawn only while it is
    open (Streamlit's lazy expander: it tracks its state under ``key``). A fragment: opening
    or closing it reruns this box alone, not the screen."""
    box = st.expander(label, key=key, on_change="rerun")
    if box.open:
        with box:
            fill(*args)


def _numbers(chart, table: pd.DataFrame, key: str) -> None:
    from lab_ui.lesson.handout import chart_files, handout
    data_table(table, hide_index=True, key=key)
    if not handout():
        chart_files(chart, key)


def data_table(data, *, hide_index: bool | None = None, column_config: dict | None = None,
               key: str | None = None, **kwargs) -> None:
    """Every table of the app: Streamlit's grid on screen (``st.dataframe``, with ``kwargs``);
    in a handout, every row and column printed as text (``lab_ui.lesson.printed``)."""
    from lab_ui.lesson.handout import handout
    if handout():
        from lab_ui.lesson.printed import show
        show(data, hide_index, column_config)
        return
    st.dataframe(data, hide_index=hide_index, column_config=column_config, key=key, **kwargs)


def vector_frame(v, name: str = "value", prefix: str = "dim") -> pd.DataFrame:
    """A vector as a one-row table with columns dim 0, dim 1, ..."""
    return pd.DataFrame([list(v)], columns=[f"{prefix} {i}" for i in range(len(v))], index=[name])


_MD_SPECIAL = set("\\`*_{}[]()#+-.!<>|~:$&=\"'")
# Whitespace-free runs that Markdown could turn into a link even when every character is
# backslash-escaped: Streamlit's GFM autolinking runs on the *unescaped* text, so URLs,
# www. hosts and e-mail addresses (anything with "@") become links after escaping.
_LINK_MARKS = ("@", "://", "www.", "mailto:", "xmpp:")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"(\s+)")          # one class, no nesting: linear in the text
LONGEST_RUN = 200
"""A whitespace-free run longer than this is quoted as its first ``RUN_KEPT`` characters, an
ellipsis and its length (a 60,000-digit cell is not worth 60,000 characters of a message)."""
RUN_KEPT = 60
LONGEST_QUOTE = 5_000
"""Longest text ``plain`` quotes: a longer one keeps its start and its last ``QUOTE_TAIL``
characters, with the length in between."""
QUOTE_TAIL = 500


def shortened(text: str) -> str:
    """``text`` with a bounded length: long runs without spaces and long texts cut, each cut
    saying how long the original was. Linear in the text (one split on whitespace).

    >>> shortened("cell " + "9" * 70_000 + " is not a number")[:80]
    'cell 999999999999999999999999999999999999999999999999999999999999… (70,000 chara'
    """
    n = len(text)
    text = "".join(f"{piece[:RUN_KEPT]}… ({len(piece):,} characters)" if len(piece) > LONGEST_RUN else piece
                   for piece in _SPACES.split(text))
    if len(text) > LONGEST_QUOTE:
        head = LONGEST_QUOTE - QUOTE_TAIL
        text = f"{text[:head]} … ({n:,} characters in all) … {text[-QUOTE_TAIL:]}"
    return text


def _linkable(run: str) -> bool:
    low = run.lower()
    return any(mark in low for mark in _LINK_MARKS)


def _code_span(chunk: str) -> str:
    """``chunk`` as an inline code span: Markdown shows its content literally (no links, no
    formatting, no HTML, no directives or LaTeX). The fence is longer than any run of
    backticks inside, and padded with a space that Markdown strips again."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", chunk)), default=0) + 1)
    return f"{fence} {chunk} {fence}"


def plain(text) -> str:
    """User text as Markdown that shows exactly as typed, for quoting it back on screen.

    The one helper for every notice, error or feedback that repeats what a user (or a
    link) gave. Runs that Markdown could autolink (URLs, ``www.`` hosts, e-mail addresses)
    become inline code spans; every other Markdown or Streamlit punctuation character
    (links, images, HTML, ``:colour[]`` and ``:material/...:`` directives, ``$`` LaTeX)
    is backslash-escaped. Control characters show as U+FFFD. The text is ``shortened``
    first, and every step is linear in its length (a pattern that tried each start of a
    run without spaces took 8.9 s on 32,000 characters and held the whole server).

    >>> plain("see www.x.org *now*")
    'see ` www.x.org ` \\\\*now\\\\*'

    A short text (a word: a word picker formats each of its words a few times per rerun) is
    quoted once per server and remembered (``_plain_word``).
    """
    text = str(text)
    return _plain_word(text) if len(text) <= SHORT_TEXT else _plain(text)


SHORT_TEXT = 40
"""Texts up to this long (words, labels) are quoted once and remembered by ``plain``."""


@functools.lru_cache(maxsize=4096)
def _plain_word(text: str) -> str:
    return _plain(text)


def _plain(text: str) -> str:
    pieces = _SPACES.split(shortened(_CONTROL.sub("\ufffd", text)))
    return "".join(_code_span(p) if _linkable(p) else _escape(p) for p in pieces)


def _escape(text: str) -> str:
    return "".join("\\" + ch if ch in _MD_SPECIAL else ch for ch in text)


def error(message) -> None:
    """An error box for a message that may quote what the user typed."""
    st.error(plain(message))


def fixed_decimals(df: pd.DataFrame, decimals: int) -> dict:
    """A column_config that shows every float column with the same number of decimals."""
    return {c: st.column_config.NumberColumn(format=f"%.{decimals}f")
            for c in df.columns if pd.api.types.is_float_dtype(df[c])}
