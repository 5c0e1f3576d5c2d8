"""The Train screen for a big own text: word2vec with an estimate, live progress and Stop.

The run is the run service's background run (``lab_ui.server.runs.start``, then ``poll``):
a ``RunRequest`` priced by ``core.run.estimate``, waiting for a slot of the LONG lane and
computed, text splitting included, in a background worker process, so the page stays live
and the server's interpreter stays free for the class. A fragment redraws the progress bar
once a second and its Stop button asks the trainer to stop (core.word2vec's callback
contract), keeping the vectors reached so far. A run whose browser tab has closed is
stopped too, and every run's end is written to the server's log. Counting a long text's
words (``size_of``) is a job of its own in a worker too. Widgets and display only; every
number comes from core.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts
from lab_ui.widgets.common import chart_with_table, data_table, plain
from lab_ui.server import runs
from lab_ui.server.bigtext_jobs import is_big, size_of
from lab_ui.server.runs import LongRun

from core.budget import WORD2VEC_WORDS_PER_SECOND
from core.bigtext import EPOCH_CHOICES, MAX_SOFTMAX_VOCAB, sense_split, suggested_epochs
from core.projection import pca
from core.similarity import cosine_matrix, nearest, similarity_order
from core.vectors import Vectors
from core.run import RunRequest, RunResult, estimate
from core.word2vec import Word2VecConfig

__all__ = ["is_big", "show", "size_of"]

JOB = "train_w2v_job"
HEATMAP_WORDS = 30
MAP_WORDS = 50
NEIGHBOURS_LISTED = 10
WORD_BOX = 60
"""Longest word the two word boxes take."""
POLL_SECONDS = 1.0
"""How often an open tab's progress fragment reruns while its job waits or trains. Each rerun
costs the server's interpreter about 10-20 ms (a few more with a big widget state), and one
student's five tabs poll all the time, waiting ones too: at 0.5 s that was ten reruns a
second for the others' reruns to take turns with; a word2vec run takes minutes."""


def show(text: str, note: str, seed_control: Callable[[Any], int]) -> None:
    """The whole big-text path of the Train screen; ``seed_control(column)`` draws the Seed box."""
    size = size_of(text)
    st.info((note + " " if note else "") +
            f"This text has {size.n_words:,} words, {size.n_distinct:,} of them different: more than "
            f"{MAX_SOFTMAX_VOCAB}, so it is trained with **word2vec's negative sampling** (each pair "
            f"scores its true word and 5 random ones) instead of the lesson's full softmax (which would "
            f"score all {size.n_distinct:,} words for every pair). Its settings are below (the lesson's "
            "sliders return with a smaller text). Lines are sentences: windows stop at line ends.")
    c = st.columns(5)
    d_model = c[0].select_slider("Vector size", [10, 25, 50, 100], 50, key="train_w2v_d",
                                 help="d_model: how many numbers each word's vector has.")
    window = c[1].slider("Window", 1, 10, 5, key="train_w2v_window",
                         help="Largest look to each side; each word draws a window from 1 to this.")
    epochs = c[2].select_slider("Epochs", EPOCH_CHOICES, suggested_epochs(size.n_words),
                                key="train_w2v_epochs", help="Passes over the text.")
    min_count = c[3].select_slider("Min. count", [1, 2, 3, 5, 10], 5, key="train_w2v_min_count",
                                   help="Words seen fewer times than this get no vector.")
    seed = seed_control(c[4])
    config = Word2VecConfig(d_model=int(d_model), window=int(window), epochs=int(epochs),
                            min_count=int(min_count), seed=int(seed))
    request = RunRequest("word2vec", text, config)
    est = estimate(request, size.n_words)
    st.markdown(f"**Work:** {size.n_words:,} words × {config.epochs} epochs = {est.words_to_read:,} "
                f"words to read; about **{_duration(est.seconds)}** at this machine's measured speed "
                f"(about {WORD2VEC_WORDS_PER_SECOND:,} words per second at vector size 50, window 5).")
    if not est.within_budget:
        st.warning("That is more than one run may take on this shared machine. Choose fewer epochs "
                   "or a shorter text.")
        return
    job = runs.poll(JOB)
    running = job is not None and not job.finished.is_set()
    label = "Train word2vec" if job is None or job.request != request else "Train again"
    if st.button(label, key="train_w2v_start", type="primary", disabled=running):
        job = runs.start(request, size.n_words, JOB)     # a new run stops this tab's old one
    if job is None or job.request != request:
        st.caption("Press the button to start; the vectors appear when training ends or you stop it.")
        return
    job_view(job)


