"""The tokenizer screen shows typed HTML as characters and never runs it."""
import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser

TOKENS = re.compile(r"^tokens$")

ATTACK = "Hi <script>alert(1)</script> and <img src=x onerror=alert(2)> bank"

# The text of every chip, without the id printed under it.
CHIP_TEXT_JS = """
() => Array.from(document.querySelectorAll('.chip')).map(c =>
  Array.from(c.childNodes).filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join('')
).join('')
"""


def test_typed_html_is_shown_not_run(app):
    app.goto("/")
    app.open_screen("7. Tokens: bank", app.base_url + "/tokens")
    app.assert_healthy()
    area = app.page.locator("[data-testid='stTextArea']").filter(
        has=app.page.locator("[data-testid='stWidgetLabel']", has_text=re.compile("^Text"))
    ).locator("textarea")
    expect(area).to_have_count(1)
    tokens_before = app.metric(TOKENS).inner_text()

    area.fill(ATTACK)
    app.rerun(lambda: area.press("Control+Enter"))

    expect(app.metric(TOKENS)).not_to_have_text(tokens_before)
    expect(app.page.locator(".chip").first).to_be_visible()
    chips = app.page.evaluate(CHIP_TEXT_JS)
    assert "<script>alert(1)</script>" in chips, chips
    assert "<img·src=x·onerror=alert(2)>" in chips, chips  # spaces are shown as ·
    expect(app.page.locator(".chip").filter(has_text=re.compile(r"^script"))).not_to_have_count(0)
    # Nothing the user typed became an element.
    assert app.page.locator(".chips script, .chips img, img[src='x']").count() == 0
    assert app.dialogs == []
    app.assert_healthy()
