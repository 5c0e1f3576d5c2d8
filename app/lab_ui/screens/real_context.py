"""Screen 7d, static against contextual, measured on all-MiniLM-L6-v2: one word's row is the same
in every sentence; the vectors the layers make of it are not. Then retrieval by cosine."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.common import data_table, error, intro
from lab_ui.lesson.links import named
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.real_models import table_or_stop, text_box
from core.in_context import WordNotFound, rank_passages, word_in_context
from core.vectors import UnknownLabel

CONTEXT_MODEL = "minilm-l6"
SENTENCES = ["He sat on the river bank.", "The bank by the water was muddy.", "She got a bank loan."]
QUESTION = "Where can I borrow money to buy a house?"
PASSAGES = ("A mortgage is a loan from a bank that you use to buy a home.\n"
            "Houses by the river bank are often flooded in spring.\n"
            "I want to buy a house, but where? Money questions keep me awake.\n"
            "Our cat likes to sleep on the warm roof of the house.\n"
            "Credit unions and building societies also lend money for homes.")
MAX_PASSAGES = 8


# A sentence box's width: three a row in presenter mode at 1280 px (1.25 x 260 each, small
# gaps), two a row at 1280 with the sidebar open.
SENTENCE_PX = 260


def main() -> None:
    intro("7d. Static against contextual, measured",
          "A static table gives a word one row, whatever the sentence. The layers after the table mix in "
          "the neighbouring words, so the vector they make of the same word changes with the sentence. "
          "Here both are measured on a real model, **all-MiniLM-L6-v2** (a small 6-layer BERT, 384 numbers "
          "per token). **Try:** your own word with two meanings.")
    table = table_or_stop(CONTEXT_MODEL)
    # The word and the reset on one row, the sentences three a row where they fit (in presenter
    # mode too): the cosines and their table stay in the first view of a 1280x720 projector.
    with st.container(horizontal=True, vertical_alignment="bottom", gap="medium", key="rc_top"):
        word = st.text_input("The word", "bank", key="rc_word", bind="query-params", max_chars=30,
                             width=layout.MIN_CONTROL + 50)
        reset_button("rc_", key="rc_reset")
    cols = layout.blocks(*[SENTENCE_PX] * 3, key="rc_sentences", gap="small")
    labels = [f"Sentence {i + 1}" + (" (the other meaning)" if i == 2 else "") for i in range(len(SENTENCES))]
    sentences = [cols[i].text_input(labels[i], s, key=named(f"rc_s{i}", labels[i]), bind="query-params",
                                    max_chars=200)
                 for i, s in enumerate(SENTENCES)]
    context_panel(table, word, sentences)
    retrieval_panel()


def context_panel(table, word: str, sentences: list[str]) -> None:
    """The static and contextual cosines of the word between the sentences."""
    if not word.strip() or not all(s.strip() for s in sentences):
        st.warning("Type a word and three sentences that contain it.")
        return
    try:
        found = word_in_context(table, word, sentences)
    except (UnknownLabel, WordNotFound) as err:
        error(f"{err}")
        return
    w = found.word
    sc, cc = found.static_cos, found.contextual_cos
    layout.metrics([dict(label="static row, sentences 1 and 2", value=f"{sc[0, 1]:.2f}"),
                    dict(label="contextual, sentences 1 and 2", value=f"{cc[0, 1]:.2f}"),
                    dict(label="contextual, sentences 1 and 3", value=f"{cc[0, 2]:.2f}"),
                    dict(label="contextual, sentences 2 and 3", value=f"{cc[1, 2]:.2f}")], key="rc_cosines")
    names = [f"sentence {i + 1}" for i in range(len(sentences))]
    data_table(pd.DataFrame(cc, index=names, columns=names), key="rc_matrix",
                 column_config={n: st.column_config.NumberColumn(format="%.2f") for n in names})
    closer = "closer to" if cc[0, 1] > cc[0, 2] else "not closer to"
    st.caption(f"The static row of “{w}” is one row of the table, so its cosine between any two sentences is "
               f"{sc[0, 1]:.2f}: the table cannot tell them apart. The contextual vectors differ: the vector of “{w}” "
               f"in sentence 1 is {closer} its vector in sentence 2 ({cc[0, 1]:.2f}) than in sentence 3 "
               f"({cc[0, 2]:.2f}). "
               "The difference is made by the layers, from the neighbouring words.")


def retrieval_panel() -> None:
    """Passages ranked by cosine to a question: the top one is a candidate to check."""
    st.header("Retrieval: the closest passage is a candidate, not an answer")
    question = st.text_input("Question", QUESTION, key="rc_question", bind="query-params", max_chars=200)
    raw = text_box("Passages, one per line", PASSAGES, key="rc_passages", height=150)
    passages = [p.strip() for p in raw.splitlines() if p.strip()][:MAX_PASSAGES]
    if not question.strip() or not passages:
        st.warning("Type a question and at least one passage.")
        return
    if len([p for p in raw.splitlines() if p.strip()]) > MAX_PASSAGES:
        st.info(f"Only the first {MAX_PASSAGES} passages are ranked.")
    ranked = rank_passages(question, passages)
    data_table(pd.DataFrame({"passage, closest first": [r.passage for r in ranked],
                               "cosine": [r.cosine for r in ranked]}),
                 hide_index=True, key="rc_ranked", column_config={"cosine": st.column_config.NumberColumn(format="%.2f")})
    gap = ranked[0].cosine - ranked[1].cosine if len(ranked) > 1 else None
    margin = f", {gap:.2f} above the next one" if gap is not None else ""
    st.caption(f"The top passage scores {ranked[0].cosine:.2f}{margin}. A high cosine means the passage is "
               "close to the question in this model's space, often because it shares words with it; "
               "whether it answers the question is for a reader to check.")


main()
