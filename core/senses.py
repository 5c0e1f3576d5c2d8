"""Which meaning does an ambiguous word's single row lean to?

A static table gives ``bank`` one row for the river bank and the money bank.
``core.generated.ambiguous_position`` measures that row's cosine to each word group's
centre; this module reads those cosines as a verdict, so a screen's sentence about the
row comes from the numbers and not from what we expect to see::

    gap   = cos(row, centre of sense a) - cos(row, centre of sense b)
    leans = a        if gap >  tie
            b        if gap < -tie
            neither  otherwise (the row is about as close to both)

``tie`` is the smallest gap called a lean: 0.05 by default, a cosine difference of the
order that changes from one seed to the next on the generated text.
"""
from __future__ import annotations

from dataclasses import dataclass

from core.checks import number
from core.generated import AmbiguousPosition

TIE = 0.05


@dataclass(frozen=True)
class SenseLean:
    word: str
    ranking: list[tuple[str, float]]    # every group and the row's cosine to its centre, closest first
    sense_a: str
    sense_b: str
    gap: float                          # cos to sense a's centre minus cos to sense b's centre
    leans: str | None                   # the sense it is clearly closer to; None within ``tie``
    tie: float

    @property
    def nearest(self) -> str:
        """The group whose centre the row is closest to (it need not be one of the two senses)."""
        return self.ranking[0][0]


def sense_lean(position: AmbiguousPosition, tie: float = TIE) -> SenseLean:
    """The verdict of the module docstring for one ``ambiguous_position``.

    >>> from core.generated import AmbiguousPosition
    >>> p = AmbiguousPosition("bank", "river", "money", 0.9, 0.7, 0.8, 0.6,
    ...                       {"river": 0.9, "verbs": 0.8, "money": 0.7}, {})
    >>> s = sense_lean(p)
    >>> s.leans, s.nearest, round(s.gap, 2), [g for g, _ in s.ranking]
    ('river', 'river', 0.2, ['river', 'verbs', 'money'])
    """
    tie = number(tie, "tie", low=0.0)
    ranking = sorted(position.to_centroid.items(), key=lambda kv: -kv[1])     # stable for equal cosines
    gap = position.centroid_a - position.centroid_b
    leans = position.group_a if gap > tie else position.group_b if gap < -tie else None
    return SenseLean(position.word, [(g, float(c)) for g, c in ranking], position.group_a, position.group_b,
                     float(gap), leans, tie)
