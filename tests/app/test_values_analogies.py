"""AppTest: the Analogies screen shows core's scores, answers, axis and odd-one-out verdicts."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.relations import (LESSON_QUESTIONS, METHODS, RELATIONS, accuracy, analogy, axis_positions,
                            odd_one_out, odd_one_out_round, relation_questions, relations_text, side_split)
from core.skipgram import SkipGramConfig, train
from core.vectors import Vectors
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, chart_titled, table


def learned(window=1, d_model=16):
    corpus = Corpus.from_text(relations_text(), window=window)
    return corpus, train(corpus, SkipGramConfig(d_model=d_model, lr=1.0, steps=1500, snapshot_every=25)).E


@pytest.mark.parametrize("window, d_model", [(None, None), (2, None), (None, 4)])
def test_scores_come_from_core_for_the_settings(window, d_model):
    at = open_screen("analogies")
    if window:
        at.select_slider(key="ana_window").set_value(window).run()
    if d_model:
        at.select_slider(key="ana_d").set_value(d_model).run()
    assert_clean(at)
    corpus, E = learned(window or 1, d_model or 16)
    shown = table(at, "questions")
    lesson_corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    lesson_E = train(lesson_corpus, SkipGramConfig()).E
    expected = [accuracy(Vectors(corpus.vocab, E), relation_questions(n)) for n in RELATIONS]
    expected.append(accuracy(Vectors(lesson_corpus.vocab, lesson_E), LESSON_QUESTIONS))
    for row, scores in zip(shown.to_dict("records"), expected):
        for m in METHODS:
            assert row[m] == f"{scores[m][0]} of {scores[m][1]}"


@pytest.mark.parametrize("a, b, c", [(None, None, None), ("france", "paris", "japan"), ("walk", "walked", "cook")])
def test_the_analogy_box(a, b, c):
    at = open_screen("analogies")
    if a:
        at.selectbox(key="ana_a").set_value(a).run()
        at.selectbox(key="ana_b").set_value(b).run()
        at.selectbox(key="ana_c").set_value(c).run()
    assert_clean(at)
    a, b, c = a or "man", b or "woman", c or "king"
    corpus, E = learned()
    found = analogy(Vectors(corpus.vocab, E), a, b, c)
    shown = table(at, "rank", "word", "cosine")
    assert list(shown["word"]) == [w for w, _ in found.answers]
    assert_close(shown["cosine"].to_numpy(), [s for _, s in found.answers], decimals=4)
    lines = [m.value for m in at.markdown]
    assert f"**b - a + c:** {b} - {a} + {c} ≈ **{found.answers[0][0]}**" in lines
    for m in METHODS[1:]:
        w, s = analogy(Vectors(corpus.vocab, E), a, b, c, k=1, method=m).answers[0]
        assert f"**{m}:** {w} (cosine {s:.3f})" in lines


def axis_screen(a, b):
    """The screen with the direction a → b chosen (the default man → woman when a is None)."""
    at = open_screen("analogies")
    if a:
        at.selectbox(key="ana_axis_a").set_value(a).run()
        at.selectbox(key="ana_axis_b").set_value(b).run()
    assert_clean(at)
    return at, a or "man", b or "woman"


@pytest.mark.parametrize("a, b", [(None, None), ("nation", "city"), ("he", "she")])
def test_the_axis_map(a, b):
    at, a, b = axis_screen(a, b)
    corpus, E = learned()
    pos = dict(zip(corpus.vocab, axis_positions(Vectors(corpus.vocab, E), a, b)))
    rows = chart_titled(at, f"Every word on the direction {a} → {b}").rows("position")
    assert len(rows) == len(pos)
    for word, p in zip(rows["word"], rows["position"]):
        assert p == pytest.approx(pos[word])


@pytest.mark.parametrize("a, b, verdict", [(None, None, "**separate**"), ("he", "she", "**do not separate**"),
                                            ("woman", "man", "**separate**")])
def test_the_axis_caption_says_what_the_strip_shows(a, b, verdict):
    """The default man → woman splits the male and female words; he → she does not (role words
    get rows from their own neighbours), and the caption must say so from the positions."""
    at, a, b = axis_screen(a, b)
    rows = chart_titled(at, f"Every word on the direction {a} → {b}").rows("position")
    shown = dict(zip(rows["word"], rows["position"]))
    group = {w: g for w, g in zip(rows["word"], rows["group"])}
    words = list(rows["word"])
    split = side_split(np.array([shown[w] for w in words]), Vectors(words, np.zeros((len(words), 1))), a, b)
    caption = next(c.value for c in at.caption if " words " in c.value and "along" in c.value)
    assert verdict in caption
    if round(abs(split.gap), 2) == 0:
        assert "on average the two groups sit at the same place" in caption
    else:
        assert f"{abs(split.gap):.2f} {'further along' if split.gap > 0 else 'less far along'}" in caption
    assert f"spread by about {split.spread:.2f}" in caption and "-0.00" not in caption
    assert f"{split.ordered} of {split.pairs} pairs" in caption
    # the verdict read straight off the chart's ticks: does one cut split the two sides' words?
    pairs = [(p[0], p[1]) for p in RELATIONS["male - female"][2] if a not in p[:2] and b not in p[:2]]
    from_male = a in ("he", "his") or group[a] == "male"
    away = [shown[m if from_male else f] for m, f in pairs]
    towards = [shown[f if from_male else m] for m, f in pairs]
    assert (min(towards) > max(away)) == (verdict == "**separate**")


@pytest.mark.parametrize("rounds", [0, 2])
def test_odd_one_out_verdicts(rounds):
    at = open_screen("analogies")
    for _ in range(rounds):
        at.button(key="ana_next_round").click().run()
    words, odd = odd_one_out_round(rounds)
    radio = at.radio(key=f"ana_pick_{rounds}")
    assert list(radio.options) == words
    wrong = next(w for w in words if w != odd)
    radio.set_value(wrong).run()
    assert_clean(at)
    corpus, E = learned()
    model, means = odd_one_out(Vectors(corpus.vocab, E), words)
    assert at.error and f"“{odd}” is the odd one" in at.error[0].value and f"“{model}”" in at.error[0].value
    shown = table(at, "mean cosine to the others")
    assert_close(shown["mean cosine to the others"].to_numpy(), [means[w] for w in words])
    at.radio(key=f"ana_pick_{rounds}").set_value(odd).run()
    assert at.success and at.success[0].value.startswith("Right")
