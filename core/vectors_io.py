"""Reading a table of vectors back in: the Embedding Projector's ``vectors.tsv`` and
``metadata.tsv`` (the pair ``core.export.projector_tsv`` writes).

``vectors.tsv``: one row per word, numbers separated by tabs, no header.
``metadata.tsv``: one label per line; with several tab-separated columns the first line is a
header and the first column holds the word (the Projector's own convention).

Every problem is refused with a message that says where it is (line and column), so a
teacher's or student's own file gets a clear answer instead of a wrong picture. The bytes
are read as UTF-8 or UTF-16 (core.textfile); labels are made unique and typeable
(core.labels).

Numbers far from 1 are scaled. A cosine needs squares and sums of squares: entries of
1e155 square to 1e310, past float64's largest number (about 1.8e308), and entries of 1e-170
square to 0. When the largest entry lies outside ``[SMALLEST, LARGEST]``, every number is
divided by it: ``x / m`` has the same directions, so cosines, neighbours and the shape of
every picture stay the same, and its squares stay finite.

A row of zeros has no direction (its cosine is 0 / 0); a table whose rows all point the
same way has every cosine 1 and no neighbours to rank. ``directions`` names both.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.checks import MAX_ROWS    # words (cosine matrices are rows x rows)
from core.labels import clean_label, unique_labels
from core.similarity import normalize_rows
from core.textfile import NotTextError, decode_text

MAX_BYTES = 5_000_000        # each file
MAX_DIMS = 1_024             # numbers per row
MAX_CELL = 64                # characters in one number (-1.2345678901234567e-308 has 24)
SHOWN = 20                   # characters of a cell quoted back in a message
MAX_LABEL = 160              # characters in a label: three fit the Limits view's 500-character boxes
LARGEST = 1e100              # entries up to this keep their size (5,000 x 1,024 squares stay finite)
SMALLEST = 1e-100            # ... and down to this (their squares stay above 0)


class VectorsError(ValueError):
    """A file that cannot be read as a table of vectors; the message says why and where."""


@dataclass(frozen=True)
class Vectors:
    E: np.ndarray            # (n, d) float64, divided by ``scale``
    words: list[str]         # n labels, unique (core.labels.unique_labels)
    renamed: int = 0         # how many labels were repeated and got a number
    scale: float = 1.0       # every number was divided by this (1: as read)


def _text(data: str | bytes, name: str) -> str:
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise VectorsError(f"{name} is {len(data):,} bytes; the limit is {MAX_BYTES:,}.")
        try:
            data, _ = decode_text(data, name)
        except NotTextError as err:
            raise VectorsError(str(err)) from None
    if len(data) > MAX_BYTES:
        raise VectorsError(f"{name} is {len(data):,} characters; the limit is {MAX_BYTES:,}.")
    return data.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")


def _quoted(cell: str) -> str:
    """A cell as a message quotes it: at most SHOWN characters."""
    return repr(cell if len(cell) <= SHOWN else cell[:SHOWN] + "...")


def _number(cell: str, i: int, j: int) -> float:
    """Cell (i, j) as a finite number; its length is checked before it is read or quoted."""
    where = f"line {i}, column {j}"
    if not cell:
        raise VectorsError(f"vectors.tsv {where} is empty (two tabs in a row, or a tab at the start "
                           "or end of the line).")
    if len(cell) > MAX_CELL:
        raise VectorsError(f"vectors.tsv {where}: {_quoted(cell)} is {len(cell):,} characters long, too "
                           f"long for a number (at most {MAX_CELL}).")
    try:
        x = float(cell)
    except ValueError:
        raise VectorsError(f"vectors.tsv {where}: {_quoted(cell)} is not a number.") from None
    if not math.isfinite(x):
        raise VectorsError(f"vectors.tsv {where}: {_quoted(cell)} is not a finite number.")
    return x


def _lines(text: str, name: str, what: str) -> list[str]:
    """The text's lines, at most MAX_ROWS of them (blank lines after the last are not counted);
    the text is split only that far, so a file of 5 million line ends costs no 5 million strings."""
    lines = text.split("\n", MAX_ROWS + 1)                   # at most MAX_ROWS + 2 pieces
    if len(lines) > MAX_ROWS + 1:
        rest = lines.pop()                                   # everything after line MAX_ROWS + 1
        if rest.strip():
            n = text.rstrip().count("\n") + 1
            raise VectorsError(f"{name} has {n:,} {what}; the limit is {MAX_ROWS:,}.")
    return lines


def read_vectors(data: str | bytes) -> np.ndarray:
    """``vectors.tsv`` as an (n, d) array.

    >>> read_vectors("1\\t2\\n3\\t4\\n")
    array([[1., 2.],
           [3., 4.]])
    """
    lines = _lines(_text(data, "vectors.tsv"), "vectors.tsv", "rows")
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise VectorsError("vectors.tsv is empty.")
    if len(lines) > MAX_ROWS:
        raise VectorsError(f"vectors.tsv has {len(lines):,} rows; the limit is {MAX_ROWS:,}.")
    rows: list[list[float]] = []
    width = lines[0].count("\t") + 1
    if width > MAX_DIMS:
        raise VectorsError(f"vectors.tsv has {width:,} numbers per row; the limit is {MAX_DIMS:,}.")
    for i, line in enumerate(lines, start=1):
        if not line.strip():
            raise VectorsError(f"vectors.tsv line {i} is empty: every line up to the last needs its numbers.")
        if line.count("\t") + 1 != width:
            raise VectorsError(f"vectors.tsv line {i} has {line.count(chr(9)) + 1:,} numbers, but line 1 has "
                               f"{width:,}: every row needs the same count (ragged rows).")
        cells = line.split("\t")
        try:                                                 # the quick way, for a row that is right
            row = [float(cell) for cell in cells] if max(map(len, cells)) <= MAX_CELL else None
        except ValueError:
            row = None
        if row is None or not all(map(math.isfinite, row)):  # the careful way: which cell, and why
            row = [_number(cell.strip(), i, j) for j, cell in enumerate(cells, start=1)]
        rows.append(row)
    return np.array(rows, dtype=float)


def read_metadata(data: str | bytes, rows: int | None = None) -> list[str]:
    """The word of each row: one per line, or the first column under a header when the file
    has several tab-separated columns. Every line is a label (a blank one too); blank lines
    past ``rows`` labels at the end are dropped.

    >>> read_metadata("cat\\n\\ndog\\n\\n\\n", rows=3)
    ['cat', '', 'dog']
    """
    lines = _lines(_text(data, "metadata.tsv"), "metadata.tsv", "labels")
    if lines[-1] == "":
        lines.pop()                                         # the last line's own line end
    if not any(ln.strip() for ln in lines):
        raise VectorsError("metadata.tsv is empty.")
    columns = lines[0].count("\t") + 1
    start = 1 if columns > 1 else 0                         # several columns: line 1 is a header
    for i, line in enumerate(lines[start:], start=start + 1):
        found = line.count("\t") + 1
        if found != columns and line.strip():
            raise VectorsError(
                f"metadata.tsv line {i} has {found} columns, but " +
                (f"its header (line 1) has {columns}: with several columns, every line needs the "
                 "header's columns." if columns > 1 else
                 f"line 1 has one: the tab at column {line.index(chr(9)) + 1} starts a second column "
                 "(with several columns, the first line must be a header)."))
    labels = [line.split("\t")[0].strip() for line in lines[start:]]
    for i, label in enumerate(labels, start=start + 1):
        if len(label) > MAX_LABEL:
            raise VectorsError(f"metadata.tsv line {i}: the label {_quoted(label)} is {len(label):,} characters "
                               f"long; at most {MAX_LABEL} (a label is typed in the sentence boxes).")
    while rows is not None and len(labels) > rows and not labels[-1]:
        labels.pop()                                        # blank lines after the last label
    return labels


def scaled(E: np.ndarray) -> tuple[np.ndarray, float]:
    """E divided by its largest magnitude m when m is outside [SMALLEST, LARGEST], and m
    (1.0 when E is kept as it is).

    >>> scaled(np.array([[1e200, -2e200]]))
    (array([[ 0.5, -1. ]]), 2e+200)
    """
    m = float(np.abs(E).max()) if E.size else 0.0
    if m == 0.0 or SMALLEST <= m <= LARGEST:
        return E, 1.0
    return E / m, m                                          # (n, d) largest magnitude 1


def read_projector(vectors: str | bytes, metadata: str | bytes | None = None) -> Vectors:
    """Both files as one table. Without metadata the rows are called "row 0", "row 1", ...

    >>> v = read_projector("1\\t0\\n0\\t1\\n1\\t1\\n", "cat\\ncat\\ncat (2)\\n")
    >>> v.words, v.renamed
    (['cat', 'cat (3)', 'cat (2)'], 1)
    """
    E, scale = scaled(read_vectors(vectors))
    if metadata is None:
        return Vectors(E, [f"row {i}" for i in range(len(E))], scale=scale)
    words = read_metadata(metadata, rows=len(E))
    if len(words) != len(E):
        raise VectorsError(f"metadata.tsv has {len(words):,} labels but vectors.tsv has {len(E):,} rows: "
                           "they must match one to one.")
    unique, renamed = unique_labels([clean_label(w) for w in words])
    return Vectors(E, unique, renamed, scale)


@dataclass(frozen=True)
class Directions:
    zero: list[int]          # rows whose numbers are all 0: no direction, so no cosine
    one_way: bool            # the other rows all point the same way: every cosine between them is 1


def directions(E: np.ndarray) -> Directions:
    """Which rows have no direction, and whether the rest all share one.

    >>> directions(np.array([[0.0, 0], [1, 2], [2, 4]]))
    Directions(zero=[0], one_way=True)
    """
    zero = np.flatnonzero(~np.any(E != 0, axis=1))              # (z,) all-zero rows
    U = normalize_rows(np.delete(E, zero, axis=0))              # (n - z, d) unit rows
    spread = float(np.ptp(U, axis=0).max()) if len(U) else 0.0  # largest difference between two rows
    return Directions([int(i) for i in zero], spread <= 1e-9)


def with_direction(table: Vectors, zero: list[int]) -> Vectors:
    """The table without its rows of zeros (they have no cosine, so no neighbours)."""
    dropped = set(zero)
    keep = [i for i in range(len(table.words)) if i not in dropped]
    return Vectors(table.E[keep], [table.words[i] for i in keep], table.renamed, table.scale)
