"""Find a word everywhere (Train's Result tab and the Projections screen): the word and its
nearest neighbours by cosine in the full table, ringed on every map, framed in the heatmap,
with each neighbour that a picture places far away marked as such."""
from __future__ import annotations

import pandas as pd
import streamlit as st

from lab_ui.widgets.common import plain
from lab_ui.lesson.links import named
from core.honesty import NeighbourOverlap

FOUND_K = 5


def find_box(key: str, vocab: list[str]) -> int | None:
    """The search box; the index of the word typed (case and spaces ignored), or None."""
    label = "Find a word on every picture"
    typed = st.text_input(label, "", key=named(key, label), max_chars=100, bind="query-params",
                          placeholder="e.g. " + vocab[min(1, len(vocab) - 1)],
                          help=f"Rings the word and its {FOUND_K} nearest words by cosine in the full "
                               "table on every map, and frames it in the heatmap.")
    word = typed.strip().lower()
    if not word:
        return None
    index = {w.lower(): i for i, w in enumerate(vocab)}
    if word not in index:
        st.info(f"{plain(typed.strip())} is not one of the {len(vocab)} words of this table.")
        return None
    return index[word]


def ring_args(overlap: NeighbourOverlap, i: int | None) -> dict:
    """``ring`` and ``far`` for ``charts.scatter``: the word, then its table neighbours."""
    if i is None:
        return {}
    near = overlap.neighbours_of(i)
    return {"ring": (i, *[j for j, _ in near]), "far": tuple(not kept for _, kept in near)}


def found_table(vocab: list[str], i: int, cosine_row, pictures: dict[str, NeighbourOverlap]) -> pd.DataFrame:
    """The word's neighbours by cosine (``cosine_row``: the word's row of the cosine matrix), and
    for each picture whether it keeps them near."""
    near = [j for j, _ in next(iter(pictures.values())).neighbours_of(i)]
    table = pd.DataFrame({"neighbour": [vocab[j] for j in near], "cosine": [float(cosine_row[j]) for j in near]})
    for name, ov in pictures.items():
        table[name] = ["near" if kept else "far" for _, kept in ov.neighbours_of(i)]
    return table
