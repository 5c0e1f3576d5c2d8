"""3c. CBOW next to skip-gram: word2vec's two architectures, trained on the same text."""
import logging

import streamlit as st

from lab_ui.widgets import captions, charts, layout
from lab_ui.screens.views.cbow_view import (DEFAULTS, NN_HEADERS, SIGNAL_HEADERS, cbow_requests, controls, loss_table, milliseconds,
                              neighbour_table, signals_table)
from lab_ui.widgets.common import chart_with_table, data_table, intro, more
from lab_ui.lesson.presenter import reset_button
from lab_ui.server.runs import corpus_for, run
from core import cbow
from core.corpus import GUIDE_TEXT
from core.similarity import nearest, neighbour_overlap
from core.skipgram import loss_floor


def train_both(config, window):
    """Both runs, from the server's one run cache (skip-gram's is the one the other screens
    share) and their training seconds; None if training failed."""
    sg_request, cb_request = cbow_requests(config, window)
    try:
        sg = run(sg_request)
        with st.spinner("Training CBOW..."):
            cb = run(cb_request)
        sg_seconds, cb_seconds = sg.seconds, cb.seconds
    except Exception:  # a bug must not show a traceback; the log keeps the details
        logging.getLogger(__name__).exception("CBOW comparison failed")
        st.error("Training stopped with an unexpected error, so there is nothing to show for these "
                 "settings. Try other settings; if it happens again, tell your teacher.")
        return None
    return sg, cb, sg_seconds, cb_seconds


def loss_panel(corpus, sg, cb, floors) -> None:
    st.header("Loss while training")
    refs = {f"skip-gram floor: {floors['skip-gram']:.3f}": floors["skip-gram"],
            f"CBOW floor: {floors['CBOW']:.3f}": floors["CBOW"]}
    with st.container(key="cbow_loss"):
        chart_with_table(charts.loss_curve({"skip-gram": sg.losses, "CBOW": cb.losses}, refs),
                         loss_table(sg, cb), key="cbow_loss_table", stretch=True)
    st.caption(f"Both start near ln {corpus.V} = {cbow.uniform(corpus):.3f}, the cost of a uniform guess "
               f"over {corpus.V} words. Each dashed line is the best its model could ever do on this text.")


def metrics_panel(corpus, sg, cb, floors, sg_seconds, cb_seconds) -> None:
    for name, r, seconds, what in (("skip-gram", sg, sg_seconds, f"{corpus.n_pairs} (word, neighbour)"),
                                   ("CBOW", cb, cb_seconds, f"{len(corpus.words)} (neighbours, word)")):
        layout.metrics([
            dict(label=f"{name}: final loss", value=f"{r.final_loss:.3f}",
                 help=f"Mean over its {what} predictions."),
            dict(label=f"{name}: floor", value=f"{floors[name]:.3f}",
                 help="The lowest loss any such model can reach on this text."),
            dict(label=f"{name}: time", value=milliseconds(seconds),
                 help="Measured on this machine, one run; it varies with the machine and its load."),
        ], key=f"cbow_metrics_{name}")
    st.caption(f"Training times are this machine's, for one run of {len(sg.losses) - 1:,} steps "
               "each: they change from run to run and from computer to computer.")


def diverged_note(sg, cb) -> bool:
    bad = [name for name, r in (("skip-gram", sg), ("CBOW", cb)) if r.diverged]
    for name, r in (("skip-gram", sg), ("CBOW", cb)):
        if r.diverged:
            st.error(f"{name} blew up at step {r.diverged_step:,}: the learning rate is too large. "
                     "Its curve stops at the last finite loss; lower the learning rate.")
    return bool(bad)


def neighbours_panel(corpus, sg, cb) -> tuple[str, int, list[int]]:
    st.header("Nearest words in each table")
    left, right = st.columns(2)
    default = corpus.vocab.index("cat")
    word = left.selectbox("Neighbours of", corpus.vocab, index=default, key="cbow_word", bind="query-params")
    k = right.slider("How many", 1, corpus.V - 1, min(5, corpus.V - 1), key="cbow_k", bind="query-params")
    i = corpus.vocab.index(word)
    data_table(neighbour_table(corpus.vocab, nearest(sg.E, i, k), nearest(cb.E, i, k)),
                 hide_index=True, key="cbow_nn_table", column_config=NN_HEADERS)
    shared = neighbour_overlap(sg.E, cb.E, i, k)
    layout.metrics([dict(label=f"in both top-{k} lists", value=f"{len(shared)} of {k}")], key="cbow_overlap")
    st.caption("In both lists: " + (", ".join(corpus.vocab[j] for j in shared) if shared else "none")
               + ". For both models the table is E, the rows that go in (CBOW averages them). Each "
                 "table is compared only with itself: the numbers of one mean nothing in the other.")
    return word, k, shared


