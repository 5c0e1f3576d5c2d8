"""AppTest: every number the Train screen's Result tab shows equals core's own computation for
the same settings, at the defaults and with every control moved off its default."""
import numpy as np
import pandas as pd
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.projection import pca
from core.similarity import cosine_matrix, nearest, similarity_order
from core.skipgram import SkipGramConfig, loss_floor, train
from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import (assert_close, chart_titled, charts, charts_with, has_number, metric, move, table,
                              text_with)



def reference(text=GUIDE_TEXT, d_model=4, lr=0.5, window=2, steps=3000, seed=0):
    corpus = Corpus.from_text(text, window=window, max_vocab=TRAIN_VOCAB_CAP)
    return corpus, train(corpus, SkipGramConfig(d_model=d_model, lr=lr, steps=steps, seed=seed))


SETTINGS = {
    "defaults": {},
    "d_model": {"d_model": 7},
    "lr": {"lr": 0.2},
    "window": {"window": 3},
    "steps": {"steps": 500},
    "seed": {"seed": 11},
}


CONTROLS = {"d_model": ("slider", "train_d_model"), "lr": ("select_slider", "train_lr"),
            "window": ("slider", "train_window"), "steps": ("select_slider", "train_steps"),
            "seed": ("text_input", "train_seed")}


def _open(**s):
    return move(open_screen("train"), *[(*CONTROLS[name], value) for name, value in s.items()])


@pytest.mark.parametrize("name", list(SETTINGS))
def test_metrics_and_loss_curve(name):
    s = SETTINGS[name]
    at = _open(**s)
    corpus, r = reference(**s)
    floor = loss_floor(corpus)
    steps = len(r.losses) - 1
    assert metric(at, "words") == f"{len(corpus.words):,}"
    assert metric(at, "vocabulary") == f"{corpus.V:,}"
    assert metric(at, "pairs") == f"{corpus.n_pairs:,}"
    assert metric(at, "loss, step 0") == f"{r.losses[0]:.3f}"
    assert metric(at, f"loss, step {steps:,}") == f"{r.final_loss:.3f}"
    assert metric(at, "loss floor") == f"{floor:.3f}"
    # the table behind the loss chart, and the chart's own points
    loss_table = table(at, "loss")
    assert_close(loss_table["step"], np.arange(steps + 1))
    assert_close(loss_table["loss"], r.losses)
    curve = charts(at)[0]
    pts = curve.rows("step")
    assert_close(pts["loss"], r.losses[pts["step"].to_numpy()])
    assert pts["step"].iloc[-1] == steps
    refs = curve.data[[k for k, d in curve.data.items() if "step" not in d.columns][0]]
    assert_close(sorted(refs["loss"]), sorted([np.log(corpus.V), floor]))
    caption = text_with(at, r"above it")
    assert has_number(caption, r.final_loss - floor, 3) and has_number(caption, corpus.V, 0)


