"""A new run of the same size changes a chart's data, not its spec: the page then swaps the data
into the chart it already has instead of building the chart again (docs/performance.md, "Screen latency")."""
import json

from tests.app.conftest import open_screen
from tests.app.values import charts, move


def test_train_charts_keep_their_spec_when_only_the_numbers_change():
    at = open_screen("train")
    before = {list(c.data)[0]: (c.spec, c.data) for c in charts(at)}
    move(at, ("slider", "train_d_model", 5))
    after = {list(c.data)[0]: (c.spec, c.data) for c in charts(at)}
    # the loss curve, the heatmap, and the PCA map (its title and its labels' places are data)
    for name in ("curves", "matrix", "points"):
        spec_a, data_a = before[name]
        spec_b, data_b = after[name]
        assert json.dumps(spec_a, sort_keys=True) == json.dumps(spec_b, sort_keys=True), name
        assert list(data_a) == list(data_b)               # the same dataset names ...
        changed = [k for k in data_a if not data_a[k].equals(data_b[k])]
        assert changed, name                               # ... holding the new run's numbers


def test_chart_data_is_shipped_as_arrow_not_inside_the_spec():
    at = open_screen("train")
    for el in at.get("vega_lite_chart"):
        spec = json.loads(el.proto.spec)
        assert "datasets" not in spec and "values" not in json.dumps(spec.get("data", {}))
        assert el.proto.datasets and all(d.data.data for d in el.proto.datasets)


def test_charts_draw_on_a_canvas_but_in_svg_when_presenting_or_printing():
    for query, renderer in (({}, "canvas"), ({"present": "1"}, "svg"), ({"handout": "1"}, "svg")):
        at = open_screen("train", **query)
        drawn = {json.loads(el.proto.spec)["usermeta"]["embedOptions"]["renderer"] for el in at.get("vega_lite_chart")}
        assert drawn == {renderer}, query


def test_a_heatmap_title_that_changes_with_the_control_is_data_not_spec():
    at = open_screen("position")
    before = charts(at)[0]
    move(at, ("select_slider", "pos_width", 32))
    after = charts(at)[0]
    assert json.dumps(before.spec, sort_keys=True) == json.dumps(after.spec, sort_keys=True)
    assert before.title.endswith("width 16") and after.title.endswith("width 32")
