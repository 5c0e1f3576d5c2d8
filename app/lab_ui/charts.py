"""Altair chart builders shared by the screens. Data in, chart out: no math here
beyond reshaping for plotting.

The public builders return the chart's Vega-Lite spec (a dict), built once per distinct
input and kept in ``st.cache_data``: building and validating an Altair chart costs 20-80 ms,
which a warm rerun after a slider move should not pay again."""
from __future__ import annotations

import functools
import textwrap

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

# Darker colours from Paul Tol's "muted", "bright" and "vibrant" schemes: told apart by people
# with the common colour-vision deficiencies, and dark enough to read as text on white.
# Words beyond 12 reuse colours; their labels tell them apart.
WORD_COLOURS = ["#332288", "#CC3311", "#117733", "#882255", "#0077BB", "#AA4499",
                "#7A7A1F", "#EE7733", "#009988", "#CC6677", "#555555", "#4477AA"]
# One colour per word group on every chart (Okabe & Ito's colour-blind-safe palette, with its
# yellow darkened so that it reads as text on white); words outside the groups are grey.
GROUP_COLOURS = {"animals": "#0072B2", "vehicles": "#D55E00", "food": "#009E73",
                 "places": "#CC79A7", "verbs": "#8A7A00", "river": "#56B4E9", "money": "#E69F00",
                 "bank": "#000000", "other": "#BBBBBB"}
DIVERGING = "blueorange"   # colour-blind safe, centred on white at 0
FONT = 15
BIG_FONT = 20              # presenter mode: every chart text at least 18 px
MAX_CURVE_POINTS = 600     # a line of 600 points looks the same as 5,001 and draws far faster


def cached_spec(builder):
    """Turn a chart builder into one that returns the cached Vega-Lite spec of its chart.
    The builder gets ``big=True`` in presenter mode (larger text, every point labelled)."""
    @st.cache_data(max_entries=48, show_spinner=False)    # a 64-word heatmap spec is ~0.5 MB
    def build(name: str, *args, **kwargs) -> dict:   # every builder shares this cache: the
        return builder(*args, **kwargs).to_dict(validate=False)  # name keeps their keys apart

    @functools.wraps(builder)
    def spec(*args, **kwargs) -> dict:
        kwargs.setdefault("big", presenting())
        return build(builder.__name__, *args, **kwargs)
    return spec


def presenting() -> bool:
    """Presenter mode is on (the switch, or ``present=1`` in the page address)."""
    return bool(st.session_state.get("present_mode", False))


def group_scale(groups: list[str]) -> alt.Scale:
    """The fixed colour of each word group, whichever groups a chart shows."""
    dom = [g for g in GROUP_COLOURS if g in set(groups)] + sorted(set(groups) - set(GROUP_COLOURS))
    return alt.Scale(domain=dom, range=[GROUP_COLOURS.get(g, "#555555") for g in dom])


def word_colour_scale(vocab: list[str]) -> alt.Scale:
    """The same word gets the same colour in every chart of a screen."""
    colours = [WORD_COLOURS[i % len(WORD_COLOURS)] for i in range(len(vocab))]
    return alt.Scale(domain=list(vocab), range=colours)


def style(chart: alt.Chart, fit_width: bool = True, big: bool = False,
          label_font: int | None = None) -> alt.Chart:
    """Readable fonts (larger with ``big``, for presenter mode); the chart fills its
    column's width (``fit_width``), axes and legends included, so it never spills over."""
    font = BIG_FONT if big else FONT
    chart = chart.properties(autosize=alt.AutoSizeParams(
        type="fit-x" if fit_width else "pad", contains="padding"))
    return chart.configure_axis(labelFontSize=label_font or font, titleFontSize=font).configure_legend(
        labelFontSize=font, titleFontSize=font, symbolSize=200 if big else 100,
        labelLimit=0).configure_title(fontSize=font + 2)


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


def heatmap_axis_font(n: int, big: bool = False) -> int:
    return (BIG_FONT if big else FONT) if n <= 24 else 10


def heatmap_text(n: int, size: int, big: bool = False) -> tuple[int, bool]:
    """Font size of the numbers in an ``n`` x ``n`` heatmap ``size`` px high, and whether to
    print them at all: a number like -0.35 needs about 3 font sizes of width, so below 9 px
    (18 px in presenter mode) the cells go colour-only (the numbers are in the table)."""
    plot = size - (6 if n <= 24 else 4) * heatmap_axis_font(n, big)   # minus the word labels
    font = min(20, int(plot / max(n, 1) / 3.1))
    return font, font >= (18 if big else 9)     # presenter mode: numbers of 18 px or none