@pytest.mark.parametrize("name", ["defaults", "d_model", "window", "seed"])
def test_heatmap_neighbours_pca_and_pairs(name):
    s = SETTINGS[name]
    at = _open(**s)
    corpus, r = reference(**s)
    S = cosine_matrix(r.E)
    # heatmap: the table is the full matrix; the chart's cells are the matrix in similarity order
    heat_table = table(at, "word", "cat", nth=0)
    assert list(heat_table["word"]) == corpus.vocab
    assert_close(heat_table[corpus.vocab].to_numpy(), S)
    order = similarity_order(S[np.ix_(corpus.most_frequent(64), corpus.most_frequent(64))])
    shown = [corpus.vocab[i] for i in corpus.most_frequent(64)[order]]
    cells = charts_with(at, "cosine")[0].rows("cosine")
    idx = {w: i for i, w in enumerate(corpus.vocab)}
    assert list(dict.fromkeys(cells["row"])) == shown
    assert_close(cells["cosine"], [S[idx[a], idx[b]] for a, b in zip(cells["row"], cells["column"])])
    # neighbours of the default word
    nn = table(at, "neighbour")
    want = nearest(r.E, corpus.vocab.index("cat"), k=5)
    assert list(nn["neighbour"]) == [corpus.vocab[j] for j, _ in want]
    assert_close(nn["cosine"], [c for _, c in want], 2)
    # cosine of the two chosen words
    assert metric(at, "cos(cat, dog)") == f"{S[idx['cat'], idx['dog']]:.2f}"
    # PCA: the table, the chart's points, its title and the reading text
    p = pca(r.E, k=2)
    pca_table = table(at, "direction 1")
    assert_close(pca_table[["direction 1", "direction 2"]].to_numpy(), p.coords)
    chart = chart_titled(at, "This flat picture keeps")
    pts = chart.rows("x").set_index("word").loc[corpus.vocab]
    assert_close(pts[["x", "y"]].to_numpy(), p.coords)
    assert has_number(chart.title, 100 * p.kept, 0)
    reading = text_with(at, r"PCA lays the")
    # each share to the fewest decimals that make the shares and the lost rest add up to 100
    assert all(has_number(reading, 100 * x, 0) or has_number(reading, 100 * x, 1) for x in p.explained)
    assert has_number(reading, s.get("d_model", 4), 0)
    # the pairs the window makes (their box is built when opened)
    assert not [t for t in at.dataframe if "centre" in t.value.columns]
    at.session_state["train_pairs_box"] = True
    at.run()
    pairs = table(at, "centre")
    assert list(pairs["centre"]) == [corpus.vocab[i] for i in corpus.inputs]
    assert list(pairs["context"]) == [corpus.vocab[j] for j in corpus.targets]


def test_word_choices_are_each_computed_from_their_own_word():
    at = _open()
    corpus, r = reference()
    S = cosine_matrix(r.E)
    idx = {w: i for i, w in enumerate(corpus.vocab)}
    at.button_group(key="train_word").set_value("mat").run()
    at.button_group(key="train_w1").set_value("log").run()
    at.button_group(key="train_w2").set_value("the").run()
    assert_clean(at)
    nn = table(at, "neighbour")
    want = nearest(r.E, idx["mat"], k=5)
    assert list(nn["neighbour"]) == [corpus.vocab[j] for j, _ in want]
    assert_close(nn["cosine"], [c for _, c in want], 2)
    assert metric(at, "cos(log, the)") == f"{S[idx['log'], idx['the']]:.2f}"


def test_pasted_text():
    text = "the king and the queen rule the land and the man and the woman work the land"
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.text_area(key="train_text").input(text).run()
    assert_clean(at)
    corpus, r = reference(text=text)
    assert metric(at, "vocabulary") == f"{corpus.V:,}"
    assert metric(at, "words") == f"{len(corpus.words):,}"
    assert metric(at, "loss, step 3,000") == f"{r.final_loss:.3f}"
    assert metric(at, "loss floor") == f"{loss_floor(corpus):.3f}"
    nn = table(at, "neighbour")
    assert at.button_group(key="train_word").value == corpus.vocab[0]   # no "cat" here: the first word
    want = nearest(r.E, 0, k=5)
    assert list(nn["neighbour"]) == [corpus.vocab[j] for j, _ in want]


def test_divergence_message_reports_its_own_run():
    at = _open(lr=50.0)
    corpus, r = reference(lr=50.0)
    assert r.diverged
    msg = text_with(at, r"blew up", "error")
    assert has_number(msg, r.diverged_step, 0)
    assert has_number(msg, r.losses[0], 3) and has_number(msg, r.losses[-1], 3)
    assert metric(at, f"loss, step {len(r.losses) - 1:,}") == f"{r.final_loss:.3f}"
    pd.testing.assert_series_equal(table(at, "loss")["loss"], pd.Series(r.losses, name="loss"))
