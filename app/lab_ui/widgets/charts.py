"""Chart builders shared by the screens. Data in, chart out: no math here beyond reshaping
for plotting.

The public builders write the chart's Vega-Lite spec (a dict) directly, with its data as
Arrow bytes under ``datasets`` (what Streamlit would send anyway), and keep it in
``st.cache_data``: building and validating the same chart through Altair cost 20-80 ms per
chart, the larger part of a cold rerun of the Train screen. Each dataset has a fixed name
and nothing in the spec but the data depends on the numbers, so when a slider changes only
the numbers, the page keeps its chart and swaps the data in place instead of building the
chart again. Altair stays for the one-off charts of single screens (``style``)."""
from __future__ import annotations

import functools
import json
import textwrap

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st
from lab_ui.server.streamlit_private import arrow_bytes

# Darker colours from Paul Tol's "muted", "bright" and "vibrant" schemes: told apart by people
# with the common colour-vision deficiencies, and dark enough to read as text on white.
# Words beyond 12 reuse colours; their labels tell them apart.
# Each at least 4.5:1 on white (WCAG 2.2, 1.4.3), as words are drawn in them: Tol's orange,
# teal and rose are darkened to their ``readable`` shade.
WORD_COLOURS = ["#332288", "#CC3311", "#117733", "#882255", "#0077BB", "#AA4499",
                "#7A7A1F", "#B75C27", "#008576", "#B45A69", "#555555", "#4477AA"]
# One colour per word group on every chart (Okabe & Ito's colour-blind-safe palette, with its
# yellow darkened so that it reads as text on white); words outside the groups are grey.
GROUP_COLOURS = {"animals": "#0072B2", "vehicles": "#D55E00", "food": "#009E73",
                 "places": "#CC79A7", "verbs": "#8A7A00", "river": "#56B4E9", "money": "#E69F00",
                 "bank": "#000000", "other": "#BBBBBB"}
# Contrast ratios on white that WCAG 2.2 AA asks of what a chart draws: a word (text, 1.4.3) and
# a point, line or tick (a graphical object, 1.4.11). Chart colours are drawn at their
# ``readable`` shade: the same hue, darkened until it reaches the ratio.
TEXT_RATIO = 4.5
MARK_RATIO = 3.0
# Axis, legend and title text in the page's text colour (.streamlit/config.toml): Streamlit's
# chart theme greys them to #808495, 3.7:1 on white.
CHART_TEXT = "#111827"
DIVERGING = "blueorange"   # colour-blind safe, centred on white at 0
FONT = 15
BIG_AXIS_PX = 120          # presenter mode: a scatter plot's axes, title and padding beside its plot
BIG_FONT = 20              # presenter mode: every chart text at least 18 px
LEGEND_PAIR_CHARS = 28     # a bottom legend fits two names of this length side by side at 853 px
MAX_CURVE_POINTS = 600     # a line of 600 points looks the same as 5,001 and draws far faster


def cached_spec(builder):
    """Turn a chart builder into one that returns the cached Vega-Lite spec of its chart.
    The builder gets ``big=True`` in presenter mode (larger text, more points labelled)."""
    @st.cache_data(max_entries=48, show_spinner=False)
    def build(name: str, *args, **kwargs) -> dict:   # every builder shares this cache: the
        spec = builder(*args, **kwargs)              # name keeps their keys apart
        spec["datasets"] = {k: arrow_bytes(df) for k, df in spec["datasets"].items()}
        return spec

    @functools.wraps(builder)
    def spec(*args, **kwargs) -> dict:
        kwargs.setdefault("big", presenting())
        return build(builder.__name__, *args, **kwargs)
    return spec


def with_rows(spec: dict) -> dict:
    """A copy of a spec from these builders with its datasets as plain rows (lists of dicts),
    as Vega-Lite itself reads them (e.g. vl-convert, for chart files); the builders ship them
    as Arrow bytes, which only Streamlit understands."""
    import pyarrow as pa

    rows = {name: pa.ipc.open_stream(data).read_all().to_pylist() if isinstance(data, bytes) else data
            for name, data in spec.get("datasets", {}).items()}
    return {**spec, **({"datasets": rows} if "datasets" in spec else {})}


