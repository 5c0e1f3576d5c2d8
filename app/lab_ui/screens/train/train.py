"""Screen 3, Train: a skip-gram model learns one vector per word from its neighbours.

The flow (``main``): the sliders build the run's ``SkipGramConfig``; the text becomes a
corpus; the run's ``RunRequest`` (the budget may cut its steps: said on the page) is trained
or read from the cache (``lab_ui.server.runs.run``); its figures, then the open tab.

On the page the sliders come first and then what they change (figures, loss curve, pictures);
the choice of text, the share note and the reset come after the results, so that at 1280x800
the first view reaches the loss curve."""
import logging

import streamlit as st

from lab_ui.screens.train import bigtext_view
from lab_ui.widgets import captions, layout
from lab_ui.widgets.find_word import find_box
from lab_ui.widgets.common import error, intro
from lab_ui.server.guard import show_refusal
from lab_ui.widgets.inputs import text_changes_for, word_rule_note
from lab_ui.lesson.presenter import reset_button
from lab_ui.lesson.links import named
from lab_ui.server.runs import corpus_for, resume_training, run
from lab_ui.screens.train.train_controls import (GENERATED, LESSON_RUN, TABS, TRAIN_VOCAB_CAP, PASTED,
                                   corpus_controls, train_request, generated, keep_hidden_controls, link_notice, link_values,
                                   run_controls, seed_control)
from lab_ui.screens.train.train_result import result_tab
from lab_ui.screens.train.train_views import compare_view, export_view, groups_view, objectives_view, replay_view
from core.corpus import GUIDE_TEXT, Corpus, CorpusError
from core.run import RunRequest, RunResult
from core.skipgram import BLOWUP_FACTOR, SkipGramConfig, loss_floor

def main() -> None:
    intro("3. Train: learning vectors from neighbours",
          "Words that appear in similar company tend to mean similar things. Here a tiny **skip-gram** "
          "model learns one vector per word by guessing each word's neighbours in a text. "
          "**Try:** move the sliders and watch the loss, the similarity heatmap and the map of words "
          "change. The starting settings are the lesson's reference run; the text it trains on is "
          "chosen at the end of the screen.")
    given = link_values()                     # read before the widgets, which drop bad values
    sliders = layout.controls_bar("train")    # the full softmax's row: drawn once the text is known
    results = st.container()                  # the sliders' results, filled once the text is known
    choice = st.container(key="train_text_choice")   # the text after the results: the first view
    with choice:                              # is the sliders and what they change
        st.divider()
        st.header("The training text")
        text, source_note = corpus_controls()
    source = st.session_state.get("train_source")
    if bigtext_view.is_big(text):             # too many distinct words for the full softmax: word2vec
        keep_hidden_controls()                # only word2vec's own settings show, and the seed
        with results:
            link_notes(given, source, text)
            bigtext_view.show(text, source_note, seed_control)
        st.stop()
    config, window = run_controls(sliders)
    with choice:
        share_note(pasted=source == PASTED)
        reset_button("train_", key="train_reset", defaults=LESSON_RUN)
    with results:
        link_notes(given, source, text)
        corpus = corpus_or_stop(text, window)
        corpus_notes(corpus, text, source_note, pasted=source == PASTED)
        result = train_or_stop(train_request(text, window, config))
        assert isinstance(result.config, SkipGramConfig)
        config = result.config                # as trained: the budget may have cut the steps
        floor = loss_floor(corpus)
        run_figures(result, corpus, config, floor)
        open_tab(result, corpus, text, window, config, floor, generated() if source == GENERATED else None)


def link_notes(given: dict[str, list[str]], source: str | None, text: str) -> None:
    """What a shared link asked for and could not get: invalid settings, or a pasted text."""
    link_notice(given)
    if source == PASTED and "train_source" in given and text == GUIDE_TEXT:
        st.info("This link asks for a pasted text, but a link carries only the settings, not the text "
                "itself: the text box at the end of the screen starts with the lesson's 33 words. Paste the text you were given "
                "to get the shared run.", icon=":material/link_off:")


def share_note(pasted: bool) -> None:
    st.caption("Every setting above is kept in the page's address: copy it from the address bar "
               "to share this exact run." + (" Your pasted text is not in the address (it would "
                                            "make the link too long): send it along separately."
                                            if pasted else ""))


