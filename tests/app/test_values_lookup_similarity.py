"""AppTest: the Lookup and Similarity screens show core's numbers for what was typed,
at the defaults and with every control moved."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.embedding import GPT2_INIT_STD, init_table, lookup, one_hot, one_hot_lookup
from core.similarity import cosine_matrix, cosine_steps
from core.skipgram import SkipGramConfig, train
from tests.app.conftest import open_screen
from tests.app.values import (assert_close, chart_titled, charts_with, has_number, metric, move, numbers, table,
                              text_with, texts)

LOOKUP = {
    "defaults": ("1, 2\n3, 4\n5, 6", None, None),
    "moved": ("2, -1, 0.5\n4, 5, 6\n7, 8, 9\n1, 1, 1", 3, "3, 0, 2\n1, 1, 0"),
}


@pytest.mark.parametrize("name", list(LOOKUP))
def test_lookup_row_product_and_batch(name):
    text, row, ids_text = LOOKUP[name]
    at = open_screen("lookup")
    if name != "defaults":
        move(at, ("text_area", "lookup_matrix", text), ("slider", "lookup_row", row),
             ("text_area", "lookup_batch", ids_text))
    W = np.array([[float(x) for x in ln.split(",")] for ln in text.splitlines()])
    V, d = W.shape
    row = 1 if row is None else row
    assert has_number(text_with(at, r"W has shape"), V, 0) and has_number(text_with(at, r"W has shape"), d, 0)
    oh = table(at, "slot 0")
    assert_close(oh.to_numpy()[0], one_hot(row, V))
    product, gathered = table(at, "dim 0", nth=0), table(at, "dim 0", nth=1)
    assert_close(product.to_numpy()[0], one_hot_lookup(W, [row])[0])
    assert_close(gathered.to_numpy()[0], W[row])
    equal = text_with(at, r"Equal", "success")
    assert has_number(equal, V * d, 0) and has_number(equal, (V - 1) * d, 0)
    ids = (np.array([[0, V - 1], [1, 0]]) if ids_text is None
           else np.array([[int(x) for x in ln.split(",")] for ln in ids_text.splitlines()]))
    X = lookup(W, ids)
    batch = table(at, "b", "t", "id")
    assert list(batch["id"]) == list(ids.ravel())
    assert_close(batch[[f"dim {k}" for k in range(d)]].to_numpy(), X.reshape(-1, d))
    shape = text_with(at, r"ids shape")
    assert [int(x) for x in numbers(shape)] == [*ids.shape, *ids.shape, d]


@pytest.mark.parametrize("width", [None, "smallest"])
def test_lookup_starting_noise_and_its_first_steps(width):
    at = open_screen("lookup")
    widths = at.select_slider(key="lookup_init_width").options
    d_model = int(widths[-1]) if width is None else int(widths[0])
    if width is not None:
        move(at, ("select_slider", "lookup_init_width", d_model))
    small = init_table(16, 16, std=GPT2_INIT_STD, rng=0).ravel()
    big = init_table(16, 16, std=1.0, rng=0).ravel()
    ticks = table(at, "value", "start")
    assert_close(ticks["value"], np.concatenate([small, big]))
    assert list(ticks["start"]) == [f"std {GPT2_INIT_STD}"] * 256 + ["std 1.0"] * 256
    strip = charts_with(at, "value")[0].rows("value")
    assert_close(strip["value"], np.concatenate([small, big]))
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    runs = {s: train(corpus, SkipGramConfig(d_model=d_model, lr=0.5, steps=300, seed=0, init_std=s))
            for s in (GPT2_INIT_STD, 1.0)}
    losses = table(at, "step", f"std {GPT2_INIT_STD}", "std 1.0")
    for s, r in runs.items():
        assert_close(losses[f"std {s}"], r.losses)
    lines = charts_with(at, "step")[0].rows("step")
    for s, r in runs.items():
        pts = lines[lines["line"] == f"std {s}"]
        assert len(pts) == 301
        assert_close(pts["loss"], r.losses[pts["step"].to_numpy()])
    # the caption's figures (wording may change): std 1's start, ln V, std 0.02's start
    caption = [t for t in texts(at, "caption", "markdown") if has_number(t, runs[1.0].losses[0], 2)]
    assert caption, "no caption gives the std-1 run's starting loss"
    assert has_number(caption[0], runs[GPT2_INIT_STD].losses[0], 3)
    assert has_number(caption[0], np.log(corpus.V), 3)


SIM = {
    "defaults": ("1, 2, 2", "2, 1, 2", 1.0),
    "moved": ("3, -1, 2, 5", "1, 0, 4, 2", 2.5),
    "two-d": ("3, 4", "-1, 2", 0.5),
}


@pytest.mark.parametrize("name", list(SIM))
def test_similarity_steps_and_metrics(name):
    u_text, v_text, scale = SIM[name]
    at = open_screen("similarity")
    if name != "defaults":
        move(at, ("text_input", "sim_u", u_text), ("text_input", "sim_v", v_text), ("slider", "sim_scale", scale))
    u = np.array([float(x) for x in u_text.split(",")])
    v = np.array([float(x) for x in v_text.split(",")]) * scale
    s = cosine_steps(u, v)
    assert metric(at, "dot product") == f"{s.dot:.3f}"
    assert metric(at, "cosine") == f"{s.cosine:.3f}"
    assert metric(at, "angle") == f"{s.angle_degrees:.1f}°"
    steps = text_with(at, r"Dot product")
    for x in (s.dot, s.norm_u, s.norm_v):
        assert f"{x:.4g}" in steps
    assert has_number(steps, s.cosine, 3)
    if len(u) == 2:
        pts = table(at, "name", "x", "y")
        assert_close(pts[["x", "y"]].to_numpy(), np.vstack([u, v]))
        chart = chart_titled(at, "u and v")
        assert has_number(chart.title, s.angle_degrees, 1)
        heads = chart.rows("x")
        assert_close(heads[["x", "y"]].to_numpy()[:2], np.vstack([u, v]))


def test_similarity_one_hot_heatmap():
    at = open_screen("similarity")
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    S = cosine_matrix(one_hot(np.arange(corpus.V), corpus.V))
    heat = table(at, "word", "cat")
    assert list(heat["word"]) == corpus.vocab
    assert_close(heat[corpus.vocab].to_numpy(), S)
    cells = charts_with(at, "cosine")[0].rows("cosine")
    idx = {w: i for i, w in enumerate(corpus.vocab)}
    assert_close(cells["cosine"], [S[idx[a], idx[b]] for a, b in zip(cells["row"], cells["column"])])
    off = S[~np.eye(corpus.V, dtype=bool)]
    assert metric(at, "different pairs") == f"{off.size}"
    assert metric(at, "largest cosine between different words") == f"{off.max():.2f}"
    assert has_number(text_with(at, r"its own one-hot vector"), corpus.V, 0)
