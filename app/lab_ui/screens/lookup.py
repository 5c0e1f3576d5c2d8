"""Screen 1, Lookup: a token id picks a row of the table; a one-hot product gives the same row."""
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.captions import init_comparison
from lab_ui.widgets.common import chart_with_table, error, intro, vector_frame, data_table
from lab_ui.widgets.parse import MAX_TEXT, InputError, parse_id_rows, parse_matrix
from lab_ui.screens.registry import file_of
from lab_ui.lesson.presenter import reset_button
from lab_ui.server.runs import corpus_for, run
from core.run import RunRequest
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.embedding import GPT2_INIT_STD, init_table, lookup, one_hot, one_hot_lookup
from core.skipgram import SkipGramConfig, uniform_loss

INIT_WIDTHS = [4, 16, 64, 256]   # widths offered for the initialisation demo
INIT_STDS = (GPT2_INIT_STD, 1.0)  # the two starting noises compared
INIT_RUN = SkipGramConfig(steps=300)   # the init demo's runs: the lesson's run, first 300 steps


def main() -> None:
    intro("1. Lookup: a token id picks a row",
          "The embedding table has one row per token and `d_model` columns. Multiplying a **one-hot** "
          "vector (all zeros except a single 1) by the table gives back exactly one row. "
          "**Try:** edit the table, pick a row, and check that the product and the row are equal.")
    reset_button("lookup_", key="lookup_reset")
    left, right = layout.blocks(layout.PANEL, layout.CHART, key="lookup_main")
    W = table_or_stop(left)
    with left:
        row = row_slider(W)
    with right:
        row_panel(W, row)
    st.divider()
    batch_panel(W)
    st.divider()
    init_panel()


def table_or_stop(where) -> np.ndarray:
    """The typed table; a typo stops the screen with a message."""
    with where:
        text = st.text_area("The table W (one row per line, numbers separated by commas)",
                            "1, 2\n3, 4\n5, 6", height=150, key="lookup_matrix", bind="query-params",
                            max_chars=MAX_TEXT)
    try:
        return parse_matrix(text, "The table")
    except InputError as err:
        error(err)
        st.stop()


def row_slider(W: np.ndarray) -> int:
    """Which row to read (no slider for a one-row table), and the table's shape."""
    V, d = W.shape
    row = st.slider("Token id (which row)", 0, V - 1, min(1, V - 1), key="lookup_row", bind="query-params",
                    help="The id is only a name: it says which row to read.") if V > 1 else 0
    st.caption(f"W has shape {V} x {d}: {V} tokens, d_model = {d}.")
    return row


def row_panel(W: np.ndarray, row: int) -> None:
    """one_hot(row), one_hot(row) @ W and W[row] side by side, and whether they agree."""
    V, d = W.shape
    oh = one_hot(row, V)                  # (V,)
    product = one_hot_lookup(W, [row])[0]  # (d,)
    gathered = lookup(W, [row])[0]         # (d,)
    # The verdict first, then the numbers it is about: in presenter mode (larger text) the
    # three tables take the screen's height, and the verdict must stay in the first view.
    if np.array_equal(product, gathered):
        st.success(f"Equal, number for number: one_hot({row}) @ W and W[{row}], both below. The "
                   f"multiplication did {V * d} multiplications, {(V - 1) * d} of them by zero; "
                   "reading the row did none.")
    else:  # cannot happen for finite tables; shown rather than hidden if it ever does
        st.error("The product and the row differ, which should be impossible.")
    st.markdown(f"**one_hot({row})**, a row of {V} numbers with a single 1:")
    data_table(vector_frame(oh.astype(int), f"one_hot({row})", "slot"), key="lookup_oh")
    c1, c2 = layout.blocks(layout.PANEL - 20, layout.PANEL - 20, gap="small")
    with c1:
        st.markdown(f"**one_hot({row}) @ W** (multiply, then add up):")
        data_table(vector_frame(product, "product"), key="lookup_prod")
    with c2:
        st.markdown(f"**W[{row}]** (just read the row):")
        data_table(vector_frame(gathered, f"W[{row}]"), key="lookup_row_out")


