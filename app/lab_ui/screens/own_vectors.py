"""10. Your own vectors: the Similarity, Projections and Limits views on an uploaded table."""
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.captions import direction_note, order_verdict
from lab_ui.widgets.common import chart_with_table, data_table, error, intro, plain
from lab_ui.screens.views.own_vectors_view import HEATMAP_ROWS, PICTURE_ROWS, lesson_files, parsed, table_key
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.projection_views import tsne_picture
from lab_ui.screens.views.real_models import REAL_TABLES, real_or_none, table_choice
from core.pretrained import as_words, installed
from core.honesty import neighbour_overlap
from core.projection import pca
from core.labels import read_sentence
from core.similarity import cosine, cosine_matrix, mean_embedding, nearest
from core.vectors_io import MAX_BYTES, MAX_DIMS, MAX_ROWS, VectorsError, directions, with_direction
from core.vectors_io import Vectors as VectorsFile

K = 5
REAL_ROW_CHOICES = [300, 1_000, 5_000]     # rows of a real table (5,000: the cosine matrices' limit)


@dataclass(frozen=True)
class TableFile:
    """A real table's rows, ready as if read from the two files."""
    table: VectorsFile
    source: str


def _show_upload() -> None:
    """A file just uploaded is what the page shows: the lesson's table switches off (and on
    again when the file is removed)."""
    st.session_state["own_lesson"] = st.session_state.get("own_vectors") is None


def files() -> tuple[bytes, bytes | None, str] | TableFile | None:
    c1, c2 = st.columns(2, gap="large")
    vec = c1.file_uploader("vectors.tsv", type=["tsv", "txt"], key="own_vectors", on_change=_show_upload,
                           help="One row per word, numbers separated by tabs, no header.")
    meta = c2.file_uploader("metadata.tsv (optional)", type=["tsv", "txt"], key="own_metadata",
                            help="One word per line, in the same order as the rows.")
    use_lesson = st.toggle("Or use the lesson's table (the Train screen's reference run, as its Export tab "
                           "writes it)", value=vec is None, key="own_lesson", bind="query-params")
    if use_lesson:
        name = table_choice(st, "own_table")
        if name is not None:
            return real_rows(name)
        v, m = lesson_files()
        return v, m, "the lesson's table"
    if vec is None:
        st.info("Upload a vectors.tsv (and its metadata.tsv), for instance the two files the Train "
                "screen's Export tab or TensorFlow's Embedding Projector writes.")
        return None
    return vec.getvalue(), None if meta is None else meta.getvalue(), "your files"


def real_rows(name: str) -> TableFile | None:
    """The first rows of a real table, at most ``REAL_ROWS``: GloVe's commonest words; for
    SmolLM2, its rows of the same words (a leading space, as inside a sentence) when GloVe is
    installed, else its first token ids."""
    count = st.select_slider("Rows (the commonest words)", REAL_ROW_CHOICES, REAL_ROW_CHOICES[0],
                             key="own_real_rows", bind="query-params")
    real = real_or_none(name)
    if real is None:
        return None
    title = next(shown for shown, n in REAL_TABLES.items() if n == name)
    if name == "glove-6b-50d":
        sub, how = real.first(count), f"{title}: its {count:,} commonest words"
    elif installed("glove-6b-50d"):
        glove = real_or_none("glove-6b-50d")
        sub, _ = as_words(real, name, glove.labels[:2 * count]) if glove is not None else (real.first(count), [])
        sub = sub.first(count)
        how = (f"{title}: its rows of GloVe's commonest words that are one token with their leading "
               f"space (“ the”, “ cat”), {len(sub):,} of them")
    else:
        sub, how = real.first(count), f"{title}: its first {count:,} token ids"
    return TableFile(VectorsFile(np.asarray(sub.E, dtype=np.float64), list(sub.labels)), how)


def similarity_panel(E, words) -> None:
    st.header("Similarity: nearest words by cosine")
    word = st.selectbox("Word", words, key=f"own_word_{table_key(words)}")
    i = words.index(word)
    near = nearest(E, i, k=min(K, len(words) - 1))
    data_table(pd.DataFrame({"word": [words[j] for j, _ in near], "cosine": [c for _, c in near]}),
                 hide_index=True, key="own_nearest")
    n = min(HEATMAP_ROWS, len(words))
    S = cosine_matrix(E[:n])
    spec = charts.heatmap(S, words[:n], title=f"Cosine between the first {n} rows", size=layout.chart_px(),
                          big=st.session_state.get("present_mode", False))
    chart_with_table(spec, charts.matrix_frame(S, words[:n]), key="own_heatmap_table")


