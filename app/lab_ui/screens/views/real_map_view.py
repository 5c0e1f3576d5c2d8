"""The Projections screen on a real table: thousands of words on one PCA map drawn by pydeck
(offline: no map tiles, an orthographic view of plain points), its honesty score, the table of
every point, and a word search that highlights the word and its nearest words."""
from __future__ import annotations

import math

import altair as alt
import numpy as np
import pandas as pd
import pydeck as pdk
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import altair_chart, data_table, error, lazy_box, plain
from lab_ui.widgets.theme import dark
from lab_ui.lesson.handout import every_table_open, handout
from lab_ui.lesson.links import named
from lab_ui.screens.views.real_models import real_or_none
from core.real_map import RealMap, found_word, real_map
from core.vectors import UnknownLabel

REAL_MAP_SIZES = [5_000, 10_000, 20_000]
MAP_K = 10                 # neighbours compared per word
MAP_PX = 540               # the map's height
PRINTED_ROWS = 200         # a handout prints the first rows of the map's table
POINT = [90, 110, 160, 150]
FOUND = [214, 39, 40, 255]
NEAR_KEPT = [44, 160, 44, 255]
NEAR_LOST = [255, 127, 14, 255]
WEBGL, PLAIN = "Zoomable map (WebGL)", "Plain chart (no WebGL)"
DARK_POINT = [150, 190, 255, 190]   # the dark theme: light blue points, light labels


@st.cache_resource(max_entries=6, show_spinner="Drawing the map (once per server)…")
def _map(name: str, top: int) -> RealMap:
    table = real_or_none(name)
    return real_map(table, top, MAP_K)


def shown(label: str) -> str:
    """A token's label with its spaces made visible."""
    return label.replace(" ", "·")


def real_map_view(name: str, title: str) -> None:
    table = real_or_none(name)
    if table is None:
        return
    c = layout.blocks(layout.PANEL, layout.PANEL, key="proj_real_controls")
    top = c[0].selectbox("Words on the map (the first rows)", REAL_MAP_SIZES, key="proj_real_top", bind="query-params",
                         format_func=lambda n: f"{n:,}")
    label = "Find a word on the map"
    typed = c[1].text_input(label, "", key=named("proj_real_find", label), max_chars=40, bind="query-params",
                            placeholder="e.g. water")
    m = _map(name, top)
    found = None
    if typed.strip():
        found = _find(table, m, name, typed.strip())
    layout.metrics([dict(label="words on the map", value=f"{len(m.labels):,}"),
                    dict(label="spread the map keeps", value=f"{100 * m.explained:.0f}%"),
                    dict(label=f"neighbours kept (of {m.k})", value=f"{100 * m.score:.1f}%")], key="proj_real_metrics")
    draw = st.radio("Draw the map as", [WEBGL, PLAIN], horizontal=True, key="proj_real_draw", bind="query-params",
                    help="The zoomable map needs WebGL in the browser. Where it stays blank (some projectors, "
                         "remote desktops, old browsers), the plain chart draws the same points without it.")
    if draw == WEBGL:
        st.pydeck_chart(_deck(m, found), height=MAP_PX, key="proj_real_map")
    else:
        altair_chart(_plain(m, found), ["row", "word", "x", "y"], key="proj_real_plain")
    st.caption(f"{title}: the first {len(m.labels):,} rows (for GloVe the commonest words) drawn by PCA, "
               f"which keeps {100 * m.explained:.0f}% of the spread. Of each word's {m.k} nearest words by "
               f"cosine, the map keeps {100 * m.score:.1f}% among its {m.k} nearest points (counted on "
               f"{len(m.sample):,} words spread over the list; a random map would keep about "
               f"{100 * m.k / (len(m.labels) - 1):.2f}%). " + ("Scroll to zoom, drag to move, point at a dot to read its word."
                                                 if draw == WEBGL else "Point at a dot to read its word."))
    if found is not None:
        _found_table(m, found)
    frame = pd.DataFrame({"row": np.arange(len(m.labels)), "word": [shown(w) for w in m.labels],
                          "x": m.coords[:, 0], "y": m.coords[:, 1]})
    if every_table_open():
        with st.expander("Show the numbers as a table", expanded=True):
            _numbers(frame)
    else:
        lazy_box("Show the numbers as a table", "proj_real_table_box", _numbers, frame)


def _numbers(frame: pd.DataFrame) -> None:
    if handout() and len(frame) > PRINTED_ROWS:
        st.caption(f"The first {PRINTED_ROWS} of the map's {len(frame):,} points.")
        frame = frame.head(PRINTED_ROWS)
    data_table(frame, hide_index=True, key="proj_real_table")


