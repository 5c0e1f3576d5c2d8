"""Screen 4, Gradients: a lookup's gradient reaches only the rows that were looked up."""
import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.chips import visible
from lab_ui.lesson.links import named
from lab_ui.lesson.presenter import reset_button
from lab_ui.widgets.common import error, fixed_decimals, intro, plain, data_table
from lab_ui.widgets.parse import MAX_TEXT, InputError, parse_ids
from lab_ui.widgets.presets import upstream_in_hundredths
from lab_ui.server.runs import corpus_for, tokenizer
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.embedding import GPT2_INIT_STD, init_table, lookup_backward, rows_touched, sgd_step
from core.params import GPT2_VOCAB_SIZE
from core.skipgram import SkipGramConfig, init_params, loss_and_grads_pairs
from core.tokenizer import TokenizerUnavailable, id_to_text, tokenize

V, D = GPT2_VOCAB_SIZE, 4
SENTENCE, LESSON_IDS = "I love AI", [15, 824, 391]   # the lesson's example, from a home-made BPE


@st.cache_data(max_entries=1, show_spinner=False)
def toy_table() -> np.ndarray:
    """A V x 4 table: as many rows as GPT-2 has tokens, a toy width of 4 (GPT-2's std 0.02)."""
    return init_table(V, D, std=GPT2_INIT_STD, rng=0)


def lesson_ids_note() -> None:
    """Say where the lesson's ids come from, and what GPT-2's real tokenizer makes of the sentence."""
    try:
        enc = tokenizer()
    except TokenizerUnavailable:
        st.caption(f"The lesson's ids {LESSON_IDS} for “{SENTENCE}” come from a small home-made BPE, "
                   "not from GPT-2 (GPT-2's tokenizer could not be loaded to compare).")
        return
    real = tokenize(enc, SENTENCE, special_as_token=False)
    theirs = ", ".join(f"{i} = “{plain(visible(id_to_text(enc, i)))}”" for i in LESSON_IDS)
    st.info(f"The lesson writes “{SENTENCE}” as ids **{LESSON_IDS}**. Those ids come from a small "
            "home-made BPE tokenizer made up for the example, not from GPT-2. GPT-2's real "
            f"tokenizer gives **{[t.id for t in real]}** ("
            + ", ".join(f"“{plain(visible(t.text))}”" for t in real)
            + f"); in GPT-2, {theirs} (· = space). Either way, the point of this screen is the same: "
            "only the rows of the ids you used get a gradient.")


def main() -> None:
    intro("4. Gradients: only the rows you used",
          "A lookup copies rows out of the table, so in training the gradient flows back **only into "
          "the rows that were looked up**; every other row gets exactly zero and does not move. "
          "**Try:** type your own ids, repeat one, and see which rows change.")
    reset_button("grad_", key="grad_reset")
    ids, lr = controls_or_stop()
    table = toy_table()
    T = len(ids)
    upstream = upstream_in_hundredths(T, D)                                # (1, T, d) stand-in dL/dX
    grad = lookup_backward(ids[None, :], upstream, V)                       # (V, d)
    update = sgd_step(table, grad, lr)
    st.markdown(f"Table W_E: **{V:,} x {D}**: as many rows as GPT-2 has tokens, and a toy width of {D}. "
                f"Sentence: **{T}** positions.")
    lesson_ids_note()
    upstream_panel(ids, upstream)
    gradient_panel(ids, grad, update.changed_rows)
    step_panel(table, update.table, update.changed_rows, lr)
    st.divider()
    tying_panel()


def controls_or_stop() -> tuple[np.ndarray, float]:
    """The typed ids and the learning rate; ids that are not GPT-2 ids stop the screen with a message."""
    bar = layout.controls_bar("grad")
    c1, c2 = layout.control(bar, 330), layout.control(bar, layout.slider_px(4))
    with c1:
        ids_label = f"Token ids of one sentence (0 to {V - 1:,})"
        ids_text = st.text_input(ids_label, "15, 824, 391", key=named("grad_ids", ids_label), bind="query-params",
                                 max_chars=MAX_TEXT,
                                 help="The lesson's ids for “I love AI”, from a small home-made BPE "
                                      "(GPT-2's own tokenizer gives other ids: see below).")
    with c2:
        lr = st.select_slider("Learning rate", [0.01, 0.05, 0.1, 0.5, 1.0], 0.1, key="grad_lr", bind="query-params")
    try:
        return parse_ids(ids_text, V, "The ids"), lr
    except InputError as err:
        error(err)
        st.stop()