def projections_panel(E, words) -> None:
    st.header("Projections: PCA and t-SNE, and what each kept")
    n = min(PICTURE_ROWS, len(words))
    if n < 4:
        st.info("Pictures need at least 4 rows.")
        return
    perplexity = layout.controls_bar("own").select_slider("t-SNE perplexity", [2, 5, 10, 30, 50], 5,
                                                          key="own_perplexity", bind="query-params")
    X, names = E[:n], words[:n]
    p = pca(X, k=2)
    t = tsne_picture(X, float(perplexity), 0)
    pics = [(f"PCA: keeps {100 * p.kept:.0f}% of the spread", p.coords),
            (f"t-SNE, perplexity {perplexity}", t.coords)]
    cols = layout.blocks(layout.HALF, layout.HALF, gap="medium", key="own_pictures")
    for col, (title, coords), i in zip(cols, pics, range(2)):
        kept = neighbour_overlap(X, coords, min(K, n - 1))
        with col:
            chart_with_table(charts.scatter(coords, names, names, title=f"{title}; {100 * kept.mean:.0f}% of neighbours",
                                            size=layout.HALF, labels=n <= 60, xtitle="", ytitle=""),
                             pd.DataFrame({"word": names, "x": coords[:, 0], "y": coords[:, 1],
                                           "neighbours kept": kept.per_row}), key=f"own_pic_{i}")
    st.caption(f"Each score is the share of every word's {min(K, n - 1)} nearest words by cosine in the full "
               f"table that are also its nearest in the picture." +
               (f" Pictures use the first {PICTURE_ROWS} of the {len(words):,} rows." if len(words) > n else ""))


def limits_panel(E, words) -> None:
    st.header("Limits: the average of a sentence forgets its order")
    st.caption("Type labels of your table, separated by spaces, as the lists above show them (a label "
               "may hold spaces of its own: at each place the longest label that fits is read).")
    c1, c2 = st.columns(2, gap="large")
    a = c1.text_input("Sentence A", " ".join(words[:3]), key=f"own_a_{table_key(words)}", max_chars=500)
    b = c2.text_input("Sentence B", " ".join(reversed(words[:3])), key=f"own_b_{table_key(words)}", max_chars=500)
    (ids_a, unknown_a), (ids_b, unknown_b) = read_sentence(a, words), read_sentence(b, words)
    unknown = unknown_a + unknown_b
    if unknown or not ids_a or not ids_b:
        error("Each sentence needs at least one word, and only words of the table: "
              + (f"not in it: {', '.join(unknown[:5])}." if unknown else "one is empty."))
        return
    mean_a, mean_b = mean_embedding(E, ids_a), mean_embedding(E, ids_b)
    same = bool((mean_a == mean_b).all())
    # The words come from the user's file: quoted literally inside the verdict's own Markdown.
    kind, verdict = order_verdict([plain(words[i]) for i in ids_a], [plain(words[i]) for i in ids_b], same,
                                  cosine(mean_a, mean_b))
    {"collapsed": st.warning, "same-sentence": st.info, "different": st.info}[kind](verdict)


def main() -> None:
    intro("10. Your own vectors",
          "Bring a table of vectors from elsewhere, in the Embedding Projector's two files, and look at it "
          "with this app's views: nearest words, pictures with their honesty scores, and the average of "
          "a sentence. **Try:** export a run from the Train screen and load it back here.")
    reset_button("own_", key="own_reset")
    got = files()
    if got is None:
        return
    if isinstance(got, TableFile):
        table, source = got.table, got.source
        metadata: bytes | None = b""
    else:
        vectors, metadata, source = got
        try:
            table = parsed(vectors, metadata)
        except VectorsError as err:
            error(err)
            st.caption(f"Limits: each file at most {MAX_BYTES:,} bytes, at most {MAX_ROWS:,} rows of at most "
                       f"{MAX_DIMS:,} numbers.")
            return
    layout.metrics([dict(label="rows", value=f"{len(table.words):,}"),
                    dict(label="numbers per row", value=f"{table.E.shape[1]:,}"),
                    dict(label="repeated labels renamed", value=f"{table.renamed:,}")], key="own_metrics")
    st.caption(f"Read from {source}." + ("" if metadata is not None else
                                          " Without metadata.tsv the rows are called row 0, row 1, ...")
               + (f" Every number was divided by {table.scale:.3g}, the largest in size: numbers this far "
                  "from 1 would overflow or vanish when squared. Cosines, neighbours and the shapes of "
                  "the pictures do not change." if table.scale != 1 else ""))
    if len(table.words) < 2:
        st.info("One row has no neighbours: upload at least two.")
        return
    found = directions(table.E)
    shown = with_direction(table, found.zero)
    if found.zero:
        st.warning(direction_note([plain(table.words[i]) for i in found.zero], len(shown.words)))
    if len(shown.words) >= 2:
        similarity_panel(shown.E, shown.words)
        if found.one_way:
            st.info(f"All {len(shown.words):,} rows with a direction point the same way: every cosine "
                    "between them is 1, so every word is as near to one as to another: there are no "
                    "neighbours to keep, and no picture to draw or score.")
        else:
            projections_panel(shown.E, shown.words)
    limits_panel(table.E, table.words)


main()
