"""A lesson link in Chromium: the screen opens in the link's state with the chosen control hidden."""
import pytest

from .helpers import PlaywrightTimeout, expect
from .test_browser_handout_pdf import QUIET_JS

pytestmark = pytest.mark.browser


def test_a_lesson_link_sets_and_hides(app):
    app.goto("/similarity?sim_u=3%2C+4&sim_v=4%2C+3&hide=sim_scale")
    app.assert_healthy()
    expect(app.page.locator(".st-key-sim_metrics [data-testid='stMetricValue']").nth(1)).to_have_text("0.960")
    expect(app.page.locator(".st-key-sim_scale")).to_be_hidden()
    expect(app.page.locator(".st-key-sim_u input")).to_have_value("3, 4")
    app.goto("/similarity?sim_scale=99")
    expect(app.page.locator("[data-testid='stAlertContentWarning']")).to_contain_text("could not be used")


def test_the_link_builder_shows_labels_and_the_whole_link_with_a_copy_button(app):
    """Issue 28: the builder listed ``train_w1`` and cut the link off at the sidebar's edge."""
    app.goto("/train?train_d_model=8&train_find=cat")
    app.assert_healthy()
    page = app.page
    app.rerun(lambda: page.locator(".st-key-links_builder summary").click())
    # Opening the box reruns the screen, and on a loaded machine the sidebar can be drawn once
    # more after that run has ended (the chooser's input is then a new element), which closes a
    # list opened just before: wait for a quiet page, and click again if the list closed.
    chooser = page.locator(".st-key-links_hide_choice")
    options = page.locator("[role='option']")
    for _attempt in range(3):
        page.evaluate(QUIET_JS, 1000)
        expect(chooser.locator("input")).to_be_visible()
        chooser.locator("input").click()
        try:
            options.filter(has_text="First word").wait_for(timeout=5_000)
            break
        except PlaywrightTimeout:
            page.keyboard.press("Escape")
    expect(options.filter(has_text="First word")).to_be_visible()
    shown = options.all_inner_texts()
    assert "Find a word on every picture" in shown and "First word" in shown, shown
    assert not [o for o in shown if o.startswith("train_")], shown
    app.rerun(lambda: page.get_by_role("option", name="First word", exact=True).click())
    page.keyboard.press("Escape")
    block = page.locator("[data-testid='stSidebar'] [data-testid='stCode']").first
    expect(block).to_contain_text("hide=train_w1")
    link = block.inner_text().strip()
    assert link.startswith(app.base_url) and "train_d_model=8" in link and "train_find=cat" in link
    pre = block.locator("pre").first
    overflow = pre.evaluate("e => e.scrollWidth - e.clientWidth")
    assert overflow <= 1, f"the link runs {overflow} px past its box"
    box, sidebar = block.bounding_box(), page.locator("[data-testid='stSidebar']").bounding_box()
    assert box["x"] + box["width"] <= sidebar["x"] + sidebar["width"] + 1
    block.hover()
    expect(block.locator("button")).to_have_count(1)          # st.code's copy button
