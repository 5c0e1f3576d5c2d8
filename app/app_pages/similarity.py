import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from lab_ui import charts, layout
from lab_ui.presenter import reset_button
from lab_ui.common import chart_with_table, error, intro
from lab_ui.exercises import Exercise, show
from lab_ui.parse import MAX_TEXT, InputError, parse_vector
from lab_ui.runs import corpus_for
from core.corpus import GUIDE_TEXT
from core.embedding import one_hot
from core.params import GPT2_VOCAB_SIZE
from core.similarity import cosine_matrix, cosine_steps

intro("2. Similarity: comparing directions",
      "Two vectors point in similar directions when their **cosine similarity** is near 1, at "
      "right angles when it is 0, and in opposite directions when it is -1. "
      "**Try:** edit the two vectors, stretch one of them, and watch which numbers change.")
reset_button("sim_", key="sim_reset")

c1, c2, c3 = st.columns([1, 1, 1], gap="large")
with c1:
    u_text = st.text_input("Vector u", "1, 2, 2", key="sim_u", max_chars=MAX_TEXT)
with c2:
    v_text = st.text_input("Vector v", "2, 1, 2", key="sim_v", max_chars=MAX_TEXT)
with c3:
    scale = st.slider("Stretch v by", 0.25, 5.0, 1.0, 0.25, key="sim_scale",
                      help="Multiplying v by a positive number changes its length, not its direction.")
try:
    u = parse_vector(u_text, "Vector u")
    v = parse_vector(v_text, "Vector v") * scale
    if len(u) != len(v):
        raise InputError(f"u has {len(u)} numbers and v has {len(v)}; they need the same count.")
except InputError as err:
    error(err)
    st.stop()

s = cosine_steps(u, v)
terms = " + ".join(f"({a:g})·({b:g})" for a, b in zip(u, v))
left, right = st.columns([3, 2], gap="large")
with left:
    st.markdown("**Step by step**")
    st.markdown(
        f"1. Dot product: u·v = {terms} = **{s.dot:.4g}**\n"
        f"2. Length of u: |u| = √({' + '.join(f'{a:g}²' for a in u)}) = **{s.norm_u:.4g}**\n"
        f"3. Length of v: |v| = √({' + '.join(f'{b:g}²' for b in v)}) = **{s.norm_v:.4g}**\n"
        f"4. Cosine: u·v / (|u| |v|) = {s.dot:.4g} / ({s.norm_u:.4g} × {s.norm_v:.4g}) = **{s.cosine:.3f}**")
    layout.metrics([dict(label="dot product", value=f"{s.dot:.3f}"),
                    dict(label="cosine", value=f"{s.cosine:.3f}"),
                    dict(label="angle", value=f"{s.angle_degrees:.1f}°")], key="sim_metrics")
    if s.norm_u == 0 or s.norm_v == 0:
        st.warning("A vector of all zeros has no direction, so its cosine is undefined. "
                   "This app reports 0 (no evidence of similarity) instead of an error.")
    st.caption("Stretch v: the dot product grows with the length, the cosine stays put. "
               "That is why embeddings are compared by cosine: it compares direction only.")
with right:
    if len(u) == 2:
        pts = pd.DataFrame({"name": ["u", "v"], "x": [u[0], v[0]], "y": [u[1], v[1]],
                            "x0": [0.0, 0.0], "y0": [0.0, 0.0]})
        lim = float(max(1.0, np.abs(pts[["x", "y"]].to_numpy()).max()) * 1.15)
        sc = alt.Scale(domain=[-lim, lim])
        arrows = alt.Chart(pts).mark_rule(strokeWidth=4).encode(
            x=alt.X("x0:Q", scale=sc, title="dimension 0"), y=alt.Y("y0:Q", scale=sc, title="dimension 1"),
            x2="x:Q", y2="y:Q", color=alt.Color("name:N", scale=alt.Scale(range=charts.WORD_COLOURS[:2]), legend=None))
        heads = alt.Chart(pts).mark_point(size=160, filled=True).encode(
            x="x:Q", y="y:Q", color=alt.Color("name:N", scale=alt.Scale(range=charts.WORD_COLOURS[:2]), legend=None))
        labels = heads.mark_text(dx=12, dy=-10, fontSize=18, fontWeight="bold").encode(text="name:N")
        chart = charts.style((arrows + heads + labels).properties(
            width="container", height=360, title=f"u and v: {s.angle_degrees:.1f}° apart"),
            big=charts.presenting())
        chart_with_table(chart, pts[["name", "x", "y"]], key="sim_arrows_table")
    else:
        st.info("Type two numbers per vector (for example 1, 0 and 1, 1) to see them drawn as "
                "arrows with the angle between them.")

st.divider()
st.subheader("One-hot vectors cannot say that two words are alike")
corpus = corpus_for(GUIDE_TEXT, 2)
OH = one_hot(np.arange(corpus.V), corpus.V)          # (12, 12)
S = cosine_matrix(OH)
st.markdown(
    f"Give each of the {corpus.V} words of the toy vocabulary its own one-hot vector. Every pair of "
    "different words has dot product 0 and cosine 0: to the network, *cat* is exactly as unlike "
    "*dog* as it is unlike *the*. And the vectors are as wide as the vocabulary: for GPT-2 that "
    f"is {GPT2_VOCAB_SIZE:,} numbers per token, all but one of them zero.")
c1, c2 = layout.blocks(layout.chart_px(), layout.PANEL)
with c1:
    chart_with_table(charts.heatmap(S, corpus.vocab, "Cosine of every pair of one-hot vectors",
                                    size=layout.chart_px()),
                     pd.DataFrame(S, index=corpus.vocab, columns=corpus.vocab).reset_index(names="word"),
                     key="sim_onehot_table")
with c2:
    off = S[~np.eye(corpus.V, dtype=bool)]
    st.metric("different pairs", f"{off.size}")
    st.metric("largest cosine between different words", f"{off.max():.2f}")
    st.caption("Dense vectors (the next screens) are narrow, and any two of them can be close, "
               "far apart, or anywhere in between.")

show([
    Exercise("sim_ex1", "What is the cosine of u = [3, 4] and v = [4, 3]? (2 decimals)",
             cosine_steps([3, 4], [4, 3]).cosine,
             "Dot product 3·4 + 4·3 = 24, both lengths are 5, so 24 / 25 = 0.96."),
    Exercise("sim_ex2", "What is the cosine of [1, 0, 1] and [0, 1, 0]?",
             cosine_steps([1, 0, 1], [0, 1, 0]).cosine,
             "They share no non-zero position, so the dot product is 0 and so is the cosine: "
             "they are at right angles, like two different one-hot vectors."),
    Exercise("sim_ex3", "u = [1, 2, 3], v = [2, 4, 6]. What is their cosine?",
             cosine_steps([1, 2, 3], [2, 4, 6]).cosine,
             "v is u stretched by 2: same direction, so the cosine is 1, although the dot "
             "product (28) is twice u·u (14)."),
])
