"""lab_ui.lesson.exercises: what people type read as numbers, and the answers' tolerance, pinned exactly
(details mutation testing found loose: docs/quality.md)."""

import pytest


@pytest.mark.parametrize("typed, value", [
    ("12%", 12.0), ("1 000", 1000.0), ("-0,5", -0.5), ("38.597.376,5", 38597376.5), ("38_597_376", 38597376.0),
    ("1\u00a0234", 1234.0), ("1\u202f234", 1234.0), ("2,5e3", None), ("1" * 61, None), ("1" * 60, 1e59 * 1.1111111111111112),
    ("inf", None), ("nan", None), ("", None), ("0,960", 0.96), ("+1,234.5", 1234.5),
])
def test_read_number_cases(typed, value):
    from lab_ui.lesson.exercises import read_number

    got = read_number(typed)
    assert got == (pytest.approx(value, rel=1e-15) if value is not None else None)


def test_answers_are_right_within_the_larger_tolerance():
    from lab_ui.lesson.exercises import Exercise, is_right

    decimal = Exercise("k", "q", 2.0, "why")                # tolerance max(0.005, 0.005 * 2) = 0.01
    assert is_right(decimal, 2.0099) and is_right(decimal, 1.9901) and not is_right(decimal, 2.0101)
    assert not is_right(decimal, 1.9899)
    binary = Exercise("k", "q", 0.5, "why", rel_tol=0.0, abs_tol=0.25)   # exact in binary: the edge counts
    assert is_right(binary, 0.75) and is_right(binary, 0.25) and not is_right(binary, 0.75 + 2**-40)
    small = Exercise("k", "q", 0.1, "why")                  # tolerance max(0.005, 0.0005) = 0.005
    assert is_right(small, 0.105) and not is_right(small, 0.1051)
    count = Exercise("k", "q", 12, "why")
    assert count.is_count and is_right(count, 12.0) and not is_right(count, 12.001)
    forced = Exercise("k", "q", 12.0, "why", exact=True)
    assert forced.is_count and not is_right(forced, 12.001)
    assert not Exercise("k", "q", 12, "why", exact=False).is_count
    assert Exercise("k", "q", 1.0, "why").unit == "" and Exercise("k", "q", 1.0, "why").rel_tol == 0.005
