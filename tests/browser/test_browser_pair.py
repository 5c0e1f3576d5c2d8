"""The "One pair, step by step" screen in Chromium: Next step reveals the stages in order."""
import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_next_step_walks_one_pair_to_its_update(app):
    app.goto("/")
    app.open_screen("3b. One pair, step by step", app.base_url + "/pair")
    app.assert_healthy()
    page = app.page
    expect(page.get_by_text(re.compile(r"Pair 1 of 126: centre the \(id 9\), context cat"))).to_be_visible()
    for _ in range(6):
        app.rerun(lambda: page.get_by_role("button", name="Next step").click())
    expect(page.get_by_text(re.compile(r"Step 7 of 7"))).to_be_visible()
    expect(page.locator("[data-testid='stAlertContentSuccess']")).to_contain_text("1 row of E moved")
    app.rerun(lambda: page.get_by_role("button", name="Next pair").click())
    expect(page.get_by_text(re.compile(r"Pair 2 of 126: centre the \(id 9\), context sat"))).to_be_visible()
    app.assert_healthy()