def corpus_or_stop(text: str, window: int) -> Corpus:
    """The text as a corpus (at most TRAIN_VOCAB_CAP words); a text that cannot be one stops the screen."""
    try:
        return corpus_for(text, window, TRAIN_VOCAB_CAP)
    except CorpusError as err:
        error(f"This text cannot be trained on: {err}")
        st.stop()


def corpus_notes(corpus: Corpus, text: str, source_note: str, pasted: bool) -> None:
    """What was done to the text before training: cut, capped vocabulary, rewritten characters."""
    if corpus.n_dropped_words:
        source_note += (f" The text has more than {TRAIN_VOCAB_CAP} distinct words: the "
                        f"{corpus.n_dropped_words:,} rarest are counted as <unk>.")
    if source_note:
        st.info(source_note.strip())
    if pasted and (changes := text_changes_for(text)):
        st.info(word_rule_note(changes), icon=":material/translate:")


def train_or_stop(asked: RunRequest) -> RunResult:
    """The trained run, with a progress bar and a Stop button while it trains, and a note when
    the budget cut its steps. A bug stops the screen with a plain message (the server's log
    keeps the details), never a traceback."""
    bar = st.empty()
    try:
        result = run(asked, progress=bar, stop_key="train_stop")
    except Exception:
        logging.getLogger(__name__).exception("training failed")
        bar.empty()
        st.error("Training stopped with an unexpected error, so there is nothing to show for these "
                 "settings. Try other settings; if it happens again, tell your teacher. "
                 "(The details are in the server's log.)")
        st.stop()
    if result.cut is not None:
        show_refusal(result.cut.message)
    if result.stopped:
        st.info(f"Training was stopped at step {len(result.losses) - 1:,} of {asked_steps(result):,}: "
                "everything below shows the run as far as it got.", icon=":material/stop_circle:")
        st.button("Train to the end", key="train_resume", on_click=resume_training, args=("train_stop",))
    return result


def asked_steps(result: RunResult) -> int:
    """The steps the run was to take (after any cut of the budget)."""
    return result.config.steps if isinstance(result.config, SkipGramConfig) else 0


def run_figures(result: RunResult, corpus: Corpus, config: SkipGramConfig, floor: float) -> None:
    """The row of figures above the tabs (text, vocabulary, pairs, losses), and the alert for a
    run that blew up."""
    last_step = captions.last_finite_step(result.losses)
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
    if result.diverged_step is not None:         # the run diverged (result.diverged)
        st.error(captions.divergence(result.losses, result.diverged_step, config.lr, BLOWUP_FACTOR))


def open_tab(result: RunResult, corpus: Corpus, text: str, window: int, config: SkipGramConfig,
             floor: float, generated_text=None) -> None:
    """The tabs under the figures. Only the open one is computed (``on_change="rerun"`` makes
    each tab report whether it is open). ``generated_text``: the generator's corpus when the
    run was trained on it, else None."""
    tabs = st.tabs(TABS, key=named("train_tab", "Tabs: " + ", ".join(TABS)), on_change="rerun", bind="query-params")
    for name, tab in zip(TABS, tabs):
        if tab.open:
            with tab:
                tab_view(name, result, corpus, text, window, config, floor, generated_text)


def tab_view(name: str, result: RunResult, corpus: Corpus, text: str, window: int,
             config: SkipGramConfig, floor: float, generated_text=None) -> None:
    """The content of the tab called ``name``. The two tabs with pictures of the words draw the
    find box ("Find a word on every picture") themselves: Result under its loss curve, next to the
    pictures it marks, so that the first view of the screen reaches the loss curve."""
    def find() -> int | None:
        return None if result.diverged else find_box("train_find", corpus.vocab)
    if name == "Result":
        result_tab(result, corpus, floor, window, config.d_model, generated_text, find=find)
        if generated_text is not None and not result.diverged:
            groups_view(result, corpus, generated_text)
    elif name == "Replay training":
        replay_view(result, corpus, find())
    elif name == "Compare runs":
        compare_view(result, corpus, text, window, config)
    elif name == "Negative sampling":
        objectives_view(result, corpus, text, window, config, generated_text is not None)
    else:
        export_view(result, corpus, text, window, config)

main()