def positions_of(ids: np.ndarray, k: int) -> list[int]:
    """The positions of the sentence that hold id ``k``."""
    return [t for t, i in enumerate(ids) if i == k]


def upstream_panel(ids: np.ndarray, upstream: np.ndarray) -> None:
    """Step 1: the gradient each position receives from the layers above."""
    st.header("1. The gradient arriving at each position (from the layers above)")
    st.caption("These numbers stand in for whatever the rest of the network sends back; the point is "
               "where they go, not their values.")
    up = pd.DataFrame(upstream[0], columns=[f"dL/dX dim {k}" for k in range(D)])
    up.insert(0, "token id", ids)
    up.insert(0, "position", range(len(ids)))
    data_table(up, hide_index=True, key="grad_upstream", column_config=layout.short_headers(
        fixed_decimals(up, 2), {f"dL/dX dim {k}": f"dim {k}" for k in range(D)}))


def gradient_panel(ids: np.ndarray, grad: np.ndarray, touched: np.ndarray) -> None:
    """Step 2: the table's gradient, non-zero only in the rows of the ids (repeats add up)."""
    st.header("2. The gradient for the whole table")
    layout.metrics([dict(label="rows with a non-zero gradient", value=f"{len(touched):,}"),
                    dict(label="rows with gradient exactly 0", value=f"{V - len(touched):,}"),
                    dict(label="share of the table touched", value=f"{100 * len(touched) / V:.4f}%")],
                   key="grad_metrics")
    rows = [{"row (token id)": int(k), "from positions": ", ".join(map(str, positions_of(ids, k))),
             **{f"dW_E dim {j}": grad[k, j] for j in range(D)}} for k in touched]
    grad_df = pd.DataFrame(rows)
    data_table(grad_df, hide_index=True, key="grad_rows", column_config=layout.short_headers(
        fixed_decimals(grad_df, 2), {"row (token id)": "row", "from positions": "positions",
                                     **{f"dW_E dim {j}": f"dim {j}" for j in range(D)}}))
    repeated = [int(k) for k in touched if len(positions_of(ids, k)) > 1]
    if repeated:
        k = repeated[0]
        pos = positions_of(ids, k)
        st.info(f"Id {k} appears at positions {', '.join(map(str, pos))}: its row's gradient is the "
                f"**sum** of those positions' gradients (row above = "
                + " + ".join(f"position {p}" for p in pos) + ").")
    else:
        st.caption("Repeat an id (for example 15, 824, 15) to see its gradients add up.")


def step_panel(before: np.ndarray, after: np.ndarray, touched: np.ndarray, lr: float) -> None:
    """Step 3: the touched rows before and after one SGD step; every other row is unchanged."""
    st.header(f"3. One SGD step, W_E ← W_E − {lr:g} · dW_E")
    rows = []
    for k in touched:
        rows.append({"row": int(k), "when": "before", **{f"dim {j}": before[k, j] for j in range(D)}})
        rows.append({"row": int(k), "when": "after", **{f"dim {j}": after[k, j] for j in range(D)}})
    ba_df = pd.DataFrame(rows)
    with st.container(key="grad_step"):
        data_table(ba_df, hide_index=True, key="grad_before_after", column_config=fixed_decimals(ba_df, 4))
    st.success(f"{len(touched)} of {V:,} rows changed; the other {V - len(touched):,} are bit-for-bit the same.")


def tying_panel() -> None:
    """One training pair of the Train screen's model: E gets a few rows of gradient, W every column."""
    st.header("Weight tying: the output side touches every row")
    corpus = corpus_for(GUIDE_TEXT, GUIDE_WINDOW)
    E, W = init_params(corpus.V, SkipGramConfig())
    _, dE, dW = loss_and_grads_pairs(E, W, corpus.inputs[:1], corpus.targets[:1])
    centre, context = corpus.vocab[corpus.inputs[0]], corpus.vocab[corpus.targets[0]]
    st.markdown(
        f"Take one training pair of the Train screen's model, (*{centre}*, *{context}*). The input table "
        f"E gets a gradient in **{len(rows_touched(dE))} of {corpus.V}** rows. The "
        f"output matrix W, which scores every word of the vocabulary, gets a gradient in "
        f"**{len(rows_touched(dW.T))} of {corpus.V}** columns: the softmax pushes "
        "every word's score up or down. GPT-2 *ties* its output projection (the `lm_head`) to the "
        "embedding table, reusing W_E transposed, so through that side every row of the table gets a "
        "gradient at every step.")


main()
