"""Presenter mode, the Next buttons and the reset, in a real browser.

* ``present=1`` hides the sidebar navigation; Previous / Next buttons walk the whole lesson in
  order, presenter mode stays on and ``present=1`` stays in the address; on every screen, at 1280x720, the key result is
  above the fold, every text is at least 18 px, no scatter label covers another or passes its
  plot's edge (the drawn SVG text boxes), and no table is cut by its block (``layout.py``).
* "Back to the lesson's run" on Train restores the reference run and a clean address.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from .helpers import expect
from .layout import layout_problems
from lab_ui.lesson.presenter import RESET_LABEL
from lab_ui.screens.registry import SCREENS as LESSON

pytestmark = pytest.mark.browser

# What each screen is for, found on screen: it must be visible without scrolling at 1280x720.
KEY_RESULT = {
    "Home": "[data-testid='stMarkdownContainer'] table",
    "1. Lookup": "[data-testid='stAlertContentSuccess']",
    "2. Similarity": ".st-key-sim_metrics [data-testid='stMetric']",
    "3. Train": ".st-key-train_metrics [data-testid='stMetric']",
    "3b. One pair, step by step": ".st-key-pair_buttons button",     # the steps are the screen
    "3c. CBOW next to skip-gram": ".st-key-cbow_metrics_CBOW [data-testid='stMetric']",
    "4. Gradients": "[data-testid='stAlertContentInfo']",
    "5. Parameters": ".st-key-params_metrics [data-testid='stMetric']",
    "6. Limits": "[data-testid='stAlertContentWarning']",
    "7. Tokens: bank": ("[data-testid='stMarkdownContainer'] span[title], "
                        "[data-testid='stMarkdownContainer'] .chip, .st-key-tok_metrics"),
    "7b. A real model's table": ".st-key-rt_shapes [data-testid='stMetric']",
    "7c. Tokenizers side by side": "[data-testid='stDataFrame']",
    "7d. Static against contextual": "[data-testid='stDataFrame']",
    "8. Projections": "[data-testid='stVegaLiteChart']",
    "8b. Analogies and directions": ".st-key-ana_window",           # the settings the scores follow
    "8c. Real word vectors (GloVe)": ".st-key-rw_word_metrics [data-testid='stMetric']",
    "9. Position": ".st-key-pos_kind",                              # the switch between kinds of positions
    "10. Your own vectors": ".st-key-own_metrics [data-testid='stMetric']",
}

SMALL_TEXT_JS = """
(min) => {
  const out = [];
  for (const c of document.querySelectorAll("[data-testid='stVegaLiteChart']")) {
    if (!c.checkVisibility()) continue;
    for (const t of c.querySelectorAll('svg text')) {
      const size = parseFloat(getComputedStyle(t).fontSize);
      if (t.textContent.trim() && size < min) out.push(`"${t.textContent.trim().slice(0, 30)}" at ${size} px`);
    }
  }
  return out;
}
"""
# Every visible text of the screen (its font size times any zoom, as drawn), and every scatter
# label's drawn box: labels that cover each other or pass the edge of their chart's drawing.
PAGE_TEXT_JS = """
(min) => {
  const small = [];
  const walk = document.createTreeWalker(document.querySelector("[data-testid='stMain']"), NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const t = walk.currentNode.textContent.trim(), el = walk.currentNode.parentElement;
    if (!t || !el.checkVisibility() || el.closest('svg')) continue;
    let zoom = 1;
    for (let e = el; e; e = e.parentElement) zoom *= parseFloat(getComputedStyle(e).zoom || '1');
    const size = parseFloat(getComputedStyle(el).fontSize) * zoom;
    if (size < min) small.push(`"${t.slice(0, 30)}" at ${size.toFixed(1)} px`);
  }
  // tables are drawn on a canvas at the theme's small size (0.875 x 17 px), times their zoom
  for (const d of document.querySelectorAll("[data-testid='stMain'] [data-testid='stDataFrame']")) {
    if (!d.checkVisibility()) continue;
    let zoom = 1;
    for (let e = d; e; e = e.parentElement) zoom *= parseFloat(getComputedStyle(e).zoom || '1');
    if (0.875 * 17 * zoom < min) small.push(`a table at ${(0.875 * 17 * zoom).toFixed(1)} px`);
  }
  return small;
}
"""
LABELS_JS = """
() => {
  const out = [];
  for (const c of document.querySelectorAll("[data-testid='stVegaLiteChart']")) {
    const svg = c.querySelector('svg.marks');
    if (!svg || !c.checkVisibility()) continue;
    const edge = svg.getBoundingClientRect();
    // the words, not axes or titles
    const labels = [...svg.querySelectorAll('.mark-text.role-mark text')].filter(t => t.textContent.trim())
      .map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
    for (let i = 0; i < labels.length; i++) {
      const [w, a] = labels[i];
      if (a.left < edge.left - 1 || a.right > edge.right + 1 || a.top < edge.top - 1 || a.bottom > edge.bottom + 1)
        out.push(`"${w}" passes the chart's edge`);
      for (let j = i + 1; j < labels.length; j++) {
        const [v, b] = labels[j];
        if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) out.push(`"${w}" and "${v}" overlap`);
      }
    }
  }
  return out;
}
"""
SVG_TEXT_JS = "() => document.querySelectorAll(\"[data-testid='stVegaLiteChart'] svg text\").length"


def query(url: str) -> dict:
    return parse_qs(urlparse(url).query)


def test_presenter_mode_walks_the_lesson_with_next(app):
    page = app.page
    page.set_viewport_size({"width": 1280, "height": 720})
    app.goto("/?present=1")
    assert query(page.url).get("present") == ["1"]
    assert page.locator("[data-testid='stSidebarNav']").count() == 0, "the sidebar navigation is still shown"
    problems = []
    for i, (_, title, _, _) in enumerate(LESSON):
        app.assert_healthy()
        page.wait_for_timeout(300)
        key = page.locator(KEY_RESULT[title]).first
        expect(key).to_be_visible()
        box = key.bounding_box()
        if box["y"] + min(box["height"], 80) > 720:
            problems.append(f"{title}: key result starts at y={box['y']:.0f}, below the fold of 720 px")
        small = page.evaluate(SMALL_TEXT_JS, 18)
        if small:
            problems.append(f"{title}: chart text under 18 px: {small[:5]}")
        small = page.evaluate(PAGE_TEXT_JS, 18)
        if small:
            problems.append(f"{title}: text under 18 px: {small[:5]}")
        labels = page.evaluate(LABELS_JS)
        if labels:
            problems.append(f"{title}: {len(labels)} scatter labels overlap or are cut: {labels[:5]}")
        problems += [f"{title}: {p}" for p in layout_problems(page)]   # e.g. a zoomed table its block cuts
        # still presenting: no sidebar navigation, Previous / Next at the end of the screen
        assert page.locator("[data-testid='stSidebarNav']").count() == 0, f"{title}: sidebar is back"
        if i > 0:
            expect(page.locator("[data-testid='stPageLink'] a", has_text=f"Previous: {LESSON[i - 1][1]}")).to_have_count(1)
        page.wait_for_url(re.compile(r"[?&]present=1(&|$)"), timeout=5_000)   # and in the address
        if i + 1 < len(LESSON):
            nxt = page.locator("[data-testid='stPageLink'] a", has_text=f"Next: {LESSON[i + 1][1]}").first
            assert query(nxt.get_attribute("href")).get("present") == ["1"], "Next link loses present=1"
            app.rerun(nxt.click)
    assert page.evaluate(SVG_TEXT_JS) > 0, "charts are not drawn as SVG: the text check saw nothing"
    assert not problems, "\n".join(problems)


def test_next_buttons_follow_the_lesson_without_presenter_mode(app):
    app.goto("/lookup")
    nxt = app.page.locator("[data-testid='stPageLink'] a", has_text="Next: 2. Similarity")
    app.rerun(nxt.click)
    app.page.wait_for_url(re.compile(r".*/similarity$"))
    expect(app.page.locator("[data-testid='stSidebarNav']")).to_be_visible()


def test_reset_restores_the_lesson_run_and_a_clean_address(app):
    app.goto("/train?train_d_model=8&train_lr=0.1&train_tab=Export")
    expect(app.metric("loss, step 3,000")).not_to_have_text("1.713")
    app.rerun(app.page.get_by_role("button", name=RESET_LABEL).click)
    app.page.wait_for_timeout(300)
    expect(app.metric("loss, step 3,000")).to_have_text("1.713")
    assert app.slider_value("train_d_model") == "4"
    assert urlparse(app.page.url).query == "", f"the address still has settings: {app.page.url}"
