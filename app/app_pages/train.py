import logging

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui import bigtext_view, captions, charts, layout
from lab_ui.presenter import reset_button
from lab_ui.common import chart_with_table, error, intro
from lab_ui.guard import fit_steps, show_refusal
from lab_ui.inputs import text_changes_for, whole_input, word_rule_note
from lab_ui.projection_views import word_groups
from lab_ui.runs import corpus_for, resume_training, train_run
from lab_ui.train_views import (compare_view, heatmap_order, export_view, groups_view, neighbours_panel,
                            objectives_view, replay_view)
from lab_ui.train_controls import (GENERATED, LR_OPTIONS, TRAIN_VOCAB_CAP, SOURCES, STEP_OPTIONS, corpus_controls,
                               generated, link_notice, link_values)
from core.corpus import GUIDE_TEXT, CorpusError
from core.projection import pca
from core.similarity import cosine_matrix
from core.skipgram import BLOWUP_FACTOR, loss_floor

intro("3. Train: learning vectors from neighbours",
      "Words that appear in similar company tend to mean similar things. Here a tiny **skip-gram** "
      "model learns one vector per word by guessing each word's neighbours in a text. "
      "**Try:** move the sliders and watch the loss, the similarity heatmap and the map of words "
      "change. The starting settings are the lesson's reference run.")

# The lesson's reference run: the defaults of the widgets bound to the page address.
LESSON_RUN = {"train_d_model": 4, "train_lr": 0.5, "train_window": 2, "train_steps": 3000,
              "train_seed": "0", "train_source": SOURCES[0], "train_tab": "Result"}
given = link_values()
c = st.columns([1, 1, 1, 1, 1], gap="medium")
d_model = c[0].slider("d_model", 1, 32, 4, key="train_d_model", bind="query-params",
                      help="The vector width: how many numbers each word's vector has.")
lr = c[1].select_slider("Learning rate", LR_OPTIONS, 0.5, key="train_lr", bind="query-params",
                        help="How big each update step is. Too big and training blows up.")
window = c[2].slider("Window", 1, 5, 2, key="train_window", bind="query-params",
                     help="How many words on each side count as neighbours.")
steps = c[3].select_slider("Steps", STEP_OPTIONS, 3000, key="train_steps", bind="query-params",
                           help="Number of full-batch gradient-descent updates.")
seed = whole_input("Seed", 0, 1_000_000, 0, "train_seed", where=c[4], fallback=0, bind="query-params",
                   help="Which random starting table, from 0 to 1,000,000. Same seed, same run.")

text, source_note = corpus_controls()
link_notice(given)
pasted = st.session_state.get("train_source") == SOURCES[2]
if pasted and "train_source" in given and text == GUIDE_TEXT:
    st.info("This link asks for a pasted text, but a link carries only the settings, not the text "
            "itself: the box above starts with the lesson's 33 words. Paste the text you were given "
            "to get the shared run.", icon=":material/link_off:")
if bigtext_view.is_big(text):             # too many distinct words for the full softmax: word2vec
    bigtext_view.show(text, source_note, int(seed))
    st.stop()
st.caption("Every setting above is kept in the page's address: copy it from the address bar "
           "to share this exact run." + (" Your pasted text is not in the address (it would "
                                        "make the link too long): send it along separately."
                                        if pasted else ""))
reset_button("train_", key="train_reset", defaults=LESSON_RUN)
try:
    corpus = corpus_for(text, int(window), TRAIN_VOCAB_CAP)
except CorpusError as err:
    error(f"This text cannot be trained on: {err}")
    st.stop()
if corpus.n_dropped_words:
    source_note += (f" The text has more than {TRAIN_VOCAB_CAP} distinct words: the "
                    f"{corpus.n_dropped_words:,} rarest are counted as <unk>.")
if source_note:
    st.info(source_note.strip())
if st.session_state.get("train_source") == SOURCES[2] and (changes := text_changes_for(text)):
    st.info(word_rule_note(changes), icon=":material/translate:")

steps_used, cut_note = fit_steps(corpus.V, int(d_model), int(steps), STEP_OPTIONS)
if cut_note:
    show_refusal(cut_note)
bar = st.empty()
try:
    result = train_run(text, int(window), int(d_model), float(lr), steps_used, int(seed),
                       max_vocab=TRAIN_VOCAB_CAP, progress=bar, stop_key="train_stop")
except Exception:  # a bug must not show a traceback; the log keeps the details
    logging.getLogger(__name__).exception("training failed")
    bar.empty()
    st.error("Training stopped with an unexpected error, so there is nothing to show for these "
             "settings. Try other settings; if it happens again, tell your teacher. "
             "(The details are in the server's log.)")
    st.stop()

if result.stopped:
    st.info(f"Training was stopped at step {len(result.losses) - 1:,} of {steps_used:,}: "
            "everything below shows the run as far as it got.", icon=":material/stop_circle:")
    st.button("Train to the end", key="train_resume", on_click=resume_training, args=("train_stop",))
