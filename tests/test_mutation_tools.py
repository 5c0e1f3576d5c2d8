"""The rules that decide which tests judge a mutant (tests/mutmut_plugin.py, docs/quality.md, "Mutation testing: what is measured")."""
from tests.mutmut_plugin import LAB_UI_SCREEN_TESTS, _keep

CAPTION = "app.lab_ui.widgets.captions.x_number__mutmut_3"
CORE = "core.skipgram.x_train__mutmut_1"
UNLISTED = "app.lab_ui.not_in_the_table.x_f__mutmut_1"     # a module added later, before its entry


def test_core_mutants_are_judged_without_screen_tests():
    assert _keep("tests/test_skipgram.py::test_x", CORE)
    assert _keep("tests/robust/test_budget.py::test_x", CORE)
    assert not _keep("tests/app/test_train.py::test_x", CORE)
    assert not _keep("tests/robust/test_bad_input_app.py::test_x", CORE)
    assert not _keep("tests/robust/test_issue19_screens.py::test_x", CORE)
    assert not _keep("tests/robust/test_budget.py::test_reference_run_is_not_touched_by_the_budget", CORE)


def test_ui_mutants_are_judged_by_unit_tests_and_their_modules_screens_only():
    assert _keep("tests/test_caption_rules.py::test_x", CAPTION)
    assert _keep("tests/app/test_captions.py::test_x", CAPTION)
    assert not _keep("tests/app/test_train.py::test_x", CAPTION)
    assert not _keep("tests/robust/test_budget.py::test_train_at_the_sliders_maxima_is_scaled_down", CAPTION)
    assert _keep("tests/robust/test_budget.py::test_x", CAPTION)                  # not a screen run
    assert not _keep("tests/test_jobs.py::test_a_long_run_on_the_train_screen_takes_a_slot", CAPTION)
    assert _keep("tests/test_jobs.py::test_slots_need_at_least_one", CAPTION)
    assert _keep("tests/app/test_train.py::test_x", UNLISTED)      # a module not in the table keeps all


def test_the_screen_words_approval_judges_every_ui_mutant_but_not_the_core():
    words = "tests/app/test_screen_words.py::test_screen_words[train-export]"
    twice = "tests/app/test_screen_words.py::test_descriptions_are_deterministic[train]"
    for module in LAB_UI_SCREEN_TESTS:
        assert _keep(words, f"app.lab_ui.{module}.x_f__mutmut_1"), module
        assert not _keep(twice, f"app.lab_ui.{module}.x_f__mutmut_1"), module
    assert not _keep(words, CORE)


def test_every_listed_screen_test_file_exists():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    for files in LAB_UI_SCREEN_TESTS.values():
        for f in files:
            assert (root / f.split("::")[0]).is_file(), f


def test_every_lab_ui_module_has_its_screen_tests_listed():
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    from lab_ui.screens.registry import SCREENS

    scripts = {root / "app" / s.file for s in SCREENS}          # run by Streamlit, not mutated
    modules = {p.stem for p in (root / "app" / "lab_ui").rglob("*.py") if p.stem != "__init__" and p not in scripts}
    assert modules == set(LAB_UI_SCREEN_TESTS)