def _find(table, m: RealMap, name: str, typed: str):
    """The typed word found on the map (a token table's word gets its space), or None after a message."""
    from core.pretrained import WORD_FORM
    tries = [WORD_FORM[name].format(typed), typed, WORD_FORM[name].format(typed.lower()), typed.lower()]
    on = {w: i for i, w in enumerate(m.labels)}
    label = next((t for t in tries if t in on), None)
    if label is None:
        if any(t in table for t in tries):
            error(f"“{plain(typed)}” is in the table but not among the first {len(m.labels):,} rows: draw more words.")
        else:
            try:
                table.first(len(m.labels)).row(tries[0])
            except UnknownLabel as err:
                error(f"The word: {err}")
        return None
    return found_word(table, m, label)


def _found_table(m: RealMap, found) -> None:
    word = shown(m.labels[found.row])
    kept = sum(k for _, _, k in found.near)
    st.markdown(f"**{plain(word)}** (red): its {m.k} nearest words by cosine, green where the map also puts "
                f"them among its {m.k} nearest points, orange where it does not: {kept} of {m.k} kept.")
    data_table(pd.DataFrame({"nearest by cosine": [shown(m.labels[j]) for j, _, _ in found.near],
                             "cosine": [c for _, c, _ in found.near],
                             "on the map": ["near" if k else "far" for _, _, k in found.near]}),
               hide_index=True, key="proj_real_found", column_config={"cosine": st.column_config.NumberColumn(format="%.2f")})


def _points(m: RealMap) -> pd.DataFrame:
    """The map's points for both drawings: the table's PCA coordinates scaled into [-1, 1]
    (one factor for both axes, so distances keep their ratios), y pointing up as in the table."""
    xy = m.coords / max(float(np.abs(m.coords).max()), 1e-12)         # (top, 2) in [-1, 1]
    return pd.DataFrame({"word": [shown(w) for w in m.labels], "x": xy[:, 0], "y": xy[:, 1]})


def _deck(m: RealMap, found) -> pdk.Deck:
    """Points in an orthographic view (no basemap, nothing fetched), the found word and its
    neighbours drawn bigger with their labels. pydeck reads a bare string as a column name, so
    the radius unit is quoted; the view's y points up (flip_y=False), as on the plain chart."""
    points = _points(m)
    on_dark = dark() and not handout()
    layers = [pdk.Layer("ScatterplotLayer", points, get_position=["x", "y"],
                        get_fill_color=DARK_POINT if on_dark else POINT,
                        get_radius=2, radius_units="'pixels'", pickable=True)]
    if found is not None:
        rows = [found.row] + [j for j, _, _ in found.near]
        colours = [FOUND] + [NEAR_KEPT if k else NEAR_LOST for _, _, k in found.near]
        marked = points.iloc[rows].assign(colour=colours)
        layers += [pdk.Layer("ScatterplotLayer", marked, get_position=["x", "y"], get_fill_color="colour",
                             get_radius=6, radius_units="'pixels'", pickable=True),
                   pdk.Layer("TextLayer", marked, get_position=["x", "y"], get_text="word", get_size=14,
                             get_color=[243, 244, 246, 255] if on_dark else [20, 20, 20, 255], get_pixel_offset=[0, -14])]
    view = pdk.ViewState(target=[0, 0, 0], zoom=math.log2(MAP_PX / 2.3))
    return pdk.Deck(layers=layers, views=[pdk.View(type="OrthographicView", controller=True, flip_y=False)],
                    initial_view_state=view, map_style=None, tooltip={"text": "{word}"})


def _plain(m: RealMap, found) -> alt.Chart:
    """The same points as the WebGL map, drawn by Vega-Lite (no WebGL): the found word and its
    neighbours bigger, coloured and labelled."""
    points = _points(m)
    axis = alt.Axis(title=None, labels=False, ticks=False, grid=False)   # PCA's axes have no unit
    dots = alt.Chart(points).mark_circle(size=6, opacity=0.6, color="#5a6ea0").encode(
        x=alt.X("x:Q", axis=axis), y=alt.Y("y:Q", axis=axis), tooltip=["word:N"])
    layers = [dots]
    if found is not None:
        rows = [found.row] + [j for j, _, _ in found.near]
        hexes = ["#%02x%02x%02x" % tuple(c[:3]) for c in
                 [FOUND] + [NEAR_KEPT if k else NEAR_LOST for _, _, k in found.near]]
        marked = points.iloc[rows].assign(colour=hexes)
        layers += [alt.Chart(marked).mark_circle(size=70, opacity=1).encode(
                       x="x:Q", y="y:Q", color=alt.Color("colour:N", scale=None), tooltip=["word:N"]),
                   alt.Chart(marked).mark_text(dy=-10, fontSize=charts.FONT, color=charts.CHART_TEXT).encode(
                       x="x:Q", y="y:Q", text="word:N")]
    return charts.style(alt.layer(*layers).properties(height=MAP_PX))  # type: ignore[arg-type]