floor = loss_floor(corpus)
last_step = captions.last_finite_step(result.losses)
lnV = float(np.log(corpus.V))
layout.metrics([
    dict(label="words", value=f"{len(corpus.words):,}", help="Words in the training text."),
    dict(label="vocabulary", value=f"{corpus.V:,}", help="Distinct words: rows of the table."),
    dict(label="pairs", value=f"{corpus.n_pairs:,}", help="(centre, context) pairs the window makes."),
    dict(label="loss, step 0", value=f"{result.losses[0]:.3f}", help="Before any update."),
    *([dict(label=f"loss, step {last_step:,}", value=f"{result.losses[last_step]:.3f}",
            help="After the last update" + (" before training stopped." if result.diverged else "."))]
      if last_step > 0 else []),
    dict(label="loss floor", value=f"{floor:.3f}", help="The lowest loss any model can reach on this text."),
], key="train_metrics")

if result.diverged:
    st.error(captions.divergence(result.losses, result.diverged_step, lr, BLOWUP_FACTOR))

def result_view() -> None:
    st.subheader("Loss while training")
    refs = {f"uniform guess: ln {corpus.V} = {lnV:.3f}": lnV, f"loss floor: {floor:.3f}": floor}
    chart_with_table(charts.loss_curve({"this run": result.losses}, refs),
                     pd.DataFrame({"step": np.arange(len(result.losses)), "loss": result.losses}),
                     key="train_loss_table", stretch=True)
    st.caption(
        "The loss is the average surprise at the true neighbour. A uniform guess over "
        f"{corpus.V} words costs ln {corpus.V}. It cannot reach 0: *the* has almost every word as "
        "a neighbour somewhere, so no model can know which one a given pair holds. The floor is "
        "the best any model can do: predict each word's real neighbour frequencies. "
        f"This run ends {result.final_loss - floor:.3f} above it.")
    if result.diverged:
        return

    S = cosine_matrix(result.E)
    order = heatmap_order(S, corpus)
    ordered = [corpus.vocab[i] for i in order]
    big = len(order) > 24                     # too many words for a half-width heatmap
    size = min(720, 11 * len(order)) if big else layout.chart_px()
    left, right = (st.container(), st.container()) if big else layout.blocks(size, layout.PANEL)
    with left:
        st.subheader(captions.vectors_title(last_step))
        chart_with_table(charts.heatmap(S[np.ix_(order, order)], ordered, size=size),
                         pd.DataFrame(S, index=corpus.vocab, columns=corpus.vocab).reset_index(names="word"),
                         key="train_heatmap_table", stretch=True)
        if len(order) < corpus.V:
            st.caption(f"Showing the {len(order)} most frequent of the {corpus.V} words; the table "
                       "has them all.")
        if not charts.heatmap_text(len(order), size, charts.presenting())[1]:
            st.caption("The cells are too small for their numbers: they are in the table.")
        st.caption("Ordered so that similar words sit together. Orange: similar; blue: unlike; "
                   "pale: unrelated (scale fixed from -1 to 1).")
    with right:
        st.subheader("Neighbours")
        neighbours_panel(result.E, S, corpus.vocab)

    left, right = layout.blocks(layout.CHART, layout.PANEL)
    p = pca(result.E, k=2)
    with left:
        st.subheader("Map of the words (PCA)")
        chart_with_table(
            charts.scatter(p.coords, corpus.vocab, corpus.vocab, size=min(size, 420),
                           colour=word_groups(corpus.vocab, generated()) if is_generated else None,
                           priority=[int(i) for i in corpus.most_frequent(corpus.V)],
                           title=f"This flat picture keeps {100 * p.kept:.0f}% of the spread"),
            pd.DataFrame({"word": corpus.vocab, "direction 1": p.coords[:, 0], "direction 2": p.coords[:, 1]}),
            key="train_pca_table", stretch=True)
    with right:
        st.subheader("Reading it")
        st.markdown(captions.pca_reading(int(d_model), p.explained) + "\n\n"
                    "The axes mean nothing on their own; only distances and angles do. When the map "
                    "suggests something, check it with the cosines.")

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

    with st.expander(f"The {corpus.n_pairs:,} (centre, context) pairs the window makes"):
        st.markdown(f"For each word, every word at most {window} places away is a neighbour, "
                    "in order of position. The model is trained to predict the context from the centre.")
        pairs = pd.DataFrame({"centre": [corpus.vocab[i] for i in corpus.inputs],
                              "context": [corpus.vocab[j] for j in corpus.targets]})
        st.dataframe(pairs, key="train_pairs_table")


settings = dict(d_model=int(d_model), lr=float(lr), window=int(window), steps=steps_used,
                seed=int(seed), max_vocab=TRAIN_VOCAB_CAP)
is_generated = st.session_state.get("train_source") == GENERATED
TABS = ["Result", "Replay training", "Compare two runs", "Softmax vs negative sampling", "Export"]
# Only the open tab is computed (on_change="rerun" makes each tab report whether it is open).
tabs = dict(zip(TABS, st.tabs(TABS, key="train_tab", on_change="rerun", bind="query-params")))
views = {
    "Result": lambda: (result_view(), is_generated and not result.diverged
                       and groups_view(result, corpus, generated())),
    "Replay training": lambda: replay_view(result, corpus),
    "Compare two runs": lambda: compare_view(result, corpus, text, settings, TRAIN_VOCAB_CAP),
    "Softmax vs negative sampling": lambda: objectives_view(corpus, text, settings, is_generated),
    "Export": lambda: export_view(result, corpus, text, settings),
}
for name, tab in tabs.items():
    if tab.open:
        with tab:
            views[name]()
