"""Chart files and handouts in Chromium: a PNG download with its footer, and the print view."""
import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_png_and_svg_downloads_and_the_handout(app):
    app.goto("/parameters")
    app.assert_healthy(min_charts=3)
    page = app.page
    page.get_by_text("Show the numbers as a table").first.click()
    with page.expect_download(timeout=60_000) as got:
        page.get_by_role("button", name="PNG", exact=True).first.click()
    png = open(got.value.path(), "rb").read()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5_000
    with page.expect_download(timeout=60_000) as got:
        page.get_by_role("button", name="SVG", exact=True).first.click()
    svg = open(got.value.path(), encoding="utf-8").read()
    assert "Embedding Lab" in svg and "/parameters" in svg          # the footer with the address

    # The sidebar's link opens the handout in a new tab, so a new session: the same here.
    link = page.get_by_role("link", name="Printable handout of this screen")
    expect(link).to_have_attribute("href", re.compile(r"handout=1"))
    handout = page.context.new_page()
    handout.goto(app.base_url + "/parameters?handout=1")
    expect(handout.locator("[data-testid='stVegaLiteChart']")).to_have_count(3, timeout=60_000)
    expect(handout.locator("[data-testid='stSidebarNav']")).to_have_count(0)
    expect(handout.get_by_role("button", name="PNG", exact=True)).to_have_count(0)
    # every chart's numbers printed as a table (text, not a scroll box) in its open box
    expect(handout.locator("[data-testid='stExpander'] [data-testid='stTable']").first).to_be_visible(timeout=30_000)
    expect(handout.locator("[data-testid='stDataFrame']")).to_have_count(0)
    handout.close()
