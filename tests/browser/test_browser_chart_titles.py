"""A heatmap's own title is drawn on screen, above the words along its top, in Chromium.

The page draws charts on a canvas (no text to read back), except in presenter mode, which
keeps SVG; Vega lays a chart out the same way for both, so the SVG is where the title's place
is checked: present, with the screen's words, inside the chart's box, not overlapped by the
rotated column labels, and the topmost element at its centre once it is in view (nothing of
the page, such as its sticky header, drawn over it).
"""
from __future__ import annotations

import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser

# Every screen whose heatmap has its own title, with the title's start and the chart's place.
HEATMAPS = [("/position", "Cosine between the position vectors of places 0-23", 0),
            ("/similarity", "Cosine of every pair of one-hot vectors", 0),
            ("/own_vectors", "Cosine between the first", 0)]

TITLE_JS = """
(chart) => {
  const box = r => ({top: r.top, bottom: r.bottom, left: r.left, right: r.right});
  const title = chart.querySelector('.role-title-text text');
  const labels = Array.from(chart.querySelectorAll('.role-axis-label text'))
    .map(t => box(t.getBoundingClientRect()));
  if (!title) return {title: null, labels: labels.length};
  const r = title.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {title: title.textContent, box: box(r), chart: box(chart.querySelector('svg').getBoundingClientRect()),
          labelsTop: Math.min(...labels.map(l => l.top)), labels: labels.length,
          onTop: !!hit && chart.contains(hit)};
}
"""


def scroll_to_middle(page, chart) -> None:
    page.evaluate("(el) => { const m = document.querySelector(\"[data-testid='stMain']\");"
                  " m.scrollBy(0, el.getBoundingClientRect().top - window.innerHeight / 3); }", chart)


@pytest.mark.parametrize("width,height", [(1024, 768), (853, 533)])
def test_every_heatmap_title_is_drawn_above_its_column_labels(app, width, height):
    page = app.page
    page.set_viewport_size({"width": width, "height": height})
    problems = []
    for path, words, index in HEATMAPS:
        app.goto(path + "?present=1")
        chart = page.locator("[data-testid='stVegaLiteChart']").nth(index)
        expect(chart.locator("svg .role-title-text text")).to_have_count(1)
        expect(chart.locator("svg .role-axis-label text").first).to_be_visible()
        scroll_to_middle(page, chart.element_handle())
        page.wait_for_timeout(300)
        got = chart.evaluate(TITLE_JS)
        where = f"{path} at {width}x{height}"
        if not got["title"] or not re.sub(r"\s+", " ", got["title"]).startswith(words):
            problems.append(f"{where}: title {got['title']!r}, expected it to start with {words!r}")
            continue
        b, c = got["box"], got["chart"]
        if b["bottom"] - b["top"] < 10 or b["right"] - b["left"] < 50:
            problems.append(f"{where}: the title is drawn {b}: too small to read")
        slack = 0.2 * (b["bottom"] - b["top"])     # a text's box holds the font's leading too
        if b["top"] < c["top"] - slack or b["bottom"] > c["bottom"] + slack:
            problems.append(f"{where}: the title {b} is outside its chart {c}")
        if b["bottom"] > got["labelsTop"] + 0.5:
            problems.append(f"{where}: the title's bottom ({b['bottom']:.0f}) runs into the column "
                            f"labels (top {got['labelsTop']:.0f})")
        if not got["onTop"]:
            problems.append(f"{where}: something else is drawn over the title")
    assert not problems, "\n".join(problems)
