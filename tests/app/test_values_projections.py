"""AppTest: the Projections screen's pictures, scores, rotation and context preview are core's
numbers for the chosen table, perplexities and seeds; each t-SNE picture comes from its own
perplexity, and each score from its own picture."""
import numpy as np
import pytest

from core.context_mix import ambiguous_in_context
from core.corpus import GUIDE_TEXT, Corpus
from core.generated import generate_corpus
from lab_ui.widgets.presets import SOFTMAX_SETTINGS
from core.honesty import neighbour_overlap, rotation_check
from core.projection import pca
from core.skipgram import SkipGramConfig, train
from core.tsne import tsne
from core.vectors import Vectors
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, charts, charts_with, has_number, metric, move, table, tables, text_with

GROUPS, LESSON = "Word groups (generated)", "The lesson's 33 words"


def trained(source):
    if source == GROUPS:
        s = SOFTMAX_SETTINGS
        corpus = Corpus.from_text(generate_corpus().text, window=2)
        return train(corpus, SkipGramConfig(d_model=s.d_model, lr=s.lr, steps=s.steps, seed=s.seed))
    return train(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig())


CASES = {"defaults": (GROUPS, [2, 5, 30], 0), "lesson, two perplexities, seed 3": (LESSON, [10, 2], 3)}


@pytest.mark.parametrize("name", list(CASES))
def test_each_picture_and_score_from_its_own_inputs(name):
    source, perps, seed = CASES[name]
    at = open_screen("projections")
    if name != "defaults":
        move(at, ("radio", "proj_source", source), ("multiselect", "proj_perplexities", perps),
             ("text_input", "proj_seed", seed))
    r = trained(source)
    E, vocab = r.E, r.vocab
    p = pca(E, k=2)
    expected = [("PCA", p.coords)] + [(f"t-SNE, perplexity {q}", tsne(E, perplexity=float(q), seed=seed,
                                                                     metric="cosine", perplexity_cap=1.0).coords)
                                      for q in perps]
    overlaps = [neighbour_overlap(E, coords, 5) for _, coords in expected]
    shown = [t for t in tables(at) if {"word", "x", "y", "neighbours kept"} <= set(t.columns)]
    assert len(shown) == len(expected)
    for (label, coords), ov in zip(expected, overlaps):
        # the one table drawn from this method, perplexity and seed (whatever the layout's order)
        mine = [t for t in shown if np.allclose(t[["x", "y"]].to_numpy(), coords, rtol=1e-9, atol=1e-12)]
        assert len(mine) == 1, label
        t = mine[0]
        assert list(t["word"]) == vocab
        assert_close(t["neighbours kept"], ov.per_row)
        chart = [c for c in charts(at) if c.title.startswith(label)]
        assert len(chart) == 1, label
        pts = chart[0].rows("x").set_index("word").loc[vocab]
        assert_close(pts[["x", "y"]].to_numpy(), coords)
        assert has_number(chart[0].title, 100 * ov.mean, 0)
    assert has_number([c for c in charts(at) if c.title.startswith("PCA")][0].title, 100 * p.kept, 0)
    score = table(at, "picture", "neighbours kept (%)")
    assert list(score["picture"]) == [label for label, _ in expected]
    assert_close(score["neighbours kept (%)"], [100 * ov.mean for ov in overlaps])
    bars = charts_with(at, "neighbours kept (%)")[0].rows("neighbours kept (%)")
    assert_close(bars["neighbours kept (%)"], [100 * ov.mean for ov in overlaps])


@pytest.mark.parametrize("source, rotation", [(GROUPS, None), (GROUPS, 7), (LESSON, 0)])
def test_rotation_numbers(source, rotation):
    at = open_screen("projections")
    if source != GROUPS:
        at.radio(key="proj_source").set_value(source).run()
    if rotation is not None:
        at.slider(key="proj_rotation").set_value(rotation).run()
    assert_clean(at)
    rotation = 1 if rotation is None else rotation
    r = trained(source)
    if rotation == 0:
        rotated, moved = r.E, 0.0
    else:
        check = rotation_check(r.E, rotation)
        rotated, moved = check.rotated, check.share_entries_changed
    assert metric(at, "numbers of the table that changed") == f"{100 * moved:.0f}%"
    assert metric(at, "largest change of any cosine") == ("0" if rotation == 0 else "below 0.000001")
    t = table(at, "column 0 before", "column 0 after")
    n = min(6, len(r.vocab))
    assert list(t["word"]) == r.vocab[:n]
    for col, want in (("column 0 before", r.E[:n, 0]), ("column 0 after", rotated[:n, 0]),
                      ("column 1 before", r.E[:n, 1]), ("column 1 after", rotated[:n, 1])):
        np.testing.assert_array_equal(t[col], np.round(want, 3))       # shown to 3 decimals


def test_context_preview():
    at = open_screen("projections")
    g = generate_corpus()
    s = SOFTMAX_SETTINGS
    r = train(Corpus.from_text(g.text, window=2), SkipGramConfig(d_model=s.d_model, lr=s.lr, steps=s.steps))
    prev = ambiguous_in_context(Vectors(r.vocab, r.E), g)
    a, b = g.ambiguous_groups
    want = [prev.static_cos[a], prev.static_cos[b]]
    for sense in prev.senses:
        want += [prev.sense_cos[sense][a], prev.sense_cos[sense][b]]
    t = table(at, "vector", "group", "cosine")
    assert_close(t["cosine"], want, 3)
    assert list(t["group"]) == [a, b] * 3
    chart = charts_with(at, "vector")[0]
    bars = chart.rows("cosine")
    assert_close(bars["cosine"], want, 3)
    # the cosine axis runs from 0 (or the lowest cosine, if one is negative) to 1
    assert chart.spec["encoding"]["x"]["scale"]["domain"] == pytest.approx([min(0.0, min(want)), 1.0])
    assert has_number(text_with(at, r"with each other"), prev.sense_similarity, 2)
