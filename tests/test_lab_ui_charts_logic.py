"""app/lab_ui chart specs, checked directly (no screen): every builder's spec against Vega-Lite's
own schema, also off the defaults (a found word's rings, a numeric tooltip, presenter mode),
and the Similarity screen's arrows."""
import altair as alt
import numpy as np
import pandas as pd
import pytest
import streamlit as st
from altair.utils.schemapi import validate_jsonschema

from lab_ui.widgets import charts


@pytest.fixture(autouse=True)
def fresh_state():
    st.session_state.clear()
    yield
    st.session_state.clear()


# Every builder's spec, read as Vega-Lite reads it, is valid against Vega-Lite's schema: a
# misspelt or mis-cased property (``DY``, ``SHAPE``), a type Vega-Lite does not know
# (``NOMINAL``) or a field without a name fails here, on paths the default screens never draw.
SCHEMA = alt.vegalite.v6.schema.core.load_schema()
RNG = np.random.default_rng(3)
COORDS = RNG.normal(size=(6, 2))
WORDS = ["cat", "dog", "saw", "the", "river", "bank"]


def assert_valid(spec: dict) -> None:
    spec = charts.with_rows(spec)
    error = validate_jsonschema(spec, SCHEMA, rootschema=SCHEMA, raise_error=False)
    assert error is None, error


@pytest.mark.parametrize("big", [False, True])
def test_every_builder_makes_a_valid_vega_lite_spec(big):
    S = np.corrcoef(RNG.normal(size=(6, 4)))
    specs = [
        charts.scatter(COORDS, WORDS, WORDS, title="t", big=big),
        charts.scatter(COORDS, WORDS, WORDS, colour=["a", "a", "b", "b", "c", "c"], labels=False,
                       domain=(-3.0, 3.0), ring=(0, 2, 4), far=(True, False), big=big),
        charts.heatmap(S, WORDS, title="cosines", mark="dog", big=big),
        charts.heatmap(S, WORDS, size=60, big=big),                   # cells too small for numbers
        charts.loss_curve({"run A": np.linspace(3, 1, 50), "run B": np.array([2.0])},
                          {"chance": 2.5, "floor": 0.5}, title="loss", big=big),
        charts.bars(pd.DataFrame({"n": [1, 2, 3], "v": [0.5, 0.2, 0.3]}), "n", "v",
                    color="n", horizontal=True, domain=(0, 1), big=big),
        charts.bars(pd.DataFrame({"w": ["a", "b"], "v": [0.5, 0.2]}), "w", "v", big=big),
        charts.strip(pd.DataFrame({"g": [1, 1, 2], "v": [0.1, 0.2, 0.3]}), "v", "g",
                     domain=(-1, 1), order=[2, 1], big=big),
        charts.strip(pd.DataFrame({"g": ["x", "y"], "v": [0.1, 0.2]}), "v", "g", big=big),
    ]
    for spec in specs:
        assert_valid(spec)


def test_the_found_word_rings_read_the_found_rows():
    spec = charts.with_rows(charts.scatter(COORDS, WORDS, WORDS, ring=(1, 3, 5), far=(False, True)))
    found = spec["datasets"]["found"]
    assert [r["word"] for r in found] == ["dog", "the", "bank"]
    np.testing.assert_allclose([[r["x"], r["y"]] for r in found], COORDS[[1, 3, 5]])
    assert [r["role"] for r in found] == ["the word", "neighbour, near here too", charts.FAR_ROLE]
    rings = [layer for layer in spec["layer"] if layer.get("data") == {"name": "found"}]
    assert [layer["mark"]["type"] for layer in rings] == ["point", "text"]
    for layer in rings:                                 # placed at the found rows' own x and y
        assert (layer["encoding"]["x"]["field"], layer["encoding"]["y"]["field"]) == ("x", "y")
    assert rings[0]["mark"]["filled"] is False                           # a ring, not a dot over the point
    assert {f["field"] for f in rings[0]["encoding"]["tooltip"]} == {"word", "role"}
    assert rings[1]["encoding"]["text"]["field"] == "word"


def test_a_tooltip_reads_numbers_as_numbers_and_names_as_names():
    num = charts.with_rows(charts.bars(pd.DataFrame({"n": [1, 2], "v": [0.5, 0.2]}), "n", "v"))
    names = charts.with_rows(charts.bars(pd.DataFrame({"w": ["a", "b"], "v": [0.5, 0.2]}), "w", "v"))
    assert num["encoding"]["tooltip"][0] == {"field": "n", "type": "quantitative"}
    assert names["encoding"]["tooltip"][0] == {"field": "w", "type": "nominal"}


# --- the Similarity screen's arrows ----------------------------------------------------------

def test_arrow_names_sit_beyond_each_head_along_its_arrow():
    from lab_ui.screens.views.similarity_views import LABEL_GAP, arrows_frame

    u, v = np.array([3.0, 4.0]), np.array([0.0, -2.0])
    pts = arrows_frame(u, v)
    assert list(pts["name"]) == ["u", "v"]
    np.testing.assert_array_equal(pts[["x", "y"]].to_numpy(), [u, v])
    np.testing.assert_array_equal(pts[["x0", "y0"]].to_numpy(), np.zeros((2, 2)))
    # along the arrow, LABEL_GAP px on, screen y pointing down
    np.testing.assert_allclose(pts[["dx", "dy"]].to_numpy(), [[LABEL_GAP * 0.6, -LABEL_GAP * 0.8],
                                                              [0.0, LABEL_GAP]])
    short = arrows_frame(np.array([0.3, 0.4]), np.array([0.0, 0.5]))   # shorter than 1: still unit offsets
    np.testing.assert_allclose(short[["dx", "dy"]].to_numpy(), [[LABEL_GAP * 0.6, -LABEL_GAP * 0.8],
                                                                [0.0, -LABEL_GAP]])
    zero = arrows_frame(np.zeros(2), np.array([-1.0, 0.0]))      # no direction: up and right
    np.testing.assert_allclose(zero[["dx", "dy"]].to_numpy(), [[LABEL_GAP * 0.7, -LABEL_GAP * 0.7],
                                                               [-LABEL_GAP, 0.0]])