def on_screen(spec: dict, print_view: bool = False) -> dict:
    """The spec as the page draws it: on a canvas (one bitmap, where SVG makes a page element
    of every cell, point and label: a 12-word heatmap alone is 300 of them, and a warm rerun
    of the Train screen cost the page's main thread about a fifth more CPU time with SVG),
    except in presenter mode and in a handout (``print_view``), which keep SVG: text that
    stays sharp at any projector zoom and in print."""
    renderer = "svg" if print_view or presenting() else "canvas"
    return {**spec, "usermeta": {"embedOptions": {"renderer": renderer}}}


def presenting() -> bool:
    """Presenter mode is on (the switch, or ``present=1`` in the page address)."""
    return bool(st.session_state.get("present_mode", False))


def _linear(v: float) -> float:
    """One sRGB channel (0-1) to linear light, as WCAG's relative luminance defines it."""
    return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4


def contrast(colour: str, background: str = "#ffffff") -> float:
    """WCAG's contrast ratio of two ``#rrggbb`` colours: (L1 + 0.05) / (L2 + 0.05), with
    L = 0.2126 R + 0.7152 G + 0.0722 B over linear channels and L1 the lighter one.

    >>> round(contrast("#767676"), 2)
    4.54
    """
    def lum(c: str) -> float:
        r, g, b = (_linear(int(c[i:i + 2], 16) / 255) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    hi, lo = sorted((lum(colour), lum(background)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable(colour: str, ratio: float = TEXT_RATIO) -> str:
    """``colour`` darkened (its channels scaled down together, so its hue stays) by 1 % steps
    until it has ``ratio``:1 on white; unchanged if it has it already.

    >>> readable("#BBBBBB"), readable("#BBBBBB", MARK_RATIO)
    ('#767676', '#949494')
    """
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    for step in range(101):
        shade = "#" + "".join(f"{round(v * (1 - step / 100)):02X}" for v in rgb)
        if contrast(shade) >= ratio:
            return shade
    return "#000000"


def _group_colours(groups: list[str], ratio: float = MARK_RATIO) -> dict:
    """Each group's colour at ``ratio``:1 on white (points and legend marks 3:1, words 4.5:1)."""
    dom = [g for g in GROUP_COLOURS if g in set(groups)] + sorted(set(groups) - set(GROUP_COLOURS))
    return {"domain": dom, "range": [readable(GROUP_COLOURS.get(g, "#555555"), ratio) for g in dom]}


def group_scale(groups: list[str]) -> alt.Scale:
    """The fixed colour of each word group, whichever groups a chart shows."""
    return alt.Scale(**_group_colours(groups, TEXT_RATIO))


def _word_colours(vocab: list[str]) -> dict:
    """The same word gets the same colour in every chart of a screen."""
    return {"domain": list(vocab), "range": [WORD_COLOURS[i % len(WORD_COLOURS)] for i in range(len(vocab))]}


def _config(big: bool = False, label_font: int | None = None) -> dict:
    """Readable fonts (larger with ``big``, for presenter mode): Vega-Lite's ``config``."""
    font = BIG_FONT if big else FONT
    colours = {"labelColor": CHART_TEXT, "titleColor": CHART_TEXT}
    return {"view": {"continuousWidth": 300, "continuousHeight": 300},
            "axis": {"labelFontSize": label_font or font, "titleFontSize": font, **colours},
            "legend": {"labelFontSize": font, "labelLimit": 0, "symbolSize": 200 if big else 100,
                       "titleFontSize": font, **colours},
            "title": {"fontSize": font + 2, "color": CHART_TEXT}}


def _chart(body: dict, datasets: dict[str, pd.DataFrame], height: int, title, big: bool,
           label_font: int | None = None) -> dict:
    """A Vega-Lite spec that fills its column's width (axes and legends included, so it never
    spills over), ``height`` px high, with its data in named ``datasets``."""
    return {"config": _config(big, label_font), **body,
            "autosize": {"contains": "padding", "type": "fit-x"},
            "height": height, "title": title, "width": "container",
            "$schema": "https://vega.github.io/schema/vega-lite/v6.4.1.json", "datasets": datasets}


def _field(name: str, kind: str, **extra) -> dict:
    return {"field": name, "type": kind, **extra}


def _kind(series: pd.Series) -> str:
    return "quantitative" if pd.api.types.is_numeric_dtype(series) else "nominal"


def style(chart: alt.Chart, fit_width: bool = True, big: bool = False,
          label_font: int | None = None) -> alt.Chart:
    """An Altair chart with the same fonts and width rule as the builders below (for the
    one-off charts of single screens)."""
    font = BIG_FONT if big else FONT
    chart = chart.properties(autosize=alt.AutoSizeParams(
        type="fit-x" if fit_width else "pad", contains="padding"))
    return chart.configure_axis(labelFontSize=label_font or font, titleFontSize=font, labelColor=CHART_TEXT,
                                titleColor=CHART_TEXT).configure_legend(
        labelFontSize=font, titleFontSize=font, symbolSize=200 if big else 100,
        labelLimit=0, labelColor=CHART_TEXT, titleColor=CHART_TEXT).configure_title(fontSize=font + 2, color=CHART_TEXT)


def wrap_title(title: str, width: int, big: bool = False) -> str | list[str]:
    """A title broken into lines that fit ``width`` px (Vega-Lite draws a list as lines)."""
    per_line = max(12, int(width / (0.55 * ((BIG_FONT if big else FONT) + 2))))
    lines = textwrap.wrap(title, per_line)
    return lines if len(lines) > 1 else title


def matrix_frame(S: np.ndarray, labels: list[str], value: str = "cosine") -> pd.DataFrame:
    """Long form of a square matrix: one row per (row word, column word, value)."""
    n = len(labels)
    return pd.DataFrame({
        "row": np.repeat(labels, n), "column": np.tile(labels, n), value: S.reshape(-1),
    })


SMALLEST_NUMBER = 11   # px: a heatmap's numbers below this are unreadable: colour-only cells


def heatmap_axis_font(n: int, big: bool = False) -> int:
    return (BIG_FONT if big else FONT) if n <= 24 else SMALLEST_NUMBER


def heatmap_text(n: int, size: int, big: bool = False) -> tuple[int, bool]:
    """Font size of the numbers in an ``n`` x ``n`` heatmap ``size`` px high, and whether to
    print them at all: a number like -0.35 needs about 3 font sizes of width, so below
    ``SMALLEST_NUMBER`` px (18 px in presenter mode) the cells go colour-only (the numbers are
    in the table)."""
    plot = size - (6 if n <= 24 else 4) * heatmap_axis_font(n, big)   # minus the word labels
    font = min(20, int(plot / max(n, 1) / 3.1))
    return font, font >= (18 if big else SMALLEST_NUMBER)   # presenter mode: numbers of 18 px or none


@cached_spec
def heatmap(S: np.ndarray, labels: list[str], title: str = "", value: str = "cosine",
            domain: tuple[float, float] = (-1.0, 1.0), size: int = 420, big: bool = False,
            mark: str | None = None) -> dict:
    """Square heatmap, diverging colours fixed to ``domain``; rows and columns in ``labels``
    order (the order of the data: the words themselves are not in the spec, so a new run
    over the same number of words only swaps the data). Fills its column's width with a
    height of ``size`` px; the numbers in the cells shrink with the cells, and are left out
    (colour only) when they would run together."""
    n = len(labels)
    axis_font = heatmap_axis_font(n, big)
    position = {"x": _field("column", "nominal", sort=None, title=None,
                            axis={"labelAngle": -45, "labelOverlap": False, "orient": "top"}),
                "y": _field("row", "nominal", sort=None, title=None, axis={"labelOverlap": False})}
    rect = {"mark": {"type": "rect"}, "encoding": {
        **position,
        "color": _field(value, "quantitative", scale={"domain": list(domain), "scheme": DIVERGING},
                        legend={"gradientLength": min(size, 300), "orient": "bottom", "title": value}),
        "tooltip": [_field("row", "nominal"), _field("column", "nominal"),
                    _field(value, "quantitative", format=".3f")]}}
    layers = [rect]
    font, numbers = heatmap_text(n, size, big)
    if numbers:
        layers.append({"mark": {"type": "text", "fontSize": font}, "encoding": {
            **position,
            "text": _field(value, "quantitative", format=".2f"),
            "color": {"condition": {"test": f"abs(datum['{value}']) > 0.6", "value": "white"},
                      "value": "black"}}})
    if mark is not None:                   # a found word: its row and column framed in black
        word = json.dumps(mark)
        layers.append({"transform": [{"filter": f"datum.row === {word} || datum.column === {word}"}],
                       "mark": {"type": "rect", "fill": None, "stroke": "#000000", "strokeWidth": 2},
                       "encoding": position})
    body = {"layer": layers} if len(layers) > 1 else rect
    return _chart({**body, "data": {"name": "matrix"}},
                  {"matrix": with_title(matrix_frame(S, labels, value), wrap_title(title, size, big))},
                  size, data_title("matrix") if title else "", big, label_font=axis_font)


@cached_spec
def loss_curve(losses: dict[str, np.ndarray], refs: dict[str, float], title: str = "",
               height: int = 300, big: bool = False) -> dict:
    """Loss against step for one or more runs, with dashed horizontal reference lines.
    Fills its column's width (show it with ``stretch=True``)."""
    frames = []
    for name, curve in losses.items():
        n = len(curve)
        keep = np.unique(np.r_[np.arange(0, n, -(-n // MAX_CURVE_POINTS)), n - 1])
        frames.append(pd.DataFrame({"step": keep, "loss": np.asarray(curve)[keep], "line": name}))
    df = pd.concat(frames, ignore_index=True)   # at most MAX_CURVE_POINTS + 1 points per line
    names = list(losses) + list(refs)
    colours = (WORD_COLOURS * 2)[: len(losses)] + ["#666666", "#000000"][: len(refs)]
    # two names a row when short; long ones (a run's settings) one a row, so none is cut at 853 px
    columns = 2 if max(len(n) for n in names) <= LEGEND_PAIR_CHARS else 1
    colour = _field("line", "nominal", legend={"columns": columns, "labelLimit": 0, "orient": "bottom"},
                    scale={"domain": names, "range": colours}, title=None)
    few = max(len(curve) for curve in losses.values()) <= 2   # e.g. 0 steps: a lone point, no line
    lines = {"data": {"name": "curves"},
             "mark": {"type": "line", "point": {"size": 120} if few else False, "strokeWidth": 3},
             "encoding": {
                 "color": colour,
                 "tooltip": [_field("line", "nominal"), _field("step", "quantitative"),
                             _field("loss", "quantitative", format=".4f")],
                 "x": _field("step", "quantitative", axis={"format": ",d", "tickMinStep": 1},
                             title="update step"),
                 "y": _field("loss", "quantitative", scale={"zero": False}, title="mean cross-entropy")}}
    rules = {"data": {"name": "references"},
             "mark": {"type": "rule", "strokeDash": [7, 4], "strokeWidth": 2},
             "encoding": {"color": colour,
                          "tooltip": [_field("line", "nominal"), _field("loss", "quantitative", format=".4f")],
                          "y": _field("loss", "quantitative")}}
    ref_df = pd.DataFrame({"line": list(refs), "loss": list(refs.values())})
    return _chart({"layer": [lines, rules]}, {"curves": df, "references": ref_df}, height, title, big)


@cached_spec
def scatter(coords: np.ndarray, words: list[str], vocab: list[str], title: str = "",
            xtitle: str = "direction 1", ytitle: str = "direction 2",
            domain: tuple[float, float] | None = None, size: int = 420,
            colour: list[str] | None = None, labels: bool = True,
            priority: list[int] | None = None, big: bool = False,
            ring: tuple[int, ...] = (), far: tuple[bool, ...] = ()) -> dict:
    """2-D points with word labels, filling its column's width, ``size`` px high; in presenter
    mode (``big``) a plot of ``size - BIG_AXIS_PX`` x ``size`` px, the size its labels are placed
    for, so that none passes the plot's edge (its axes make it about ``size`` wide).

    Colour is fixed per word by ``vocab``, or, with ``colour`` (one group name per word),
    per group (the same colour for a group on every chart, see ``GROUP_COLOURS``) with a legend.
    Labels are placed beside their points so that they do not cover each other
    (``label_layout.place``), in ``priority`` order (e.g. most frequent first); a label with
    no free place is left out (the word is in the table and the tooltip). With
    ``labels=False`` no label is drawn, except in presenter mode (``big``), which labels every point.
    ``ring``: a found word's index, then its neighbours' indices, ringed and labelled; ``far``:
    for each neighbour, True if the picture places it far away (a dashed orange ring).
    """
    from lab_ui.widgets.label_layout import padded_domain, place

    df = pd.DataFrame({"x": coords[:, 0], "y": coords[:, 1], "word": words})
    if big:
        # presenter mode: explicit domains (no "nice" rounding, no padding), so that the label
        # placement's pixels are Vega's. The spec then changes with the run (the page builds the
        # chart again); elsewhere the spec stays the same and a new run only swaps its data.
        lo, hi = padded_domain(coords) if domain is None else ((domain[0],) * 2, (domain[1],) * 2)
        xscale, yscale = ({"domain": [float(lo[k]), float(hi[k])], "nice": False, "zero": False} for k in (0, 1))
    else:
        xscale = yscale = {"domain": list(domain)} if domain else {"zero": False, "nice": True, "padding": 24}
    if colour is None:
        col = text_col = _field("word", "nominal", scale=_word_colours(vocab), legend=None)
    else:
        df["group"] = colour
        col = _field("group", "nominal", scale=_group_colours(list(colour)),
                     legend={"orient": "bottom", "columns": 3 if big or size < 400 else 4,   # 4 cut at 320 px
                             "title": None})   # the colours name the groups: no "group" line above them
        # the words in their group's darker shade (text needs 4.5:1, a point 3:1)
        text_col = _field("group", "nominal", scale=_group_colours(list(colour), TEXT_RATIO), legend=None)
    x, y = _field("x", "quantitative", scale=xscale, title=xtitle), _field("y", "quantitative", scale=yscale, title=ytitle)
    tooltip = ([_field("word", "nominal")] + ([_field("group", "nominal")] if colour else [])
               + [_field("x", "quantitative", format=".3f"), _field("y", "quantitative", format=".3f")])
    font = BIG_FONT if big else FONT
    # presenter mode: a plot of a known width (the column's size less the axes), for the labels
    plot_w = size - BIG_AXIS_PX if big else size
    df = with_title(df, wrap_title(title, plot_w, big))    # the title travels with the data (below)
    layers = [{"data": {"name": "points"},
               "mark": {"type": "circle", "opacity": 1, "size": 140 if labels or big else 90},   # 3:1 as drawn
               "encoding": {"color": col, "tooltip": tooltip, "x": x, "y": y}}]
    datasets = {"points": df}
    if labels or big:
        spots = place(coords, words, width=plot_w, height=size, font=font, priority=priority,
                      domain=domain)   # a label with no free place is left out: none covers another
        lab = pd.DataFrame({"x": [coords[i, 0] for i in spots], "y": [coords[i, 1] for i in spots],
                            "word": [words[i] for i in spots],
                            "dx": [float(dx) for dx, _, _ in spots.values()],
                            "dy": [float(dy) for _, dy, _ in spots.values()],
                            "align": [al for _, _, al in spots.values()],
                            **({"group": [colour[i] for i in spots]} if colour is not None else {})})
        datasets["labels"] = lab
        layers.append({"data": {"name": "labels"},   # each label's offset and side from its row
                       "mark": {"type": "text", "align": {"expr": "datum.align"}, "dx": {"expr": "datum.dx"},
                                "dy": {"expr": "datum.dy"}, "fontSize": font, "fontWeight": "bold"},
                       "encoding": {"color": text_col, "text": _field("word", "nominal"),
                                    "x": _field("x", "quantitative"), "y": _field("y", "quantitative")}})
    if ring:
        datasets["found"], found_layers = _rings(coords, words, ring, far, font)
        layers += found_layers
    body = {"layer": layers, **({"resolve": {"scale": {"color": "independent"}}} if colour is not None else {})}
    spec = _chart(body, datasets, size, data_title("points") if title else "", big)
    if big:     # presenter mode: the plot is plot_w x size px, as the labels were placed for it
        spec.update(width=plot_w, autosize={"type": "pad"})   # (the axes come on top of it)
    return spec


# A title that changes with the run (say "keeps 84%" instead of "keeps 88%", or "width 32") is
# read from the chart's data (a "title" column, set on the first row, lines split at "\n"), so
# that a new run changes the chart's data only: its spec stays the same and the page swaps the
# data in place instead of building the chart again.
def data_title(dataset: str) -> dict:
    """The title spec that reads the title from the first row of ``dataset``."""
    return {"text": {"expr": f"split((data('{dataset}')[0] || {{title: ''}}).title || '', '\\n')"}}


def with_title(df: pd.DataFrame, title: str | list[str]) -> pd.DataFrame:
    """``df`` with the title in a "title" column: on its first row, empty on the others."""
    text = "\n".join(title) if isinstance(title, list) else title
    return df.assign(title=[text] + [None] * (len(df) - 1)) if len(df) else df.assign(title=[])


def chart_title(spec: dict, datasets: dict[str, pd.DataFrame] | None = None) -> str:
    """A chart's title as shown, in one line: the spec's own, or the one it reads from its data
    (``data_title``)."""
    t = spec.get("title", "")
    expr = t.get("text", {}).get("expr", "") if isinstance(t, dict) and isinstance(t.get("text"), dict) else ""
    if expr:
        name = expr.split("data('", 1)[1].split("'", 1)[0]
        df = (datasets or {}).get(name)
        return "" if df is None or not len(df) else str(df["title"].iloc[0]).replace("\n", " ")
    t = t.get("text", "") if isinstance(t, dict) else t
    return " ".join(t) if isinstance(t, list) else str(t)


FAR_ROLE = "neighbour, far in this picture"


def _rings(coords: np.ndarray, words: list[str], ring: tuple[int, ...], far: tuple[bool, ...],
           font: int) -> tuple[pd.DataFrame, list[dict]]:
    """The found word and its neighbours: a black ring and label each, a dashed orange ring for
    a neighbour this picture places far away. Fixed colours, so the chart's own colour scale
    (words or groups) and legend are left as they are."""
    roles = ["the word"] + [FAR_ROLE if f else "neighbour, near here too" for f in far]
    df = pd.DataFrame({"x": coords[list(ring), 0], "y": coords[list(ring), 1],
                       "word": [words[i] for i in ring], "role": roles[: len(ring)]})
    is_far = f"datum.role === '{FAR_ROLE}'"
    colour = {"condition": {"test": is_far, "value": "#D55E00"}, "value": "#000000"}
    xy = {"x": _field("x", "quantitative"), "y": _field("y", "quantitative")}
    rings = {"data": {"name": "found"}, "mark": {"type": "point", "shape": "circle", "filled": False,
                                                 "size": 700, "strokeWidth": 3},
             "encoding": {**xy, "color": colour, "tooltip": [_field("word", "nominal"), _field("role", "nominal")],
                          "strokeDash": {"condition": {"test": is_far, "value": [5, 3]}, "value": [1, 0]}}}
    names = {"data": {"name": "found"}, "mark": {"type": "text", "dy": -20, "fontSize": font, "fontWeight": "bold"},
             "encoding": {**xy, "color": colour, "text": _field("word", "nominal")}}
    return df, [rings, names]


@cached_spec
def bars(df: pd.DataFrame, x: str, y: str, title: str = "", color: str | None = None,
         x_title: str | None = None, y_title: str | None = None, sort=None,
         fmt: str = ",.0f", height: int = 300, horizontal: bool = False,
         domain: tuple[float, float] | None = None, big: bool = False) -> dict:
    """A plain bar chart with tooltips; ``x`` is the category, ``y`` the value. Fills its
    column's width (show with ``stretch=True``). ``horizontal`` puts categories down the
    side, so long names stay readable; ``domain`` fixes the value axis (e.g. 0 to 100 %),
    so a long bar is not mistaken for a full one."""
    cat = _field(x, "nominal", sort=sort, title=x_title or x,
                 axis={"labelAngle": 0 if horizontal else -30, "labelLimit": 200, "labelOverlap": False})
    val = _field(y, "quantitative", scale={"domain": list(domain)} if domain else {}, title=y_title or y)
    enc: dict[str, dict | list] = dict(x=val, y=cat) if horizontal else dict(x=cat, y=val)
    enc["tooltip"] = [_field(x, _kind(df[x])), _field(y, "quantitative", format=fmt)]
    if color:
        enc["color"] = _field(color, "nominal", legend={"orient": "bottom"},
                              scale={"range": WORD_COLOURS}, title=color)
    return _chart({"data": {"name": "bars"}, "mark": {"type": "bar"}, "encoding": enc},
                  {"bars": df}, height, title, big)


@cached_spec
def strip(df: pd.DataFrame, value: str, group: str, title: str = "",
          domain: tuple[float, float] | None = None, order: list[str] | None = None,
          big: bool = False) -> dict:
    """Each value as a tick on its group's line: good for comparing two spreads. Groups in
    ``order`` (if given), 28 px a line from two lines up. Fills its column's width (show with
    ``stretch=True``)."""
    n_groups = df[group].nunique()
    enc = {"color": _field(group, "nominal", legend=None, scale={"range": WORD_COLOURS}),
           "tooltip": [_field(group, _kind(df[group])), _field(value, "quantitative", format=".3f")],
           "x": _field(value, "quantitative", scale={"domain": list(domain)} if domain else {}, title=value),
           "y": _field(group, "nominal", sort=order, title=None)}
    # opaque ticks, 3 px thick, in colours of 3:1 or more (WCAG 1.4.11): no pastel half-tones
    mark = {"type": "tick", "opacity": 1, "size": min(26, 200 // max(n_groups, 1)), "thickness": 3}
    return _chart({"data": {"name": "ticks"}, "mark": mark, "encoding": enc}, {"ticks": df},
                  max(200, 28 * n_groups), title, big)


_KINDS = [("tick", "Strip chart"), ("line", "Line chart"), ("bar", "Bar chart"), ("circle", "Scatter map"),
          ("point", "Scatter map"), ("rect", "Heatmap")]   # the first mark type found names the chart


def _marks(node) -> set[str]:
    """Every mark type in a Vega-Lite spec (layers included)."""
    if isinstance(node, list):
        return set().union(*map(_marks, node)) if node else set()
    if not isinstance(node, dict):
        return set()
    mark = node.get("mark")
    own = {mark if isinstance(mark, str) else mark.get("type", "")} if mark else set()
    return own.union(*(_marks(v) for k, v in node.items() if k in ("layer", "concat", "hconcat", "vconcat", "spec")))


def summary(spec: dict, columns: list[str]) -> str:
    """A chart's one-line text alternative (its ARIA label, which Vega puts on the chart's
    element): what kind of chart, its title, and where its numbers are. The words depend on
    the spec and the table's columns only, not on the numbers, so a new run that swaps a
    chart's data leaves the label (and the chart) as it is.

    >>> summary({"mark": "bar", "title": "Tokens per text"}, ["text", "tokens"])
    'Bar chart: Tokens per text. Its numbers (text, tokens) are in the table below the chart.'
    """
    marks = _marks(spec)
    kind = next((name for mark, name in _KINDS if mark in marks), "Chart")
    title = chart_title(spec)
    names = f" ({', '.join(map(str, columns))})" if columns else ""
    return f"{kind}{': ' + title if title else ''}. Its numbers{names} are in the table below the chart."
