"""Control and result in one view (lab_ui.lesson.primary): at every classroom viewport, with the
sidebar open and collapsed, each screen's primary controls are moved and the control and at
least half of the result it changes are inside the viewport at once; the comparisons of
``SIDE_BY_SIDE`` sit side by side at 1280 px with the sidebar open.

"In view" is measured as a student sees it: the page is scrolled so that the control sits just
under the page's header (or, when the control is in a screen's sticky controls bar, so that the
result starts just under the bar), the control is moved with the keyboard or a click, and after
the rerun the boxes are measured in the viewport that the header does not cover."""
from __future__ import annotations

import pytest

from lab_ui.lesson.primary import PRIMARY, SIDE_BY_SIDE

from .test_browser_layout import set_sidebar

pytestmark = pytest.mark.browser

VIEWPORTS = [(1280, 800), (1024, 768), (853, 533)]
SCREENS = [(f, pair) for f, pairs in PRIMARY.items() for pair in pairs]

# Where the page must scroll to show a control and its result: the header's bottom edge,
# the boxes, and whether the control sits in a sticky controls bar.
BOXES_JS = """([control, result]) => {
  const box = el => { const r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left,
                                                                    right: r.right, height: r.height}; };
  const c = document.querySelector('.st-key-' + control), r = document.querySelector('.st-key-' + result);
  const header = document.querySelector("[data-testid='stHeader']");
  const bar = c && c.closest("[class*='st-key-bar_']");
  return {control: c && box(c), result: r && box(r), header: header ? header.getBoundingClientRect().bottom : 0,
          bar: bar ? box(bar) : null, view: window.innerHeight};
}"""
LOADED_JS = """key => { const e = document.querySelector('.st-key-' + key);
  return e && !e.querySelector("[data-testid='stSkeleton']") && e.querySelector("[role='slider'], input, textarea, button"); }"""
SCROLL_JS = "dy => { document.querySelector(\"[data-testid='stMain']\").scrollBy({top: dy, behavior: 'instant'}); }"


def page_path(file: str) -> str:
    name = file.rsplit("/", 1)[-1].removesuffix(".py")
    return "/" if name == "home" else "/" + name


def scroll_into_place(page, control: str, result: str) -> dict:
    """Scroll so that the control (or, for a sticky bar, the result) starts under the header."""
    b = page.evaluate(BOXES_JS, [control, result])
    assert b["control"] and b["result"], f"no element with key {control!r} or {result!r}: {b}"
    if b["bar"] and b["result"]["top"] > b["bar"]["bottom"]:
        dy = b["result"]["top"] - (b["header"] + b["bar"]["height"]) - 8
    else:
        dy = min(b["control"]["top"], b["result"]["top"]) - b["header"] - 8
    page.evaluate(SCROLL_JS, dy)
    page.wait_for_timeout(150)
    return page.evaluate(BOXES_JS, [control, result])


# Text boxes where an added word would leave the screen nothing to show (a word box must hold
# one known word): the word the box is set to instead.
TYPED = {"rw_word": "dog"}


def move(app, control: str) -> None:
    """Move a control as a student would: a slider by one step with the keyboard, a radio to
    its other option, a toggle or a button by a click, a text box or a text area by adding a word."""
    el = app.page.locator(f".st-key-{control}")
    app.page.wait_for_function(LOADED_JS, arg=control, timeout=30_000)   # its code has loaded
    if el.locator("[data-testid='stSlider']").count():
        app.press_on_slider(control, "ArrowRight")
        return
    radios = el.locator("label:has(input[type='radio']):not(:has(input:checked))")
    if radios.count():
        app.rerun(lambda: radios.first.click())
        return
    toggle = el.locator("input[type='checkbox']")
    if toggle.count():
        app.rerun(lambda: el.locator("label").first.click())
        return
    box = el.locator("input[type='text']")
    if box.count() and control in TYPED:
        app.rerun(lambda: (box.first.fill(TYPED[control]), box.first.press("Enter")))
        return
    if box.count():
        def typed():
            box.first.press("End")
            box.first.type(" the")
            box.first.press("Enter")
        app.rerun(typed)
        return
    area = el.locator("textarea")
    if area.count():
        def written():
            area.first.press("Control+End")
            area.first.type(" the")
            area.first.press("Control+Enter")
        app.rerun(written)
        return
    button = el.locator("button")
    assert button.count(), f"{control}: no slider, radio, toggle, text box or button to move"
    app.rerun(lambda: button.first.click())


