"""9. Position: adding a vector per place, and what that does (and does not) fix."""
import numpy as np
import streamlit as st

from lab_ui.widgets import captions, charts, layout
from lab_ui.widgets.common import chart_with_table, intro, data_table
from lab_ui.widgets.inputs import two_sentences
from lab_ui.screens.views.position_view import KINDS, SUMMARIES, POSITION_WIDTHS, place_table, summary_table
from lab_ui.lesson.presenter import reset_button
from lab_ui.server.runs import corpus_for, run
from core.run import RunRequest
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.position import LEARNED_INIT_STD, first_repeat, learned_start, order_test, sinusoidal
from core.similarity import cosine_matrix
from core.skipgram import SkipGramConfig

PICTURE_PLACES = 24          # places shown in the sinusoidal picture


def position_table(kind: str, n: int, d: int, seed: int) -> np.ndarray | None:
    if kind == "sinusoidal":
        return sinusoidal(n, d)
    if kind == "learned":
        return learned_start(n, d, seed=seed)
    return None


def places_panel(E, vocab, ids_a, ids_b, P) -> None:
    st.header("Each word at its place")
    repeats = [(name, vocab[r.word] if r else "", r) for name, ids in (("A", ids_a), ("B", ids_b))
               for r in [first_repeat(E, ids, P)]]
    st.markdown(captions.places_reading(P is not None, repeats))
    w = layout.block_px(layout.HALF, 420)     # presenter: A | B still side by side at 1280, columns at 18 px
    left, right = layout.blocks(w, w, key="pos_places", gap="small")
    for where, name, ids in ((left, "A", ids_a), (right, "B", ids_b)):
        with where:
            st.markdown(f"**Sentence {name}**")
            data_table(place_table(E, vocab, ids, P), hide_index=True, key=f"pos_places_{name}")


def summaries_panel(E, ids_a, ids_b, P) -> None:
    st.header("Can a summary of the sentence tell A from B?")
    rows = {False: order_test(E, ids_a, ids_b, None)}
    if P is not None:
        rows[True] = order_test(E, ids_a, ids_b, P)
    table = summary_table(rows)
    data_table(table, hide_index=True, key="pos_summaries")
    if P is None:
        st.info("No position vectors: every summary is built from the same rows, so reordered "
                "words give the same result. Choose sinusoidal or learned positions above.")
        return
    test = rows[True]
    st.markdown(
        "**The plain average still cannot tell them apart**, even with positions: a sum does not "
        "care about order, so mean(E[word] + P[t]) = mean(E[word]) + mean(P[t]), and the second "
        "part is the same for any two sentences of the same length."
        if test.same_mean else
        "The plain averages differ here only because the sentences have different lengths, so "
        "they add up different numbers of position vectors.")
    st.markdown(
        "**A step on each vector before the average does tell them apart**: here tanh of each "
        "number, a stand-in for what every layer after the table does. 'cat at place 1' and 'cat "
        "at place 4' are different vectors now, so they come out differently."
        if not test.same_squashed else
        "The squashed averages agree: try two different orders of the same words.")


def picture_panel() -> None:
    st.header("What sinusoidal position vectors look like")
    d = st.select_slider("Width of each position vector", options=POSITION_WIDTHS, value=16, key="pos_width", bind="query-params")
    P = sinusoidal(PICTURE_PLACES, d)
    S = cosine_matrix(P)
    labels = [str(t) for t in range(PICTURE_PLACES)]
    spec = charts.heatmap(S, labels, title=f"Cosine between the position vectors of places 0-{PICTURE_PLACES - 1}, width {d}",
                          size=layout.chart_px(), big=st.session_state.get("present_mode", False))
    chart_with_table(spec, charts.matrix_frame(S, labels).rename(columns={"row": "place", "column": "other place"}),
                     key="pos_picture_table")
    st.caption(f"The diagonal is each place with itself (cosine 1). Every stripe parallel to it has one "
               f"colour: the cosine of two sinusoidal position vectors depends only on how far apart the "
               f"places are. Here places next to each other have cosine {S[0, 1]:.2f}, places 2 apart "
               f"{S[0, 2]:.2f}, and places {PICTURE_PLACES - 1} apart {S[0, -1]:.2f}. "
               f"Change the width: with 2 numbers there is one hand, the fastest, and the cosine is just "
               f"cos(distance), swinging between -1 and 1. Each further pair of columns adds a slower "
               f"hand, and the cosine is the average of cos(distance x speed) over all the hands.")


def main() -> None:
    intro("9. Position: putting order back",
          "The Limits screen showed that averaging the rows of a sentence forgets word order. "
          "Transformers add a **position vector** to each row before anything else. "
          "**Try:** switch between no positions, sinusoidal and learned ones, and read which "
          "summaries can now tell the two sentences apart.")
    reset_button("pos_", key="pos_reset")
    cfg = SkipGramConfig()
    corpus = corpus_for(GUIDE_TEXT, GUIDE_WINDOW)                 # the lesson's reference run, as on Limits
    result = run(RunRequest("softmax", GUIDE_TEXT, cfg, GUIDE_WINDOW))
    ids_a, ids_b, _, _ = two_sentences(corpus, "pos_")
    # The labels are the options (a link's address holds the label the class sees).
    label = layout.controls_bar("pos").radio("Position vectors", list(KINDS.values()), key="pos_kind", bind="query-params",
                    horizontal=True,
                    help=f"Learned positions are a second table that training adjusts; before training "
                         f"they are random numbers (GPT-2 starts them with spread {LEARNED_INIT_STD}).")
    kind = next(k for k, v in KINDS.items() if v == label)
    n = max(len(ids_a), len(ids_b))
    P = position_table(kind, n, result.E.shape[1], seed=cfg.seed)
    st.caption(f"Token rows: the Train screen's reference run (d_model = {result.E.shape[1]}).")
    places_panel(result.E, corpus.vocab, ids_a, ids_b, P)
    summaries_panel(result.E, ids_a, ids_b, P)
    st.caption(f"Summaries: {SUMMARIES}")
    picture_panel()


main()