@pytest.mark.parametrize("u, v, lim", [((3.0, -4.0), (1.0, 0.5), 4 * 1.3), ((0.2, 0.1), (-0.5, 0.3), 1.3)])
def test_arrows_share_one_square_range_that_holds_both(u, v, lim):
    from lab_ui.screens.views.similarity_views import arrows_chart, arrows_frame, arrows_px

    spec = arrows_chart(arrows_frame(np.array(u), np.array(v)), 12.34).to_dict()
    rules, heads, labels = spec["layer"]
    for axis in ("x", "y"):
        assert rules["encoding"][axis]["scale"]["domain"] == pytest.approx([-lim, lim])
    assert (rules["encoding"]["x"]["field"], rules["encoding"]["y"]["field"]) == ("x0", "y0")
    assert (rules["encoding"]["x2"]["field"], rules["encoding"]["y2"]["field"]) == ("x", "y")
    for layer in (heads, labels):                                   # heads and names at the tips
        assert (layer["encoding"]["x"]["field"], layer["encoding"]["y"]["field"]) == ("x", "y")
    assert labels["encoding"]["text"]["field"] == "name"
    assert spec["width"] == spec["height"] == arrows_px(False)
    assert arrows_chart(arrows_frame(np.array(u), np.array(v)), 1.0, big=True).to_dict()["width"] == arrows_px(True)
    assert spec["title"] == "u and v: 12.3° apart"
    assert validate_jsonschema(spec, SCHEMA, rootschema=SCHEMA, raise_error=False) is None


def test_squares_written_out_with_negatives_in_brackets():
    from lab_ui.screens.views.similarity_views import squares

    assert squares(np.array([3.0, -1.0, 0.5, 1e-7])) == "3² + (-1)² + 0.5² + (1e-07)²"


@pytest.mark.parametrize("V", [2, 5])
def test_one_hot_cosines_of_different_words_are_all_zero(V):
    from lab_ui.screens.views.similarity_views import onehot_cosines

    oh = onehot_cosines(V)
    np.testing.assert_array_equal(oh.S, np.eye(V))
    assert (oh.n_different, oh.largest) == (V * (V - 1), 0.0)


@pytest.mark.parametrize("n, big, font", [(24, False, charts.FONT), (24, True, charts.BIG_FONT),
                                          (25, False, 11), (25, True, 11)])
def test_a_heatmap_s_word_labels_shrink_to_11_px_from_25_words(n, big, font):
    """Up to 24 words each label has the chart font; from 25 on, 11 px (the smallest text a
    chart draws), so that they fit."""
    spec = charts.heatmap(np.eye(n), [f"w{i:02d}" for i in range(n)], big=big)
    assert spec["config"]["axis"]["labelFontSize"] == font
    assert charts.heatmap_axis_font(n, big) == font


@pytest.mark.parametrize("n, size", [(12, 420), (24, 420), (33, 420), (12, 370), (40, 800)])
def test_a_heatmap_prints_no_number_smaller_than_11_px(n, size):
    """Numbers in the cells are 11 px or more, or there are none (colour-only cells)."""
    font, numbers = charts.heatmap_text(n, size)
    spec = charts.heatmap(np.eye(n), [f"w{i:02d}" for i in range(n)], size=size)
    texts = [layer["mark"]["fontSize"] for layer in spec.get("layer", []) if layer["mark"]["type"] == "text"]
    assert texts == ([font] if numbers else []) and all(f >= charts.SMALLEST_NUMBER for f in texts)


@pytest.mark.parametrize("colour", list(charts.GROUP_COLOURS.values()) + charts.WORD_COLOURS)
def test_chart_colours_have_their_contrast_on_white(colour):
    """A word colour reads as text (4.5:1), a group's point and a group's word have 3:1 and 4.5:1."""
    assert charts.contrast(charts.readable(colour)) >= charts.TEXT_RATIO
    assert charts.contrast(charts.readable(colour, charts.MARK_RATIO)) >= charts.MARK_RATIO
    assert charts.readable(colour, 1.0) == colour.upper()


@pytest.mark.parametrize("colour", charts.WORD_COLOURS)
def test_word_colours_read_as_text_as_they_are(colour):
    assert charts.contrast(colour) >= charts.TEXT_RATIO


def test_a_chart_s_text_alternative_names_its_kind_title_and_table():
    """The ARIA label of a chart (``summary``): kind from its marks, title, the table's columns."""
    spec = charts.heatmap(np.eye(3), ["a", "b", "c"], title="Cosines")
    label = charts.summary(spec, ["row", "column", "cosine"])
    assert label.startswith("Heatmap") and "(row, column, cosine)" in label and "table below" in label
    curve = charts.loss_curve({"run": np.ones(5)}, {"ln V": 1.0}, title="Loss")
    assert charts.summary(curve, []).startswith("Line chart: Loss.")
    assert charts.summary({"layer": [{"mark": {"type": "tick"}}]}, ["x"]).startswith("Strip chart")
    assert charts.summary({}, []) == "Chart. Its numbers are in the table below the chart."
