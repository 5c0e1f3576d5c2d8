"""AppTest: the hand exercises check answers and explain them."""
import pytest

from tests.app.conftest import assert_clean, open_screen
from lab_ui.lesson.exercises import Exercise, is_right, read_number


def answer(at, key, text):
    at.text_input(key=f"{key}_answer").input(text)
    next(b for b in at.button if b.proto.form_id == key or key in b.id).click().run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("screen,key,right,wrong", [
    ("similarity", "sim_ex1", "0.96", "0.5"),
    ("similarity", "sim_ex2", "0", "1"),
    ("parameters", "params_ex1", "131,072,000", "131072"),
    ("parameters", "params_ex2", "77194752", "38597376"),
    ("parameters", "params_ex3", "0.35%", "3.5"),
])
def test_right_and_wrong_answers(screen, key, right, wrong):
    at = answer(open_screen(screen), key, right)
    assert any(s.value.startswith("Right.") for s in at.success)
    at = answer(open_screen(screen), key, wrong)
    assert any(e.value.startswith("Not quite") for e in at.error)


def test_not_a_number():
    at = answer(open_screen("similarity"), "sim_ex1", "<b>zero</b>")
    assert any("is not a number" in w.value for w in at.warning)


def test_read_number_and_tolerance():
    assert read_number("1,234.5") == 1234.5 and read_number("0.35 %") == 0.35
    assert read_number("nan") is None and read_number("abc") is None
    ex = Exercise("k", "q", 0.889, "")
    assert is_right(ex, 0.89) and not is_right(ex, 0.85)
