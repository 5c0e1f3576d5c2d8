"""Handout mode and chart files: what a teacher takes out of the app onto paper or slides.

* ``handout=1`` in the page address: the screen prints as one column with no navigation and
  every chart's table open (figures and their numbers together). A link in the sidebar opens
  the current screen that way.
* Outside a handout a chart's table is built only when its box is opened
  (``lab_ui.widgets.common.chart_with_table``); the sidebar's switch (``tables=true``) opens them all.
* Every chart (``lab_ui.widgets.common.chart_with_table``) offers PNG and SVG files, drawn offline by
  vl-convert when the button is pressed (in a worker process: ``lab_ui.server.chart_files``), with the
  screen's address (and so its settings, for the screens that keep them in the address) printed
  underneath.
"""
from __future__ import annotations

from urllib.parse import urlencode

import streamlit as st

HANDOUT_KEY = "handout"
TABLES_KEY = "tables"        # the switch (and page-address parameter) that opens every chart's table
EXPORT_WIDTH = 640           # px: a chart's width in the files (the screen's width is unknown there)


def handout() -> bool:
    return st.query_params.get(HANDOUT_KEY) == "1"


def every_table_open() -> bool:
    """Every chart's table is shown open: in a handout, or with the sidebar's switch on."""
    return handout() or bool(st.session_state.get(TABLES_KEY))


def tables_switch(where) -> None:
    """The sidebar's switch that opens every chart's table at once (kept in the page address,
    ``tables=true``), for a student checking every number of a screen."""
    where.toggle("Open every chart's table", key=TABLES_KEY, bind="query-params",
                 help="Each chart has its numbers in a box under it, built when you open the box. "
                      "This opens all of them on every screen (the page then redraws more slowly).")


def address(**extra: str) -> str:
    """The page's address with its settings (query parameters), plus ``extra`` ones."""
    params = {k: v for k, v in st.query_params.to_dict().items() if k != HANDOUT_KEY}
    params.update(extra)
    base = st.context.url or ""           # None in AppTest and bare runs: no browser address
    return base + ("?" + urlencode(params) if params else "")


def handout_link(where) -> None:
    where.link_button("Printable handout of this screen", address(**{HANDOUT_KEY: "1"}),
                      icon=":material/print:",
                      help="One column, no navigation, every chart with its numbers: print it or save "
                           "it as PDF from the browser.")


def _fixed_width(node):
    """The spec with every ``width: "container"`` set to the export width."""
    if isinstance(node, dict):
        return {k: (EXPORT_WIDTH if k == "width" and v == "container" else _fixed_width(v))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_fixed_width(v) for v in node]
    return node


def with_footer(spec: dict, footer: str) -> dict:
    """A Vega-Lite spec with ``footer`` printed under the chart (the original as the only
    panel of a vertical stack, whose own title sits at the bottom)."""
    from lab_ui.widgets.charts import with_rows
    spec = _fixed_width(with_rows(spec))        # Arrow datasets as rows: vl-convert reads JSON
    outer = {k: spec.pop(k) for k in ("$schema", "datasets", "config") if k in spec}
    outer.update({"vconcat": [spec],
                  "title": {"text": footer, "orient": "bottom", "anchor": "start", "fontSize": 10,
                            "fontWeight": "normal", "color": "#555555", "limit": EXPORT_WIDTH}})
    return outer


def chart_files(chart, key: str) -> None:
    """PNG and SVG buttons for one chart; the files are drawn only when a button is pressed."""
    footer = f"Embedding Lab · {address() or 'embedding lab'}"

    with st.container(horizontal=True, gap="small", key=f"{key}_files"):
        st.download_button("PNG", file_maker(chart, footer, "png"), file_name=f"{key}.png", mime="image/png",
                           key=f"{key}_png", icon=":material/image:", on_click="ignore")
        st.download_button("SVG", file_maker(chart, footer, "svg"), file_name=f"{key}.svg",
                           mime="image/svg+xml", key=f"{key}_svg", icon=":material/draw:", on_click="ignore")


def file_maker(chart, footer: str, kind: str):
    """What a file button calls when it is pressed: the chart with its footer, drawn as
    ``kind`` ("png" or "svg") by ``lab_ui.server.chart_files`` (cleaned of the characters that make
    vl-convert abort, in a worker process). A failure raises, and the button says the file
    could not be made; the server carries on."""
    from lab_ui.server.chart_files import draw_file

    def make() -> bytes | str:
        return draw_file(with_footer(chart if isinstance(chart, dict) else chart.to_dict(), footer), kind)
    return make
