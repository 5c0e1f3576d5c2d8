"""Labels a student can type: one name per row, no two alike, and a typed sentence read
back as rows.

* **Unique for good.** A label seen again gets the first free number: ``cat``, ``cat`` ->
  ``cat``, ``cat (2)``. "Free" means no other label of the table has that name, so
  ``cat, cat, cat (2)`` becomes ``cat, cat (3), cat (2)``: every row keeps a name of its own.
* **Typed as it is shown.** A label is stripped at both ends and every run of spaces
  inside it becomes one space; a blank label is shown as ``(blank)``.
* **Sentences.** Labels may hold spaces (``New York``, ``cat (2)``, ``row 0``), so a
  sentence is not split at every space: at each place the longest run of words that is
  a label is taken (``New York is`` -> ``New York``, ``is``).
"""
from __future__ import annotations

BLANK = "(blank)"


def clean_label(label: str) -> str:
    """A label as a student can type it: outer spaces dropped, inner runs of spaces made one.

    >>> clean_label("  New \\t York "), clean_label("   ")
    ('New York', '(blank)')
    """
    return " ".join(label.split()) or BLANK


def unique_labels(labels: list[str]) -> tuple[list[str], int]:
    """The labels with every repeat renamed ``label (n)``, n the first number no label has,
    and how many were renamed.

    >>> unique_labels(["cat", "cat", "cat (2)"])
    (['cat', 'cat (3)', 'cat (2)'], 1)
    """
    taken = set(labels)                    # every name in the table, so no new name copies one
    first: set[str] = set()                # labels whose first row has been named
    next_n: dict[str, int] = {}            # label -> the next number to try
    unique, renamed = [], 0
    for label in labels:
        if label not in first:
            first.add(label)
            unique.append(label)
            continue
        n = next_n.get(label, 2)
        while f"{label} ({n})" in taken:
            n += 1
        name = f"{label} ({n})"
        taken.add(name)
        next_n[label] = n + 1
        unique.append(name)
        renamed += 1
    return unique, renamed


def read_sentence(sentence: str, labels: list[str]) -> tuple[list[int], list[str]]:
    """The rows a typed sentence names (longest label first at each place) and the words
    that name none.

    >>> read_sentence("New York is big", ["big", "New York", "is", "New"])
    ([1, 2, 0], [])
    >>> read_sentence("cat (2) dog", ["cat", "cat (2)"])
    ([1], ['dog'])
    """
    index = {label: i for i, label in enumerate(labels)}
    longest = max((len(label.split(" ")) for label in labels), default=1)   # words in a label
    words = sentence.split()
    rows, unknown, at = [], [], 0
    while at < len(words):
        for span in range(min(longest, len(words) - at), 0, -1):
            row = index.get(" ".join(words[at:at + span]))
            if row is not None:
                rows.append(row)
                at += span
                break
        else:
            unknown.append(words[at])
            at += 1
    return rows, unknown
