"""Tables as a handout prints them (app/lab_ui/lesson/printed.py): every row up to the limit, long
tables thinned evenly with their first and last rows, wide ones split with their label column,
numbers written with the screen's decimals."""
import numpy as np
import pandas as pd
import pytest
import streamlit as st

from lab_ui.lesson.printed import PRINT_COLUMNS, PRINT_ROWS, printed_parts, thinned_rows


@pytest.mark.parametrize("n", [0, 1, 2, PRINT_ROWS, PRINT_ROWS + 1, 126, 301, 3001, 5001])
def test_thinned_rows_are_evenly_spaced_with_the_first_and_last(n):
    rows = thinned_rows(n)
    assert rows == sorted(set(rows)) and len(rows) <= PRINT_ROWS + 1
    if n:
        assert rows[0] == 0 and rows[-1] == n - 1
    if n <= PRINT_ROWS:
        assert rows == list(range(n))
    else:
        gaps = set(np.diff(rows[:-1]))
        assert len(gaps) == 1 and rows[-1] - rows[-2] <= gaps.pop()


def test_a_loss_curve_prints_every_100th_step_and_says_so():
    losses = np.linspace(2.487, 1.713, 3001)
    done = printed_parts(pd.DataFrame({"step": np.arange(3001), "loss": losses}), hide_index=True)
    (part,) = done.parts
    assert list(part["step"]) == [f"{s:,}" for s in range(0, 3001, 100)]
    assert part["loss"].iloc[0] == "2.487" and part["loss"].iloc[-1] == "1.713"
    assert done.note.startswith("Printed: 31 of its 3,001 rows, one in every 100")


def test_a_wide_table_is_split_into_parts_led_by_its_word_column():
    words = [f"w{i}" for i in range(12)]
    S = pd.DataFrame(np.eye(12), index=words, columns=words).reset_index(names="word")
    done = printed_parts(S, hide_index=True)
    assert [list(p.columns) for p in done.parts] == [["word", *words[:PRINT_COLUMNS]], ["word", *words[PRINT_COLUMNS:]]]
    assert all(list(p["word"]) == words for p in done.parts)
    assert "12 columns in 2 parts of at most 7, each led by “word”" in done.note
    assert done.parts[0].loc[0, "w0"] == "1" and done.parts[0].loc[1, "w0"] == "0"


def test_the_screens_formats_headers_and_row_labels_are_kept():
    df = pd.DataFrame({"seconds": [0.12345, 2.0], "n": [50257, 3]}, index=["softmax", "negative sampling"])
    config = {"seconds": st.column_config.NumberColumn("time (s)", format="%.3f")}
    (part,) = printed_parts(df, column_config=config).parts
    assert list(part.columns) == ["", "time (s)", "n"]
    assert list(part.iloc[:, 0]) == ["softmax", "negative sampling"]
    assert list(part["time (s)"]) == ["0.123", "2.000"] and list(part["n"]) == ["50,257", "3"]
    (hidden,) = printed_parts(df, hide_index=True).parts
    assert list(hidden.columns) == ["seconds", "n"] and list(hidden["seconds"]) == ["0.1235", "2"]


def test_a_column_with_no_value_yet_is_left_out_and_named():
    df = pd.DataFrame({"word": ["cat", "dog"], "score": [0.5, 0.25], "gradient": [None, None]})
    done = printed_parts(df, hide_index=True)
    (part,) = done.parts
    assert list(part.columns) == ["word", "score"] and "eft out, empty here: “gradient”" in done.note
