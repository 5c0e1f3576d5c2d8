"""Altair chart builders shared by the screens. Data in, chart out: no math here
beyond reshaping for plotting.

The public builders return the chart's Vega-Lite spec (a dict), built once per distinct
input and kept in ``st.cache_data``: building and validating an Altair chart costs 20-80 ms,
which a warm rerun after a slider move should not pay again."""
from __future__ import annotations

import functools

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

# Darker colours from Paul Tol's "muted", "bright" and "vibrant" schemes: told apart by people
# with the common colour-vision deficiencies, and dark enough to read as text on white.
# Words beyond 12 reuse colours; their labels tell them apart.
WORD_COLOURS = ["#332288", "#CC3311", "#117733", "#882255", "#0077BB", "#AA4499",
                "#7A7A1F", "#EE7733", "#009988", "#CC6677", "#555555", "#4477AA"]
DIVERGING = "blueorange"   # colour-blind safe, centred on white at 0
FONT = 15
MAX_CURVE_POINTS = 600     # a line of 600 points looks the same as 5,001 and draws far faster


def cached_spec(builder):
    """Turn a chart builder into one that returns the cached Vega-Lite spec of its chart."""
    @st.cache_data(max_entries=48, show_spinner=False)    # a 64-word heatmap spec is ~0.5 MB
    def build(name: str, *args, **kwargs) -> dict:   # every builder shares this cache: the
        return builder(*args, **kwargs).to_dict(validate=False)  # name keeps their keys apart

    @functools.wraps(builder)
    def spec(*args, **kwargs) -> dict:
        return build(builder.__name__, *args, **kwargs)
    return spec


def word_colour_scale(vocab: list[str]) -> alt.Scale:
    """The same word gets the same colour in every chart of a screen."""
    colours = [WORD_COLOURS[i % len(WORD_COLOURS)] for i in range(len(vocab))]
    return alt.Scale(domain=list(vocab), range=colours)


def style(chart: alt.Chart, fit_width: bool = False) -> alt.Chart:
    """Readable fonts; and the size given is the plot's own size (axes and legends come on
    top), unless ``fit_width``: then the chart fills its column's width."""
    chart = chart.properties(autosize=alt.AutoSizeParams(
        type="fit-x" if fit_width else "pad", contains="padding"))
    return chart.configure_axis(labelFontSize=FONT, titleFontSize=FONT).configure_legend(
        labelFontSize=FONT, titleFontSize=FONT).configure_title(fontSize=FONT + 2)


def matrix_frame(S: np.ndarray, labels: list[str], value: str = "cosine") -> pd.DataFrame:
    """Long form of a square matrix: one row per (row word, column word, value)."""
    n = len(labels)
    return pd.DataFrame({
        "row": np.repeat(labels, n), "column": np.tile(labels, n), value: S.reshape(-1),
    })


@cached_spec
def heatmap(S: np.ndarray, labels: list[str], title: str = "", value: str = "cosine",
            domain: tuple[float, float] = (-1.0, 1.0), size: int = 420) -> alt.Chart:
    """Square heatmap, diverging colours fixed to ``domain``; rows and columns in ``labels`` order."""
    df = matrix_frame(S, labels, value)
    df["label"] = df[value].map(lambda v: f"{v:.2f}")
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
    if len(labels) <= 14:
        text = base.mark_text(fontSize=12).encode(
            text="label:N",
            color=alt.condition(f"abs(datum['{value}']) > 0.6", alt.value("white"), alt.value("black")),
        )
        layers = rect + text
    chart = layers.properties(width=size, height=size, title=title)
    if len(labels) > 24:      # many words: smaller labels, so that each one still has its own line
        return chart.configure_axis(labelFontSize=10, titleFontSize=FONT).configure_legend(
            labelFontSize=FONT, titleFontSize=FONT).properties(
            autosize=alt.AutoSizeParams(type="pad", contains="padding"))
    return style(chart)


