"""AppTest: controls that set other controls, and number formats the tables promise."""
import json

from lab_ui.widgets.presets import SOFTMAX_SETTINGS
from tests.app.conftest import assert_clean, open_screen


def test_use_generated_settings_sets_every_slider():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Word groups (generated)").run()
    at.slider(key="train_window").set_value(4).run()
    at.button(key="train_use_generated").click().run()
    assert_clean(at)
    s = SOFTMAX_SETTINGS
    assert at.slider(key="train_d_model").value == s.d_model
    assert at.select_slider(key="train_lr").value == s.lr
    assert at.select_slider(key="train_steps").value == s.steps
    assert at.slider(key="train_window").value == 2


def _formats(el) -> dict:
    cols = json.loads(el.proto.columns or "{}")
    return {k: v.get("type_config", {}).get("format") for k, v in cols.items() if "type_config" in v}


def test_gradient_tables_show_fixed_decimals():
    at = open_screen("gradients")
    formats = [_formats(d) for d in at.dataframe]
    upstream, rows, before_after = formats
    assert set(upstream.values()) == {"%.2f"} and len(upstream) == 4
    assert set(rows.values()) == {"%.2f"} and len(rows) == 4
    assert set(before_after.values()) == {"%.4f"} and len(before_after) == 4


def test_an_answer_exactly_at_the_tolerance_counts_as_right():
    from lab_ui.lesson.exercises import Exercise, is_right
    ex = Exercise("k", "q", answer=100.0, explanation="", rel_tol=0.01, abs_tol=0.5)
    assert is_right(ex, 101.0) and is_right(ex, 99.0) and not is_right(ex, 101.01)
    small = Exercise("k", "q", answer=0.0, explanation="", abs_tol=0.25)
    assert is_right(small, 0.25) and not is_right(small, 0.26)
