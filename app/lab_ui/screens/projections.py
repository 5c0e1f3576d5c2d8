"""Screen 8, Projections: a toy table drawn by PCA and t-SNE, or a real table drawn once by PCA, each
checked against the cosines."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table, intro, data_table
from lab_ui.widgets.inputs import whole_input
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.projection_views import Picture, Table, context_view, pictures, rotation_view, trained_table
from lab_ui.screens.views.tsne_motion import tsne_motion_view
from lab_ui.widgets.find_word import find_box, found_table, ring_args
from lab_ui.screens.views.real_map_view import real_map_view
from lab_ui.screens.views.real_models import REAL_TABLES
from core.pretrained import MODELS_INSTALL, installed
from core.similarity import cosine_matrix

KEPT_K = 5   # k of the neighbourhood kept by each picture


FIND_PX = 300    # the find box's block, beside the seed
RESET_PX = 230   # the reset button's block


def main() -> None:
    head = st.container()          # the intro, written once the controls say what is drawn
    source, perps, seed, find_where = picture_controls()
    with head:
        intro("8. Projections: looking without being fooled", intro_words(source in REAL_TABLES, len(perps)))
    if source in REAL_TABLES:
        real_map_view(REAL_TABLES[source], source)
        st.divider()
        st.caption("The moving t-SNE picture and the rotation check below the toy tables need every pair "
                   "of words: choose a toy table above to see them.")
        context_view()
        return
    table = trained_table(source)
    if not perps:
        st.info("Pick at least one perplexity to draw a t-SNE picture next to PCA.")
    shown = pictures(table, perps, seed, KEPT_K)
    with find_where:
        found = find_box("proj_find", table.vocab)
    pictures_row(table, shown, found)
    if source.startswith("Word groups"):     # how to read them, after the pictures
        st.caption(f"{len(table.vocab)} words, coloured by their known group (grey: words outside the groups). "
                   "The most frequent words are labelled where a label fits; every word is in the table "
                   "under each picture (and under the mouse pointer).")
    if found is not None:
        found_panel(table, shown, found)
    neighbours_kept(shown, KEPT_K)
    st.divider()
    tsne_motion_view(table.E, table.vocab, table.colour, table.priority, found)
    st.divider()
    rotation_view(table)
    st.divider()
    context_view()


COUNTS = ["one", "two", "three", "four"]


def intro_words(real: bool, perplexities: int) -> str:
    """What the screen draws: a real table once, by PCA; a toy table by PCA and by t-SNE at each
    chosen perplexity."""
    start = ("A table of many columns has to be squashed to draw it on a screen, and every squashing "
             "loses something. ")
    if real:
        return start + ("Here the first rows of a real model's table, thousands of words, are drawn once, "
                        "by PCA, and the map is checked against the cosines. **Try:** find a word on the "
                        "map and see which of its nearest words the map keeps near it.")
    if perplexities == 0:
        return start + ("Here the trained table is drawn by PCA only. **Try:** pick a t-SNE perplexity "
                        "to draw it a second way; then check each picture against the cosines.")
    return start + (f"Here the same trained table is drawn {COUNTS[perplexities]} ways: by PCA, and by "
                    f"t-SNE at {'the perplexity' if perplexities == 1 else 'each perplexity'} you picked. "
                    "**Try:** change the t-SNE settings and see the pictures disagree; then check each "
                    "one against the cosines.")


def picture_controls():
    """Which table, which t-SNE perplexities and seed (a typo in the seed stops the screen), and
    the block for the find box: under the bar, one row holds the seed, the find box and the reset
    (in presenter mode the first picture then starts in the first view of 1280x720)."""
    bar = layout.controls_bar("proj")      # one row at 853 px: the seed sits under the bar
    under = layout.blocks(layout.MIN_CONTROL, FIND_PX, RESET_PX, key="proj_under", gap="small")
    c = [layout.control(bar, 230), layout.control(bar, 250), under[0]]
    with under[2]:
        reset_button("proj_", key="proj_reset")
    real = [shown for shown, name in REAL_TABLES.items() if installed(name)]
    source = c[0].radio("Table", ["Word groups (generated)", "The lesson's 33 words", *real], horizontal=False,
                        key="proj_source", bind="query-params",
                        help="The first two are trained on the Train screen's settings for their text; "
                             "the real ones are read from the installed model files.")
    real_table = source in REAL_TABLES     # drawn by PCA only: the t-SNE settings do nothing there
    perps = c[1].multiselect("t-SNE perplexities (up to 3)", [2, 5, 10, 30, 50], default=[2, 5, 30],
                             max_selections=3, key="proj_perplexities", bind="query-params", disabled=real_table,
                             help="Roughly how many neighbours each point tries to keep close. "
                                  "Not the perplexity of a language model."
                                  + (" A real table is drawn by PCA only, so this is off." if real_table else ""))
    seed = whole_input("t-SNE seed", 0, 1000, 0, "proj_seed", where=c[2], bind="query-params", disabled=real_table)
    if seed is None:
        st.stop()
    if len(real) < len(REAL_TABLES):
        st.caption("Real tables not installed here: "
                   f"{', '.join(t for t in REAL_TABLES if t not in real)} (`{MODELS_INSTALL}`).")
    return source, tuple(int(p) for p in perps), int(seed), under[1]


def found_panel(table: Table, shown: list[Picture], found: int) -> None:
    """The found word's neighbours in the table, and which pictures keep each of them near."""
    st.markdown(f"**{table.vocab[found]}**: its {KEPT_K} nearest words by cosine in the full table, "
                "and whether each picture keeps them among its nearest points. “far” marks a neighbour "
                "the picture places far away: a dashed orange ring on that picture.")
    data_table(found_table(table.vocab, found, cosine_matrix(table.E)[found],
                             {p.name: p.overlap for p in shown}), hide_index=True, key="proj_found_table")


