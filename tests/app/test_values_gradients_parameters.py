"""AppTest: the Gradients and Parameters screens show core's numbers for the ids, sizes and
presets chosen, at the defaults and with every control moved."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.embedding import init_table, lookup_backward, rows_touched, sgd_step
from core.params import (BYTES_PER_PARAM, PRESETS, crossover_d_model, embedding_params, layer_params,
                         memory_bytes, preset, share)
from core.skipgram import SkipGramConfig, init_params, loss_and_grads_pairs
from lab_ui.widgets.presets import upstream_in_hundredths
from lab_ui.widgets.readable import count_in_words
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, charts_with, has_number, metric, table, text_with

V, D = 50_257, 4


@pytest.mark.parametrize("ids, lr", [(None, None), ([7, 50_256, 7, 3, 7], 0.5)])
def test_gradient_rows_and_sgd_step(ids, lr):
    at = open_screen("gradients")
    if ids is not None:
        at.text_input(key="grad_ids").input(", ".join(map(str, ids))).run()
        at.select_slider(key="grad_lr").set_value(lr).run()
        assert_clean(at)
    ids = np.array(ids or [15, 824, 391])
    lr = lr or 0.1
    W = init_table(V, D, std=0.02, rng=0)
    up = upstream_in_hundredths(len(ids), D)
    grad = lookup_backward(ids[None, :], up, V)
    step = sgd_step(W, grad, lr)
    touched = step.changed_rows
    upstream = table(at, "position", "token id")
    assert list(upstream["token id"]) == list(ids)
    assert_close(upstream[[f"dL/dX dim {k}" for k in range(D)]].to_numpy(), up[0])
    assert metric(at, "rows with a non-zero gradient") == f"{len(touched):,}"
    assert metric(at, "rows with gradient exactly 0") == f"{V - len(touched):,}"
    assert metric(at, "share of the table touched") == f"{100 * len(touched) / V:.4f}%"
    rows = table(at, "row (token id)")
    assert list(rows["row (token id)"]) == list(touched)
    assert_close(rows[[f"dW_E dim {j}" for j in range(D)]].to_numpy(), grad[touched])
    assert list(rows["from positions"]) == [", ".join(map(str, np.flatnonzero(ids == k))) for k in touched]
    ba = table(at, "row", "when")
    assert_close(ba[ba["when"] == "before"][[f"dim {j}" for j in range(D)]].to_numpy(), W[touched])
    assert_close(ba[ba["when"] == "after"][[f"dim {j}" for j in range(D)]].to_numpy(), step.table[touched])
    assert has_number(text_with(at, r"rows changed", "success"), len(touched), 0)
    assert has_number(text_with(at, r"rows changed", "success"), V - len(touched), 0)
    repeated = [int(k) for k in touched if np.count_nonzero(ids == k) > 1]
    if repeated:
        note = text_with(at, r"appears at positions", "info")
        assert has_number(note, repeated[0], 0)
        assert all(has_number(note, p, 0) for p in np.flatnonzero(ids == repeated[0]))


def test_weight_tying_counts():
    at = open_screen("gradients")
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E, W = init_params(corpus.V, SkipGramConfig())
    _, dE, dW = loss_and_grads_pairs(E, W, corpus.inputs[:1], corpus.targets[:1])
    text = text_with(at, r"Take one training pair")
    n_e, n_w = len(rows_touched(dE)), len(rows_touched(dW.T))
    assert f"{n_e} of {corpus.V}" in text and f"{n_w} of {corpus.V}" in text
    assert corpus.vocab[corpus.inputs[0]] in text and corpus.vocab[corpus.targets[0]] in text


PARAMS = {
    "GPT-2 small (default)": None,
    "GPT-3 175B": ("GPT-3 175B", None),
    "custom, untied": ("Custom", (32_000, 4_096, 7_000_000_000, False)),
}


@pytest.mark.parametrize("name", list(PARAMS))
def test_parameter_metrics_memory_and_share(name):
    choice = PARAMS[name]
    at = open_screen("parameters")
    if choice is None:
        p = PRESETS[0]
        vocab, d, total, tied = p.vocab_size, p.d_model, p.total_params, p.tied
    else:
        at.selectbox(key="params_preset").set_value(choice[0]).run()
        if choice[1] is None:
            p = preset(choice[0])
            vocab, d, total, tied = p.vocab_size, p.d_model, p.total_params, p.tied
        else:
            vocab, d, total, tied = choice[1]
            at.text_input(key="params_vocab_Custom").input(str(vocab)).run()
            at.text_input(key="params_d_Custom").input(str(d)).run()
            at.text_input(key="params_total_Custom").input(str(total)).run()
            at.toggle(key="params_tied").set_value(tied).run()
        assert_clean(at)
    table_n = embedding_params(vocab, d)
    both = embedding_params(vocab, d, tied=tied)
    assert metric(at, "embedding table |V| x d_model") == f"{table_n:,}"
    pct = 100 * share(table_n, total)
    assert metric(at, "share of the whole model") == f"{pct:.{2 if table_n / total < 0.01 else 1}f}%"
    assert metric(at, "table + output projection") == f"{both:,}"
    if choice is None or choice[1] is None:
        cap = text_with(at, r"parameters \(", "caption")
        assert has_number(cap, table_n, 0) and has_number(cap, total, 0) and count_in_words(table_n) in cap
    mem = table(at, "number format", "bytes")
    assert list(mem["number format"]) == list(BYTES_PER_PARAM)
    assert list(mem["bytes"]) == [memory_bytes(table_n, k) for k in BYTES_PER_PARAM]
    bars = charts_with(at, "MiB")[0].rows("MiB")
    assert_close(bars["MiB"], [memory_bytes(table_n, k) / 2**20 for k in BYTES_PER_PARAM])


def test_share_and_growth_charts():
    at = open_screen("parameters")
    want = [100 * share(embedding_params(q.vocab_size, q.d_model), q.total_params) for q in PRESETS]
    shares = table(at, "model", "table share %")
    assert list(shares["model"]) == [q.name for q in PRESETS]
    assert_close(shares["table share %"], want)
    bars = charts_with(at, "table share %")[0].rows("table share %")
    assert_close(bars["table share %"], want)
    growth = charts_with(at, "parameters")[0].rows("parameters")
    for _, r in growth.iterrows():
        d = int(r["d_model"])
        assert r["parameters"] == (embedding_params(50_257, d) if r["what"].startswith("table") else layer_params(d))
    assert len(growth) == 18
    assert has_number(text_with(at, r"outweighs"), crossover_d_model(50_257), 0)
