"""Screen 2, Similarity: cosine compares directions; one-hot vectors are all at right angles."""
import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table, data_table, error, intro, plain
from lab_ui.lesson.exercises import Exercise, show
from lab_ui.widgets.parse import MAX_TEXT, InputError, parse_vector
from lab_ui.screens.registry import file_of
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.real_models import REAL_TABLES, real_or_none, table_choice
from lab_ui.server.runs import corpus_for, run
from core.run import RunRequest
from lab_ui.screens.views.similarity_views import arrows_chart, arrows_frame, arrows_px, onehot_cosines, squares
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.params import GPT2_VOCAB_SIZE
from core.pretrained import WORD_FORM
from core.similarity import CosineSteps, cosine_steps
from core.skipgram import SkipGramConfig
from core.vectors import UnknownLabel, Vectors

STEPS_PX = 360   # the step-by-step block
MAX_WORD = 40
WORD_NEIGHBOURS = 5


def main() -> None:
    intro("2. Similarity: comparing directions",
          "Two vectors point in similar directions when their **cosine similarity** is near 1, at "
          "right angles when it is 0, and in opposite directions when it is -1. "
          "**Try:** edit the two vectors, stretch one of them, and watch which numbers change.")
    reset_button("sim_", key="sim_reset")
    u, v = vectors_or_stop()
    s = cosine_steps(u, v)
    # fixed widths that wrap: the square arrow picture keeps its size, beside the steps on a
    # wide screen and under them on a narrow one
    left, right = layout.blocks(STEPS_PX, arrows_px(charts.presenting()) + 90, gap="medium")
    with left:
        steps_panel(u, v, s)
    with right:
        arrows_panel(u, v, s)
    st.divider()
    onehot_panel(corpus_for(GUIDE_TEXT, GUIDE_WINDOW).vocab)
    st.divider()
    words_panel()
    exercises()


def vectors_or_stop() -> tuple[np.ndarray, np.ndarray]:
    """The two typed vectors, v stretched by the slider; a typo stops the screen with a message."""
    c1, c2, c3 = st.columns([1, 1, 1], gap="large")
    with c1:
        u_text = st.text_input("Vector u", "1, 2, 2", key="sim_u", bind="query-params", max_chars=MAX_TEXT)
    with c2:
        v_text = st.text_input("Vector v", "2, 1, 2", key="sim_v", bind="query-params", max_chars=MAX_TEXT)
    with c3:
        scale = st.slider("Stretch v by", 0.25, 5.0, 1.0, 0.25, key="sim_scale", bind="query-params",
                          help="Multiplying v by a positive number changes its length, not its direction.")
    try:
        u = parse_vector(u_text, "Vector u")
        v = parse_vector(v_text, "Vector v") * scale
        if len(u) != len(v):
            raise InputError(f"u has {len(u)} numbers and v has {len(v)}; they need the same count.")
    except InputError as err:
        error(err)
        st.stop()
    return u, v


def steps_panel(u: np.ndarray, v: np.ndarray, s: CosineSteps) -> None:
    """The cosine worked out in four steps, and its figures."""
    terms = " + ".join(f"({a:g})·({b:g})" for a, b in zip(u, v))
    st.markdown("**Step by step**")
    st.markdown(
        f"1. Dot product: u·v = {terms} = **{s.dot:.4g}**\n"
        f"2. Length of u: |u| = √({squares(u)}) = **{s.norm_u:.4g}**\n"
        f"3. Length of v: |v| = √({squares(v)}) = **{s.norm_v:.4g}**\n"
        f"4. Cosine: u·v / (|u| |v|) = {s.dot:.4g} / ({s.norm_u:.4g} × {s.norm_v:.4g}) = **{s.cosine:.3f}**")
    layout.metrics([dict(label="dot product", value=f"{s.dot:.3f}"),
                    dict(label="cosine", value=f"{s.cosine:.3f}"),
                    dict(label="angle", value=f"{s.angle_degrees:.1f}°")], key="sim_metrics")
    if s.norm_u == 0 or s.norm_v == 0:
        st.warning("A vector of all zeros has no direction, so its cosine is undefined. "
                   "This app reports 0 (no evidence of similarity) instead of an error.")
    st.caption("Stretch v: the dot product grows with the length, the cosine stays put. "
               "That is why embeddings are compared by cosine: it compares direction only.")


