"""core.senses: which meaning an ambiguous word's one row leans to, read from its cosines."""
import pytest

from core.generated import AmbiguousPosition
from core.senses import TIE, sense_lean


def position(river, money, **others):
    return AmbiguousPosition("bank", "river", "money", river, money, 0.0, 0.0,
                             {"river": river, "money": money, **others}, {})


@pytest.mark.parametrize("river, money, leans", [(0.91, 0.74, "river"), (0.30, 0.39, "money"),
                                                 (0.80, 0.78, None), (0.5, 0.5 + 0.8 * TIE, None),
                                                 (0.5, 0.5 + 2 * TIE, "money")])
def test_the_lean_follows_the_gap_and_the_tie(river, money, leans):
    s = sense_lean(position(river, money, verbs=0.88))
    assert s.leans == leans
    assert s.gap == pytest.approx(river - money)
    assert (s.sense_a, s.sense_b, s.word, s.tie) == ("river", "money", "bank", TIE)


def test_the_ranking_is_every_group_closest_first():
    s = sense_lean(position(0.91, 0.74, verbs=0.88, food=-0.2))
    assert s.ranking == [("river", 0.91), ("verbs", 0.88), ("money", 0.74), ("food", -0.2)]
    assert s.nearest == "river"
    assert sense_lean(position(0.1, 0.2, verbs=0.9)).nearest == "verbs"     # a sense need not be nearest


def test_a_wider_tie_calls_more_of_them_even_and_a_bad_tie_is_refused():
    assert sense_lean(position(0.91, 0.74), tie=0.2).leans is None
    with pytest.raises(ValueError):
        sense_lean(position(0.91, 0.74), tie=-0.1)


@pytest.mark.parametrize("river, money, tie, leans", [
    (0.75, 0.5, 0.25, None), (0.5, 0.75, 0.25, None),            # a gap of exactly the tie is no lean
    (0.75, 0.5, 0.125, "river"), (0.5, 0.75, 0.125, "money"),     # (binary fractions: exact gaps)
    (0.5, 0.5, 0.0, None), (0.5, 0.25, 0.0, "river"), (0.25, 0.5, 0.0, "money")])
def test_the_tie_itself_is_not_a_lean_on_either_side(river, money, tie, leans):
    """``leans`` needs a gap strictly beyond the tie: gap == +tie and gap == -tie read as even."""
    s = sense_lean(position(river, money), tie=tie)
    assert s.gap == river - money and s.tie == tie
    assert s.leans == leans


def test_the_refused_tie_is_named_in_the_message():
    with pytest.raises(ValueError, match=r"^tie must be at least 0; got -0\.1\.$"):
        sense_lean(position(0.91, 0.74), tie=-0.1)
    with pytest.raises(TypeError, match=r"^tie must be a number, not str\.$"):
        sense_lean(position(0.91, 0.74), tie="0.1")
