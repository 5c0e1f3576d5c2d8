"""Large numbers written for a class to read: counts in words, bytes in binary units."""
from __future__ import annotations


def count_in_words(n: float) -> str:
    """A count in words a class can read: 38.6 million, 1.56 billion (three significant digits).

    >>> count_in_words(38_597_376), count_in_words(617_558_016), count_in_words(175e9)
    ('38.6 million', '618 million', '175 billion')
    """
    shown = abs(float(f"{n:.3g}"))          # the unit of the rounded count: 999,999 is 1 million
    for size, word in ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"), (1e3, "thousand")):
        if shown >= size:
            return f"{n / size:.3g} {word}"
    return f"{n:,.0f}"


def byte_size(n: float) -> str:
    """Bytes in binary units (1 KiB = 1,024 bytes), one decimal.

    >>> byte_size(154_389_504), byte_size(1023)
    ('147.2 MiB', '1,023 B')
    """
    for size, unit in ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB")):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:,.0f} B"
