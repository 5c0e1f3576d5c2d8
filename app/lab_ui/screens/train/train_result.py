"""The Train screen's "Result" tab: the loss curve, the similarities, the map of the words,
and the notes under them. Each panel takes what it shows as arguments; every number comes
from core."""
from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import captions, charts, layout
from lab_ui.widgets.common import chart_with_table, lazy_box, data_table
from lab_ui.widgets.find_word import FOUND_K, found_table, ring_args
from lab_ui.server.per_run import derived
from lab_ui.screens.views.projection_views import word_groups
from lab_ui.screens.train.train_views import heatmap_order, neighbours_panel
from core.corpus import Corpus
from core.honesty import neighbour_overlap
from core.projection import pca
from core.similarity import cosine_matrix
from core.run import RunResult
from core.skipgram import uniform_loss

BIG_HEATMAP = 24
"""More words than this: the heatmap gets the full width instead of half of it."""


def result_tab(result: RunResult, corpus: Corpus, floor: float, window: int, d_model: int,
               generated=None, found: int | None = None,
               find: Callable[[], int | None] | None = None) -> None:
    """The whole tab, top to bottom. ``generated``: the generator's corpus when the run was
    trained on it (its groups colour the map), else None. ``found``: the word to ring, or
    ``find``: the find box, drawn under the loss curve (above the pictures it marks), which gives it."""
    loss_panel(result, corpus, floor)
    if find is not None:
        found = find()
    if result.diverged:
        return
    S = run_cosines(result)                     # (V, V) cosine of every pair of trained rows
    order = run_heatmap_order(result, corpus)   # the words the heatmap shows, similar ones together
    size = heatmap_px(len(order))
    similarity_panel(result, corpus, S, order, size, found)
    map_panel(result, corpus, d_model, min(size, 420), generated, found, S)
    reading_notes()
    pairs_panel(corpus, window)


# What the tab derives from a run is worked out once per run and server, and shared by every
# session showing that run (lab_ui.server.per_run); lab_ui.server.warmup prepares the lesson's run's at start.
def run_cosines(result: RunResult) -> np.ndarray:
    """(V, V) cosine of every pair of the run's trained rows."""
    return derived(result, "cosine", lambda: cosine_matrix(result.E))


def run_heatmap_order(result: RunResult, corpus: Corpus) -> np.ndarray:
    """The words the heatmap shows (``corpus`` is the run's own), similar ones together."""
    return derived(result, "heatmap order", lambda: heatmap_order(run_cosines(result), corpus))


def run_pca(result: RunResult):
    """The run's rows projected on their two main directions (core.projection.pca)."""
    return derived(result, "pca", lambda: pca(result.E, k=2))


def heatmap_px(n_words: int) -> int:
    """The heatmap's side in pixels: the layout's chart size, or 11 px a word (at most 720) when
    it is shown full width."""
    return min(720, 11 * n_words) if n_words > BIG_HEATMAP else layout.chart_px()


def loss_panel(result: RunResult, corpus: Corpus, floor: float) -> None:
    """The loss curve between its two reference lines (uniform guess and floor), and what it means."""
    st.header("Loss while training")
    guess = uniform_loss(corpus.V)
    refs = {f"uniform guess: ln {corpus.V} = {guess:.3f}": guess, f"loss floor: {floor:.3f}": floor}
    with st.container(key="train_loss"):
        chart_with_table(derived(result, ("loss curve", charts.presenting()),
                                 lambda: charts.loss_curve({"this run": result.losses}, refs)),
                         derived(result, "loss table", lambda: pd.DataFrame(
                             {"step": np.arange(len(result.losses)), "loss": result.losses})),
                         key="train_loss_table", stretch=True)
    st.caption(
        "The loss is the average surprise at the true neighbour. A uniform guess over "
        f"{corpus.V} words costs ln {corpus.V}. It cannot reach 0: *the* has almost every word as "
        "a neighbour somewhere, so no model can know which one a given pair holds. The floor is "
        "the best any model can do: predict each word's real neighbour frequencies. "
        f"This run ends {result.final_loss - floor:.3f} above it.")


