"""A lesson link in Chromium: the screen opens in the link's state with the chosen control hidden."""
import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_a_lesson_link_sets_and_hides(app):
    app.goto("/similarity?sim_u=3%2C+4&sim_v=4%2C+3&hide=sim_scale")
    app.assert_healthy()
    expect(app.page.locator(".st-key-sim_metrics [data-testid='stMetricValue']").nth(1)).to_have_text("0.960")
    expect(app.page.locator(".st-key-sim_scale")).to_be_hidden()
    expect(app.page.locator(".st-key-sim_u input")).to_have_value("3, 4")
    app.goto("/similarity?sim_scale=99")
    expect(app.page.locator("[data-testid='stAlertContentWarning']")).to_contain_text("could not be used")
