"""AppTest: every chart offers its PNG and SVG; a handout is one column with the numbers open."""
import pytest

from tests.app.conftest import assert_clean, open_screen


@pytest.mark.parametrize("screen", ["train", "parameters", "projections", "position"])
def test_every_chart_has_png_and_svg(screen):
    at = open_screen(screen)
    assert_clean(at)
    charts = at.get("vega_lite_chart")
    buttons = at.get("download_button")
    labels = [b.proto.label for b in buttons]
    assert labels.count("PNG") == labels.count("SVG") == len(charts) > 0
    assert all(b.proto.deferred_file_id for b in buttons if b.proto.label in ("PNG", "SVG"))
    assert "Printable handout of this screen" in [b.proto.label for b in at.sidebar.get("link_button")]


@pytest.mark.parametrize("screen", ["train", "parameters"])
def test_a_handout_has_no_navigation_no_buttons_and_open_numbers(screen):
    at = open_screen(screen, handout="1")
    assert_clean(at)
    assert at.get("vega_lite_chart")
    assert not [b for b in at.get("download_button") if b.proto.label in ("PNG", "SVG")]
    assert all(e.proto.expanded for e in at.expander if e.label == "Show the numbers as a table")
    assert not at.sidebar.get("link_button")
    assert not [p for p in at.get("page_link") if p.proto.label.startswith("Next:")]
