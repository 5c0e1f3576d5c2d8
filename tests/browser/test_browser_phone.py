"""Phones in portrait (390 x 844, 360 x 800: a student opening the class's shared link): every
screen and every Train tab without sideways scroll, every chart inside the page's width, and
every control's target at least 24 x 24 CSS px (WCAG 2.5.8; links inside a sentence are
exempt, as WCAG says).

Cost: one page per viewport, each screen loaded once.
"""
from __future__ import annotations

import pytest

from .helpers import ARTIFACTS, DOCS_SCREENSHOTS, REPO_ROOT, write_png, slug
from .test_browser_a11y import STOPS

pytestmark = pytest.mark.browser

PHONES = [(390, 844), (360, 800)]
SHOWN = {"/projections"}   # its first screenful is docs/classroom.md's phone picture
SMALLEST_TARGET = 24

# Each control's clickable box smaller than the target size, and each chart wider than the page.
PHONE_JS = """(smallest) => {
  const out = [];
  const sel = "button, [role='slider'], [role='tab'], label:has(input[type='radio']), " +
              "label:has(input[type='checkbox']), input[type='text'], input[type='number'], textarea, " +
              "[data-baseweb='select'], summary, [data-testid='stSidebarNavLink']";
  for (const e of document.querySelectorAll(sel)) {
    if (!e.checkVisibility() || e.closest("[data-testid='stHeader'], [data-testid='stSidebar'][aria-expanded='false']")) continue;
    const r = e.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.right <= 0 || r.left >= innerWidth) continue;   // e.g. in the closed sidebar
    if (r.width < smallest - 0.5 || r.height < smallest - 0.5)
      out.push(`${e.getAttribute('aria-label') || e.innerText.trim().slice(0, 30) || e.tagName} is ` +
               `${r.width.toFixed(0)} x ${r.height.toFixed(0)} px`);
  }
  const w = document.documentElement.clientWidth;
  for (const c of document.querySelectorAll("[data-testid='stVegaLiteChart']")) {
    if (!c.parentElement.checkVisibility()) continue;
    const g = c.querySelector('canvas, svg.marks'); if (!g) continue;
    const r = g.getBoundingClientRect();
    if (r.right > w + 1 || r.left < -1) out.push(`a chart reaches ${r.left.toFixed(0)}..${r.right.toFixed(0)} of ${w} px`);
  }
  return out;
}"""


# Streamlit's own small targets (the "?" help icons, a multiselect's remove buttons, toggle rows,
# the tabs' scroll buttons) are grown to 24 x 24 px at phone widths by the page style
# (lab_ui.widgets.layout.LAYOUT_CSS): this test measures each target's own box, not the spacing
# WCAG 2.5.8 also accepts.
@pytest.mark.parametrize("w,h", PHONES)
def test_every_screen_fits_a_phone(app, app_root, w, h):
    page = app.page
    page.set_viewport_size({"width": w, "height": h})
    problems = []
    for path in dict.fromkeys(p for p, _ in STOPS):
        app.goto(path)
        problems += [f"{path}: {p}" for p in app.problems(min_charts=0)]
        problems += [f"{path}: {p}" for p in dict.fromkeys(page.evaluate(PHONE_JS, SMALLEST_TARGET))]
        if path in SHOWN and (w, h) == PHONES[0]:
            png = page.screenshot(animations="disabled", caret="hide")
            name = f"phone-{slug(app.base_url + path)}-{w}x{h}.png"
            write_png(ARTIFACTS / name, png)
            if app_root == REPO_ROOT:
                write_png(DOCS_SCREENSHOTS / name, png)
    assert not problems, f"At {w}x{h}:\n" + "\n".join(problems)
