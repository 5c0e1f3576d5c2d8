"""Settings and tables of the Analogies screen (lab_ui/screens/analogies.py)."""
from __future__ import annotations

import pandas as pd

from core.relations import METHODS, RELATIONS, Analogy, SideSplit
from core.skipgram import SkipGramConfig

# Skip-gram settings that learn the made-up text well: window 1, so a word's neighbours are its
# role word and its identity word rather than the next sentence's words.
SETTINGS = SkipGramConfig(d_model=16, lr=1.0, steps=1500)
ANALOGY_WINDOW = 1
ANALOGY_WINDOWS = [1, 2, 3]
ANALOGY_WIDTHS = [2, 4, 8, 16, 32]


def group_of(word: str) -> str:
    """Which side of which relation a word of the made-up text is on ("capital", "female", ...),
    or "other word" for the role and identity words."""
    for name, (_, _, pairs) in RELATIONS.items():
        first, second = name.split(" - ")
        for a, b, _ in pairs:
            if word in (a, b):
                return first if word == a else second
    return "other word"


def relation_of(word: str) -> str:
    """The relation a word of the made-up text belongs to."""
    return next((name for name, (_, _, pairs) in RELATIONS.items() for a, b, _ in pairs if word in (a, b)),
                "other word")


GROUP_ORDER = [side for name in RELATIONS for side in name.split(" - ")] + ["other word"]


def accuracy_table(scores: dict[str, dict[str, tuple[int, int]]]) -> pd.DataFrame:
    """One row per question set, one column per method: "right of asked"."""
    return pd.DataFrame([{"questions": name, **{m: f"{r} of {n}" for m, (r, n) in by_method.items()}}
                         for name, by_method in scores.items()], columns=["questions", *METHODS])


def answers_table(found: Analogy) -> pd.DataFrame:
    return pd.DataFrame([{"rank": i + 1, "word": w, "cosine": round(cos, 4)}
                         for i, (w, cos) in enumerate(found.answers)])


def split_sentence(split: SideSplit | None, a: str, b: str) -> str:
    """What the strip chart shows about the two sides of the relation a and b stand on, in words
    built from ``core.relations.side_split`` ("" when a and b are not on opposite sides of one)."""
    if split is None:
        return ""
    s = split
    if round(abs(s.gap), 2) == 0:
        gap = "on average the two groups sit at the same place"
    else:
        gap = (f"on average the {s.towards} words sit {abs(s.gap):.2f} "
               f"{'further along' if s.gap > 0 else 'less far along'} than the {s.away} words")
    numbers = (f"{gap}, while the words of each group spread by about {s.spread:.2f} (standard deviation); "
               f"{s.ordered} of {s.pairs} pairs have the {s.towards} word further along")
    left_out = " (pairs holding the two words that set the direction are left out)" if s.pairs < 6 else ""
    if s.apart:
        return (f"The {s.away} and {s.towards} words **separate** along {a} → {b}: every {s.towards} word lies "
                f"further along than every {s.away} word. In numbers: {numbers}{left_out}.")
    if s.ordered == s.pairs:
        return (f"The {s.towards} words lie further along than their partners, but the two groups "
                f"**overlap**: no single point on the line splits them. In numbers: {numbers}{left_out}.")
    return (f"The {s.away} and {s.towards} words **do not separate** along {a} → {b}: {numbers}{left_out}. "
            f"The scores table above measures something else (whether b - a + c lands on the right word), "
            f"so a full score there does not mean this direction splits the two groups.")
