"""Keyboard only (WCAG 2.1.1, 2.4.7): a student who cannot use a mouse walks the start of the
lesson, Home -> 1. Lookup -> 2. Similarity -> 3. Train, with Tab, Enter and the arrow keys. On
each screen every visible control is reached by Tab (a radio group, a row of tabs or of word
buttons counts once: the arrows move inside it), each focused control shows a focus ring (an outline or a box shadow on it or on the
widget around it: ``lab_ui.widgets.layout.LAYOUT_CSS`` draws one on every ``:focus-visible``), the
screen's first primary control (a slider or a number box) moves with the up arrow, and the "Next"
link at the screen's end is followed with Enter.

Cost: one page; each screen is tabbed through once (up to ``MAX_TABS`` presses).
"""
from __future__ import annotations

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser

MAX_TABS = 400
PATH = [("/", None, "lookup"), ("/lookup", "lookup_row", "similarity"), ("/similarity", "sim_scale", "train"),
        ("/train", "train_d_model", "pair")]

# Mark every visible control of the page with its number (a radio group shares one), and say
# how many there are.
MARK_JS = """() => {
  const sel = "a[href], button, input, textarea, select, [role='slider'], [role='tab'], [tabindex='0']";
  let n = 0; const groups = {};
  for (const e of document.querySelectorAll(sel)) {
    if (!e.checkVisibility() || e.disabled || e.getAttribute('tabindex') === '-1' && e.type !== 'radio') continue;
    const r = e.getBoundingClientRect(); if (r.width < 1 || r.height < 1) { if (e.type !== 'radio') continue; }
    // Streamlit's own menu, and its "Collapse sidebar" button, shown only while the mouse is over
    // the sidebar (not a control of the app; everything in the sidebar is reached)
    if (e.closest("[data-testid='stHeader'], [data-testid='stToolbar'], [data-testid='stSidebarCollapseButton']")) continue;
    const pills = e.closest("[data-testid='stButtonGroup']");   // one tab stop, arrows inside (like radios)
    if (e.type === 'radio' || e.getAttribute('role') === 'tab' || pills) {
      const g = pills ? 'pills:' + [...pills.parentElement.children].indexOf(pills) +
                        (pills.closest("[class*='st-key-']") || {}).className
              : e.type === 'radio' ? 'radio:' + e.name : 'tabs:' + (e.closest("[role='tablist']") || {}).id;
      if (!(g in groups)) groups[g] = n++;
      e.dataset.a11yMark = groups[g];
    } else e.dataset.a11yMark = n++;
  }
  return n;
}"""
# The focused control's number and whether a focus ring shows on it or on the widget around it.
FOCUS_JS = """() => {
  const e = document.activeElement; if (!e || e === document.body) return null;
  const ring = el => { const s = getComputedStyle(el);
    return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1) || (s.boxShadow && s.boxShadow !== 'none'); };
  // Streamlit's table grid draws its focused cell's ring on its own canvas, not as CSS
  let shown = !!e.closest("[data-testid='stDataFrame'] [data-testid='stDataFrameResizable']") && !e.closest('button');
  for (let el = e, i = 0; el && i < 4 && !shown; el = el.parentElement, i++) shown = ring(el);
  const m = e.closest('[data-a11y-mark]');
  const again = e.dataset.a11yFirst === '1';
  if (!document.querySelector('[data-a11y-first]')) e.dataset.a11yFirst = '1';
  return {mark: m ? Number(m.dataset.a11yMark) : -1, ring: shown, again,
          what: (e.getAttribute('aria-label') || e.innerText || e.tagName).slice(0, 40)};
}"""


# A slider's or a number box's value.
VALUE_JS = """key => { const e = document.querySelector(`.st-key-${key} [role='slider'], .st-key-${key} input`);
  return e.getAttribute('aria-valuenow') || e.value; }"""


def tab_through(page) -> tuple[set[int], list[str], int, list[str]]:
    """Tab once round the page: the controls reached, those focused without a ring, how many
    there are, and the names of those not reached."""
    n = page.evaluate(MARK_JS)
    page.evaluate("() => document.querySelectorAll('[data-a11y-first]').forEach(e => delete e.dataset.a11yFirst)")
    reached, no_ring = set(), []
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        f = page.evaluate(FOCUS_JS)
        if f is None:
            continue
        if f["again"]:             # round the page once
            break
        reached.add(f["mark"])
        if not f["ring"]:
            no_ring.append(f["what"])
    missed = page.evaluate("""reached => Array.from(document.querySelectorAll('[data-a11y-mark]'))
      .filter(e => !reached.includes(Number(e.dataset.a11yMark)))
      .map(e => (e.getAttribute('aria-label') || e.innerText || e.outerHTML).trim().slice(0, 60))""", sorted(reached))
    return reached, no_ring, n, missed


def tab_to(page, selector: str) -> None:
    """Press Tab until ``selector`` (or an element inside it) has the focus."""
    for _ in range(MAX_TABS):
        page.keyboard.press("Tab")
        if page.evaluate("s => { const e = document.activeElement; return !!(e && e.closest(s)); }", selector):
            return
    raise AssertionError(f"{selector} is not reached with Tab")


def test_the_lesson_s_start_walked_with_the_keyboard_only(app):
    page = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    app.goto("/")
    app.assert_healthy()
    problems = []
    for path, control, nxt in PATH:
        assert page.url.rstrip("/").endswith(path.rstrip("/")), f"expected {path}, at {page.url}"
        reached, no_ring, n, missed = tab_through(page)
        if missed:
            problems.append(f"{path}: {len(missed)} of {n} controls not reached with Tab: {missed}")
        problems += [f"{path}: no focus ring on {w!r}" for w in dict.fromkeys(no_ring)]
        if control:
            page.evaluate("() => document.activeElement && document.activeElement.blur()")
            tab_to(page, f".st-key-{control} [role='slider'], .st-key-{control} input")
            before = page.evaluate(VALUE_JS, control)
            app.rerun(lambda: page.keyboard.press("ArrowUp"))   # a slider's step up, or a number box's
            if page.evaluate(VALUE_JS, control) == before:
                problems.append(f"{path}: {control} did not move with ArrowUp (at {before})")
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        tab_to(page, f".st-key-lesson_nav a[href$='{nxt}']")
        app.rerun(lambda: page.keyboard.press("Enter"))
        expect(page).to_have_url(f"{app.base_url}/{nxt}")
    assert not problems, "Keyboard walk:\n" + "\n".join(problems)