@cached_spec
def heatmap(S: np.ndarray, labels: list[str], title: str = "", value: str = "cosine",
            domain: tuple[float, float] = (-1.0, 1.0), size: int = 420, big: bool = False) -> alt.Chart:
    """Square heatmap, diverging colours fixed to ``domain``; rows and columns in ``labels``
    order. Fills its column's width with a height of ``size`` px; the numbers in the cells
    shrink with the cells, and are left out (colour only) when they would run together."""
    df = matrix_frame(S, labels, value)
    df["label"] = df[value].map(lambda v: f"{v:.2f}")
    n = len(labels)
    axis_font = heatmap_axis_font(n, big)
    enc_x = alt.X("column:N", sort=list(labels), title=None,
                  axis=alt.Axis(labelAngle=-45, labelOverlap=False, orient="top"))
    enc_y = alt.Y("row:N", sort=list(labels), title=None, axis=alt.Axis(labelOverlap=False))
    base = alt.Chart(df).encode(x=enc_x, y=enc_y)
    rect = base.mark_rect().encode(
        color=alt.Color(f"{value}:Q", scale=alt.Scale(scheme=DIVERGING, domain=list(domain)),
                        legend=alt.Legend(title=value, orient="bottom", gradientLength=min(size, 300))),
        tooltip=["row", "column", alt.Tooltip(f"{value}:Q", format=".3f")],
    )
    layers = rect
    font, numbers = heatmap_text(n, size, big)
    if numbers:
        text = base.mark_text(fontSize=font).encode(
            text="label:N",
            color=alt.condition(f"abs(datum['{value}']) > 0.6", alt.value("white"), alt.value("black")),
        )
        layers = rect + text
    chart = layers.properties(width="container", height=size, title=wrap_title(title, size, big))
    return style(chart, big=big, label_font=axis_font)


@cached_spec
def loss_curve(losses: dict[str, np.ndarray], refs: dict[str, float], title: str = "",
               height: int = 300, big: bool = False) -> alt.Chart:
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
    colour = alt.Color("line:N", title=None, scale=alt.Scale(domain=names, range=colours),
                       legend=alt.Legend(orient="bottom", columns=2, labelLimit=400))
    few = max(len(curve) for curve in losses.values()) <= 2   # e.g. 0 steps: a lone point, no line
    lines = alt.Chart(df).mark_line(strokeWidth=3, point=alt.OverlayMarkDef(size=120) if few else False).encode(
        x=alt.X("step:Q", title="update step", axis=alt.Axis(format=",d", tickMinStep=1)),
        y=alt.Y("loss:Q", title="mean cross-entropy", scale=alt.Scale(zero=False)),
        color=colour,
        tooltip=["line", "step", alt.Tooltip("loss:Q", format=".4f")],
    )
    ref_df = pd.DataFrame({"line": list(refs), "loss": list(refs.values())})
    rules = alt.Chart(ref_df).mark_rule(strokeDash=[7, 4], strokeWidth=2).encode(
        y="loss:Q", color=colour, tooltip=["line", alt.Tooltip("loss:Q", format=".4f")])
    return style((lines + rules).properties(width="container", height=height, title=title), big=big)