def reading_panel(corpus, sg, cb, floors, sg_seconds, cb_seconds, word, k, shared) -> None:
    st.header("What the two models do, and what these numbers say")
    st.markdown(
        "**Skip-gram** predicts each neighbour from the word: one prediction per (word, neighbour) "
        f"pair, {corpus.n_pairs} on this text. **CBOW** (continuous bag of words) predicts the word "
        f"from the average of its neighbours' rows: one prediction per place in the text, "
        f"{len(corpus.words)} here. Both come from the same paper (Mikolov et al., 2013).")
    sg_gap, cb_gap = sg.final_loss - floors["skip-gram"], cb.final_loss - floors["CBOW"]
    n_bags = len(cbow.bags(corpus).A)
    easier = ("CBOW's task is the easier one on this text: its floor is below skip-gram's"
              if floors["CBOW"] < floors["skip-gram"] else
              "Here CBOW's floor is not below skip-gram's")
    st.markdown(
        f"- **Loss.** Skip-gram ends at {sg.final_loss:.3f}, {sg_gap:.3f} above its floor; CBOW ends at "
        f"{cb.final_loss:.3f}, {cb_gap:.3f} above its floor. The two losses answer different "
        "questions, so a lower one does not mean a better table. "
        f"{easier}. The text's {len(corpus.words)} places have {n_bags} different sets of neighbours, "
        "and a set that always comes with the same word costs nothing at the floor.\n"
        f"- **Neighbours.** The two tables share {len(shared)} of the {k} nearest words of "
        f"“{word}”.\n"
        f"- **Time.** On this machine {captions.speed_verdict('CBOW', cb_seconds, 'skip-gram', sg_seconds)}: "
        f"CBOW took {milliseconds(cb_seconds)}, skip-gram {milliseconds(sg_seconds)}, for the same number "
        f"of steps. Each full-batch step "
        f"computes one softmax per distinct input: {corpus.V} words for skip-gram, {n_bags} sets of "
        "neighbours for CBOW. Real word2vec goes through the text place by place, and there CBOW makes "
        "one prediction per place where skip-gram makes one per pair, which is why CBOW is the faster "
        "one on big texts (Mikolov et al., 2013).")
    with more("Rare and frequent words: who trains a word's row"):
        st.markdown(
            "In skip-gram a word's row is the whole input of each pair it centres, so every one of "
            "those predictions moves it fully. In CBOW its row is one of the rows averaged into the "
            "context, so it gets a share of each prediction, blended with its neighbours' rows. "
            "The word2vec authors describe skip-gram as the better one for rare words and CBOW as "
            "several times faster and slightly better for frequent words (the notes to their code, "
            "Mikolov et al., 2013), on texts of millions of words; a 33-word text cannot test that. "
            "The table shows what each word's row takes part in during one pass over this text.")
        data_table(signals_table(corpus.vocab, cbow.row_signals(corpus)), hide_index=True,
                     key="cbow_signals_table", column_config=SIGNAL_HEADERS, height="content")
        st.caption("skip-gram pairs: pairs whose input is the word. CBOW uses: places whose "
                   "neighbours include it. CBOW share: its total share of those places' averages "
                   "(1/m for each time it is one of m neighbours).")


def main() -> None:
    intro("3c. CBOW next to skip-gram",
          "word2vec has two architectures. **Skip-gram**, the Train screen's model, guesses each "
          "neighbour from a word; **CBOW** guesses the word from the average of its neighbours. Here "
          "both train on the lesson's 33 words with the same settings, side by side. **Try:** change "
          "the window or d_model and compare the losses and the neighbours.")
    config, window = controls()
    reset_button("cbow_", key="cbow_reset", defaults=DEFAULTS)
    corpus = corpus_for(GUIDE_TEXT, window)
    runs = train_both(config, window)
    if runs is None:
        return
    sg, cb, sg_seconds, cb_seconds = runs
    floors = {"skip-gram": loss_floor(corpus), "CBOW": cbow.loss_floor(corpus)}
    metrics_panel(corpus, sg, cb, floors, sg_seconds, cb_seconds)
    # what was trained, after the figures (in presenter mode the figures must stay in the first view)
    st.caption(f"Text: “{GUIDE_TEXT}”. Both models start from the same random tables (seed "
               f"{config.seed}) and take {config.steps:,} full-batch steps at learning rate {config.lr:g}.")
    failed = diverged_note(sg, cb)
    loss_panel(corpus, sg, cb, floors)
    if failed:
        return
    word, k, shared = neighbours_panel(corpus, sg, cb)
    reading_panel(corpus, sg, cb, floors, sg_seconds, cb_seconds, word, k, shared)


main()
