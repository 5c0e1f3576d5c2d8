"""8b. Analogies and directions: b - a + c on a text made to carry relations, honestly scored."""
from dataclasses import replace

import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.screens.views.analogy_view import (GROUP_ORDER, SETTINGS, ANALOGY_WINDOW, ANALOGY_WIDTHS, ANALOGY_WINDOWS, accuracy_table,
                                               answers_table,
                                 group_of, relation_of, split_sentence)
from lab_ui.widgets.common import chart_with_table, intro, data_table
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.registry import file_of
from lab_ui.server.runs import corpus_for, run
from core.run import RunRequest
from lab_ui.screens.views.real_models import REAL_TABLES, real_or_none, table_choice
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.pretrained import as_words
from core.relations import (LESSON_QUESTIONS, METHODS, RELATIONS, accuracy, analogy, axis_positions,
                            odd_one_out, odd_one_out_round, relation_questions, relations_text, side_split)
from core.skipgram import SkipGramConfig
from core.vectors import Vectors

TEXT = relations_text()


def controls() -> tuple[int, SkipGramConfig]:
    """The window and the run's config (SETTINGS at the chosen d_model)."""
    bar = layout.controls_bar("ana")
    c1 = layout.control(bar, layout.slider_px(len(ANALOGY_WINDOWS) - 1))
    c2 = layout.control(bar, layout.slider_px(len(ANALOGY_WIDTHS) - 1))
    window = c1.select_slider("Window", ANALOGY_WINDOWS, ANALOGY_WINDOW, key="ana_window", bind="query-params",
                              help="How many words on each side count as neighbours.")
    d_model = c2.select_slider("d_model", ANALOGY_WIDTHS, SETTINGS.d_model, key="ana_d", bind="query-params",
                               help="How many numbers each word's row has.")
    return window, replace(SETTINGS, d_model=d_model)


def scores_panel(E, vocab, lesson_E, lesson_vocab, toy: bool = True) -> None:
    st.header("How often does b - a + c land on the right word?")
    scores = {name: accuracy(Vectors(vocab, E), relation_questions(name)) for name in RELATIONS}
    scores["the lesson's 33 words"] = accuracy(Vectors(lesson_vocab, lesson_E), LESSON_QUESTIONS)
    with st.container(key="ana_result"):
        data_table(accuracy_table(scores), hide_index=True, key="ana_scores")
    st.caption("Each relation has 6 pairs, so 30 questions “a is to b as c is to ?” (two different pairs); "
               "the lesson's 33 words give 4 (cat : mat :: dog : log, and the same turned around). "
               "“nearest to b” and “nearest to c” answer with b's or c's own nearest word and ignore the "
               "rest of the question: an analogy only shows a relation when b - a + c beats them "
               "(Linzen, 2016). Words a, b and c never count as answers.")
    lesson = scores[list(scores)[-1]]
    if toy and len(set(lesson.values())) == 1:
        st.info(f"The lesson's table gets {lesson[METHODS[0]][0]} of {lesson[METHODS[0]][1]} with b - a + c, "
                "but exactly as many by looking only at b or only at c: in 33 words, “cat” and “dog” "
                "(and “mat” and “log”) have the same neighbours, so they got almost the same row. The "
                "offset adds nothing there; the test passes without showing any relation.")


def analogy_panel(E, vocab) -> None:
    st.header("Ask an analogy")
    words = sorted(w for w in vocab if group_of(w) != "other word")
    c1, c2, c3 = st.columns(3, gap="medium")
    a = c1.selectbox("a", words, words.index("man"), key="ana_a", bind="query-params")
    b = c2.selectbox("is to b", words, words.index("woman"), key="ana_b", bind="query-params")
    c = c3.selectbox("as c is to ?", words, words.index("king"), key="ana_c", bind="query-params")
    left, right = layout.blocks(layout.HALF, layout.HALF, key="ana_answer")
    found = analogy(Vectors(vocab, E), a, b, c)
    with left:
        st.markdown(f"**b - a + c:** {b} - {a} + {c} ≈ **{found.answers[0][0]}**")
        data_table(answers_table(found), hide_index=True, key="ana_answers")
    with right:
        for method in METHODS[1:]:
            other = analogy(Vectors(vocab, E), a, b, c, k=1, method=method)
            st.markdown(f"**{method}:** {other.answers[0][0]} (cosine {other.answers[0][1]:.3f})")


