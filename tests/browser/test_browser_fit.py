"""Texts that used to be cut at projector widths, measured in a real browser: the Train tabs
(all five in view, an old link's tab too), the Export buttons' labels and the Parameters toggle's
label. The specs behind them: tests/app/test_fit_narrow_screens.py."""
from __future__ import annotations

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser

NARROW = [(853, 533), (1024, 768)]      # the sidebar is open at both

CUT_JS = """sel => [...document.querySelectorAll(sel)]
  .filter(el => (el.innerText || '').trim() && el.scrollWidth > el.clientWidth + 1)
  .map(el => el.innerText.trim() + ': ' + el.scrollWidth + ' > ' + el.clientWidth)"""


def sized(app, w: int, h: int, path: str) -> None:
    app.page.set_viewport_size({"width": w, "height": h})
    app.goto(path)
    app.assert_healthy()


@pytest.mark.parametrize("w,h", NARROW)
@pytest.mark.parametrize("link,selected", [("Export", "Export"), ("Compare+two+runs", "Compare runs"),
                                           ("Softmax+vs+negative+sampling", "Negative sampling")])
def test_every_train_tab_is_in_view(app, w, h, link, selected):
    """No scrolling tab strip: every tab lies inside the strip, the strip does not scroll, and
    an older link's name opens today's tab and puts today's name in the address."""
    sized(app, w, h, "/train?train_tab=" + link)
    expect(app.page.locator("[data-testid='stTab'][aria-selected='true']")).to_have_text(selected)
    strip = app.page.evaluate("""() => { const list = document.querySelector('[role=tablist]');
        const box = list.getBoundingClientRect();
        return {scroll: list.scrollWidth, client: list.clientWidth,
                out: [...list.querySelectorAll('[role=tab]')].filter(t => {
                    const r = t.getBoundingClientRect(); return r.left < box.left - 1 || r.right > box.right + 1; })
                  .map(t => t.innerText)}; }""")
    assert strip["scroll"] <= strip["client"] + 1 and not strip["out"], strip
    assert "train_tab=" + selected.replace(" ", "+") in app.page.url


@pytest.mark.parametrize("w,h", NARROW)
def test_export_button_labels_are_whole(app, w, h):
    sized(app, w, h, "/train?train_tab=Export")
    expect(app.page.locator("[data-testid='stDownloadButton']")).to_have_count(5)
    cut = app.page.evaluate(CUT_JS, "[data-testid='stDownloadButton'] button, "
                                    "[data-testid='stDownloadButton'] button *")
    assert not cut, cut


@pytest.mark.parametrize("w,h", NARROW)
def test_the_tied_toggle_label_is_whole(app, w, h):
    sized(app, w, h, "/parameters")
    label = app.page.locator(".st-key-params_tied")
    expect(label).to_contain_text("Tied output")
    cut = app.page.evaluate(CUT_JS, ".st-key-params_tied label, .st-key-params_tied label *")
    assert not cut, cut