def visible_share(b: dict) -> tuple[bool, float]:
    """Whether the control is wholly in view, and the share of the result's height in view."""
    top, bottom = b["header"], b["view"]
    c, r = b["control"], b["result"]
    control_in = c["top"] >= top - 1 and c["bottom"] <= bottom + 1
    seen = max(0.0, min(r["bottom"], bottom) - max(r["top"], top))
    return control_in, seen / max(r["height"], 1.0)


@pytest.mark.parametrize("w,h", VIEWPORTS)
@pytest.mark.parametrize("sidebar", ["open", "collapsed"])
def test_each_control_is_in_view_with_its_result(app, w, h, sidebar):
    page = app.page
    page.set_viewport_size({"width": w, "height": h})
    problems = []
    current = None
    for file, (control, result) in SCREENS:
        if file != current:
            app.goto(page_path(file))
            app.assert_healthy()
            set_sidebar(page, sidebar)
            current = file
        scroll_into_place(page, control, result)
        move(app, control)
        page.wait_for_timeout(300)
        b = scroll_into_place(page, control, result)
        control_in, share = visible_share(b)
        if not control_in or share < 0.5:
            problems.append(f"{file}: {control} -> {result}: control in view {control_in}, "
                            f"{100 * share:.0f}% of the result in view (control {b['control']['top']:.0f}.."
                            f"{b['control']['bottom']:.0f}, result {b['result']['top']:.0f}..{b['result']['bottom']:.0f},"
                            f" viewport {b['header']:.0f}..{b['view']})")
    assert not problems, f"At {w}x{h}, sidebar {sidebar}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", list(SIDE_BY_SIDE))
def test_comparisons_sit_side_by_side_at_1280(app, path):
    app.page.set_viewport_size({"width": 1280, "height": 800})
    app.goto(path)
    app.assert_healthy()
    set_sidebar(app.page, "open")
    for left, right in SIDE_BY_SIDE[path]:
        b = app.page.evaluate(BOXES_JS, [left, right])
        a, c = b["control"], b["result"]
        assert a and c, f"{path}: no block {left!r} or {right!r}"
        assert abs(a["top"] - c["top"]) < 2 and a["right"] <= c["left"], \
            f"{path}: {left} and {right} are not side by side: {a} {c}"


def test_projections_shows_its_four_pictures_in_one_row_at_1920(app):
    app.page.set_viewport_size({"width": 1920, "height": 1080})
    app.goto("/projections")
    app.assert_healthy()
    set_sidebar(app.page, "open")
    tops = app.page.evaluate("""() => [0, 1, 2, 3].map(i => {
        const e = document.querySelector('.st-key-proj_pictures_' + i); return e && e.getBoundingClientRect().top; })""")
    assert None not in tops and max(tops) - min(tops) < 2, f"the four pictures' tops: {tops}"


def test_train_first_view_reaches_the_loss_chart_at_1280x800(app):
    """Issue 28: Train's first view (1280x800, sidebar open, not scrolled) held the sliders and six
    numbers, the loss chart began at about 985 px. The training-text choice now comes after the
    results and the find box sits above the pictures it marks: at least 100 px of the loss chart
    (its drawing, not the heading) are in the first view."""
    app.page.set_viewport_size({"width": 1280, "height": 800})
    app.goto("/train")
    app.assert_healthy()
    set_sidebar(app.page, "open")
    chart = app.page.locator(".st-key-train_loss [data-testid='stVegaLiteChart'] svg.marks, "
                             ".st-key-train_loss [data-testid='stVegaLiteChart'] canvas").first
    chart.wait_for(state="visible", timeout=15_000)
    top = chart.bounding_box()["y"]
    assert top + 100 <= 800, f"the loss chart starts at y={top:.0f}: less than 100 px of it in the first 800 px"
    choice = app.page.locator(".st-key-train_text_choice").bounding_box()
    assert choice["y"] > top, "the training-text choice is above the loss chart again"