@cached_spec
def loss_curve(losses: dict[str, np.ndarray], refs: dict[str, float], title: str = "",
               height: int = 300) -> alt.Chart:
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
    lines = alt.Chart(df).mark_line(strokeWidth=3).encode(
        x=alt.X("step:Q", title="update step"),
        y=alt.Y("loss:Q", title="mean cross-entropy", scale=alt.Scale(zero=False)),
        color=colour,
        tooltip=["line", "step", alt.Tooltip("loss:Q", format=".4f")],
    )
    ref_df = pd.DataFrame({"line": list(refs), "loss": list(refs.values())})
    rules = alt.Chart(ref_df).mark_rule(strokeDash=[7, 4], strokeWidth=2).encode(
        y="loss:Q", color=colour, tooltip=["line", alt.Tooltip("loss:Q", format=".4f")])
    return style((lines + rules).properties(width="container", height=height, title=title),
                  fit_width=True)


@cached_spec
def scatter(coords: np.ndarray, words: list[str], vocab: list[str], title: str = "",
            xtitle: str = "direction 1", ytitle: str = "direction 2",
            domain: tuple[float, float] | None = None, size: int = 420,
            colour: list[str] | None = None, labels: bool = True) -> alt.Chart:
    """2-D points with word labels. Colour is fixed per word by ``vocab``, or, with
    ``colour`` (one group name per word), per group with a legend."""
    df = pd.DataFrame({"x": coords[:, 0], "y": coords[:, 1], "word": words})
    scale = alt.Scale(domain=list(domain)) if domain else alt.Scale(zero=False, nice=True, padding=24)
    if colour is None:
        col = alt.Color("word:N", scale=word_colour_scale(vocab), legend=None)
    else:
        df["group"] = colour
        named = sorted(set(colour) - {"other"})            # "other" is grey, so groups stand out
        dom = named + (["other"] if "other" in colour else [])
        rng = [WORD_COLOURS[i % len(WORD_COLOURS)] for i in range(len(named))] + ["#C8C8C8"]
        col = alt.Color("group:N", scale=alt.Scale(domain=dom, range=rng[: len(dom)]),
                        legend=alt.Legend(orient="bottom", columns=4))
    base = alt.Chart(df).encode(
        x=alt.X("x:Q", title=xtitle, scale=scale),
        y=alt.Y("y:Q", title=ytitle, scale=scale),
        color=col,
        tooltip=["word"] + (["group"] if colour else [])
        + [alt.Tooltip("x:Q", format=".3f"), alt.Tooltip("y:Q", format=".3f")],
    )
    layers = base.mark_circle(size=140 if labels else 90, opacity=0.9)
    if labels:
        layers += base.mark_text(align="left", dx=9, dy=-6, fontSize=FONT,
                                 fontWeight="bold").encode(text="word:N")
    return style(layers.properties(width=size, height=size, title=title))


@cached_spec
def bars(df: pd.DataFrame, x: str, y: str, title: str = "", color: str | None = None,
         x_title: str | None = None, y_title: str | None = None, sort=None,
         fmt: str = ",.0f", height: int = 300, horizontal: bool = False,
         domain: tuple[float, float] | None = None) -> alt.Chart:
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
    return style(chart, fit_width=True)


@cached_spec
def strip(df: pd.DataFrame, value: str, group: str, title: str = "",
          domain: tuple[float, float] | None = None) -> alt.Chart:
    """Each value as a tick on its group's line: good for comparing two spreads.
    Fills its column's width (show with ``stretch=True``)."""
    xs = alt.Scale(domain=list(domain)) if domain else alt.Scale()
    chart = alt.Chart(df).mark_tick(thickness=2, size=26, opacity=0.5).encode(
        x=alt.X(f"{value}:Q", scale=xs, title=value),
        y=alt.Y(f"{group}:N", title=None),
        color=alt.Color(f"{group}:N", scale=alt.Scale(range=WORD_COLOURS), legend=None),
        tooltip=[group, alt.Tooltip(f"{value}:Q", format=".3f")],
    )
    return style(chart.properties(width="container", height=200, title=title), fit_width=True)
