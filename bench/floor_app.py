"""A synthetic Streamlit page for ``bench.streamlit_floor``: one slider, then ``n`` plain
elements and ``charts`` small Vega-Lite charts, nothing of the lesson. Its page address sets
the shape: ``?n=40&charts=3&change=1``.

* ``n`` elements, cycling through the kinds the lesson's screens use most (a caption, a line
  of Markdown, a metric, a subheader, and a pair of columns holding a caption each), so a rerun
  sends and draws what a screen of that size would;
* ``charts`` charts of the lesson's shapes on a canvas: a 12 x 12 heatmap with numbers (288
  marks), a 12-point labelled scatter, a 600-point line;
* ``change=1``: every element and chart shows the slider's value, so each rerun changes them
  all (as moving d_model changes every figure on Train); ``change=0``: only the first element
  changes, so the rest are re-sent unchanged.

It imports no code of the app: what it measures is Streamlit's own cost per rerun."""
import numpy as np
import pandas as pd
import streamlit as st

N = max(0, min(400, int(st.query_params.get("n", 0))))
CHARTS = max(0, min(3, int(st.query_params.get("charts", 0))))
CHANGE = st.query_params.get("change", "1") == "1"

value = st.slider("value", 1, 64, 4, key="floor_value")


def shown(i: int) -> int:
    """What element ``i`` shows: the slider's value when it changes with the slider."""
    return value if (CHANGE or i == 0) else 4


for i in range(N):
    v = shown(i)
    kind = i % 5
    if kind == 0:
        st.caption(f"Caption {i}: the value is {v}, and this sentence is as long as a real one.")
    elif kind == 1:
        st.markdown(f"Line **{i}** of Markdown, with the value {v} in it and a word in *italics*.")
    elif kind == 2:
        st.metric(f"metric {i}", f"{v:,}")
    elif kind == 3:
        st.subheader(f"Heading {i} ({v})")
    else:
        a, b = st.columns(2)
        a.caption(f"left {i}: {v}")
        b.caption(f"right {i}: {v}")

rng = np.random.default_rng(shown(1))
words = [f"w{i}" for i in range(12)]
canvas = {"embedOptions": {"renderer": "canvas"}}
if CHARTS >= 1:
    S = np.round(rng.uniform(-1, 1, (12, 12)), 2)
    cells = pd.DataFrame({"row": np.repeat(words, 12), "column": np.tile(words, 12), "cosine": S.ravel()})
    pos = {"x": {"field": "column", "type": "nominal", "sort": None},
           "y": {"field": "row", "type": "nominal", "sort": None}}
    st.vega_lite_chart(cells, {"usermeta": canvas, "height": 300, "layer": [
        {"mark": "rect", "encoding": {**pos, "color": {"field": "cosine", "type": "quantitative",
                                                       "scale": {"domain": [-1, 1], "scheme": "redblue"}}}},
        {"mark": "text", "encoding": {**pos, "text": {"field": "cosine", "type": "quantitative", "format": ".2f"}}}]})
if CHARTS >= 2:
    xy = rng.normal(size=(12, 2))
    points = pd.DataFrame({"x": xy[:, 0], "y": xy[:, 1], "word": words})
    st.vega_lite_chart(points, {"usermeta": canvas, "height": 300, "layer": [
        {"mark": {"type": "point", "filled": True, "size": 80},
         "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}}},
        {"mark": {"type": "text", "dx": 8, "align": "left"},
         "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"},
                      "text": {"field": "word"}}}]})
if CHARTS >= 3:
    steps = np.arange(600)
    curve = pd.DataFrame({"step": steps, "loss": 2.5 * np.exp(-steps / (50 + shown(2))) + 0.7})
    st.vega_lite_chart(curve, {"usermeta": canvas, "height": 300, "mark": "line", "encoding": {
        "x": {"field": "step", "type": "quantitative"}, "y": {"field": "loss", "type": "quantitative"}}})
