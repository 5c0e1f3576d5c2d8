"""AppTest: lab_ui.widgets.common's chart-with-table panel on its own: the table behind a chart is the
one given, built only once its box is opened (or open at once with the tables switch), with
the chart's PNG and SVG beside it; the chart fills its column unless told to keep its own
width; an error box quotes user text as plain text."""
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from lab_ui.widgets.common import plain

FRAME = pd.DataFrame({"word": ["cat", "dog"], "cosine": [0.25, -0.5]})


def _script(frame, open_all, as_altair):
    import altair as alt
    import streamlit as st
    from lab_ui.widgets import charts
    from lab_ui.widgets.common import chart_with_table, error
    if open_all:
        st.session_state["tables"] = True
    chart = (alt.Chart(frame).mark_bar().encode(x="word", y="cosine") if as_altair
             else charts.bars(frame, "word", "cosine", "Two words"))
    chart_with_table(chart, frame, key="t_table")
    error("No word *[x](http://e.vil)* here")


def run(open_all=False, as_altair=False) -> AppTest:
    at = AppTest.from_function(_script, args=(FRAME, open_all, as_altair), default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("as_altair", [False, True])
def test_a_closed_box_holds_nothing_until_it_is_opened(as_altair):
    at = run(as_altair=as_altair)
    assert len(at.get("vega_lite_chart")) == 1
    assert not at.dataframe and not at.get("download_button")
    at.session_state["t_table_box"] = True                         # the student opens the box
    at.run()
    assert len(at.dataframe) == 1
    pd.testing.assert_frame_equal(at.dataframe[0].value.reset_index(drop=True), FRAME)
    assert sorted(b.proto.label for b in at.get("download_button")) == ["PNG", "SVG"]


def test_the_tables_switch_opens_every_box_at_once():
    at = run(open_all=True)
    assert [e.label for e in at.expander if e.proto.expanded] == ["Show the numbers as a table"]
    pd.testing.assert_frame_equal(at.dataframe[0].value.reset_index(drop=True), FRAME)
    assert sorted(b.proto.label for b in at.get("download_button")) == ["PNG", "SVG"]


def test_an_error_quotes_the_message_as_plain_text():
    at = run()
    assert [e.value for e in at.error] == [plain("No word *[x](http://e.vil)* here")]


def _sized(frame, stretch, as_altair):
    import altair as alt
    from lab_ui.widgets import charts
    from lab_ui.widgets.common import chart_with_table
    chart = (alt.Chart(frame).mark_bar().encode(x="word", y="cosine") if as_altair
             else charts.bars(frame, "word", "cosine", "Two words"))
    chart_with_table(chart, frame, key="t_table", **({} if stretch is None else {"stretch": stretch}))


@pytest.mark.parametrize("as_altair", [False, True])
@pytest.mark.parametrize("stretch, width", [(None, "stretch"), (True, "stretch"), (False, "content")])
def test_a_chart_fills_its_column_unless_asked_to_keep_its_own_width(chart_widths, stretch, width, as_altair):
    """``stretch=False`` (the Similarity arrows, drawn square so the angle on screen is the
    true one) keeps the chart at its own width; otherwise it fills its column."""
    at = AppTest.from_function(_sized, args=(FRAME, stretch, as_altair), default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    assert chart_widths == [("altair" if as_altair else "vega", width)]