def job_view(job: LongRun) -> None:
    """The job's progress (a fragment), then its result once it has ended."""
    finished = job.finished.is_set()
    if finished:
        job.shown = True                      # this page run draws the result
    progress_view()
    if finished:
        results_view(job)


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} seconds" if seconds < 90 else f"{seconds / 60:.1f} minutes"


@st.fragment(run_every=POLL_SECONDS)
def progress_view() -> None:
    """The progress bar, words per second and the Stop button while the job runs."""
    job = runs.poll(JOB)
    if job is not None:
        watch(job)


def watch(job: LongRun) -> None:
    """One tick of ``progress_view``: the job's place in the queue or its progress; once it
    has ended, a whole-page run to draw its result, asked for again at every tick until a
    page run has drawn it (``show`` marks it shown), so a page run that is lost (a tab in
    the background, a rerun that replaced it) cannot lose the result."""
    if not job.finished.is_set() and job.place is not None:
        st.progress(0.0, text=f"Waiting for a free slot: other long runs are using the server "
                              f"(place {job.place} in the queue)." if job.place else
                              "Waiting: another run of yours (in this tab or another tab of this browser) "
                              "is training or waiting; this one starts when it is over.")
        if st.button("Stop", key="train_w2v_stop", help="Leave the queue."):
            job.stop.set()
    elif not job.finished.is_set():
        share = min(1.0, job.done / job.total)
        st.progress(share, text=f"Training: {job.done:,} of {job.total:,} words read "
                                f"({100 * share:.0f}%), {job.words_per_second:,.0f} words per second")
        if st.button("Stop", key="train_w2v_stop", help="Stop now and keep the vectors learned so far."):
            job.stop.set()
    elif not job.shown:
        st.rerun(scope="app")
    elif job.result is not None:
        share = min(1.0, job.result.words_done / job.total)
        st.progress(share, text=f"Done: {job.result.words_done:,} of {job.total:,} words read ({100 * share:.0f}%).")


def results_view(job: LongRun) -> None:
    r = job.result
    if job.error or r is None:          # a finished run without an error has its result
        st.error(plain(job.error or "Training ended without a result."))
        return
    config = job.request.config
    assert isinstance(config, Word2VecConfig)
    if r.stopped:
        st.warning(f"Stopped after {r.words_done:,} of {job.total:,} words: these are the vectors "
                   "learned so far.")
    if r.diverged:
        st.error("Training stopped because the numbers blew up; try a smaller window or vector size.")
    st.markdown(f"**{len(r.vocab):,}** words have a vector (seen at least {config.min_count} times). "
                f"**{r.words_done:,}** words read in **{r.seconds:.1f} s**: "
                f"**{r.words_per_second:,.0f}** words per second.")
    if len(r.vocab) < 3:
        st.warning("Fewer than three words are frequent enough to have a vector; lower the minimum count.")
        return
    neighbours_view(r)
    frequent_view(r)
    ambiguous_view(r)


def _lookup(r: RunResult, label: str, key: str, default: str) -> int | None:
    word = st.text_input(label, default, key=key, max_chars=WORD_BOX).strip().casefold()
    index = _index(r)
    if word in index:
        return index[word]
    st.info(f"“{plain(word)}” has no vector: it is not in the text, or not frequent enough "
            "(see the minimum count).")
    return None


def _index(r: RunResult) -> dict[str, int]:
    job = st.session_state.get(JOB)
    if job is not None and job.result is r:
        if getattr(job, "index", None) is None:
            job.index = {w: i for i, w in enumerate(r.vocab)}
        return job.index
    return {w: i for i, w in enumerate(r.vocab)}