def similarity_panel(result: RunResult, corpus: Corpus, S: np.ndarray, order: np.ndarray,
                     size: int, found: int | None = None) -> None:
    """The cosine heatmap of the trained rows (the words of ``order``, in that order) beside a
    word's neighbours and any pair's cosine."""
    ordered = [corpus.vocab[i] for i in order]
    big = len(order) > BIG_HEATMAP
    left, right = (st.container(), st.container()) if big else layout.blocks(size, layout.PANEL,
                                                                               key="train_sim")
    with left:
        st.header(captions.vectors_title(captions.last_finite_step(result.losses)))
        mark = None if found is None else corpus.vocab[found]
        chart_with_table(derived(result, ("heatmap", size, mark, charts.presenting()),
                                 lambda: charts.heatmap(S[np.ix_(order, order)], ordered, size=size, mark=mark)),
                         derived(result, "cosine table", lambda: pd.DataFrame(
                             S, index=corpus.vocab, columns=corpus.vocab).reset_index(names="word")),
                         key="train_heatmap_table", stretch=True)
        if result.E.shape[1] == 1:
            st.caption(captions.one_dimension(S))
        if len(order) < corpus.V:
            st.caption(f"Showing the {len(order)} most frequent of the {corpus.V} words; the table "
                       "has them all.")
        if not charts.heatmap_text(len(order), size, charts.presenting())[1]:
            st.caption("The cells are too small for their numbers: they are in the table.")
        st.caption("Ordered so that similar words sit together. Orange: similar; blue: unlike; "
                   "pale: unrelated (scale fixed from -1 to 1).")
    with right:
        st.header("Neighbours")
        neighbours_panel(result.E, S, corpus.vocab)


def map_panel(result: RunResult, corpus: Corpus, d_model: int, size: int, generated=None,
              found: int | None = None, S: np.ndarray | None = None) -> None:
    """The PCA map of the trained rows (coloured by the generator's groups when given), and how
    to read it; a found word and its neighbours ringed, with the map's verdict on each."""
    left, right = layout.blocks(layout.CHART, layout.PANEL, key="train_map")
    p = run_pca(result)
    overlap = neighbour_overlap(result.E, p.coords, FOUND_K) if found is not None else None
    with left:
        st.header("Map of the words (PCA)")
        chart_with_table(derived(result, ("map", size, generated is not None, found, charts.presenting()),
                                 lambda: charts.scatter(
            p.coords, corpus.vocab, corpus.vocab, size=size,
            colour=word_groups(corpus.vocab, generated) if generated is not None else None,
            priority=[int(i) for i in corpus.most_frequent(corpus.V)],
            title=f"This flat picture keeps {100 * p.kept:.0f}% of the spread",
            **(ring_args(overlap, found) if overlap is not None else {}))),
            derived(result, "map table", lambda: pd.DataFrame(
                {"word": corpus.vocab, "direction 1": p.coords[:, 0], "direction 2": p.coords[:, 1]})),
            key="train_pca_table", stretch=True)
        if overlap is not None and found is not None and S is not None:
            data_table(found_table(corpus.vocab, found, S[found], {"PCA map": overlap}), hide_index=True,
                         key="train_found_table")
    with right:
        st.header("Reading it")
        st.markdown(captions.pca_reading(d_model, p.explained) + "\n\n"
                    "The axes mean nothing on their own; only distances and angles do. When the map "
                    "suggests something, check it with the cosines.")


def reading_notes() -> None:
    """How not to be fooled by these similarities."""
    with st.expander("How to read these similarities without being fooled"):
        st.markdown(
            "- Words that fill the same slot (*on the ___ and*: *mat*, *log*) score high: they share "
            "neighbours.\n"
            "- Two nouns can score high just because every noun follows *the*, not because they mean "
            "the same.\n"
            "- A negative score means *different neighbours*, not *opposite meaning*. Words with "
            "opposite meanings (hot, cold) often share their contexts (Mohammad et al., 2013).\n"
            "- This is skip-gram (word2vec, Mikolov et al., 2013) with a full softmax; real word2vec "
            "uses cheaper objectives such as negative sampling.")


def pairs_panel(corpus: Corpus, window: int) -> None:
    """Every (centre, context) pair the window makes, in training order (built when opened)."""
    lazy_box(f"The {corpus.n_pairs:,} (centre, context) pairs the window makes", "train_pairs_box",
             pairs_table, corpus, window)


def pairs_table(corpus: Corpus, window: int) -> None:
    st.markdown(f"For each word, every word at most {window} places away is a neighbour, "
                "in order of position. The model is trained to predict the context from the centre.")
    pairs = pd.DataFrame({"centre": [corpus.vocab[i] for i in corpus.inputs],
                          "context": [corpus.vocab[j] for j in corpus.targets]})
    data_table(pairs, key="train_pairs_table")
