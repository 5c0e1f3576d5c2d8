"""AppTest: the Position screen shows core's vectors and summaries for the sentences typed."""
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.position import learned_start, order_test, sinusoidal
from core.similarity import cosine, cosine_matrix
from core.skipgram import SkipGramConfig, train
from lab_ui.screens.views.position_view import KINDS
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, chart_titled, has_number, table, texts

CASES = {
    "defaults": (None, None, None),
    "learned": (None, None, "learned"),
    "none": (None, None, "none"),
    "other words": ("the dog sat on the log", "the log sat on the dog", "sinusoidal"),
    "lengths differ": ("the cat", "the cat saw the cat", "sinusoidal"),
    "one word": ("the cat", "cat", "sinusoidal"),
}


def reference():
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    return corpus, train(corpus, SkipGramConfig()).E


@pytest.mark.parametrize("a, b, kind", CASES.values(), ids=CASES.keys())
def test_places_and_summaries_come_from_core(a, b, kind):
    at = open_screen("position")
    if a is not None:
        at.text_input(key="pos_a").input(a).run()
        at.text_input(key="pos_b").input(b).run()
    if kind is not None:
        at.radio(key="pos_kind").set_value(KINDS[kind]).run()
    assert_clean(at)
    a, b, kind = a or "the cat saw the dog", b or "the dog saw the cat", kind or "sinusoidal"
    corpus, E = reference()
    ids_a, ids_b = corpus.encode(a), corpus.encode(b)
    n, d = max(len(ids_a), len(ids_b)), E.shape[1]
    P = {"sinusoidal": sinusoidal(n, d), "learned": learned_start(n, d, seed=SkipGramConfig().seed),
         "none": None}[kind]

    for nth, ids in enumerate((ids_a, ids_b)):
        shown = table(at, "place", "word", nth=nth)
        X = E[ids] if P is None else E[ids] + P[: len(ids)]
        assert list(shown["word"]) == [corpus.vocab[i] for i in ids]
        assert_close(shown[[f"dim {k}" for k in range(d)]].to_numpy(), X, decimals=3)

    summaries = table(at, "summary")
    expected = [order_test(E, ids_a, ids_b, None)] + ([] if P is None else [order_test(E, ids_a, ids_b, P)])
    assert len(summaries) == 2 * len(expected)
    wheres = ["rows only", "with positions"][: len(expected)]
    assert list(summaries["summary"]) == [f"{s}, {w}" for w in wheres for s in ("mean", "mean of tanh")]
    for row, (test, name) in zip(summaries.itertuples(index=False),
                                 [(t, s) for t in expected for s in ("mean", "tanh")]):
        u, v = (test.mean_a, test.mean_b) if name == "mean" else (test.squashed_a, test.squashed_b)
        same = test.same_mean if name == "mean" else test.same_squashed
        assert row[1] == pytest.approx(cosine(u, v), abs=1e-6)
        assert row[3] == ("no" if same else "yes")
    if kind == "sinusoidal" and len(ids_a) == len(ids_b):
        assert list(summaries["tells apart"]) == ["no", "no", "no", "yes"]


@pytest.mark.parametrize("typed", ["   ", "the zebra saw the cat"])
@pytest.mark.parametrize("box", ["pos_a", "pos_b"])
def test_an_empty_sentence_or_an_unknown_word_gets_a_message_not_a_table(box, typed):
    at = open_screen("position")
    at.text_input(key=box).input(typed).run()
    assert_clean(at)
    corpus, _ = reference()
    [message] = [e.value.replace("\\", "") for e in at.error]        # as read (Markdown escapes dropped)
    name = {"pos_a": "Sentence A", "pos_b": "Sentence B"}[box]
    vocab = ", ".join(corpus.vocab)
    assert message == (f"Use only the {corpus.V} words of the toy vocabulary ('zebra' is not in the "
                       f"vocabulary): {vocab}." if typed.strip() else
                       f"{name} has no words: type at least one word of the toy vocabulary ({vocab}).")
    assert not [t for t in at.dataframe if "place" in t.value.columns]


@pytest.mark.parametrize("width", [None, 4, 64])
def test_the_sinusoidal_picture_is_the_cosine_of_core_positions(width):
    at = open_screen("position")
    if width is not None:
        at.select_slider(key="pos_width").set_value(width).run()
    assert_clean(at)
    width = width or 16
    S = cosine_matrix(sinusoidal(24, width))
    chart = chart_titled(at, "Cosine between the position vectors")
    assert f"width {width}" in chart.title
    rows = chart.rows("cosine")
    assert_close(rows["cosine"].to_numpy(), S.reshape(-1))
    caption = next(t for t in texts(at, "caption") if "stripe" in t)
    for value in (S[0, 1], S[0, 2], S[0, -1]):
        assert has_number(caption, value, 2)


def words_shown(at, nth):
    return list(table(at, "place", "word", nth=nth)["word"])


def test_a_lesson_link_sets_both_sentences():
    at = open_screen("position", pos_a="the dog sat on the log", pos_b="the log sat")
    assert_clean(at)
    corpus, _ = reference()
    for nth, s in enumerate(("the dog sat on the log", "the log sat")):
        assert words_shown(at, nth) == [corpus.vocab[i] for i in corpus.encode(s)]


def test_a_linked_sentence_longer_than_the_box_takes_is_cut_to_its_length():
    from lab_ui.widgets.inputs import MAX_SENTENCE

    long = ("the cat sat " * MAX_SENTENCE)[: MAX_SENTENCE + 1]       # ends "... the cat s"
    at = open_screen("position", pos_a=long, pos_b=long)
    assert_clean(at)
    corpus, _ = reference()
    cut = [corpus.vocab[i] for i in corpus.encode(long[:MAX_SENTENCE])]   # the box keeps "... the cat "
    assert words_shown(at, 0) == words_shown(at, 1) == cut
