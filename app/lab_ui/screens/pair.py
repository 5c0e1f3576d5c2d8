"""3b. One pair, step by step: the skip-gram forward and backward pass with real numbers."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.common import data_table, intro, more
from lab_ui.screens.views.pair_view import STAGES, buttons, position, vector_rows, word_table
from lab_ui.lesson.presenter import reset_button
from lab_ui.server.runs import corpus_for
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.pair_step import combined_scores, pair_step, rows_moved, walk
from core.skipgram import SkipGramConfig, init_params


def header(corpus, pair: int, stage: int) -> None:
    c, t = int(corpus.inputs[pair]), int(corpus.targets[pair])
    st.markdown(f"**Pair {pair + 1} of {len(corpus.inputs)}:** centre **{corpus.vocab[c]}** (id {c}), "
                f"context **{corpus.vocab[t]}** (id {t}). Step {stage + 1} of {len(STAGES)}: "
                f"**{STAGES[stage][0]}**, {STAGES[stage][1]}.")


def stages_panel(step, E, corpus, stage: int) -> None:
    data_table(word_table(step, corpus.vocab, stage), hide_index=True, key="pair_words", height="content",
                 column_config={c: st.column_config.NumberColumn(format="%.4f")
                                for c in ("z (score)", "p (chance)", "dz", "move of W's column")})
    rows = {"x = E[c]": step.x}
    if stage >= 5:
        rows["dx = W · dz"] = step.dx
    if stage >= 6:
        rows["E[c] after"] = step.E_after[step.centre]
    data_table(vector_rows(rows), hide_index=True, key="pair_vectors",
                 column_config={f"dim {k}": st.column_config.NumberColumn(format="%.4f")
                                for k in range(E.shape[1])})
    if stage >= 3:
        layout.metrics([dict(label="loss = −log p[t]", value=f"{step.loss:.4f}"),
                        dict(label=f"p[{corpus.vocab[step.context]}]", value=f"{step.p[step.context]:.4f}")],
                       key="pair_metrics")
    if stage >= 5:
        st.caption(f"dW = outer(x, dz) has {step.dW.shape[0]} x {step.dW.shape[1]} numbers, one column per "
                   "word: every column of W gets a share, because every word's score took part in the softmax.")
    if stage >= 6:
        moved = len(rows_moved(E, step.E_after))
        biggest = corpus.vocab[step.most_moved_column]
        st.success(f"After the step: **{moved} row of E** moved (row {step.centre}, "
                   f"“{corpus.vocab[step.centre]}”, by {step.row_move:.4f}); the other "
                   f"{E.shape[0] - moved} rows are exactly as they were. **All {step.dW.shape[1]} columns "
                   f"of W** moved; the largest move is the column of “{biggest}”.")


def collapse_panel(E, W, vocab: list[str], d_model: int) -> None:
    st.header("Two tables, one V x V table of scores")
    S, rank = combined_scores(E, W)
    st.markdown("Nothing happens between the lookup and the scores, so the two tables act as one: "
                "z = E[c] · W is row c of the product **E · W**. That product is a table with a score for "
                "every (centre, neighbour) pair, yet it is built from only d_model numbers per word, "
                "so it can hold at most d_model independent rows.")
    layout.metrics([dict(label="E · W shape", value=f"{S.shape[0]} x {S.shape[1]}"),
                    dict(label="its rank", value=str(rank)),
                    dict(label="d_model", value=str(d_model))], key="pair_rank")
    with more("Show E · W as a table"):
        data_table(pd.DataFrame(S, index=vocab, columns=vocab).round(4), key="pair_scores_table")


def main() -> None:
    intro("3b. One pair, step by step",
          "The Train screen moves the tables once per pass over all pairs. Here you follow **one "
          "(centre, context) pair** of the lesson's text through the model, number by number, and "
          "see what one step changes. **Try:** press *Next step* until the update, then *Next pair*.")
    reset_button("pair_", key="pair_reset")
    cfg = SkipGramConfig()
    corpus = corpus_for(GUIDE_TEXT, GUIDE_WINDOW)                 # the lesson's text and window
    n_pairs = len(corpus.inputs)
    with layout.controls_bar("pair"):
        buttons(n_pairs)
    pair, stage = position(n_pairs)
    E0, W0 = init_params(corpus.V, cfg)
    E, W = walk(E0, W0, corpus.inputs, corpus.targets, cfg.lr, pair)
    st.caption(f"The tables start as the Train screen's reference run does (seed {cfg.seed}, spread "
               f"{cfg.init_std}) and take one step per pair, in the text's order, with learning rate "
               f"{cfg.lr}. The Train screen instead averages all {n_pairs} pairs' gradients before "
               "each step.")
    header(corpus, pair, stage)
    step = pair_step(E, W, int(corpus.inputs[pair]), int(corpus.targets[pair]), cfg.lr)
    with st.container(key="pair_stages"):
        stages_panel(step, E, corpus, stage)
    collapse_panel(E, W, corpus.vocab, cfg.d_model)


main()
