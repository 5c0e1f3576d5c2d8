"""AppTest: every screen renders, its controls move its outputs, bad input gets a message."""
import numpy as np
import pytest

from tests.app.conftest import assert_clean, metric, open_screen, texts


def test_home_lists_the_screens():
    at = open_screen("home")
    body = texts(at)
    for name in ("Lookup", "Similarity", "Train", "Gradients", "Parameters", "Limits", "bank"):
        assert name in body


# --- 1. Lookup -----------------------------------------------------------------------------
def frame(at, column: str, index: int = 0):
    """The index-th table on screen that has a column or row label containing ``column``."""
    found = [d.value for d in at.dataframe
             if any(column in str(c) for c in list(d.value.columns) + list(d.value.index))]
    assert len(found) > index, f"no table with {column!r}"
    return found[index]


def test_lookup_row_slider_changes_the_row():
    at = open_screen("lookup")
    assert frame(at, "product").to_numpy().tolist() == [[3.0, 4.0]]
    assert any("Equal" in s.value for s in at.success)
    at.slider(key="lookup_row").set_value(2).run()
    assert_clean(at)
    assert frame(at, "product").to_numpy().tolist() == [[5.0, 6.0]]
    assert frame(at, "W[2]").to_numpy().tolist() == [[5.0, 6.0]]


def test_lookup_batch_shape_and_bad_ids():
    at = open_screen("lookup")
    at.text_area(key="lookup_batch").input("0, 1, 2\n2, 2, 0").run()
    assert "(2, 3, 2)" in texts(at)
    at.text_area(key="lookup_batch").input("0, 7").run()
    assert_clean(at)
    assert any("outside the vocabulary" in e.value for e in at.error)


@pytest.mark.parametrize("bad,msg", [("", "empty"), ("1, 2\n3", "different lengths"),
                                     ("1, x", "not a number"), ("nan, 1", "finite"),
                                     ("inf, 2", "finite")])
def test_lookup_malformed_matrix(bad, msg):
    at = open_screen("lookup")
    at.text_area(key="lookup_matrix").input(bad).run()
    assert_clean(at)
    assert any(msg in e.value for e in at.error)


# --- 2. Similarity --------------------------------------------------------------------------
def test_similarity_worked_case_and_stretch():
    at = open_screen("similarity")
    assert metric(at, "cosine") == "0.889"
    assert metric(at, "dot product") == "8.000"
    at.slider(key="sim_scale").set_value(2.0).run()
    assert_clean(at)
    assert metric(at, "dot product") == "16.000"
    assert metric(at, "cosine") == "0.889"


def test_similarity_two_d_arrows_and_zero_vector():
    at = open_screen("similarity")
    n_charts = len(at.get("vega_lite_chart"))
    at.text_input(key="sim_u").input("1, 0").run()
    at.text_input(key="sim_v").input("1, 1").run()
    assert_clean(at)
    assert len(at.get("vega_lite_chart")) == n_charts + 1
    assert metric(at, "angle") == "45.0°"
    at.text_input(key="sim_u").input("0, 0").run()
    assert metric(at, "cosine") == "0.000"
    assert any("no direction" in w.value for w in at.warning)


@pytest.mark.parametrize("u,v,msg", [("1, 2", "1, 2, 3", "same count"), ("", "1", "empty"),
                                     ("a, b", "1, 2", "not a number")])
def test_similarity_bad_vectors(u, v, msg):
    at = open_screen("similarity")
    at.text_input(key="sim_u").input(u).run()
    at.text_input(key="sim_v").input(v).run()
    assert_clean(at)
    assert any(msg in e.value for e in at.error)


def test_one_hot_pairs_are_all_zero():
    at = open_screen("similarity")
    assert metric(at, "largest cosine between different words") == "0.00"
    assert metric(at, "different pairs") == "132"


# --- 4. Gradients ---------------------------------------------------------------------------
def test_gradients_touch_only_used_rows():
    at = open_screen("gradients")
    assert metric(at, "rows with a non-zero gradient") == "3"
    assert metric(at, "rows with gradient exactly 0") == "50,254"
    rows = frame(at, "row (token id)")
    assert rows["row (token id)"].tolist() == [15, 391, 824]


def test_gradients_repeated_id_is_summed():
    at = open_screen("gradients")
    at.text_input(key="grad_ids").input("15, 824, 15").run()
    assert_clean(at)
    assert metric(at, "rows with a non-zero gradient") == "2"
    up = frame(at, "dL/dX dim 0")
    rows = frame(at, "row (token id)").set_index("row (token id)")
    cols = [c for c in up.columns if c.startswith("dL/dX")]
    expected = up.loc[0, cols].to_numpy() + up.loc[2, cols].to_numpy()
    np.testing.assert_allclose(rows.loc[15, [c.replace("dL/dX", "dW_E") for c in cols]].to_numpy(float), expected)
    assert any("sum" in i.value for i in at.info)


def test_gradients_learning_rate_and_bad_ids():
    at = open_screen("gradients")
    before = frame(at, "when").to_numpy()
    at.select_slider(key="grad_lr").set_value(1.0).run()
    assert not np.array_equal(frame(at, "when").to_numpy(), before)
    for bad, msg in (("15, 99999", "outside the vocabulary"), ("a", "not a whole number"), ("", "empty")):
        at.text_input(key="grad_ids").input(bad).run()
        assert_clean(at)
        assert any(msg in e.value for e in at.error), bad


def test_weight_tying_counts():
    body = texts(open_screen("gradients"))
    assert "**1 of 12** rows" in body and "**12 of 12** columns" in body


# --- 5. Parameters --------------------------------------------------------------------------
def test_parameters_gpt2_small_and_gpt3():
    at = open_screen("parameters")
    assert metric(at, "embedding table") == "38,597,376"
    assert metric(at, "share of the whole model") == "31.0%"
    at.selectbox(key="params_preset").set_value("GPT-3 175B").run()
    assert_clean(at)
    assert metric(at, "embedding table") == "617,558,016"
    assert metric(at, "share of the whole model") == "0.35%"


def test_parameters_custom_sizes_and_untied():
    at = open_screen("parameters")
    at.selectbox(key="params_preset").set_value("Custom").run()
    at.text_input(key="params_d_Custom").input("1600").run()
    assert metric(at, "embedding table") == f"{50_257 * 1600:,}"
    at.toggle(key="params_tied").set_value(False).run()
    assert_clean(at)
    assert metric(at, "table + output projection") == f"{2 * 50_257 * 1600:,}"


# --- 6. Limits ------------------------------------------------------------------------------
def test_limits_order_blindness():
    at = open_screen("limits")
    assert any("Identical vectors" in w.value for w in at.warning)
    at.text_input(key="limits_b").input("the dog sat on the mat").run()
    assert_clean(at)
    assert any("Different vectors" in i.value for i in at.info)
    at.text_input(key="limits_b").input("the zebra saw the cat").run()
    assert any("toy vocabulary" in e.value for e in at.error)