def batch_panel(W: np.ndarray) -> None:
    """A (B, T) batch of ids looked up at once: shape (B, T, d_model)."""
    V, d = W.shape
    st.header("A batch of ids: shape (B, T) becomes (B, T, d_model)")
    st.markdown("Real code looks up a whole batch at once with `W[ids]` (a *gather*). "
                "Type one sequence per line; every line needs the same length.")
    ids_text = st.text_area("Ids (B lines of T ids each)", f"0, {V - 1}\n{min(1, V - 1)}, 0",
                            height=100, key="lookup_batch", bind="query-params", max_chars=MAX_TEXT)
    try:
        ids = parse_id_rows(ids_text, "The ids", max_rows=8)
        X = lookup(W, ids)                                     # (B, T, d)
    except (InputError, IndexError) as err:
        error(f"{err} This table has ids 0 to {V - 1}.")
        return
    B, T = ids.shape
    st.markdown(f"ids shape **({B}, {T})** → lookup → shape **({B}, {T}, {d})**")
    rows = [{"b": b, "t": t, "id": int(ids[b, t]), **{f"dim {k}": X[b, t, k] for k in range(d)}}
            for b in range(B) for t in range(T)]
    data_table(pd.DataFrame(rows), hide_index=True, key="lookup_batch_out")


def init_panel() -> None:
    """Small against large starting noise: the two tables, and the first steps of training from each."""
    st.header("How big should the starting numbers be?")
    st.markdown(
        f"Rows start as small random noise. GPT-2 uses a standard deviation of **{GPT2_INIT_STD}** "
        "(Radford et al., 2019). With a standard deviation of 1, entries sit around ±1 and "
        "sometimes ±3. Below: both tables (16 tokens x 16 columns), then what each does to the first "
        f"{INIT_RUN.steps} steps of training on the lesson's 33-word text (learning rate {INIT_RUN.lr:g}) "
        "at the width you pick.")
    tables = {f"std {s}": init_table(16, 16, std=s, rng=0).ravel() for s in INIT_STDS}
    df = pd.DataFrame({"value": [x for t in tables.values() for x in t],
                       "start": [name for name, t in tables.items() for _ in t]})
    width = st.select_slider("Width of the vectors (d_model) for the training curves", INIT_WIDTHS,
                             INIT_WIDTHS[-1], key="lookup_init_width", bind="query-params",
                             help="4 is the lesson's toy model; real models use hundreds of columns.")
    c1, c2 = layout.blocks(layout.HALF, layout.HALF)
    with c1:
        chart_with_table(charts.strip(df, "value", "start", "Every entry of each table as a tick"),
                         df, key="lookup_init_table")
    runs = {f"std {s}": run(RunRequest("softmax", GUIDE_TEXT, replace(INIT_RUN, d_model=int(width), init_std=s), GUIDE_WINDOW))
            for s in INIT_STDS}  # keys "std 0.02", "std 1.0"
    V = corpus_for(GUIDE_TEXT, GUIDE_WINDOW).V
    with c2:
        chart_with_table(
            charts.loss_curve({k: r.losses for k, r in runs.items()},
                              {f"uniform guess, ln {V}": uniform_loss(V)},
                              f"First {INIT_RUN.steps} steps, d_model {width}"),
            pd.DataFrame({k: r.losses for k, r in runs.items()}).rename_axis("step").reset_index(),
            key="lookup_init_loss")
    st.caption(init_comparison(int(width), runs[f"std {GPT2_INIT_STD}"].losses, runs["std 1.0"].losses,
                               GPT2_INIT_STD, uniform_loss(V)))
    st.markdown(
        "**Why the toy model can disagree.** A word's scores are its row of the table times the output "
        "matrix, a product of two matrices. Start both at std 0.02 and every score is close to 0, and "
        "so is the gradient each matrix gets (it is proportional to the other matrix): training sits "
        "on a plateau for its first steps, and at a small width that plateau can cost more than "
        "std 1's bad start. As the width grows, each score is a sum of d_model products: with "
        "std 1 the scores grow like √d_model, the softmax saturates on confident wrong guesses, and "
        "the model spends many steps undoing them. That is the real model's situation (GPT-2's rows "
        "have 768 numbers), and why it starts small.")
    st.page_link(file_of("real_table"), label="A real model's rows: “The cat sat on the” looked up in SmolLM2's table",
                 icon=":material/table_view:")


main()
