"""A heatmap's title is drawn, above the words along its top: laid out by Vega itself
(vl-convert's scenegraph, the same layout the page draws), for the sizes the screens use.

The browser suite checks the same on screen (tests/browser/test_browser_chart_titles.py);
this one runs without a browser, over more sizes and word counts."""
import math

import numpy as np
import pytest
import vl_convert

from lab_ui.widgets import charts

GLYPH = 0.62      # a generous average width of a glyph, in font sizes (Source Sans, Vega's default)


def texts(node, role, ox=0.0, oy=0.0):
    """Every text item of ``role`` in a scenegraph, with its position in the chart's pixels."""
    out = []
    for item in node.get("items", []) if node.get("marktype") else []:
        x, y = ox + item.get("x", 0), oy + item.get("y", 0)
        if node.get("role") == role and node["marktype"] == "text":
            out.append({**item, "x": x, "y": y})
        for child in item.get("items", []):
            out += texts(child, role, x, y)
    if not node.get("marktype"):
        for child in node.get("items", []):
            out += texts(child, role, ox, oy)
    return out


def layout(spec: dict, width: int) -> tuple[list[dict], list[dict]]:
    scene = vl_convert.vegalite_to_scenegraph({**charts.with_rows(spec), "width": width})["scenegraph"]
    return texts(scene, "title-text"), texts(scene, "axis-label")


@pytest.mark.parametrize("n,size,width,big", [(12, 420, 500, False), (12, 300, 380, False),
                                               (24, 420, 500, False), (12, 420, 850, True),
                                               (24, 420, 850, True), (64, 420, 500, False)])
def test_the_title_is_drawn_above_the_column_labels(n, size, width, big):
    words = [f"word{i}" for i in range(n)]
    title = "Cosine between the position vectors of places 0-23, width 16"
    spec = charts.heatmap(np.eye(n), words, title=title, size=size, big=big)
    titles, labels = layout(spec, width)
    assert len(titles) == 1
    lines = titles[0]["text"] if isinstance(titles[0]["text"], list) else [titles[0]["text"]]
    assert " ".join(lines) == title                               # the screen's own words, every one
    font = titles[0]["fontSize"]
    assert font >= (charts.BIG_FONT if big else charts.FONT)
    bottom = titles[0]["y"] + len(lines) * font * 1.2             # baseline "top": it grows downwards
    top_labels = [t for t in labels if t.get("angle")]            # the rotated words along the top
    assert len(top_labels) == n
    # a rotated label rises from its anchor by its length times sin(45 degrees)
    highest = min(t["y"] - GLYPH * t["fontSize"] * len(t["text"]) * math.sin(math.radians(45))
                  for t in top_labels)
    assert bottom <= highest, f"title ends at y={bottom:.0f}, the column labels reach y={highest:.0f}"


def test_no_title_draws_no_title():
    spec = charts.heatmap(np.eye(4), list("abcd"), size=300, big=False)
    titles, _ = layout(spec, 400)
    assert all(not t.get("text") or t["text"] in ("", [""], []) for t in titles)