def arrows_panel(u: np.ndarray, v: np.ndarray, s: CosineSteps) -> None:
    """u and v as arrows when they have two numbers each."""
    if len(u) == 2:
        pts = arrows_frame(u, v)
        chart_with_table(arrows_chart(pts, s.angle_degrees, big=charts.presenting()), pts[["name", "x", "y"]],
                         key="sim_arrows_table", stretch=False)
    else:
        st.info("Type two numbers per vector (for example 1, 0 and 1, 1) to see them drawn as "
                "arrows with the angle between them.")


def onehot_panel(vocab: list[str]) -> None:
    """The cosines of the toy vocabulary's one-hot vectors: 0 for every pair of different words."""
    st.header("One-hot vectors cannot say that two words are alike")
    oh = onehot_cosines(len(vocab))
    st.markdown(
        f"Give each of the {len(vocab)} words of the toy vocabulary its own one-hot vector. Every pair of "
        "different words has dot product 0 and cosine 0: to the network, *cat* is exactly as unlike "
        "*dog* as it is unlike *the*. And the vectors are as wide as the vocabulary: for GPT-2 that "
        f"is {GPT2_VOCAB_SIZE:,} numbers per token, all but one of them zero.")
    c1, c2 = layout.blocks(layout.chart_px(), layout.PANEL)
    with c1:
        chart_with_table(charts.heatmap(oh.S, vocab, "Cosine of every pair of one-hot vectors",
                                        size=layout.chart_px()),
                         pd.DataFrame(oh.S, index=vocab, columns=vocab).reset_index(names="word"),
                         key="sim_onehot_table")
    with c2:
        st.metric("different pairs", f"{oh.n_different}")
        st.metric("largest cosine between different words", f"{oh.largest:.2f}")
        st.caption("Dense vectors (the next screens) are narrow, and any two of them can be close, "
                   "far apart, or anywhere in between.")
        st.page_link(file_of("real_table"), label="Dense rows of a real model (7b)",
                     icon=":material/table_view:")


def words_panel() -> None:
    """The same four steps on two words' rows of a table: the lesson's toy table or a real one."""
    st.header("The same cosine on two words' rows")
    name = table_choice(st, "sim_table")
    c1, c2 = layout.blocks(layout.MIN_CONTROL, layout.MIN_CONTROL, key="sim_words")
    a = c1.text_input("Word A", "cat", key="sim_word_a", bind="query-params", max_chars=MAX_WORD)
    b = c2.text_input("Word B", "dog", key="sim_word_b", bind="query-params", max_chars=MAX_WORD)
    if name is None:
        lesson = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(), GUIDE_WINDOW))
        table, what = Vectors(lesson.vocab, lesson.E), "the lesson's toy table (the Train screen's reference run)"
    else:
        table = real_or_none(name)
        if table is None:
            return
        what = next(shown for shown, n in REAL_TABLES.items() if n == name)
    first, second = table_word(table, name, a), table_word(table, name, b)
    if first is None or second is None:
        return
    (la, ua), (lb, ub) = first, second
    s = cosine_steps(ua, ub)
    st.markdown(f"In {what}, every row has {len(ua)} numbers. u = row of “{plain(la)}”, v = row of “{plain(lb)}”:\n\n"
                f"u·v = **{s.dot:.4g}**, |u| = **{s.norm_u:.4g}**, |v| = **{s.norm_v:.4g}**, cosine = "
                f"{s.dot:.4g} / ({s.norm_u:.4g} × {s.norm_v:.4g}) = **{s.cosine:.3f}**")
    layout.metrics([dict(label="cosine of the two rows", value=f"{s.cosine:.3f}"),
                    dict(label="angle between them", value=f"{s.angle_degrees:.1f}°"),
                    dict(label="numbers per row", value=f"{len(ua)}")], key="sim_words_metrics")
    near = {f"nearest to {plain(w)}": table.nearest(w, WORD_NEIGHBOURS) for w in (la, lb)}
    data_table(pd.DataFrame({k: [f"{plain(w)} {c:.2f}" for w, c in v] for k, v in near.items()}),
               hide_index=True, key="sim_words_nearest")
    st.caption("Each word's nearest rows by cosine in the whole table (the word itself left out). "
               "The same four steps as above: only the rows are longer.")


def table_word(table, name: str | None, typed: str) -> tuple[str, np.ndarray] | None:
    """A typed word's label and row in ``table`` (a real token table's word gets its space), or
    None after a message naming the nearest spellings."""
    word = typed.strip()
    label = word if name is None else WORD_FORM[name].format(word)
    if label not in table and label.lower() in table:
        label = label.lower()
    try:
        return label, np.asarray(table.vector(label), dtype=np.float64)
    except UnknownLabel as err:
        error(f"Word “{plain(word)}”: {err}")
        return None


def exercises() -> None:
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


main()
