"""AppTest: a chart's table is built only when its box is opened (or every box is, with the
sidebar's switch or in a handout), and what an opened box shows is the chart's own numbers."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train
from lab_ui.screens.registry import SCREENS
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, charts, table

CHART_TABLES = ["train_loss_table", "train_heatmap_table", "train_pca_table"]   # Train's Result tab


def _boxes(at) -> list[str]:
    return [e.label for e in at.expander]


def test_closed_boxes_send_no_table_and_an_opened_box_shows_its_chart_numbers():
    at = open_screen("train", tables=False)
    assert len(charts(at)) == 3
    assert _boxes(at).count("Show the numbers as a table") == 3        # every chart keeps its box ...
    assert not [t for t in at.dataframe if "loss" in t.value.columns or "direction 1" in t.value.columns]
    assert not at.get("download_button")                                   # ... empty: no table, no files
    at.session_state["train_loss_table_box"] = True                        # the student opens one
    at.run()
    assert_clean(at)
    r = train(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig())
    losses = table(at, "step", "loss")
    assert_close(losses["loss"], r.losses)
    assert_close(losses["step"], np.arange(len(r.losses)))
    assert [b.proto.label for b in at.get("download_button")] == ["PNG", "SVG"]
    assert not [t for t in at.dataframe if "direction 1" in t.value.columns]   # the others stay empty


def test_the_switch_and_the_handout_open_every_chart_table():
    at = open_screen("train", tables=True)                 # on screen: every box open, as grids
    assert_clean(at)
    assert table(at, "step", "loss") is not None and table(at, "direction 1") is not None
    assert table(at, "word", "cat") is not None
    at = open_screen("train", tables=False, handout="1")   # a handout: the same tables, printed as text
    assert_clean(at)
    assert len(at.dataframe) == 0
    printed = [t.value for t in at.table]
    for columns in (("step", "loss"), ("direction 1",), ("word", "cat")):
        assert any(all(c in t.columns for c in columns) for t in printed), (columns, [list(t.columns) for t in printed])
    # and on a screen of many charts: one table per chart
    at = open_screen("parameters", tables=True)
    assert len(at.dataframe) >= len(charts(at)) == 3


def test_the_switch_is_kept_in_the_page_address():
    at = open_screen("similarity", tables=True)
    assert at.query_params.get("tables") in ("true", ["true"])


@pytest.mark.parametrize("name", [s.name for s in SCREENS[1:]])
def test_every_box_on_every_screen_opens_to_its_table(name):
    at = open_screen(name, tables=False)
    boxes = [k for k in at.session_state if isinstance(k, str) and k.endswith("_box")]
    assert len(boxes) >= len(charts(at))                         # every chart has its box
    before = len(at.dataframe)
    for key in boxes:
        at.session_state[key] = True
    at.run()
    assert_clean(at)
    assert len(at.dataframe) == before + len(boxes), boxes      # one table per opened box
