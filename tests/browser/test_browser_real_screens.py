"""The real-model screens (7b, 7c, 7d, 8c) in a real browser: each opens cleanly and holds its layout at
the classroom viewports with the sidebar open and collapsed (no sideways scroll, no value cut
off), and a typed sentence repaints the tokens, rows and neighbours of screen 7b."""
import re

import pytest

from .helpers import ARTIFACTS, expect
from .test_browser_layout import VIEWPORTS, set_sidebar, settled_problems

pytestmark = pytest.mark.browser

FIRST_LOAD_MS = 180_000   # a fresh server loads the model on its first screen (once per process)
SCREENS = ["/real_table", "/real_tokenizers", "/real_context", "/real_words"]


@pytest.mark.parametrize("path", SCREENS)
def test_real_screen_holds_at_classroom_viewports(app, path):
    app.goto(path, timeout=FIRST_LOAD_MS)
    app.assert_healthy()
    problems = []
    for state in ("open", "collapsed"):
        set_sidebar(app.page, state)
        for w, h in VIEWPORTS:
            app.page.set_viewport_size({"width": w, "height": h})
            problems += [f"{path} at {w}x{h}, sidebar {state}: {p}" for p in settled_problems(app.page)]
            if state == "open":
                app.full_page_screenshot(ARTIFACTS / f"{path.strip('/')}_{w}x{h}.png")
    assert not problems, "Layout problems:\n" + "\n".join(problems)


def test_typed_sentence_repaints_the_real_table(app):
    app.goto("/real_table", timeout=FIRST_LOAD_MS)
    app.assert_healthy()
    area = app.page.locator("[data-testid='stTextArea'] textarea").first
    area.fill("She got a bank loan.")
    app.rerun(lambda: area.press("Control+Enter"))
    expect(app.page.locator(".chip").filter(has_text=re.compile("loan"))).to_have_count(1)
    expect(app.metric(re.compile("^X = E"))).to_have_text("(6, 576)")
    app.assert_healthy()


PLAIN_MAP = ("/projections?proj_source=GloVe+6B+50d+%28real+words%29&proj_real_find=water"
             "&proj_real_draw=Plain+chart+%28no+WebGL%29")
# Dark pixels on each drawn Vega-Lite canvas (the map's 5,000 dots make one chart far darker
# than the screen's other charts).
PLAIN_PIXELS_JS = """() => Array.from(document.querySelectorAll("[data-testid='stVegaLiteChart'] canvas")).map(c => {
  const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
  let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i + 3] !== 0 && d[i] < 200) n++;
  return n;
})"""


def test_real_map_plain_chart_draws_without_webgl(app):
    """Projections on GloVe drawn without WebGL (the fallback of the pydeck map, for browsers
    without WebGL): the chart is drawn, with many dark pixels
    (the 5,000 dots), and holds its layout at the classroom viewports."""
    app.goto(PLAIN_MAP, timeout=FIRST_LOAD_MS)
    app.assert_healthy(min_charts=1)
    assert app.page.locator("canvas#deckgl-overlay").count() == 0
    expect(app.page.get_by_text("Plain chart (no WebGL)")).to_have_count(1)
    assert max(app.page.evaluate(PLAIN_PIXELS_JS)) > 2000
    problems = []
    for w, h in VIEWPORTS:
        app.page.set_viewport_size({"width": w, "height": h})
        problems += [f"at {w}x{h}: {p}" for p in settled_problems(app.page)]
        app.full_page_screenshot(ARTIFACTS / f"projections_real_plain_{w}x{h}.png")
    assert not problems, "Layout problems:\n" + "\n".join(problems)


WEBGL_MAP = "/projections?proj_source=GloVe+6B+50d+%28real+words%29&proj_real_find=water"
MAP_VIEWPORTS = [(1280, 800), (1024, 768), (853, 533)]
# deck.gl's canvas keeps its drawing (by default WebGL clears it after each frame), so the test
# can read its pixels back whenever it likes; the app's own page is untouched.
KEEP_DRAWING_JS = """(() => { const get = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (type, attrs) {
    if (String(type).startsWith('webgl')) attrs = Object.assign({}, attrs || {}, {preserveDrawingBuffer: true});
    return get.call(this, type, attrs); }; })();"""
# Pixels of the map's WebGL canvas that are drawn (not transparent), and its size.
DECK_PIXELS_JS = """() => { const c = document.querySelector('canvas#deckgl-overlay');
  const gl = c.getContext('webgl2') || c.getContext('webgl');
  const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight, d = new Uint8Array(w * h * 4);
  gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, d);
  let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
  return {drawn: n, width: w, height: h}; }"""


def test_real_map_webgl_draws_points_and_names_the_word_under_the_pointer(app):
    """The default drawing of Projections on GloVe, the pydeck WebGL map (SwiftShader's WebGL in
    headless Chromium): at each classroom viewport the canvas has thousands of drawn pixels (the
    5,000 dots; none before the radius unit was quoted), and pointing where the core's PCA puts
    "water" (y up, as in the table under the map) shows "water" in the tooltip."""
    import math

    import numpy as np

    from core.pretrained import load_table
    from core.real_map import real_map
    m = real_map(load_table("glove-6b-50d"), 5000, 10)
    x, y = m.coords[m.labels.index("water")] / np.abs(m.coords).max()      # as drawn, in [-1, 1]
    px_per_unit = 2 ** math.log2(540 / 2.3)                                 # the view's zoom
    # Dots as big as the map stall SwiftShader (screenshots and readPixels never return), so the
    # spec's dot size is checked first: a regression fails here instead of hanging the suite.
    from tests.app.test_real_tables_in_lesson import (
        test_projections_webgl_map_draws_the_plain_charts_points_in_pixels as spec_in_pixels)
    spec_in_pixels(load_table("glove-6b-50d"))
    app.page.context.add_init_script(KEEP_DRAWING_JS)
    app.goto(WEBGL_MAP, timeout=FIRST_LOAD_MS)
    app.assert_healthy()
    canvas = app.page.locator("canvas#deckgl-overlay")
    expect(canvas).to_have_count(1)
    problems = []
    for w, h in MAP_VIEWPORTS:
        app.page.set_viewport_size({"width": w, "height": h})
        problems += [f"at {w}x{h}: {p}" for p in settled_problems(app.page)]
        canvas.evaluate("c => c.scrollIntoView({block: 'end'})")
        app.page.wait_for_timeout(500)
        pixels = app.page.evaluate(DECK_PIXELS_JS)
        assert pixels["drawn"] > 10_000, f"at {w}x{h} the WebGL map drew {pixels}"
        box = canvas.bounding_box()
        assert box["x"] + box["width"] <= w, f"at {w}x{h} the map sticks out: {box}"
        app.page.mouse.move(box["x"] + box["width"] / 2 + x * px_per_unit,
                            box["y"] + box["height"] / 2 - y * px_per_unit)
        expect(app.page.locator(".deck-tooltip")).to_have_text("water")
        app.page.screenshot(path=str(ARTIFACTS / f"projections_real_webgl_{w}x{h}.png"))
        app.page.mouse.move(0, 0)
    assert not problems, "Layout problems:\n" + "\n".join(problems)
