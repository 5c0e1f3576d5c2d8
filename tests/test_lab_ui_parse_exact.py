"""lab_ui.widgets.parse: ids, whole numbers, vectors and matrices read and refused, word for word, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import re

import numpy as np
import pytest

from lab_ui.widgets.parse import InputError, MAX_IDS, MAX_TYPED_ENTRIES, parse_ids, parse_matrix, parse_vector


def _message(call) -> str:
    with pytest.raises(InputError) as err:
        call()
    return str(err.value)


def test_id_messages_name_the_input_and_the_right_range():
    msg = _message(lambda: parse_ids("50257", 50_257, "The ids"))
    assert msg.startswith("The ids: 50257") and re.search(r"from 0 to 50,256\b", msg)
    msg = _message(lambda: parse_ids("7", 5, "Row ids"))
    assert msg.startswith("Row ids: 7") and re.search(r"from 0 to 4\b", msg)
    assert _message(lambda: parse_ids("", 5)).startswith("The ids are empty")
    long = "x" * 30
    assert repr(long[:20]) in _message(lambda: parse_ids(long, 5)) and repr(long[:21]) not in _message(
        lambda: parse_ids(long, 5))
    assert parse_ids(" ".join(["1"] * MAX_IDS), 5).shape == (MAX_IDS,)       # exactly the limit is fine
    msg = _message(lambda: parse_ids(" ".join(["1"] * (MAX_IDS + 1)), 5))
    assert f"{MAX_IDS + 1} given" in msg and f"at most {MAX_IDS}" in msg
    assert parse_ids("+3, 0", 5).tolist() == [3, 0]
    assert parse_ids("[4]", 5).tolist() == [4]


def test_vector_and_matrix_limits_are_inclusive_and_reported():
    assert parse_vector(",".join(["1"] * MAX_TYPED_ENTRIES)).shape == (MAX_TYPED_ENTRIES,)
    msg = _message(lambda: parse_vector(",".join(["1"] * (MAX_TYPED_ENTRIES + 1)), "Vector u"))
    assert msg.startswith("Vector u has 65 entries") and f"at most {MAX_TYPED_ENTRIES}" in msg
    assert parse_vector("1e6, -1e6").tolist() == [1e6, -1e6]                 # the bound itself is allowed
    assert "too large" in _message(lambda: parse_vector("1000001"))
    assert parse_matrix("\n".join(["1"] * 16)).shape == (16, 1)
    msg = _message(lambda: parse_matrix("\n".join(["1"] * 17), "The table"))
    assert msg.startswith("The table has 17 rows") and "at most 16" in msg
    msg = _message(lambda: parse_matrix("1, 2\n3", "The table"))
    assert "row 0: 2, row 1: 1" in msg
    long = "y" * 30
    assert repr(long[:20]) in _message(lambda: parse_vector(long)) and repr(long[:21]) not in _message(
        lambda: parse_vector(long))


@pytest.mark.parametrize("typed, value", [
    ("1e6", 1_000_000), ("12,345", 12_345), ("1 000 000", 1_000_000), ("1_000", 1000), ("2.5e3", 2500),
    ("  42 ", 42), ("+7", 7), (".5e1", 5), ("1.", 1), ("0012", 12), ("0", 0), ("1E6", 1_000_000),
])
def test_parse_whole_reads_what_people_type(typed, value):
    from lab_ui.widgets.parse import parse_whole

    assert parse_whole(typed, "The seed", 0, 10**6) == value


@pytest.mark.parametrize("typed, message", [
    ("", "The seed is empty. Type a whole number from 0 to 1,000,000."),
    ("x" * 41, "The seed: 'xxxxxxxxxxxxxxxxxxxx…' is too long for a number from 0 to 1,000,000."),
    ("1.5", "The seed: '1.5' is not a whole number. Type a whole number from 0 to 1,000,000."),
    ("1e-3", "The seed: '1e-3' is not a whole number. Type a whole number from 0 to 1,000,000."),
    ("abc", "The seed: 'abc' is not a number. Type a whole number from 0 to 1,000,000."),
    ("1,23", "The seed: '1,23' is not a number. Type a whole number from 0 to 1,000,000."),
    ("-5", "The seed: '-5' is outside the range 0 to 1,000,000."),
    ("1000001", "The seed: '1000001' is outside the range 0 to 1,000,000."),
    ("123456789012345678901", "The seed: '12345678901234567890…' is outside the range 0 to 1,000,000."),
])
def test_parse_whole_refusals_in_full(typed, message):
    from lab_ui.widgets.parse import InputError, parse_whole

    with pytest.raises(InputError) as err:
        parse_whole(typed, "The seed", 0, 10**6)
    assert str(err.value) == message


def test_parse_whole_takes_both_ends_of_the_range_and_forty_characters():
    from lab_ui.widgets.parse import parse_whole

    assert parse_whole("0", "n", 0, 5) == 0 and parse_whole("5", "n", 0, 5) == 5
    assert parse_whole(" " + "0" * 39 + "5", "n", 0, 5) == 5            # 40 characters once stripped


def test_vector_and_matrix_refusals_in_full():
    from lab_ui.widgets.parse import InputError, parse_ids, parse_matrix, parse_vector

    cases = [(lambda: parse_vector(""), "The vector is empty. Type numbers separated by commas, e.g. 1, 2, 2."),
             (lambda: parse_vector("1, x"), "The vector: 'x' is not a number. Use digits like 1, -0.5 or 2e-3."),
             (lambda: parse_vector("nan"), "The vector: 'nan' is not a finite number; nan and inf cannot be used."),
             (lambda: parse_vector("-inf"), "The vector: '-inf' is not a finite number; nan and inf cannot be used."),
             (lambda: parse_vector("2e6"), "The vector: '2e6' is too large; keep entries between -1,000,000 and "
                                           "1,000,000."),
             (lambda: parse_matrix(" \n "), "The matrix is empty. Type one row per line, e.g. 1, 2 on the first "
                                            "line."),
             (lambda: parse_matrix("1 2\n3"), "The matrix has rows of different lengths (row 0: 2, row 1: 1). "
                                              "Every row needs the same number of entries."),
             (lambda: parse_matrix("x"), "The matrix, row 0: 'x' is not a number. Use digits like 1, -0.5 or 2e-3."),
             (lambda: parse_ids("1.5", 5), "The ids: '1.5' is not a whole number."),
             (lambda: parse_ids("5", 5), "The ids: 5 is outside the vocabulary; ids run from 0 to 4."),
             (lambda: parse_ids("-1", 5), "The ids: -1 is outside the vocabulary; ids run from 0 to 4."),
             (lambda: parse_ids("X5", 10), "The ids: 'X5' is not a whole number."),
             (lambda: parse_vector("X"), "The vector: 'X' is not a number. Use digits like 1, -0.5 or 2e-3.")]
    for call, message in cases:
        with pytest.raises(InputError) as err:
            call()
        assert str(err.value) == message
    assert parse_vector("(1; 2)").tolist() == [1.0, 2.0] and parse_vector("[-0.5]").tolist() == [-0.5]
    assert parse_matrix(" 1 2 \n\n 3 4 ").tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert parse_ids("0, 4", 5).dtype == np.int64