def axis_panel(E, vocab) -> None:
    st.header("A direction defined by two words")
    c1, c2 = st.columns(2, gap="large")
    a = c1.selectbox("From", vocab, vocab.index("man"), key="ana_axis_a", bind="query-params")
    b = c2.selectbox("To", vocab, vocab.index("woman"), key="ana_axis_b", bind="query-params")
    if a == b:
        st.warning("Pick two different words: one word alone gives no direction.")
        return
    pos = axis_positions(Vectors(vocab, E), a, b)
    table = pd.DataFrame({"word": vocab, "group": [group_of(w) for w in vocab], "position": pos})
    table = table.sort_values("position", kind="stable").reset_index(drop=True)
    spec = charts.strip(table, "position", "group", title=f"Every word on the direction {a} → {b}",
                        order=GROUP_ORDER, big=st.session_state.get("present_mode", False))
    chart_with_table(spec, table, key="ana_axis_table")
    st.caption(f"Each tick is a word, placed by how far its row points from “{a}” towards “{b}” "
               f"(the cosine with the direction v({b}) - v({a})). Lowest: “{table.word.iloc[0]}”, "
               f"highest: “{table.word.iloc[-1]}”.")
    verdict = split_sentence(side_split(pos, Vectors(vocab, E), a, b), a, b)
    if verdict:
        st.caption(verdict)


def odd_panel(E, vocab) -> None:
    st.header("Odd one out")
    round_no = int(st.session_state.get("ana_round", 0))
    words, odd = odd_one_out_round(round_no)
    pick = st.radio("Which word does not belong?", words, index=None, key=f"ana_pick_{round_no}",
                    horizontal=True)
    st.button("Next round", key="ana_next_round",
              on_click=lambda: st.session_state.update(ana_round=round_no + 1))
    if pick is None:
        return
    model, means = odd_one_out(Vectors(vocab, E), words)
    (st.success if pick == odd else st.error)(
        f"{'Right' if pick == odd else 'Not this time'}: “{odd}” is the odd one ({relation_of(odd)}); "
        f"the others are all {relation_of(next(w for w in words if w != odd))} words. "
        f"The table's answer (the word with the lowest mean cosine to the other three): “{model}”.")
    data_table(pd.DataFrame({"word": list(means), "mean cosine to the others": list(means.values())}),
                 hide_index=True, key="ana_odd_table")


def main() -> None:
    intro("8b. Analogies and directions",
          "“king - man + woman = queen” works only when a text shows a relation the same way again and "
          "again. Here a small model learns a **made-up text that carries four relations** (country and "
          "capital, male and female, one and many, present and past), and every claim is checked. "
          "**Try:** change the window or d_model and watch the scores.")
    reset_button("ana_", key="ana_reset")
    st.page_link(file_of("real_words"), label="Analogies on real word vectors (GloVe)", icon=":material/dictionary:")
    window, config = controls()
    name = table_choice(st, "ana_table", toy="the table trained on the made-up text")
    corpus = corpus_for(TEXT, window)
    if name is not None:
        real_tables(name, corpus.vocab)
        return
    with st.expander("The made-up text"):
        st.caption(f"{len(corpus.words):,} words: three-word sentences “role word, word, identity word” "
                   "in random order (e.g. “city paris french”, “nation france french”). Role words say "
                   "which side of a relation a word is on; the identity word says which pair it belongs to.")
        st.text(TEXT[:1200] + " ...")
    progress = st.empty()
    result = run(RunRequest("softmax", TEXT, config, window), progress=progress)
    vocab = corpus.vocab
    lesson = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(), GUIDE_WINDOW))      # the lesson's reference run
    st.caption(f"Skip-gram on the made-up text: {len(vocab)} words, window {window}, d_model {config.d_model}, "
               f"learning rate {config.lr}, {config.steps:,} steps; loss {result.final_loss:.3f}.")
    scores_panel(result.E, vocab, lesson.E, corpus_for(GUIDE_TEXT, GUIDE_WINDOW).vocab)
    analogy_panel(result.E, vocab)
    axis_panel(result.E, vocab)
    odd_panel(result.E, vocab)


def real_tables(name: str, vocab: list[str]) -> None:
    """The same questions, words and panels on a real table's rows of the made-up text's words."""
    real = real_or_none(name)
    if real is None:
        return
    title = next(shown for shown, n in REAL_TABLES.items() if n == name)
    words, missing = as_words(real, name, vocab)
    lesson, _ = as_words(real, name, corpus_for(GUIDE_TEXT, GUIDE_WINDOW).vocab)
    st.caption(f"{title}: the rows of the made-up text's words, {len(words.labels)} of its {len(vocab)}"
               + (f" ({', '.join(missing)}: no row of their own)" if missing else "")
               + ". Nothing is trained here (the window and d_model do not apply), and answers are searched "
                 "among these words only, as on the trained table; the real-words screen searches all "
                 "400,000 of GloVe's words.")
    scores_panel(words.E, words.labels, lesson.E, lesson.labels, toy=False)
    needed = {"man", "woman", "king"}
    if needed <= set(words.labels):
        analogy_panel(words.E, words.labels)
        axis_panel(words.E, words.labels)
    odd_words, _ = odd_one_out_round(int(st.session_state.get("ana_round", 0)))
    if set(odd_words) <= set(words.labels):
        odd_panel(words.E, words.labels)

main()
