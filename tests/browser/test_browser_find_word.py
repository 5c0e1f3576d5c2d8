"""Find a word in Chromium: typed on Projections, its neighbours' verdicts appear, the maps redraw."""
import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_find_a_word_on_projections(app):
    app.goto("/projections")
    app.assert_healthy(min_charts=4)
    page = app.page
    box = page.locator(".st-key-proj_find input")
    box.fill("bank")
    app.rerun(lambda: box.press("Enter"))
    expect(page.get_by_text("bank: its 5 nearest words by cosine in the full table")).to_be_visible()
    app.assert_healthy(min_charts=4)
    box.fill("nosuchword")
    app.rerun(lambda: box.press("Enter"))
    expect(page.locator("[data-testid='stAlertContentInfo']").filter(has_text="is not one of the")).to_be_visible()
