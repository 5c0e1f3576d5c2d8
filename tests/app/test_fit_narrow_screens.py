"""AppTest: what the screens draw holds at projector widths (1024 px, and 853 px with the
sidebar open): the 2-D arrows keep the true angle, sums of squares read right, the Train
tabs fit (older links to renamed tabs still open them), the Export row and snippet are not
cut, the Parameters toggle and chart title are whole, the Compare legend is not cut.
The browser side of the same checks (pixels): tests/browser/test_browser_fit.py."""
import pytest

from lab_ui.widgets.charts import BIG_FONT, FONT, LEGEND_PAIR_CHARS
from lab_ui.widgets.layout import HALF
from lab_ui.screens.train.train_controls import OLD_TAB_NAMES, TABS
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import chart_titled, charts, charts_with, text_with


def title_px(line: str, font: int) -> float:
    """A generous width of a title line in px (the estimate ``charts.wrap_title`` uses)."""
    return len(line) * 0.55 * (font + 2)


def walk(node, path=()):
    """Every element under ``node`` with the blocks that hold it, outermost first."""
    for child in getattr(node, "children", {}).values():
        yield child, path
        yield from walk(child, path + (child,))


# --- Similarity: the arrows --------------------------------------------------------------------
@pytest.mark.parametrize("present", [False, True])
def test_the_arrows_share_one_scale_on_a_square_plot(present):
    """u = (1, 0) and v = (1, 1) are 45° apart: drawn so only if a unit is as long across as up."""
    at = open_screen("similarity", sim_u="1, 0", sim_v="1, 1", **({"present": "1"} if present else {}))
    chart = chart_titled(at, "u and v: 45.0° apart")
    spec = chart.spec
    # width and height are the plot area's own ("pad": the axes come on top), equal in px ...
    assert spec["autosize"]["type"] == "pad"
    assert isinstance(spec["width"], int) and spec["width"] == spec["height"]
    # ... and both axes span the same numbers: equal units per pixel across and up
    scales = [(layer["encoding"]["x"]["scale"], layer["encoding"]["y"]["scale"])
              for layer in spec["layer"] if "scale" in layer["encoding"].get("x", {})]
    assert scales and all(x["domain"] == y["domain"] and x.get("nice") is False for x, y in scales)
    lim = scales[0][0]["domain"][1]
    assert scales[0][0]["domain"] == [-lim, lim] and lim >= 1.25   # room beyond the heads for u and v
    # the title is whole in the plot's width
    font = spec["config"]["title"]["fontSize"] - 2
    assert font == (BIG_FONT if present else FONT)
    assert title_px(chart.title, font) <= spec["width"]
    # each name sits beyond its head, along its arrow: u to the right, v up and to the right
    pts = chart.rows("dx").set_index("name")
    assert pts.loc["u", "dx"] > 0 and pts.loc["u", "dy"] == 0
    assert pts.loc["v", "dx"] > 0 and pts.loc["v", "dy"] < 0 and pts.loc["v", "dx"] == pytest.approx(-pts.loc["v", "dy"])


def test_three_numbers_say_that_two_draw_the_arrows():
    """The lesson's vectors have three numbers: the screen says how to get the picture."""
    at = open_screen("similarity")
    assert not [c for c in charts(at) if c.title.startswith("u and v")]
    assert "(for example 1, 0 and 1, 1) to see them drawn as arrows" in text_with(at, "Type two numbers per vector")


def test_a_negative_number_is_squared_in_parentheses():
    at = open_screen("similarity", sim_u="-1, 0.2", sim_v="1, 0")
    assert_clean(at)
    steps = text_with(at, r"Length of u")
    assert "|u| = √((-1)² + 0.2²)" in steps and "√(1² + 0²)" in steps
    assert "-1²" not in steps


