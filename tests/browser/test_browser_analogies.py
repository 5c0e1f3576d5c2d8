"""The Analogies screen in Chromium: scores, the answer to the default analogy, the game."""
import re

import pytest

from core.relations import odd_one_out_round

from .helpers import expect

pytestmark = pytest.mark.browser


def test_analogies_screen_answers_and_scores_a_round(app):
    app.goto("/")
    app.open_screen("8b. Analogies and directions", app.base_url + "/analogies")
    app.assert_healthy(min_charts=1)
    page = app.page
    expect(page.get_by_text(re.compile(r"woman - man \+ king ≈ queen"))).to_be_visible()
    expect(page.get_by_text(re.compile("The lesson's table gets 4 of 4"))).to_be_visible()
    words, _ = odd_one_out_round(0)
    group = page.get_by_role("radiogroup").filter(has_text=words[0]).filter(has_text=words[1])
    app.rerun(lambda: group.get_by_text(words[0], exact=True).click())
    verdict = page.locator("[data-testid='stAlertContentSuccess'], [data-testid='stAlertContentError']")
    expect(verdict).to_contain_text("is the odd one")
    app.assert_healthy(min_charts=1)
