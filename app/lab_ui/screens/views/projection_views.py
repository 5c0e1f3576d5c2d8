"""Pieces of the Projections screen: the trained table, its pictures, the rotation demo
and the context preview. Every number comes from core."""
from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table, data_table
from lab_ui.widgets.presets import SOFTMAX_SETTINGS
from lab_ui.server.runs import corpus_for, run
from core.run import RunRequest
from lab_ui.screens.train.train_controls import generated
from core.context_mix import ambiguous_in_context
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.honesty import NeighbourOverlap, neighbour_overlap, rotation_check
from core.projection import pca
from core.skipgram import SkipGramConfig
from core.tsne import tsne
from core.vectors import Vectors


@dataclass(frozen=True)
class Table:
    E: np.ndarray
    vocab: list[str]
    colour: list[str]          # the group of each word ("other" outside the groups)
    labels: bool               # draw word labels (where they do not cover each other)
    priority: list[int]        # word indices, most frequent first: who gets a label first


@dataclass(frozen=True)
class Picture:
    name: str
    title: str
    note: str
    coords: np.ndarray
    overlap: NeighbourOverlap


def word_groups(vocab: list[str], g) -> list[str]:
    """The known group of each word of a table trained on the generated text ("other" outside
    the groups; the ambiguous word is its own group)."""
    member = {w: name for name, words in g.groups.items() for w in words}
    member[g.ambiguous] = g.ambiguous
    return [member.get(w, "other") for w in vocab]


def trained_table(source: str) -> Table:
    """The generated corpus (trained with its recommended settings) or the reference run."""
    if source.startswith("Word groups"):
        g = generated()
        cfg = SOFTMAX_SETTINGS
        r = run(RunRequest("softmax", g.text, cfg, GUIDE_WINDOW))     # the Train screen's preset keeps the lesson's window
        order = [int(i) for i in corpus_for(g.text, GUIDE_WINDOW).most_frequent(len(r.vocab))]
        return Table(r.E, r.vocab, word_groups(r.vocab, g), labels=True, priority=order)
    cfg = SkipGramConfig()
    r = run(RunRequest("softmax", GUIDE_TEXT, cfg, GUIDE_WINDOW))
    order = [int(i) for i in corpus_for(GUIDE_TEXT, GUIDE_WINDOW).most_frequent(len(r.vocab))]
    return Table(r.E, r.vocab, list(r.vocab), labels=True, priority=order)


@st.cache_data(max_entries=32, show_spinner="Drawing t-SNE...")
def tsne_picture(E: np.ndarray, perplexity: float, seed: int):
    """A table's t-SNE picture (cosine), cached: shared by Projections and Your own vectors."""
    return tsne(E, perplexity=perplexity, seed=seed, metric="cosine", perplexity_cap=1.0)


def pictures(table: Table, perplexities: tuple[int, ...], seed: int, k: int) -> list[Picture]:
    """PCA and one t-SNE picture per perplexity, each with its neighbour-overlap score."""
    p = pca(table.E, k=2)
    ov = neighbour_overlap(table.E, p.coords, k)
    out = [Picture("PCA", f"PCA: keeps {100 * p.kept:.0f}% of the spread, "
                          f"{100 * ov.mean:.0f}% of neighbours",
                   "PCA: a flat shadow along the two directions of most spread.", p.coords, ov)]
    for perp in perplexities:
        t = tsne_picture(table.E, float(perp), seed)
        ov = neighbour_overlap(table.E, t.coords, k)
        note = f"t-SNE, perplexity {perp}"
        if t.clamped:
            note += (f": only {len(table.vocab)} points, so the perplexity was lowered to "
                     f"{t.perplexity_used:.1f} (it must stay below the number of points)")
        out.append(Picture(f"t-SNE, perplexity {perp}",
                           f"t-SNE, perplexity {perp}: {100 * ov.mean:.0f}% of neighbours",
                           note + ".", t.coords, ov))
    return out