# --- Train: the tabs ------------------------------------------------------------------------------
def test_the_train_tabs_are_short_enough_for_853_px():
    """All five names fit the 500 px main area of an 853 px window with the sidebar open (at
    the tab font, about 7 px a letter plus 17 px between tabs: tests/browser measure it)."""
    at = open_screen("train")
    shown = [t.label for t in at.tabs]
    assert shown == TABS
    assert sum(len(t) for t in TABS) * 7.2 + 17 * (len(TABS) - 1) <= 480


@pytest.mark.parametrize("old,new", list(OLD_TAB_NAMES.items()))
def test_an_old_link_to_a_renamed_tab_opens_it(old, new):
    at = open_screen("train", train_tab=old)
    assert at.session_state["train_tab"] == new
    assert at.query_params["train_tab"] == [new] or at.query_params["train_tab"] == new
    assert not at.warning or not any("train_tab" in w.value for w in at.warning)


# --- Train: Export --------------------------------------------------------------------------------
def test_export_buttons_wrap_and_the_snippet_keeps_its_comments_visible():
    at = open_screen("train", train_tab="Export")
    rows = {el.proto.label: path[-1] for el, path in walk(at.main) if getattr(el, "type", "") == "download_button"}
    files = ["Table (CSV)", "vectors.tsv", "metadata.tsv", "PCA coordinates (CSV)"]
    for label in files:   # in a row that wraps, each as wide as its label (no column to cut it)
        box = rows[label].proto.flex_container
        assert box.direction == box.Direction.HORIZONTAL and box.wrap
    code = at.code[0]
    assert code.proto.wrap_lines
    lines = code.value.splitlines()
    assert "# the loss before and after training" in lines
    assert "# the trained table: row i is corpus.vocab[i]" in lines
    assert max(len(line) for line in lines) <= 48     # 853 px shows about 51 characters of code


# --- Parameters -----------------------------------------------------------------------------------
def test_the_tied_toggle_has_a_line_of_its_own():
    at = open_screen("parameters")
    [(toggle, path)] = [(el, path) for el, path in walk(at.main) if getattr(el, "type", "") == "toggle"]
    assert toggle.proto.label == "Tied output"
    assert not any(block.type == "column" for block in path)


@pytest.mark.parametrize("present", [False, True])
def test_the_share_chart_title_wraps_to_its_block(present):
    at = open_screen("parameters", **({"present": "1"} if present else {}))
    chart = chart_titled(at, "The table's share shrinks as models grow")
    title = chart.spec["title"]
    lines = title if isinstance(title, list) else [title]
    font = BIG_FONT if present else FONT
    assert " ".join(lines) == "The table's share shrinks as models grow"
    assert all(title_px(line, font) <= HALF for line in lines)
    # one line when the whole title fits its block, else two (the block is HALF px wide)
    assert len(lines) == (1 if title_px(" ".join(lines), font) <= HALF else 2)


# --- Train: Compare runs --------------------------------------------------------------------------
def test_the_compare_legend_puts_each_run_on_a_line_of_its_own():
    at = open_screen("train", train_tab="Compare runs", train_cmp_d_model="16", train_cmp_window="5",
                     train_cmp_lr="0.05")
    [chart] = [c for c in charts_with(at, "loss") if any("B: d_model 16, window 5, lr 0.05" in set(d.get("line", []))
                                                          for d in c.data.values())]
    legend = chart.spec["layer"][0]["encoding"]["color"]["legend"]
    assert legend["columns"] == 1 and legend["labelLimit"] == 0
    names = chart.spec["layer"][0]["encoding"]["color"]["scale"]["domain"]
    assert max(len(n) for n in names) > LEGEND_PAIR_CHARS


def test_short_legend_names_stay_two_a_row():
    at = open_screen("train")
    [chart] = [c for c in charts_with(at, "loss") if any("this run" in set(d.get("line", [])) for d in c.data.values())]
    assert chart.spec["layer"][0]["encoding"]["color"]["legend"]["columns"] == 2
