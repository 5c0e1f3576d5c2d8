"""The Train screen's extra tabs: replay, compare, export. Widgets and display only;
every number comes from core."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from ui import charts
from ui.common import chart_with_table
from ui.runs import corpus_for, train_run
from core.corpus import Corpus
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.projection import aligned_frames, pca
from core.similarity import cosine_matrix, nearest, similarity_order
from core.skipgram import SkipGramConfig, TrainResult, loss_floor

PLAY_SECONDS = 0.35


def replay_view(result: TrainResult, corpus: Corpus) -> None:
    """A step scrubber over the training snapshots, with play/pause."""
    st.markdown("Watch the rows drift from random noise into structure. Each picture is turned "
                "to match the last one, so it does not flip or spin between steps; distances "
                "within a picture are untouched.")
    frames = aligned_frames(result.snapshots, result.snapshot_steps)
    steps = [int(s) for s in frames.steps]
    lim = float(np.abs(frames.coords).max()) * 1.1
    order = similarity_order(cosine_matrix(result.E))
    ordered = [corpus.vocab[i] for i in order]
    playing = st.toggle("Play", key="train_replay_play",
                        help="Steps through the snapshots; switch off to pause.")
    if st.session_state.get("train_replay_step") not in steps:
        st.session_state["train_replay_step"] = steps[-1]

    @st.fragment(run_every=PLAY_SECONDS if playing else None)
    def frame_view() -> None:
        if playing:
            i = steps.index(st.session_state["train_replay_step"])
            st.session_state["train_replay_step"] = steps[(i + 1) % len(steps)]
        step = st.select_slider("Training step", steps, key="train_replay_step")
        i = steps.index(step)
        st.markdown(f"**Step {step:,}**: loss {result.losses[step]:.3f}; the picture keeps "
                    f"{100 * frames.kept[i]:.0f}% of the spread.")
        left, right = st.columns(2, gap="medium")
        with left:
            chart_with_table(charts.scatter(frames.coords[i], corpus.vocab, corpus.vocab,
                                            domain=(-lim, lim), size=360, title="PCA map, aligned"),
                             pd.DataFrame({"word": corpus.vocab, "x": frames.coords[i][:, 0],
                                           "y": frames.coords[i][:, 1]}), key="train_replay_pca_t")
        with right:
            S = cosine_matrix(result.snapshots[i])
            chart_with_table(charts.heatmap(S[np.ix_(order, order)], ordered, size=320,
                                            title="Cosine similarity"),
                             pd.DataFrame(S, index=corpus.vocab, columns=corpus.vocab).reset_index(names="word"),
                             key="train_replay_heat_t")

    frame_view()


def compare_view(result: TrainResult, corpus: Corpus, text: str, settings: dict, max_vocab: int) -> None:
    """Run B beside run A (the sliders above): same text, seed and steps."""
    st.markdown("Change one setting for a second run **B** and compare it with the run above "
                "(**A**): same text, same seed, same number of steps.")
    c = st.columns(3)
    d_b = c[0].slider("B: d_model", 1, 32, 8 if settings["d_model"] != 8 else 2, key="train_cmp_d_model")
    w_b = c[1].slider("B: window", 1, 5, settings["window"], key="train_cmp_window")
    lr_b = c[2].select_slider("B: learning rate", [0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0],
                              settings["lr"] if settings["lr"] in (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0) else 0.5,
                              key="train_cmp_lr")
    corpus_b = corpus_for(text, w_b, max_vocab)
    bar = st.empty()
    res_b = train_run(text, w_b, d_b, lr_b, settings["steps"], settings["seed"], max_vocab=max_vocab,
                      progress=bar)
    name_a = f"A: d_model {settings['d_model']}, window {settings['window']}, lr {settings['lr']:g}"
    name_b = f"B: d_model {d_b}, window {w_b}, lr {lr_b:g}"
    floors = {f"floor, window {settings['window']}": loss_floor(corpus)}
    floors[f"floor, window {w_b}"] = loss_floor(corpus_b)
    curves = {name_a: result.losses, name_b: res_b.losses}
    table = pd.DataFrame({k: pd.Series(v) for k, v in curves.items()}).rename_axis("step").reset_index()
    chart_with_table(charts.loss_curve(curves, floors), table, key="train_cmp_table", stretch=True)
    m = st.columns(2)
    m[0].metric(f"A, final loss", f"{result.final_loss:.3f}")
    m[1].metric(f"B, final loss", f"{res_b.final_loss:.3f}",
                delta=f"{res_b.final_loss - result.final_loss:+.3f} vs A", delta_color="inverse")
    if res_b.diverged:
        st.error(f"Run B blew up at step {res_b.diverged_step:,}: lower its learning rate.")
        return
    word = st.selectbox("Neighbours of", corpus.vocab, key="train_cmp_word",
                        index=corpus.vocab.index("cat") if "cat" in corpus.vocab else 0)
    k = min(5, corpus.V - 1)
    rows = {}
    for name, r in (("A", result), ("B", res_b)):
        nn = nearest(r.E, corpus.vocab.index(word), k=k)
        rows[f"{name}: neighbour"] = [corpus.vocab[j] for j, _ in nn]
        rows[f"{name}: cosine"] = [round(cs, 2) for _, cs in nn]
    st.dataframe(pd.DataFrame(rows), hide_index=True, key="train_cmp_nn")


def export_view(result: TrainResult, corpus: Corpus, text: str, settings: dict) -> None:
    """Downloads: the table, the Embedding Projector files, the PCA coordinates, a snippet."""
    st.markdown("Take the trained table with you. The two TSV files load into the Embedding "
                "Projector (projector.tensorflow.org: *Load*, then vectors first, metadata second).")
    vectors, metadata = projector_tsv(result.E, corpus.vocab)
    p = pca(result.E, k=2)
    c = st.columns(4)
    c[0].download_button("Table (CSV)", table_csv(result.E, corpus.vocab), "embedding_table.csv",
                         "text/csv", key="train_dl_csv")
    c[1].download_button("vectors.tsv", vectors, "vectors.tsv", "text/tab-separated-values",
                         key="train_dl_vectors")
    c[2].download_button("metadata.tsv", metadata, "metadata.tsv", "text/tab-separated-values",
                         key="train_dl_meta")
    c[3].download_button("PCA coordinates (CSV)", coords_csv(p.coords, corpus.vocab),
                         "pca_coordinates.csv", "text/csv", key="train_dl_pca")
    config = SkipGramConfig(d_model=settings["d_model"], lr=settings["lr"], steps=settings["steps"],
                            seed=settings["seed"])
    code = snippet(config, settings["window"], text,
                   settings["max_vocab"] if corpus.n_dropped_words else None)
    st.markdown("**Recreate this run in Python** (from the repository root):")
    st.code(code, language="python")
    st.download_button("Download the snippet", code, "recreate_run.py", "text/x-python",
                       key="train_dl_snippet")
