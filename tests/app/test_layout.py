"""AppTest: lab_ui.widgets.layout's rows as Streamlit draws them: blocks side by side in a row that
wraps (one column in a handout), and metrics in a row that wraps, each with the gap and the
key it was given (a key names the block for a lesson link's ``hide=``)."""
import pytest
from streamlit.testing.v1 import AppTest


def _blocks(gap, printing):
    import streamlit as st
    from lab_ui.widgets import layout
    if printing:
        st.query_params["handout"] = "1"
    for box, text in zip(layout.blocks(200, 300, key="demo_row", **({} if gap is None else {"gap": gap})),
                         ("left", "right")):
        box.markdown(text)


def _metrics():
    from lab_ui.widgets import layout
    layout.metrics([dict(label="rows", value="12"), dict(label="words", value="34")], key="demo_metrics")


def gap_name(box) -> str:
    return box.gap_config.DESCRIPTOR.fields_by_name["gap_size"].enum_type.values_by_number[box.gap_config.gap_size].name


def outer(at: AppTest):
    [row] = list(at.main.children.values())
    return row


@pytest.mark.parametrize("printing", [False, True])
@pytest.mark.parametrize("gap, size", [(None, "MEDIUM"), ("large", "LARGE")])
def test_blocks_keep_their_key_and_gap_on_screen_and_in_a_handout(gap, size, printing):
    at = AppTest.from_function(_blocks, args=(gap, printing), default_timeout=30).run()
    assert not at.exception
    row = outer(at)
    box = row.proto.flex_container
    assert row.proto.id.endswith("-demo_row")                          # the CSS class st-key-demo_row
    assert gap_name(box) == size
    assert type(box).Direction.Name(box.direction) == ("VERTICAL" if printing else "HORIZONTAL")
    assert box.wrap is not printing                                     # side by side until too narrow
    assert [c.children[0].value for c in row.children.values()] == ["left", "right"]
    if not printing:                                                    # each block named for the layout tests
        assert [c.proto.id.rsplit("-", 1)[-1] for c in row.children.values()] == ["demo_row_0", "demo_row_1"]


def test_metrics_sit_in_a_row_that_wraps():
    """Each metric is as wide as its own label and value, side by side, wrapping on a narrow
    screen instead of cutting a label."""
    at = AppTest.from_function(_metrics, default_timeout=30).run()
    assert not at.exception
    row = outer(at)
    box = row.proto.flex_container
    assert row.proto.id.endswith("-demo_metrics")
    assert type(box).Direction.Name(box.direction) == "HORIZONTAL" and box.wrap
    assert gap_name(box) == "MEDIUM"
    assert [(m.label, m.value) for m in at.metric] == [("rows", "12"), ("words", "34")]


def test_a_slider_block_leaves_at_least_8_px_a_step():
    from lab_ui.widgets import layout
    from lab_ui.screens.train.train_controls import CONTROLS, Choice, Slider, control_px
    for control in CONTROLS.values():
        if isinstance(control, (Slider, Choice)):
            steps = control.high - control.low if isinstance(control, Slider) else len(control.options) - 1
            assert (control_px(control) - layout.SLIDER_PAD) / steps >= 8, control.label
