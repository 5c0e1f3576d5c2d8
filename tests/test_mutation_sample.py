"""tools/mutation_sample.py: the seeded draw and the sample's score with its interval."""
import pytest

from tools.mutation_sample import draw, module_of, score, wilson

NAMES = [f"app.lab_ui.m{i % 3}.x_f__mutmut_{i}" for i in range(1, 61)] + ["core.a.x_g__mutmut_1"]


def test_the_draw_is_fixed_by_its_seed_and_stays_in_the_pattern():
    a = draw(NAMES, "app.lab_ui.*", 10, seed=5)
    assert a == draw(list(reversed(NAMES)), "app.lab_ui.*", 10, seed=5)   # order of the list does not matter
    assert a != draw(NAMES, "app.lab_ui.*", 10, seed=6)
    assert len(set(a)) == 10 and all(n.startswith("app.lab_ui.") for n in a)
    with pytest.raises(SystemExit):
        draw(NAMES, "core.*", 2, seed=5)


def test_wilson_interval_matches_its_formula_and_holds_the_share():
    lo, hi = wilson(90, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.8256, 0.9448)
    lo, hi = wilson(100, 100)
    assert 0.96 < lo < 1.0 and hi == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_score_counts_timeouts_as_killed_and_leaves_unjudged_out():
    status = {"app.lab_ui.a.x_f__mutmut_1": "killed", "app.lab_ui.a.x_f__mutmut_2": "timeout",
              "app.lab_ui.b.xǁKǁg__mutmut_1": "survived", "app.lab_ui.b.x_h__mutmut_1": "not checked"}
    lines = score(list(status), status)
    assert lines[0].startswith("sample: 4 mutants, 3 judged, 2 killed -> 66.7%")
    assert "  app.lab_ui.b.xǁKǁg__mutmut_1  [survived]" in lines
    assert module_of("app.lab_ui.b.xǁKǁg__mutmut_1") == "app.lab_ui.b"