@cached_spec
def scatter(coords: np.ndarray, words: list[str], vocab: list[str], title: str = "",
            xtitle: str = "direction 1", ytitle: str = "direction 2",
            domain: tuple[float, float] | None = None, size: int = 420,
            colour: list[str] | None = None, labels: bool = True,
            priority: list[int] | None = None, big: bool = False) -> alt.Chart:
    """2-D points with word labels, filling its column's width, ``size`` px high.

    Colour is fixed per word by ``vocab``, or, with ``colour`` (one group name per word),
    per group (the same colour for a group on every chart, see ``GROUP_COLOURS``) with a legend.
    Labels are placed beside their points so that they do not cover each other
    (``label_layout.place``), in ``priority`` order (e.g. most frequent first); a label with
    no free place is left out (the word is in the table and the tooltip). With
    ``labels=False`` no label is drawn, except in presenter mode (``big``), which labels every point.
    """
    from lab_ui.label_layout import place

    df = pd.DataFrame({"x": coords[:, 0], "y": coords[:, 1], "word": words})
    scale = alt.Scale(domain=list(domain)) if domain else alt.Scale(zero=False, nice=True, padding=24)
    if colour is None:
        col = alt.Color("word:N", scale=word_colour_scale(vocab), legend=None)
    else:
        df["group"] = colour
        col = alt.Color("group:N", scale=group_scale(list(colour)),
                        legend=alt.Legend(orient="bottom", columns=3 if big else 4))
    base = alt.Chart(df).encode(
        x=alt.X("x:Q", title=xtitle, scale=scale),
        y=alt.Y("y:Q", title=ytitle, scale=scale),
        color=col,
        tooltip=["word"] + (["group"] if colour else [])
        + [alt.Tooltip("x:Q", format=".3f"), alt.Tooltip("y:Q", format=".3f")],
    )
    font = BIG_FONT if big else FONT
    layers = base.mark_circle(size=140 if labels or big else 90, opacity=0.9)
    if labels or big:
        spots = place(coords, words, width=size, height=size, font=font, priority=priority,
                      label_all=big, domain=domain)
        lab = pd.DataFrame([{"x": coords[i, 0], "y": coords[i, 1], "word": words[i],
                             "dx": dx, "dy": dy, "align": al,
                             **({"group": colour[i]} if colour is not None else {})}
                            for i, (dx, dy, al) in spots.items()])
        if len(lab):
            for al in ("left", "right", "center"):
                part = lab[lab["align"] == al]
                for (dx, dy), grp in part.groupby(["dx", "dy"]):
                    layers += alt.Chart(grp).mark_text(
                        align=al, dx=float(dx), dy=float(dy), fontSize=font, fontWeight="bold"
                    ).encode(x="x:Q", y="y:Q", text="word:N", color=col)
    return style(layers.properties(width="container", height=size, title=wrap_title(title, size, big)),
                 big=big)


@cached_spec
def bars(df: pd.DataFrame, x: str, y: str, title: str = "", color: str | None = None,
         x_title: str | None = None, y_title: str | None = None, sort=None,
         fmt: str = ",.0f", height: int = 300, horizontal: bool = False,
         domain: tuple[float, float] | None = None, big: bool = False) -> alt.Chart:
    """A plain bar chart with tooltips; ``x`` is the category, ``y`` the value. Fills its
    column's width (show with ``stretch=True``). ``horizontal`` puts categories down the
    side, so long names stay readable; ``domain`` fixes the value axis (e.g. 0 to 100 %),
    so a long bar is not mistaken for a full one."""
    cat = (alt.Y if horizontal else alt.X)(
        f"{x}:N", title=x_title or x, sort=sort,
        axis=alt.Axis(labelAngle=0 if horizontal else -30, labelOverlap=False, labelLimit=200))
    val = (alt.X if horizontal else alt.Y)(
        f"{y}:Q", title=y_title or y,
        scale=alt.Scale(domain=list(domain)) if domain else alt.Scale())
    enc = dict(x=val, y=cat) if horizontal else dict(x=cat, y=val)
    enc["tooltip"] = [x, alt.Tooltip(f"{y}:Q", format=fmt)]
    if color:
        enc["color"] = alt.Color(f"{color}:N", scale=alt.Scale(range=WORD_COLOURS), title=color,
                                 legend=alt.Legend(orient="bottom"))
    chart = alt.Chart(df).mark_bar().encode(**enc).properties(width="container", height=height,
                                                              title=title)
    return style(chart, big=big)


@cached_spec
def strip(df: pd.DataFrame, value: str, group: str, title: str = "",
          domain: tuple[float, float] | None = None, order: list[str] | None = None,
          big: bool = False) -> alt.Chart:
    """Each value as a tick on its group's line: good for comparing two spreads. Groups in
    ``order`` (if given), 28 px a line from two lines up. Fills its column's width (show with
    ``stretch=True``)."""
    xs = alt.Scale(domain=list(domain)) if domain else alt.Scale()
    n_groups = df[group].nunique()
    chart = alt.Chart(df).mark_tick(thickness=2, size=min(26, 200 // max(n_groups, 1)), opacity=0.5).encode(
        x=alt.X(f"{value}:Q", scale=xs, title=value),
        y=alt.Y(f"{group}:N", title=None, sort=order),
        color=alt.Color(f"{group}:N", scale=alt.Scale(range=WORD_COLOURS), legend=None),
        tooltip=[group, alt.Tooltip(f"{value}:Q", format=".3f")],
    )
    return style(chart.properties(width="container", height=max(200, 28 * n_groups), title=title), big=big)