def neighbours_view(r: RunResult) -> None:
    st.header("Nearest neighbours")
    i = _lookup(r, "Type a word", "train_w2v_word", _default_word(r))
    if i is None:
        return
    nn = nearest(r.E, i, k=min(NEIGHBOURS_LISTED, len(r.vocab) - 1))
    data_table(pd.DataFrame({"neighbour": [r.vocab[j] for j, _ in nn],
                               "cosine": [round(c, 2) for _, c in nn],
                               "count in the text": [int(r.counts[j]) for j, _ in nn]}),
                 hide_index=True, key="train_w2v_nn")


def _default_word(r: RunResult) -> str:
    """"bank" when the text has it, else the most frequent word of four letters or more that
    fits the word boxes (a longer one would be cut there, and then have no vector)."""
    if "bank" in r.vocab:
        return "bank"
    fits = [w for w in r.vocab if len(w) <= WORD_BOX]
    return next((w for w in fits if len(w) >= 4), fits[0] if fits else "")


def frequent_view(r: RunResult) -> None:
    n_heat, n_map = min(HEATMAP_WORDS, len(r.vocab)), min(MAP_WORDS, len(r.vocab))
    S = cosine_matrix(r.E[:n_heat])
    order = similarity_order(S)
    words = [r.vocab[i] for i in order]
    st.header(f"The {n_heat} most frequent words: cosine similarity")
    chart_with_table(charts.heatmap(S[np.ix_(order, order)], words, size=12 * n_heat),
                     pd.DataFrame(S, index=r.vocab[:n_heat], columns=r.vocab[:n_heat]).reset_index(names="word"),
                     key="train_w2v_heat_table")
    st.caption(f"Showing the {n_heat} most frequent of the {len(r.vocab):,} words with a vector, "
               "ordered so similar words sit together (scale fixed from -1 to 1).")
    p = pca(r.E[:n_map], k=2)
    st.header(f"Map of the {n_map} most frequent words (PCA)")
    chart_with_table(charts.scatter(p.coords, r.vocab[:n_map], r.vocab[:n_map], size=420,
                                    title=f"This flat picture keeps {100 * p.kept:.0f}% of the spread"),
                     pd.DataFrame({"word": r.vocab[:n_map], "direction 1": p.coords[:, 0],
                                   "direction 2": p.coords[:, 1]}), key="train_w2v_pca_table")


def ambiguous_view(r: RunResult) -> None:
    st.header("One vector, two meanings?")
    st.markdown("A word with two meanings still gets one vector. Its nearest neighbours then often "
                "fall into two groups, one per meaning. Pick a word: its 12 nearest neighbours are "
                "split in two along the direction in which they differ most.")
    i = _lookup(r, "Word to examine", "train_w2v_ambiguous", _default_word(r))
    if i is None:
        return
    s = sense_split(Vectors(r.vocab, r.E), r.vocab[i])
    p = s.position
    m = st.columns(2)
    for col, (name, members) in zip(m, s.groups.items()):
        cos = p.centroid_a if name == p.group_a else p.centroid_b
        col.metric(f"cosine to {name}'s centre", f"{cos:.2f}")
        col.markdown(f"**{name}:** " + ", ".join(plain(w) for w in members))   # each word bounded
    words = [s.word] + [w for w, _ in s.neighbours]
    colour = ["the word"] + ["group 1" if w in s.groups["group 1"] else "group 2" for w, _ in s.neighbours]
    chart_with_table(charts.scatter(s.coords, words, words, colour=colour, size=420,
                                    title=f"“{s.word}” and its neighbours (PCA)"),
                     pd.DataFrame({"word": words, "group": colour,
                                   "cosine to the word": [1.0] + [round(c, 2) for _, c in s.neighbours]}),
                     key="train_w2v_amb_table")
    closer = p.group_a if p.centroid_a >= p.centroid_b else p.group_b
    st.caption(f"“{s.word}” has cosine {p.centroid_a:.2f} to group 1's centre and {p.centroid_b:.2f} to "
               f"group 2's: it sits closer to {closer}. If both groups make sense as meanings of "
               f"“{s.word}”, its one vector mixes them; contextual models give each use its own vector.")
