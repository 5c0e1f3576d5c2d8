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

# Block widths in CSS px. The main area is 791 px wide at 1280 px with the sidebar open (1,431
# at 1920): a chart block plus a side panel (460 + 280 + gap) and two halves (2 x 370 + gap)
# fit side by side there; narrower main areas stack them.
CHART = 460
PANEL = 280
HALF = 370
GRID = 320           # a picture of a grid: two a row at 1280 with the sidebar open, four at 1920
BIG_CHART = 800      # presenter mode: a 12-word heatmap with 18 px numbers
PRESENTER_GROWTH = 1.25   # presenter mode: blocks grow with their text (tables are zoomed 1.25)
STEP_PX = 9          # a slider's track per step: steps at least 8 px apart
SLIDER_PAD = 40      # a slider's track is this much narrower than its block
MIN_CONTROL = 150    # the narrowest control block: its label on one line
BAR = "bar_"         # key prefix of a screen's controls bar (sticky, ``LAYOUT_CSS``)

# The page style of every screen (a fixed string, no data in it): less empty space above the
# title, and a screen's controls bar stays under the page's header while its results scroll
# by, so a student who moved a slider still sees it beside what it changed. Whatever has the
# keyboard's focus has a 3 px ring in the primary colour (WCAG 2.4.7: Streamlit's sidebar links,
# text boxes and tables show none of their own). On a phone (640 px or narrower) Streamlit's
# small targets grow to 24 x 24 px (WCAG 2.5.8): the "?" help icons (17 x 17), a multiselect's
# remove buttons (16 x 7), toggle and checkbox rows (22 px high), the tabs' scroll buttons
# (21 px wide). Code blocks are drawn in the text colour: Streamlit's syntax colours are 2.6 to
# 3.7:1 on its code background (WCAG 1.4.3 asks 4.5:1). A screen's sections are h2 under its h1 title
# (headings in order, as screen readers list them), drawn at the size of Streamlit's h3. A slider's
# lowest and highest values, shown while the pointer or the keyboard is on it, appear at once in a
# grey of 7.8:1 on white: Streamlit fades them in over 300 ms from nothing, and on the way their grey
# is below 4.5:1 (WCAG 1.4.3).
LAYOUT_CSS = """<style>
[data-testid="stMainBlockContainer"] { padding-top: 4.5rem; }
[data-testid="stMainBlockContainer"] h1 { font-size: 2.2rem; padding-top: 0; }
[data-testid="stMainBlockContainer"] h2 { font-size: 1.75rem; line-height: 1.2; padding: 0.75rem 0 1rem; }
[data-testid="stLayoutWrapper"]:has(> [class*="st-key-bar_"]) {
  position: sticky; top: 3.75rem; z-index: 20; background: rgb(255, 255, 255);
  padding-bottom: 0.25rem; box-shadow: 0 6px 6px -6px rgba(0, 0, 0, 0.25); }
:focus-visible { outline: 3px solid #0b5cad !important; outline-offset: 1px; }
[data-testid="stCode"] code span { color: inherit !important; }
[data-testid="stSliderTickBar"] { color: #4f525b !important; transition: none !important; }
@media (max-width: 640px) {
  [data-testid="stTooltipHoverTarget"] > button { min-width: 24px; min-height: 24px;
    display: inline-flex; align-items: center; justify-content: center; }
  [data-testid="stMultiSelectTagsContainer"] button, [data-testid="stMultiSelect"] button {
    min-width: 24px; min-height: 24px; display: inline-flex; align-items: center; justify-content: center; }
  [data-testid="stMultiSelectTagsContainer"] input { min-width: 24px; }
  [data-testid="stCheckbox"] label { min-height: 24px; }
  [data-testid="stTabsScrollLeft"], [data-testid="stTabsScrollRight"] { min-width: 24px; }
}
</style>"""


def page_style() -> None:
    """The layout's style sheet, once at the top of every screen."""
    st.html(LAYOUT_CSS)


def slider_px(n_steps: int) -> int:
    """Width of a slider's block for ``n_steps`` steps: at least ``STEP_PX`` px a step."""
    return max(MIN_CONTROL, STEP_PX * n_steps + SLIDER_PAD)


def controls_bar(name: str, gap: Gap = "small"):
    """A screen's primary controls, in a row that wraps (each control in a block of its own
    width) and stays in view under the page's header while the result below it scrolls."""
    return st.container(horizontal=True, gap=gap, key=BAR + name, vertical_alignment="bottom")


def control(where, px: int):
    """A block of ``px`` width in a controls bar, for one control."""
    return where.container(width=px)


def chart_px() -> int:
    """Width and height of a main chart block: larger in presenter mode."""
    return BIG_CHART if st.session_state.get("present_mode") else CHART


def block_px(normal: int, presenter: int) -> int:
    """A block's width that differs in presenter mode (where ``blocks`` grows it by
    PRESENTER_GROWTH): for a table whose columns need more than the grown block at 18 px."""
    return presenter if st.session_state.get("present_mode") else normal


def metrics(items: list[dict], key: str | None = None) -> None:
    """A row of ``st.metric`` (each item: its keyword arguments) that wraps instead of
    truncating: every metric is as wide as its own label and value."""
    with st.container(horizontal=True, gap="medium", key=key):
        for item in items:
            st.metric(**item, width="content")


def blocks(*widths: int, key: str | None = None, gap: Gap = "medium"):
    """Containers of the given widths in one row that wraps: side by side when the main
    area is wide enough for all of them, stacked otherwise. A width larger than the main
    area shrinks to it. With a ``key``, block ``i`` has the key ``<key>_<i>``."""
    from lab_ui.lesson.handout import handout
    if handout():                                  # a handout: one column, the page's width
        row = st.container(gap=gap, key=key)
        return [row.container() for _ in widths]
    grow = PRESENTER_GROWTH if st.session_state.get("present_mode") else 1.0   # larger text, wider blocks
    row = st.container(horizontal=True, gap=gap, key=key)
    return [row.container(width=round(grow * w), key=f"{key}_{i}" if key else None) for i, w in enumerate(widths)]


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
