"""Layout checks at the classroom viewports, on every screen and every Train tab, with the
sidebar open and collapsed (tests/browser/layout.py says what is checked).

Cost: one page per screen or tab; the viewport is resized and the sidebar toggled in place
(neither reruns the script), so 18 page loads give 18 x 4 x 2 = 144 checked layouts.
The checks prove they bite on tests/browser/fixtures/bad_layout.py, served the same way.
"""
from __future__ import annotations

import pytest

from .conftest import streamlit_server
from .helpers import REPO_ROOT, AppPage
from .layout import layout_problems

pytestmark = pytest.mark.browser

VIEWPORTS = [(1024, 768), (1280, 720), (1920, 1080), (853, 533)]
TRAIN_TABS = ["Replay training", "Compare runs", "Negative sampling", "Export"]
PAGES = (["/", "/lookup", "/similarity", "/train", "/pair", "/cbow", "/gradients", "/parameters", "/limits", "/tokens",
          "/projections", "/analogies", "/position", "/own_vectors", "/train?train_source=Word+groups+%28generated%29"]
         + ["/train?train_tab=" + t.replace(" ", "+") for t in TRAIN_TABS])
SETTLE_TRIES = 4           # a resize makes Vega-Lite redraw: re-check before calling it a fault


def set_sidebar(page, state: str) -> None:
    """Open or collapse the sidebar with its own buttons."""
    sidebar = page.locator("[data-testid='stSidebar']")
    expanded = sidebar.get_attribute("data-collapsed") == "false"
    if state == "collapsed" and expanded:
        sidebar.hover()
        page.locator("[data-testid='stSidebarCollapseButton'] button").click()
    elif state == "open" and not expanded:
        page.locator("[data-testid='stExpandSidebarButton']").click()
    page.wait_for_function(
        "want => document.querySelector(\"[data-testid='stSidebar']\").getAttribute('data-collapsed') === want",
        arg="false" if state == "open" else "true")
    page.wait_for_timeout(400)   # the slide animation


def settled_problems(page) -> list[str]:
    """Layout problems that persist over a few animation frames and half a second."""
    found = []
    for _ in range(SETTLE_TRIES):
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        found = layout_problems(page)
        if not found:
            return []
        page.wait_for_timeout(250)
    return found


def sweep(a: AppPage, label: str, sidebar_states=("open", "collapsed")) -> list[str]:
    """Every viewport and sidebar state of the page now open; the problems found."""
    out = []
    for state in sidebar_states:
        if state is not None:
            set_sidebar(a.page, state)
        for w, h in VIEWPORTS:
            a.page.set_viewport_size({"width": w, "height": h})
            out += [f"{label} at {w}x{h}, sidebar {state}: {p}" for p in settled_problems(a.page)]
    return out


@pytest.mark.parametrize("path", PAGES)
def test_layout_holds_at_classroom_viewports(app, path):
    app.goto(path)
    app.assert_healthy()
    problems = sweep(app, path)
    assert not problems, "Layout problems:\n" + "\n".join(problems)


def test_layout_checks_catch_a_broken_screen(browser, tmp_path):
    """The checks fail a fixed-width chart and a six-metric row (the fixture screen)."""
    with streamlit_server(REPO_ROOT, "tests/browser/fixtures/bad_layout.py", tmp_path) as server:
        ctx = browser.new_context(viewport={"width": 1024, "height": 768})
        try:
            a = AppPage(ctx, server.base_url, server.log_tail)
            a.goto("/")
            a.page.wait_for_selector("[data-testid='stVegaLiteChart'] svg.marks, "
                                     "[data-testid='stVegaLiteChart'] canvas")
            found = settled_problems(a.page)
        finally:
            ctx.close()
    text = "\n".join(found)
    truncated = [p for p in found if p.startswith("metric value cut off")]
    assert len(truncated) >= 3, f"the six-metric row was not caught:\n{text}"
    assert any("fixed 1100 px" in p and "sticks out of its column" in p for p in found), \
        f"the fixed-width chart was not caught:\n{text}"
    assert any("overlap" in p for p in found), f"the chart covering its neighbour was not caught:\n{text}"
    assert any("scrolls sideways" in p for p in found), f"the sideways scroll was not caught:\n{text}"
