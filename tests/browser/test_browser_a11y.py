"""Accessibility (WCAG 2.2 AA) on every screen and every Train tab, at 1280x800 and 1024x768,
in the light theme and in the dark, high-contrast one (``theme=dark``): axe-core finds no
critical or serious fault, at the screen's defaults and after its first primary control
(lab_ui.lesson.primary) has moved; every moderate or minor one left is listed with its reason in
tests/browser/a11y.py (``ALLOWED``). Every text outside the charts has its contrast computed from
the colours drawn behind it (axe leaves some "incomplete"), and headings go h1 -> h2 -> h3.

Charts: every text and mark drawn, as the SVG shows it, has its contrast ratio (text 4.5:1,
large text and marks 3:1) and no text under 11 px: in the light theme in a handout (SVG), in the
dark theme in presenter mode (SVG too, and presenter mode in the dark theme on the way). Every
chart drawn has a text alternative (``a11y.unlabelled_charts``): its summary
(``lab_ui.widgets.charts.summary``) as the ARIA label of a hidden image just before it.

Cost: one page per viewport, each screen loaded once and checked twice (before and after the
move). The checks prove they bite on tests/browser/fixtures/bad_a11y.py, served the same way.
"""
from __future__ import annotations

import pytest

from lab_ui.lesson.primary import PRIMARY
from lab_ui.screens.train.train_controls import TABS

from .a11y import (axe_findings, chart_contrast, chart_labels, heading_skips, page_text_contrast, serious,
                   unlabelled_charts)
from .conftest import streamlit_server
from .helpers import APP, REPO_ROOT, AppPage
from .test_browser_instrument import move, page_path

pytestmark = pytest.mark.browser

VIEWPORTS = [(1280, 800), (1024, 768)]
THEMES = ["light", "dark"]
# (address, the control moved there, or None when the screen has none that ``move`` can move)
STOPS = ([(page_path(f), None if not pairs else pairs[0][0])
          for f, pairs in PRIMARY.items()]
         + [("/train?train_tab=" + t.replace(" ", "+"), "train_d_model") for t in TABS[1:]])


def themed(path: str, theme: str) -> str:
    """``path`` in ``theme``: the dark theme is ``theme=dark`` in the address."""
    return path if theme == "light" else path + ("&" if "?" in path else "?") + "theme=dark"


def findings_here(page, where: str) -> list[str]:
    """axe's blocking findings, the texts below their contrast, the skipped heading levels and
    the charts without a text alternative."""
    return ([f"{where}: {f}" for f in serious(axe_findings(page))]
            + [f"{where}: {p}" for p in page_text_contrast(page)]
            + [f"{where}: {p}" for p in heading_skips(page)]
            + [f"{where}: {p}" for p in unlabelled_charts(page)])


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("w,h", VIEWPORTS)
def test_no_serious_accessibility_fault_on_any_screen(app, w, h, theme):
    page = app.page
    page.set_viewport_size({"width": w, "height": h})
    problems = []
    for path, control in STOPS:
        app.goto(themed(path, theme))
        app.assert_healthy()
        problems += findings_here(page, f"{path} at its defaults")
        if control:
            move(app, control)
            app.assert_healthy()
            problems += findings_here(page, f"{path} after {control} moved")
    assert not problems, f"At {w}x{h} in the {theme} theme, the checks find:\n" + "\n".join(problems)


@pytest.mark.parametrize("theme", THEMES)
def test_chart_texts_and_marks_have_their_contrast(app, theme):
    """Every text and mark drawn in every chart (read from the SVG that a handout draws, and in
    the dark theme presenter mode: the same spec as on screen, as SVG instead of a canvas) has
    its contrast ratio, and no chart text is smaller than 11 px."""
    page = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    problems = []
    for path in dict.fromkeys(p for p, _ in STOPS):
        svg = "handout=1" if theme == "light" else "present=1&theme=dark"   # a handout prints light
        app.goto(path + ("&" if "?" in path else "?") + svg)
        page.wait_for_selector(APP, timeout=120_000)   # a page of SVG charts takes long to draw
        app.assert_healthy(min_charts=0)               # every chart on the screen drawn
        problems += [f"{path}: {p}" for p in chart_contrast(page)]
    assert not problems, f"Chart contrast in the {theme} theme:\n" + "\n".join(problems)


def test_charts_say_what_they_show(app):
    """The Projections screen's pictures and bar charts are read out as what they are, with the
    columns of their tables, before the charts themselves (on the canvas the screen draws)."""
    app.page.set_viewport_size({"width": 1024, "height": 768})
    app.goto("/projections")
    app.assert_healthy(min_charts=4)             # the four pictures drawn
    labels = chart_labels(app.page)
    assert any(label.startswith("Scatter map") and "(word, x, y" in label for label in labels), labels
    assert any(label.startswith("Bar chart") and "table below the chart" in label for label in labels), labels


def test_accessibility_check_catches_a_broken_screen(browser, tmp_path):
    """The checks fail an unlabelled text box, grey-on-grey text, light text on a veiled light
    box, a skipped heading level and pale or tiny chart marks (the fixture screen)."""
    with streamlit_server(REPO_ROOT, "tests/browser/fixtures/bad_a11y.py", tmp_path) as server:
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        try:
            a = AppPage(ctx, server.base_url, server.log_tail)
            a.goto("/")
            a.page.wait_for_selector("#faint")
            a.page.wait_for_selector("[data-testid='stVegaLiteChart'] svg.marks .role-mark")
            found = serious(axe_findings(a.page))
            pale = chart_contrast(a.page)
            texts = page_text_contrast(a.page)
            skips = heading_skips(a.page)
        finally:
            ctx.close()
    text = "\n".join(map(str, found))
    assert any(f.rule == "label" and "nameless" in f.example for f in found), f"the unlabelled box was not caught:\n{text}"
    assert any(f.rule == "color-contrast" and "faint" in f.example for f in found), \
        f"the grey-on-grey text was not caught:\n{text}"
    assert any('text "pale"' in p and "needs 4.5:1" in p for p in pale), f"the pale chart word was not caught: {pale}"
    assert any('text "tiny"' in p and "smallest 11 px" in p for p in pale), f"the 9 px chart word was not caught: {pale}"
    assert any("mark-symbol" in p and "needs 3:1" in p for p in pale), f"the pale points were not caught: {pale}"
    assert any('"Grey words on grey' in t for t in texts), f"the grey text was not caught by the page check: {texts}"
    assert any('"Light words on a veiled' in t for t in texts), f"the veiled light text was not caught: {texts}"
    assert any('h3 "A section one level too deep" comes after an h1' in s for s in skips), f"no skip found: {skips}"
