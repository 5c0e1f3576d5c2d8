"""The Position screen in Chromium: the summaries answer, and the switch to no positions."""
import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_position_screen_tells_the_orders_apart_only_after_a_step_on_each_vector(app):
    app.goto("/")
    app.open_screen("9. Position", app.base_url + "/position")
    app.assert_healthy(min_charts=1)
    page = app.page
    expect(page.get_by_text("The plain average still cannot tell them apart")).to_be_visible()
    expect(page.get_by_text(re.compile("A step on each vector before the average does tell them apart"))).to_be_visible()

    app.rerun(lambda: page.get_by_text("None", exact=True).click())
    expect(page.get_by_text(re.compile("^No position vectors"))).to_be_visible()
    expect(page.get_by_text("The plain average still cannot tell them apart")).to_have_count(0)
    app.assert_healthy(min_charts=1)