def rotation_view(table: Table) -> None:
    st.header("The axes mean nothing: turn the table")
    st.markdown("Multiply the table by a random rotation (an orthogonal matrix). Every length and "
                "every angle between rows stays the same, so every cosine stays the same, but "
                "almost every single number in the table changes. A single column, like an axis "
                "of a picture, carries no meaning of its own.")
    seed = st.slider("Rotation (seed of the random rotation; 0 = none)", 0, 20, 1, key="proj_rotation", bind="query-params")
    if seed == 0:
        rotated, change, moved = table.E, 0.0, 0.0
    else:
        r = rotation_check(table.E, seed)
        rotated, change, moved = r.rotated, r.max_cosine_change, r.share_entries_changed
    layout.metrics([
        dict(label="largest change of any cosine", value="0" if change == 0 else "below 0.000001",
             help=f"Exactly {change:.1e}: rounding in the computer's last digit."),
        dict(label="numbers of the table that changed", value=f"{100 * moved:.0f}%")],
        key="proj_rotation_metrics")
    n = min(6, len(table.vocab))
    data_table(pd.DataFrame({"word": table.vocab[:n], "column 0 before": table.E[:n, 0],
                               "column 0 after": rotated[:n, 0], "column 1 before": table.E[:n, 1],
                               "column 1 after": rotated[:n, 1]}).round(3),
                 hide_index=True, key="proj_rotation_table", column_config=layout.short_headers(
                     {}, {f"column {c} {w}": f"col {c} {w}" for c in (0, 1) for w in ("before", "after")}))


def context_view() -> None:
    g = generated()
    cfg = SOFTMAX_SETTINGS
    r = run(RunRequest("softmax", g.text, cfg, GUIDE_WINDOW))
    a, b = g.ambiguous_groups
    st.header(f"A preview of context: one “{g.ambiguous}” row, two meanings")
    st.markdown(
        f"In the generated text, “{g.ambiguous}” appears in {a} sentences and in {b} sentences, "
        "but the table gives it one row. Below, a **crude stand-in** for what later layers do: each "
        "word's vector is mixed half-and-half with the average of its neighbours' vectors (two words "
        "each side) in its own sentence. **This is not attention**, just fixed averaging, but it "
        f"already gives “{g.ambiguous}” a different vector in each kind of sentence.")
    prev = ambiguous_in_context(Vectors(r.vocab, r.E), g)
    rows = [{"vector": f"static row of “{g.ambiguous}”", "group": grp, "cosine": prev.static_cos[grp]}
            for grp in (a, b)]
    for sense in prev.senses:
        rows += [{"vector": f"mixed, in {sense} sentences", "group": grp,
                  "cosine": prev.sense_cos[sense][grp]} for grp in (a, b)]
    df = pd.DataFrame(rows)
    chart = alt.Chart(df).mark_bar().encode(
        y=alt.Y("vector:N", title=None, sort=None, axis=alt.Axis(labelLimit=300)),
        x=alt.X("cosine:Q", title="cosine to the group's centre",
                scale=alt.Scale(domain=[min(0.0, float(df.cosine.min())), 1.0])),
        yOffset="group:N",
        color=alt.Color("group:N", scale=charts.group_scale([a, b]),
                        legend=alt.Legend(orient="bottom")),
        tooltip=["vector", "group", alt.Tooltip("cosine:Q", format=".3f")],
    ).properties(width="container", height=260)
    chart_with_table(charts.style(chart, big=charts.presenting()), df.round(3), key="proj_context_table",
                     stretch=True)
    st.caption(f"The static row sits between {a} and {b}. Mixed with its sentence, it moves towards "
               f"{a} in {a} sentences and towards {b} in {b} sentences (the two mixed vectors have "
               f"cosine {prev.sense_similarity:.2f} with each other). Real models do this with "
               "attention, learned, over many layers.")
