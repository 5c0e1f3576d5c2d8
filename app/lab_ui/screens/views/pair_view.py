"""Pieces of the "One pair, step by step" screen (lab_ui/screens/pair.py): where the walk stands,
and the tables of each stage."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from core.pair_step import PairStep

PAIR_KEY, STAGE_KEY = "pair_index", "pair_stage"
# (title, what it computes): revealed one at a time by "Next step".
STAGES = [
    ("x = E[c]", "the centre word's row of E"),
    ("z = x · W", "one score per word of the vocabulary"),
    ("p = softmax(z)", "the scores turned into chances that add up to 1"),
    ("loss = −log p[t]", "small when the model gave the real neighbour t a high chance"),
    ("dz = p − onehot(t)", "how each score should move: down for every word, up for t"),
    ("dW = outer(x, dz),  dx = W · dz", "the gradients of the two tables"),
    ("update: E[c] −= lr · dx,  W −= lr · dW", "the tables after the step"),
]


def position(n_pairs: int) -> tuple[int, int]:
    """The pair (0-based) and the stage (0-based) the session stands at."""
    pair = min(int(st.session_state.get(PAIR_KEY, 0)), n_pairs - 1)
    return pair, min(int(st.session_state.get(STAGE_KEY, 0)), len(STAGES) - 1)


def _next_step(n_pairs: int) -> None:
    pair, stage = position(n_pairs)
    if stage + 1 < len(STAGES):
        st.session_state[STAGE_KEY] = stage + 1
    else:
        _move_pair(n_pairs, +1)


def _move_pair(n_pairs: int, by: int) -> None:
    pair, _ = position(n_pairs)
    st.session_state[PAIR_KEY] = (pair + by) % n_pairs
    st.session_state[STAGE_KEY] = 0


def _show_all() -> None:
    st.session_state[STAGE_KEY] = len(STAGES) - 1


def buttons(n_pairs: int) -> None:
    with st.container(horizontal=True, gap="small", key="pair_buttons"):
        st.button("Previous pair", key="pair_prev", on_click=_move_pair, args=(n_pairs, -1))
        st.button("Next step", key="pair_next_step", type="primary", on_click=_next_step, args=(n_pairs,))
        st.button("Next pair", key="pair_next", on_click=_move_pair, args=(n_pairs, +1))
        st.button("Show every step", key="pair_all", on_click=_show_all)


def word_table(step: PairStep, vocab: list[str], stage: int) -> pd.DataFrame:
    """One row per vocabulary word: its score, chance, score gradient and how far its column
    of W moves, as far as the walk has got."""
    table = pd.DataFrame({"word": vocab})
    table["role"] = ["centre" if i == step.centre else "" for i in range(len(vocab))]
    table.loc[step.context, "role"] = ("centre + context" if step.context == step.centre else "context")
    if stage >= 1:
        table["z (score)"] = step.z
    if stage >= 2:
        table["p (chance)"] = step.p
    if stage >= 4:
        table["dz"] = step.dz
    if stage >= 6:
        table["move of W's column"] = step.column_moves
    return table


def vector_rows(rows: dict[str, np.ndarray]) -> pd.DataFrame:
    """Named vectors of d numbers, one row each."""
    d = len(next(iter(rows.values())))
    return pd.DataFrame([[name, *v] for name, v in rows.items()],
                        columns=["vector", *[f"dim {k}" for k in range(d)]])
