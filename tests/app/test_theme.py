"""AppTest: the dark, high-contrast theme (lab_ui.widgets.theme): its switch, the page address
and the lesson's links, presenter mode, and the charts' colours on the dark page."""
import json

import numpy as np
import pytest

from tests.app.conftest import assert_clean, open_screen
from lab_ui.widgets import charts
from lab_ui.widgets.theme import BACKGROUND, DARK_CSS, DARK_DIVERGING, TEXT, dark_spec, on_dark


def styled(at) -> bool:
    return DARK_CSS in [h.proto.body for h in at.get("html")]


def page_links(at) -> dict[str, str]:
    return {e.proto.label: e.proto.query_string for e in at.get("page_link")}


def specs(at) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]


def test_the_switch_turns_the_dark_theme_on_and_off_and_the_address_follows():
    at = open_screen("lookup")
    assert "theme" not in at.query_params and not styled(at)
    assert all(s["config"].get("background") is None for s in specs(at))
    at.toggle(key="theme_switch").set_value(True).run()
    assert_clean(at)
    assert at.query_params.get("theme") in ("dark", ["dark"]) and styled(at)
    assert specs(at) and all(s["config"]["background"] == BACKGROUND for s in specs(at))
    assert "theme=dark" in page_links(at)["Next: 2. Similarity"]
    at.toggle(key="theme_switch").set_value(False).run()
    assert_clean(at)
    assert "theme" not in at.query_params and not styled(at)


def test_a_link_with_theme_dark_opens_dark_and_presenter_mode_keeps_it():
    at = open_screen("similarity", present="1", theme="dark")
    assert at.toggle(key="theme_switch").value is True and styled(at)
    links = page_links(at)
    assert "present=1" in links["Next: 3. Train"] and "theme=dark" in links["Next: 3. Train"]
    assert "theme=dark" in links["Previous: 1. Lookup"]
    # the reset keeps the reader's theme in the address
    at.text_input(key="sim_u").input("3, 4, 5").run()
    at.button(key="sim_reset").click().run()
    assert_clean(at)
    assert at.query_params.get("theme") in ("dark", ["dark"]) and styled(at)


def test_a_handout_prints_light_whatever_the_theme():
    at = open_screen("lookup", theme="dark", handout="1")
    assert not styled(at)
    assert all(s["config"].get("background") is None for s in specs(at))


@pytest.mark.parametrize("colour", charts.WORD_COLOURS + list(charts.GROUP_COLOURS.values()) + ["#000000"])
def test_every_chart_colour_reads_on_the_dark_page(colour):
    assert charts.contrast(on_dark(colour), BACKGROUND) >= 4.5
    assert on_dark(on_dark(colour)) == on_dark(colour)          # a light enough colour is kept


def test_dark_spec_recolours_marks_axes_and_the_heatmap():
    S = np.array([[1.0, -0.2], [-0.2, 1.0]])
    spec = charts.heatmap.__wrapped__(S, ["cat", "dog"], title="t", mark="cat")   # the builder, uncached
    dark = dark_spec(spec)
    assert dark["config"]["axis"]["labelColor"] == TEXT and dark["config"]["background"] == BACKGROUND
    rect, numbers, frame = dark["layer"]
    assert rect["encoding"]["color"]["scale"]["range"] == DARK_DIVERGING
    assert rect["encoding"]["color"]["scale"]["domain"] == [-1.0, 0.0, 1.0]
    assert "contrast(" in numbers["encoding"]["color"]["condition"]["test"]   # black or white by its cell
    assert charts.contrast(frame["mark"]["stroke"], BACKGROUND) >= 4.5        # the found word's frame
    assert spec["layer"][2]["mark"]["stroke"] == "#000000"                    # the light spec is untouched
