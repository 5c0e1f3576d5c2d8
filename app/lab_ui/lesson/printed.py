"""Tables as a handout prints them: every number as text on the page.

On screen a table is Streamlit's data grid, a scroll box drawn on a canvas: printed, it shows
its first ten rows or nothing, and its numbers are pictures, not text. In a handout
(``?handout=1``) every table goes through ``printed_parts`` instead and is drawn with
``st.table`` (plain HTML): all its rows up to ``PRINT_ROWS`` (a longer table, such as 3,001
steps of a loss curve, is thinned to evenly spaced rows with its first and last, and says so),
its columns in parts of at most ``PRINT_COLUMNS`` so that each part fits the width of a page,
every number written out with the decimals the screen shows.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import pandas as pd

PRINT_ROWS = 31
"""Most rows a printed table keeps: a 3,001-step loss curve prints every 100th step."""
PRINT_COLUMNS = 7
"""Most columns of numbers in one printed part (the label column comes with each part)."""
DECIMALS = 4
"""Decimals of a number whose column sets none (the screen's grid shows about as many)."""


class Printed(NamedTuple):
    parts: list[pd.DataFrame]      # the table's columns in page-wide parts, every cell a string
    note: str                      # what was thinned or split ("" when printed whole)


def thinned_rows(n: int, most: int = PRINT_ROWS) -> list[int]:
    """Evenly spaced row numbers of an ``n``-row table, the first and the last included, at most
    ``most`` (+1 when the last is off the spacing) of them.

    >>> thinned_rows(3001)[:3], thinned_rows(3001)[-1], len(thinned_rows(3001))
    ([0, 100, 200], 3000, 31)
    >>> thinned_rows(5)
    [0, 1, 2, 3, 4]
    """
    if n <= most:
        return list(range(n))
    step = math.ceil((n - 1) / (most - 1))
    rows = list(range(0, n, step))
    return rows if rows[-1] == n - 1 else rows + [n - 1]


def _format(column_config: dict | None, column: str) -> tuple[str, str | None]:
    """(header, printf format or None) of a column, from the screen's column_config."""
    conf = (column_config or {}).get(column)
    if isinstance(conf, str):                       # column_config={"col": "Header"}
        return conf, None
    if not isinstance(conf, dict):
        return column, None
    fmt = (conf.get("type_config") or {}).get("format")
    return conf.get("label") or column, fmt if isinstance(fmt, str) and "%" in fmt else None


def _cell(x, fmt: str | None) -> str:
    if isinstance(x, bool) or x is None:
        return "" if x is None else str(x)
    if isinstance(x, float) or (hasattr(x, "dtype") and getattr(x.dtype, "kind", "") == "f"):
        x = float(x)
        if math.isnan(x):
            return "nan"
        if fmt is not None:
            return fmt % x
        return f"{x:.{DECIMALS}f}".rstrip("0").rstrip(".") if x != int(x) else f"{int(x):,}"
    if isinstance(x, int) or (hasattr(x, "dtype") and getattr(x.dtype, "kind", "") in "iu"):
        return f"{int(x):,}" if fmt is None else fmt % x
    return str(x)


def printed_parts(data, hide_index: bool | None = None, column_config: dict | None = None) -> Printed:
    """``data`` (anything ``pd.DataFrame`` takes) as the handout prints it: its row labels as a
    first column (unless hidden, or a plain 0, 1, 2, ... count that ``hide_index`` left out),
    rows thinned to ``PRINT_ROWS``, columns split into parts of ``PRINT_COLUMNS`` numbers, each
    part led by the first column when that holds labels (words, names), every cell as text."""
    df = pd.DataFrame(data)
    plain_count = isinstance(df.index, pd.RangeIndex) and df.index.start == 0 and df.index.step == 1
    if not (hide_index or (hide_index is None and plain_count)):
        df = df.reset_index(names=df.index.name or "")
    n = len(df)
    rows = thinned_rows(n)
    df = df.iloc[rows]
    cells = pd.DataFrame({_format(column_config, str(c))[0]:
                          [_cell(x, _format(column_config, str(c))[1]) for x in df[c].tolist()]
                          for c in df.columns})
    empty = [c for c in cells.columns if not any(v not in ("", "nan", "None") for v in cells[c])]
    cells = cells.drop(columns=empty)                 # a column with no value yet prints nothing
    lead = ([cells.columns[0]] if len(cells.columns) and cells.columns[0] in df.columns
            and not pd.api.types.is_numeric_dtype(df[cells.columns[0]]) else [])
    rest = [c for c in cells.columns if c not in lead]
    parts = [cells[lead + rest[i:i + PRINT_COLUMNS]] for i in range(0, len(rest), PRINT_COLUMNS)] or [cells]
    notes = []
    if len(rows) < n:
        notes.append(f"Printed: {len(rows):,} of its {n:,} rows, one in every {rows[1] - rows[0]:,} "
                     "with the first and the last; the screen's table has them all")
    if len(parts) > 1:
        notes.append(f"its {len(rest):,} columns in {len(parts)} parts of at most {PRINT_COLUMNS}"
                     + (f", each led by “{lead[0]}”" if lead and lead[0] else ""))
    if empty and n:
        notes.append("left out, empty here: " + ", ".join(f"“{c}”" for c in empty))
    note = "; ".join(notes)
    return Printed(parts, (note[0].upper() + note[1:] + ".") if note else "")


def show(data, hide_index: bool | None = None, column_config: dict | None = None) -> None:
    """Draw ``printed_parts`` of ``data``: its note, then each part as a plain table."""
    import streamlit as st
    done = printed_parts(data, hide_index, column_config)
    if done.note:
        st.caption(done.note)
    for part in done.parts:
        st.table(part, hide_index=True)
