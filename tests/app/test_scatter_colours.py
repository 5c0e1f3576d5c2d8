"""AppTest: one colour per word group on every chart of a screen, from a colour-blind-safe
palette; scatter labels drawn on the points."""
import json

from tests.app.conftest import open_screen
from tests.app.values import charts
from lab_ui.widgets.charts import GROUP_COLOURS, MARK_RATIO, TEXT_RATIO, readable


def _group_colours(spec: dict) -> dict:
    """{group: colour} from every layer of a Vega-Lite spec whose colour encodes 'group'."""
    out = {}
    def walk(node):
        if isinstance(node, dict):
            enc = node.get("encoding", {}).get("color", {})
            if enc.get("field") == "group" and "scale" in enc:
                out.update(zip(enc["scale"]["domain"], enc["scale"]["range"]))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
    walk(spec)
    return out


def test_projections_keep_one_colour_per_group_across_charts():
    at = open_screen("projections")
    specs = [json.loads(c.proto.spec) for c in at.get("vega_lite_chart")]
    maps = [m for m in (_group_colours(s) for s in specs) if m]
    assert len(maps) >= 3                                  # the pictures and the context chart
    for m in maps:
        for group, colour in m.items():
            # the group's colour at 3:1 (points, legend) or 4.5:1 (words) on white
            assert colour in (readable(GROUP_COLOURS[group], MARK_RATIO), readable(GROUP_COLOURS[group], TEXT_RATIO)), \
                (group, colour)
    context = maps[-1]
    assert set(context) == {"river", "money"}


def test_train_word_groups_map_is_coloured_by_group_and_labelled():
    at = open_screen("train", train_source="Word groups (generated)")
    chart = next(c for c in charts(at) if "flat picture" in c.title)
    pca = chart.spec
    colours = _group_colours(pca)
    assert {"animals", "river", "money", "bank"} <= set(colours)
    texts = [layer for layer in pca["layer"] if (layer.get("mark") or {}).get("type") == "text"]
    assert texts, "no labels drawn on the points"
    labels = chart.data["labels"]
    assert len(labels) and set(labels["word"]) <= set(chart.data["points"]["word"])