def pictures_row(table: Table, shown: list[Picture], found: int | None = None) -> None:
    """The pictures side by side (one a row for a projector), each with its table and note; a
    found word and its neighbours ringed on each."""
    px = layout.BIG_CHART if charts.presenting() else layout.GRID   # presenter: one big picture a row
    cols = layout.blocks(*[px] * len(shown), gap="medium", key="proj_pictures")
    for i, pic in enumerate(shown):
        with cols[i]:
            chart_with_table(charts.scatter(pic.coords, table.vocab, table.vocab, colour=table.colour,
                                            title=pic.title, size=px, labels=table.labels,
                                            priority=table.priority, xtitle="", ytitle="",
                                            **ring_args(pic.overlap, found)),
                             pd.DataFrame({"word": table.vocab, "x": pic.coords[:, 0], "y": pic.coords[:, 1],
                                           "neighbours kept": pic.overlap.per_row}),
                             key=f"proj_pic_{i}")
            st.caption(pic.note)


def neighbours_kept(shown: list[Picture], k: int) -> None:
    """Each picture's share of the k nearest neighbours it kept."""
    st.header("How much of each word's neighbourhood survived?")
    st.markdown(f"For every word, take its {k} nearest words by cosine in the full table, then its {k} "
                "nearest in the picture. The score is the share they have in common, averaged over "
                "words: 100% means the picture kept every neighbourhood.")
    score = pd.DataFrame({"picture": [p.name for p in shown],
                          "neighbours kept (%)": [100 * p.overlap.mean for p in shown]})
    chart_with_table(charts.bars(score, "picture", "neighbours kept (%)", fmt=".0f", horizontal=True,
                                 x_title=None, height=40 * len(shown) + 40, domain=(0, 100)),
                     score, key="proj_score_table", stretch=True)
    st.caption("Clusters in a t-SNE picture are hints to check with cosines, not findings: its look "
               "depends on the perplexity (van der Maaten & Hinton, 2008; Wattenberg, Viégas & "
               "Johnson, 2016). PCA keeps the large-scale layout but drops whatever spread lies "
               "outside its two directions.")


main()
