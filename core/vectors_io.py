"""Reading a table of vectors back in: the Embedding Projector's ``vectors.tsv`` and
``metadata.tsv`` (the pair ``core.export.projector_tsv`` writes).

``vectors.tsv``: one row per word, numbers separated by tabs, no header.
``metadata.tsv``: one label per line; with several tab-separated columns the first line is a
header and the first column holds the word (the Projector's own convention).

Every problem is refused with a message that says where it is (line and column), so a
teacher's or student's own file gets a clear answer instead of a wrong picture.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.checks import MAX_ROWS    # words (cosine matrices are rows x rows)

MAX_BYTES = 5_000_000        # each file
MAX_DIMS = 1_024             # numbers per row


class VectorsError(ValueError):
    """A file that cannot be read as a table of vectors; the message says why and where."""


@dataclass(frozen=True)
class Vectors:
    E: np.ndarray            # (n, d) float64
    words: list[str]         # n labels; repeated labels get " (2)", " (3)" ... so each is unique
    renamed: int = 0         # how many labels were repeated and got a number


def _text(data: str | bytes, name: str) -> str:
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise VectorsError(f"{name} is {len(data):,} bytes; the limit is {MAX_BYTES:,}.")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as err:
            raise VectorsError(f"{name} is not UTF-8 text (byte {err.start:,} cannot be read).") from None
    if len(data) > MAX_BYTES:
        raise VectorsError(f"{name} is {len(data):,} characters; the limit is {MAX_BYTES:,}.")
    return data.replace("\r\n", "\n").replace("\r", "\n")


def read_vectors(data: str | bytes) -> np.ndarray:
    """``vectors.tsv`` as an (n, d) array.

    >>> read_vectors("1\\t2\\n3\\t4\\n")
    array([[1., 2.],
           [3., 4.]])
    """
    lines = [ln for ln in _text(data, "vectors.tsv").split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise VectorsError("vectors.tsv is empty.")
    if len(lines) > MAX_ROWS:
        raise VectorsError(f"vectors.tsv has {len(lines):,} rows; the limit is {MAX_ROWS:,}.")
    rows: list[list[float]] = []
    width = None
    for i, line in enumerate(lines, start=1):
        cells = line.strip().split("\t")
        if width is None:
            width = len(cells)
            if width > MAX_DIMS:
                raise VectorsError(f"vectors.tsv has {width:,} numbers per row; the limit is {MAX_DIMS:,}.")
        if len(cells) != width:
            raise VectorsError(f"vectors.tsv line {i} has {len(cells)} numbers, but line 1 has {width}: "
                               "every row needs the same count (ragged rows).")
        row = []
        for j, cell in enumerate(cells, start=1):
            try:
                x = float(cell)
            except ValueError:
                shown = cell if len(cell) <= 20 else cell[:20] + "..."
                raise VectorsError(f"vectors.tsv line {i}, column {j}: {shown!r} is not a number.") from None
            if not math.isfinite(x):
                raise VectorsError(f"vectors.tsv line {i}, column {j}: {cell!r} is not a finite number.")
            row.append(x)
        rows.append(row)
    return np.array(rows, dtype=float)


def read_metadata(data: str | bytes) -> list[str]:
    """The word of each row: one per line, or the first column under a header when the file
    has several tab-separated columns."""
    lines = _text(data, "metadata.tsv").split("\n")
    while lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise VectorsError("metadata.tsv is empty.")
    if "\t" in lines[0]:
        lines = [ln.split("\t")[0] for ln in lines[1:]]      # a header line, then rows
    return [ln.strip() for ln in lines]


def read_projector(vectors: str | bytes, metadata: str | bytes | None = None) -> Vectors:
    """Both files as one table. Without metadata the rows are called "row 0", "row 1", ...

    >>> v = read_projector("1\\t0\\n0\\t1\\n", "cat\\ncat\\n")
    >>> v.words, v.renamed
    (['cat', 'cat (2)'], 1)
    """
    E = read_vectors(vectors)
    if metadata is None:
        return Vectors(E, [f"row {i}" for i in range(len(E))])
    words = read_metadata(metadata)
    if len(words) != len(E):
        raise VectorsError(f"metadata.tsv has {len(words):,} labels but vectors.tsv has {len(E):,} rows: "
                           "they must match one to one.")
    seen: dict[str, int] = {}
    unique, renamed = [], 0
    for w in words:
        w = w or "(blank)"
        seen[w] = seen.get(w, 0) + 1
        if seen[w] > 1:
            renamed += 1
            unique.append(f"{w} ({seen[w]})")
        else:
            unique.append(w)
    return Vectors(E, unique, renamed)
