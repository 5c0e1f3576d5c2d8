"""The Train screen's extra tabs: replay, compare, export. Widgets and display only;
every number comes from core."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import captions, charts, layout
from lab_ui.widgets.find_word import FOUND_K, ring_args
from lab_ui.widgets.pickers import PILL_WORDS, word_picker
from lab_ui.widgets.player import start_at_the_end, step_slider
from lab_ui.widgets.common import chart_with_table, data_table
from lab_ui.server.guard import show_refusal
from lab_ui.server.runs import corpus_for, run
from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP, generated as generated_corpus
from core import budget
from core.corpus import Corpus
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.generated import ambiguous_position, group_recovery
from core.honesty import neighbour_overlap
from core.senses import sense_lean
from core.negsampling import NegSamplingConfig
from core.projection import aligned_frames, pca
from core.similarity import cosine_matrix, nearest, similarity_order
from core.run import RunRequest, RunResult, shared_settings
from core.skipgram import SkipGramConfig, loss_floor
from core.vectors import Vectors

REPLAY_SECONDS = 0.35
MAX_HEATMAP_WORDS = 64     # a heatmap of 300 x 300 words is unreadable (and too heavy to draw)
COMPARE_LR_OPTIONS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)   # run B's learning rates


def generated_groups():
    return generated_corpus().groups


def heatmap_order(S: np.ndarray, corpus: Corpus) -> np.ndarray:
    """The most frequent words (at most MAX_HEATMAP_WORDS), ordered so similar ones sit together."""
    shown = corpus.most_frequent(MAX_HEATMAP_WORDS)
    return shown[similarity_order(S[np.ix_(shown, shown)])]


@st.fragment
def neighbours_panel(E: np.ndarray, S: np.ndarray, vocab: list[str]) -> None:
    """The nearest neighbours of a chosen word and the cosine of any two words. A fragment:
    choosing a word reruns only this panel (no training, no chart is redrawn)."""
    default = vocab.index("cat") if "cat" in vocab else 0
    word = word_picker("Word", vocab, vocab[default], key="train_word")
    k = min(5, len(vocab) - 1)
    nn = nearest(E, vocab.index(word), k=k)
    data_table(pd.DataFrame({"neighbour": [vocab[j] for j, _ in nn],
                               "cosine": [round(cs, 2) for _, cs in nn]}),
                 hide_index=True, key="train_nn_table")
    st.markdown("**Cosine of any two words**")
    a, b = st.columns(2) if len(vocab) > PILL_WORDS else (st.container(), st.container())
    w1 = word_picker("First word", vocab, vocab[default], key="train_w1", where=a)
    w2 = word_picker("Second word", vocab, "dog" if "dog" in vocab else vocab[1], key="train_w2", where=b)
    st.metric(f"cos({w1}, {w2})", f"{S[vocab.index(w1), vocab.index(w2)]:.2f}")


def replay_view(result: RunResult, corpus: Corpus, found: int | None = None) -> None:
    """A step scrubber over the training snapshots, with play/pause; a found word and its
    neighbours (in that step's table) ringed on each frame."""
    st.markdown("Watch the rows drift from random noise into structure. Each picture is turned "
                "to match the last one, so it does not flip or spin between steps; distances "
                "within a picture are untouched.")
    frames = aligned_frames(result.snapshots, result.snapshot_steps)
    steps = [int(s) for s in frames.steps]
    lim = float(np.abs(frames.coords).max()) * 1.1
    order = heatmap_order(cosine_matrix(result.E), corpus)
    ordered = [corpus.vocab[i] for i in order]
    playing = st.toggle("Play", key="train_replay_play",
                        help="Steps through the snapshots; switch off to pause.")
    start_at_the_end("train_replay_step", steps)

    @st.fragment(run_every=REPLAY_SECONDS if playing else None)
    def frame_view() -> None:
        step = step_slider("Training step", steps, "train_replay_step", playing)
        i = steps.index(step)
        st.markdown(f"**Step {step:,}**: loss {result.losses[step]:.3f}; the picture keeps "
                    f"{100 * frames.kept[i]:.0f}% of the spread.")
        left, right = layout.blocks(layout.HALF, layout.HALF, gap="medium")
        rings = {} if found is None else ring_args(
            neighbour_overlap(result.snapshots[i], frames.coords[i], FOUND_K), found)
        with left:
            chart_with_table(charts.scatter(frames.coords[i], corpus.vocab, corpus.vocab,
                                            domain=(-lim, lim), size=layout.HALF, title="PCA map, aligned",
                                            priority=[int(j) for j in corpus.most_frequent(corpus.V)], **rings),
                             pd.DataFrame({"word": corpus.vocab, "x": frames.coords[i][:, 0],
                                           "y": frames.coords[i][:, 1]}), key="train_replay_pca_t")
        with right:
            S = cosine_matrix(result.snapshots[i])
            chart_with_table(charts.heatmap(S[np.ix_(order, order)], ordered, size=layout.HALF,
                                            title="Cosine similarity",
                                            mark=None if found is None else corpus.vocab[found]),
                             pd.DataFrame(S, index=corpus.vocab, columns=corpus.vocab).reset_index(names="word"),
                             key="train_replay_heat_t")
            if not charts.heatmap_text(len(ordered), layout.HALF, charts.presenting())[1]:
                st.caption("The cells are too small for their numbers: they are in the table.")

    frame_view()


def compare_view(result: RunResult, corpus: Corpus, text: str, window: int, config: SkipGramConfig) -> None:
    """Run B beside run A (the sliders above, ``config`` and ``window``): same text, seed and steps."""
    st.markdown("Change one setting for a second run **B** and compare it with the run above "
                "(**A**): same text, same seed, same number of steps.")
    c = st.columns(3)                     # B starts as A: moving one slider changes one setting
    d_b = c[0].slider("B: d_model", 1, 32, config.d_model, key="train_cmp_d_model",
                      bind="query-params", help="Run B's vector width (run A's is the d_model slider above).")
    w_b = c[1].slider("B: window", 1, 5, window, key="train_cmp_window", bind="query-params",
                      help="Run B's neighbours on each side (run B gets its own training pairs).")
    lr_b = c[2].select_slider("B: learning rate", sorted({*COMPARE_LR_OPTIONS, config.lr}), config.lr,
                              key="train_cmp_lr", bind="query-params",
                              help="Run B's step size; too big and it blows up.")
    st.caption(captions.compare_settings({"d_model": config.d_model, "window": window, "learning rate": config.lr},
                                         {"d_model": d_b, "window": w_b, "learning rate": lr_b}))
    corpus_b = corpus_for(text, w_b, TRAIN_VOCAB_CAP)
    bar = st.empty()
    res_b = run(RunRequest("softmax", text, replace(config, d_model=d_b, lr=lr_b), w_b, max_vocab=TRAIN_VOCAB_CAP,
                           fit_budget=True), progress=bar, stop_key="train_cmp_stop")
    if res_b.cut is not None:
        show_refusal("Run B: " + res_b.cut.message)
    name_a = f"A: d_model {config.d_model}, window {window}, lr {config.lr:g}"
    name_b = f"B: d_model {d_b}, window {w_b}, lr {lr_b:g}"
    floors = {f"floor, window {window}": loss_floor(corpus)}
    floors[f"floor, window {w_b}"] = loss_floor(corpus_b)
    curves = {name_a: result.losses, name_b: res_b.losses}
    table = pd.DataFrame({k: pd.Series(v) for k, v in curves.items()}).rename_axis("step").reset_index()
    left, right = layout.blocks(layout.CHART, layout.PANEL, key="train_cmp")
    with left:
        chart_with_table(charts.loss_curve(curves, floors), table, key="train_cmp_table", stretch=True)
    floor_a, floor_b = loss_floor(corpus), loss_floor(corpus_b)
    if w_b == window:       # one task, one floor: the losses compare directly
        cards: list[dict] = [dict(label="A, final loss", value=f"{result.final_loss:.3f}"),
                             dict(label="B, final loss", value=f"{res_b.final_loss:.3f}",
                      delta=(f"{res_b.final_loss - result.final_loss:+.3f} vs A"     # none while B is A
                             if f"{res_b.final_loss:.3f}" != f"{result.final_loss:.3f}" else None),
                      delta_color="inverse")]
    else:                   # two floors: compare the distances above them
        gap_a, gap_b = result.final_loss - floor_a, res_b.final_loss - floor_b
        cards = [dict(label="A, final loss", value=f"{result.final_loss:.3f}"),
                 dict(label="B, final loss", value=f"{res_b.final_loss:.3f}"),
                 dict(label="A, above its floor", value=f"{gap_a:.3f}"),
                 dict(label="B, above its floor", value=f"{gap_b:.3f}", delta=f"{gap_b - gap_a:+.3f} vs A",
                      delta_color="inverse")]
    with right:
        layout.metrics(cards, key="train_cmp_metrics")
    if w_b != window and not res_b.diverged:
        st.caption(captions.floors_differ(window, floor_a, result.final_loss, w_b, floor_b, res_b.final_loss))
    if res_b.diverged:
        st.error(f"Run B blew up at step {res_b.diverged_step:,}: lower its learning rate.")
        return
    # under the row, at the page's width: A's and B's neighbours side by side need four columns,
    # more than the panel beside the chart has
    word = st.selectbox("Neighbours of", corpus.vocab, key="train_cmp_word", bind="query-params",
                        index=corpus.vocab.index("cat") if "cat" in corpus.vocab else 0)
    k = min(5, corpus.V - 1)
    rows: dict[str, list[str] | list[float]] = {}
    for name, r in (("A", result), ("B", res_b)):
        nn = nearest(r.E, corpus.vocab.index(word), k=k)
        rows[f"{name}: neighbour"] = [corpus.vocab[j] for j, _ in nn]
        rows[f"{name}: cosine"] = [round(cs, 2) for _, cs in nn]
    data_table(pd.DataFrame(rows), hide_index=True, key="train_cmp_nn")


def export_view(result: RunResult, corpus: Corpus, text: str, window: int, config: SkipGramConfig) -> None:
    """Downloads: the table, the Embedding Projector files, the PCA coordinates, a snippet."""
    st.markdown("Take the trained table with you. The two TSV files load into the Embedding "
                "Projector (projector.tensorflow.org: *Load*, then vectors first, metadata second).")
    vectors, metadata = projector_tsv(result.E, corpus.vocab)
    p = pca(result.E, k=2)
    # a row that wraps (each button as wide as its label), never four columns that cut the labels
    with st.container(horizontal=True, gap="small", key="train_downloads"):
        st.download_button("Table (CSV)", table_csv(result.E, corpus.vocab), "embedding_table.csv",
                           "text/csv", key="train_dl_csv")
        st.download_button("vectors.tsv", vectors, "vectors.tsv", "text/tab-separated-values",
                           key="train_dl_vectors")
        st.download_button("metadata.tsv", metadata, "metadata.tsv", "text/tab-separated-values",
                           key="train_dl_meta")
        st.download_button("PCA coordinates (CSV)", coords_csv(p.coords, corpus.vocab),
                           "pca_coordinates.csv", "text/csv", key="train_dl_pca")
    code = snippet(config, window, text, TRAIN_VOCAB_CAP if corpus.n_dropped_words else None)
    st.markdown("**Recreate this run in Python** (from the repository root):")
    st.code(code, language="python", wrap_lines=True)   # a long pasted text wraps instead of hiding
    st.download_button("Download the snippet", code, "recreate_run.py", "text/x-python",
                       key="train_dl_snippet")


def groups_view(result: RunResult, corpus: Corpus, generated) -> None:
    """How well the trained neighbours recover the generator's known groups, and where
    the ambiguous word's single row lands."""
    rec = group_recovery(Vectors(corpus.vocab, result.E), generated.groups, k=3)
    pos = ambiguous_position(Vectors(corpus.vocab, result.E), generated.groups, generated.ambiguous,
                             *generated.ambiguous_groups)
    st.header("Did training find the known groups?")
    a, b = generated.ambiguous_groups
    layout.metrics([
        dict(label="group recovery (k = 3)", value=f"{rec.overall:.2f}",
             help="For each group word: the share of its 3 nearest group words that are in its "
                  "own group, averaged."),
        dict(label="by pure chance", value=f"{rec.chance:.2f}"),
        dict(label=f"“{generated.ambiguous}”: cos to {a} / {b}",
             value=f"{pos.centroid_a:.2f} / {pos.centroid_b:.2f}")], key="train_groups_metrics")
    df = pd.DataFrame({"group": list(rec.per_group), "recovery": list(rec.per_group.values())})
    left, right = layout.blocks(layout.HALF, layout.HALF, gap="medium")
    with left:
        chart_with_table(charts.bars(df, "group", "recovery", "Recovery per group (1 = perfect)",
                                     fmt=".2f", horizontal=True, x_title=None, height=240),
                         pd.DataFrame({"word": list(rec.per_word), "recovery": list(rec.per_word.values()),
                                       "nearest group words": [", ".join(v) for v in rec.neighbours.values()]}),
                         key="train_groups_table", stretch=True)
    with right:
        pos_df = pd.DataFrame({"group": list(pos.to_centroid), "cosine": list(pos.to_centroid.values())})
        chart_with_table(charts.bars(pos_df, "group", "cosine",
                                     f"“{generated.ambiguous}” vs each group's centre", fmt=".2f",
                                     horizontal=True, x_title=None, height=240),
                         pos_df, key="train_bank_table", stretch=True)
    st.caption(captions.sense_reading(sense_lean(pos)))


def objectives_view(softmax: RunResult, corpus: Corpus, text: str, window: int, config: SkipGramConfig,
                    with_groups: bool) -> None:
    """Full softmax (``softmax``: the run above, trained with ``config``) against negative
    sampling on the same text, with every setting the two configs share (width, seed,
    starting noise) taken from ``config``."""
    st.markdown(
        "The full softmax scores **every** word of the vocabulary for every pair. Real word2vec "
        "(Mikolov et al., 2013) instead scores the true neighbour and a few random **negative** "
        "words, and trains on small batches. Same text, same width, same seed:")
    c = st.columns(2)
    k = c[0].slider("Negatives per pair (K)", 1, 20, 5, key="train_ns_negatives", bind="query-params",
                    help="How many random words each true pair is scored against.")
    epochs = c[1].slider("Passes over the pairs (epochs)", 1, 200,
                         10 if corpus.n_pairs > 2000 else 100, key="train_ns_epochs", bind="query-params",
                         help="How many times negative sampling goes through every (word, neighbour) pair.")
    # Budget (issue 19): price both runs before starting them; refuse what does not fit.
    work = (budget.skipgram_work(corpus.V, config.d_model, config.steps)
            + budget.negsampling_work(corpus.V, corpus.n_pairs, config.d_model, k, epochs))
    room = budget.BUDGET - budget.skipgram_work(corpus.V, config.d_model, config.steps)
    most = budget.max_negsampling_epochs(corpus.V, corpus.n_pairs, config.d_model, k, room)
    verdict = budget.check(work, f"Negative sampling for {epochs} epochs with K = {k} at d_model "
                           f"{config.d_model} on {corpus.n_pairs:,} pairs, plus the softmax run",
                           f"at most {most:,} epochs with K = {k} at this width" if most else
                           "nothing more at this width; lower d_model or the steps above")
    if not verdict.fits:
        show_refusal(verdict.message + " Nothing was trained.")
        return
    queue = st.empty()
    with st.spinner("Training negative sampling..."):
        # every setting shared with the softmax run; its own lr and batch size (defaults)
        ns_config = shared_settings(config, NegSamplingConfig, epochs=epochs, negatives=k)
        ns = run(RunRequest("negsampling", text, ns_config, window, max_vocab=TRAIN_VOCAB_CAP), progress=queue)
    if softmax.diverged or ns.diverged:
        st.error("One of the two runs blew up; lower the learning rate on the sliders above.")
        return
    rows = [{"objective": "full softmax", "cross-entropy (one scale)": softmax.cross_entropy,
             "words scored per pair": softmax.scores_per_pair, "seconds": softmax.seconds},
            {"objective": f"negative sampling, K = {k}", "cross-entropy (one scale)": ns.cross_entropy,
             "words scored per pair": ns.scores_per_pair, "seconds": ns.seconds}]
    if with_groups:
        groups = generated_groups()
        for row, r in zip(rows, (softmax, ns)):
            row["group recovery"] = group_recovery(Vectors(corpus.vocab, r.E), groups, k=3).overall
    three = {c: st.column_config.NumberColumn(format="%.3f")      # 1.890 beside 1.713, not 1.89
             for c in rows[0] if c in ("cross-entropy (one scale)", "seconds", "group recovery")}
    data_table(pd.DataFrame(rows).round(3), hide_index=True, key="train_ns_table",
                 column_config=layout.short_headers(three, {"cross-entropy (one scale)": "cross-entropy",
                                                            "words scored per pair": "words scored"}))
    st.caption(captions.objectives(corpus.V, softmax.seconds, ns.seconds, ns.scores_per_pair))
