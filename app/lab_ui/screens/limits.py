"""Screen 6, Limits: one fixed row per token loses word order and context."""
import pandas as pd
import streamlit as st

from lab_ui.widgets.captions import order_verdict
from lab_ui.widgets.common import intro, data_table
from lab_ui.widgets.inputs import two_sentences
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.registry import file_of
from lab_ui.server.runs import corpus_for, run
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW, Corpus
from core.similarity import cosine, mean_embedding
from core.run import RunRequest, RunResult
from core.skipgram import SkipGramConfig


def main() -> None:
    intro("6. Limits: what one vector per token cannot do",
          "The table gives every token one fixed row, whatever surrounds it. Two things are lost: "
          "**word order** and **context**. "
          "**Try:** write two sentences with the same words in a different order.")
    reset_button("limits_", key="limits_reset")
    corpus = corpus_for(GUIDE_TEXT, GUIDE_WINDOW)
    result = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(), GUIDE_WINDOW))   # the Train screen's reference run
    order_panel(corpus, result)
    context_panel()


def order_panel(corpus: Corpus, result: RunResult) -> None:
    """Two typed sentences, averaged row by row: the same words in any order give the same mean."""
    st.header("Order: an average of rows cannot tell who saw whom")
    st.markdown("A simple way to get one vector for a sentence is to average its words' rows (here "
                "the rows learned on the Train screen's reference run). Averages do not care about order.")
    ids_a, ids_b, s1, s2 = two_sentences(corpus, "limits_")
    mean_a = mean_embedding(result.E, ids_a)
    mean_b = mean_embedding(result.E, ids_b)
    table = pd.DataFrame([mean_a, mean_b], index=["mean of A", "mean of B"],
                         columns=[f"dim {k}" for k in range(len(mean_a))])
    same = bool((mean_a == mean_b).all())
    kind, verdict = order_verdict([corpus.vocab[i] for i in ids_a], [corpus.vocab[i] for i in ids_b], same,
                                  cosine(mean_a, mean_b))
    if kind == "same-sentence" and s1 != s2:      # issue 19: say why two different texts count as one
        verdict += (" (Your two texts differ only in capital letters or punctuation, which are dropped "
                    "before the lookup.)")
    with st.container(key="limits_verdict"):
        {"collapsed": st.warning, "same-sentence": st.info, "different": st.info}[kind](verdict)
        data_table(table, key="limits_means")
    st.caption("A lookup has nowhere to record position. Transformers add position information and "
               "then let tokens look at each other (attention): that comes after the table.")
    st.page_link(file_of("position"), label="Next step: add position vectors and test the order again",
                 icon=":material/format_list_numbered:")


def context_panel() -> None:
    """The same token, two meanings, one row."""
    st.header("Context: one row for every meaning")
    st.markdown(
        "“He sat on the river **bank**” and “She got a **bank** loan” use the same token, so they get "
        "the same row, although one is a riverside and the other a lender. A fixed row per token is "
        "a *static* embedding. A *contextual* embedding depends on the surrounding words; the model's "
        "later layers build it (ELMo did this with recurrent networks, Peters et al., 2018).")
    st.page_link(file_of("tokens"), label="See it with GPT-2's real tokenizer", icon=":material/toll:")
    st.page_link(file_of("real_context"), label="Measured on a real model: the same row, two different contextual vectors",
                 icon=":material/compare:")


main()
