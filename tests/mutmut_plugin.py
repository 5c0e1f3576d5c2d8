"""A pytest plugin for mutation runs only (``-p tests.mutmut_plugin``, set in pyproject.toml's
[tool.mutmut]); the normal test command never loads it.

1. The screens import the helpers in app/lab_ui/ as ``lab_ui.*`` (``streamlit run app`` puts app/ on
   sys.path), but mutmut names a mutant by its file path, ``app.lab_ui.*``, and only switches on
   a mutant inside a module of that exact name. So every ``lab_ui.X`` import is answered with the
   module ``app.lab_ui.X``: one module object under both names, whose functions say ``app.lab_ui.X``.
   (The editable install maps ``lab_ui`` to the checkout's app/lab_ui/, not to the mutated copy in
   mutants/; this alias, first on ``sys.meta_path``, also keeps that copy the one imported.)
2. mutmut forks each mutant's test run from a process that has already run the suite, so
   Streamlit's in-memory caches (trained runs, chart specs) would be warm and hide a mutant
   behind a cached answer. Each run starts with them cleared, as a fresh ``pytest`` does.
3. A mutant of core/ is judged by the core's own tests only (not the screen tests that also
   reach it): the core's tests must catch a wrong core by themselves, and a surviving core
   mutant would otherwise cost a full run of every screen (hours for the whole core).
4. A mutant of app/lab_ui/X.py is judged by the tests that are not screen runs (unit tests of
   the helpers, which take milliseconds) plus the screen test files listed for X in
   ``LAB_UI_SCREEN_TESTS``: the screens that show what X computes, with their values asserted.
   Other screens that merely pass through X (every screen draws a title with lab_ui.widgets.common)
   are left out. A module not in the table keeps every screen test that reaches it. Fewer
   tests can only kill fewer mutants, so the score is a lower bound of
   what the whole fast suite would score; it is what makes the run take an hour, not 14.
5. ``WORDS_TEST``, the approval test of every screen's words and chart settings
   (tests/app/test_screen_words.py: labels, help texts, captions, column names, a chart's
   marks, dashes and offsets), judges the mutants of every app/lab_ui module besides its
   listed screen tests. mutmut runs only the tests that reached the mutated function, so a
   mutant meets just the screens that show it: about 0.1 to 0.8 s per screen. Its
   determinism check (each screen run twice) is left out.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import lab_ui.X`` returns the module ``app.lab_ui.X``."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "lab_ui" or fullname.startswith("lab_ui."):
            return importlib.machinery.ModuleSpec(fullname, self,
                                                  is_package=(ROOT / "app" / Path(*fullname.split("."))).is_dir())
        return None

    def create_module(self, spec):
        return importlib.import_module("app." + spec.name)

    def exec_module(self, module):
        pass                                   # already executed under its app.lab_ui name


def pytest_configure(config):
    # In a hook, not at import: --doctest-modules imports this file in normal runs too.
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        sys.meta_path.insert(0, _Alias())


def pytest_sessionstart(session):
    import streamlit as st

    st.cache_data.clear()
    st.cache_resource.clear()


SCREEN_TESTS = ("tests/app/", "tests/robust/test_bad_input_app.py")
# Every test that starts a screen (AppTest), for rules 3 and 4.
APP_TESTS = SCREEN_TESTS + ("tests/robust/test_issue19_screens.py",
                            "tests/robust/test_budget.py::test_train_at_the_sliders_maxima",
                            "tests/robust/test_budget.py::test_negative_sampling_tab",
                            "tests/robust/test_budget.py::test_reference_run_is_not_touched",
                            "tests/robust/test_word_rule.py::test_the_train_screen_warns",
                            "tests/test_jobs.py::test_a_long_run_on_the_train_screen")

# Rule 5: judges every app/lab_ui mutant (its parametrised cases, one screen run each).
WORDS_TEST = "tests/app/test_screen_words.py::test_screen_words["

# app/lab_ui module -> the screen test files that judge its mutants (beside its unit tests).
LAB_UI_SCREEN_TESTS = {
    "captions": ("tests/app/test_captions.py", "tests/app/test_exercises.py",
                 "tests/app/test_values_limits_tokens_home.py"),
    "parse": ("tests/app/test_values_lookup_similarity.py", "tests/robust/test_bad_input_app.py"),
    "guard": ("tests/app/test_train.py", "tests/robust/test_budget.py", "tests/app/test_values_off_defaults.py"),
    "label_layout": ("tests/app/test_scatter_colours.py",
                     "tests/app/test_presenter.py::test_presenter_mode_labels_every_scatter_point"),
    "chips": ("tests/app/test_tokens.py", "tests/app/test_values_limits_tokens_home.py",
              "tests/app/test_lesson_links.py"),
    "jobs": ("tests/test_jobs.py",),
    "workers": ("tests/test_jobs.py",),
    "presenter": ("tests/app/test_presenter.py", "tests/app/test_theme.py"),
    "theme": ("tests/app/test_theme.py",),
    "paste_guard": ("tests/app/test_screens.py",),
    "exercises": ("tests/app/test_exercises.py", "tests/app/test_values_controls.py"),
    "inputs": ("tests/app/test_values_controls.py", "tests/robust/test_issue19_screens.py",
               "tests/robust/test_word_rule.py", "tests/app/test_values_position.py"),
    "layout": ("tests/app/test_screens.py", "tests/app/test_layout.py"),
    "common": ("tests/app/test_screens.py", "tests/robust/test_issue19_screens.py", "tests/app/test_common_panels.py",
               "tests/app/test_chart_identity.py::test_charts_draw_on_a_canvas_but_in_svg_when_presenting_or_printing"),
    "bigtext_view": ("tests/app/test_bigtext.py", "tests/app/test_bigtext_views.py"),
    "bigtext_jobs": ("tests/test_fair_share.py", "tests/app/test_bigtext.py"),
    "memory": ("tests/test_fair_share.py",),
    "chart_files": ("tests/robust/test_hostile_exports.py", "tests/test_handout_files.py"),
    "printed": ("tests/app/test_handout.py",),
    "primary": ("tests/app/test_layout.py",),
    "real_models": ("tests/app/test_real_screens.py", "tests/app/test_real_tables_in_lesson.py"),
    "real_map_view": ("tests/app/test_real_tables_in_lesson.py",),
    "per_run": ("tests/app/test_warmup.py", "tests/app/test_values_train.py"),
    "warmup": ("tests/app/test_warmup.py",),
    "streamlit_private": ("tests/test_streamlit_private.py", "tests/test_lab_ui_sessions.py"),
    # The Train screen: its controls, its cached runs, its Result tab and its other tabs.
    "train_controls": ("tests/app/test_train_controls.py", "tests/app/test_values_controls.py",
                       "tests/app/test_values_train.py", "tests/app/test_train_lab.py"),
    "runs": ("tests/app/test_values_train.py", "tests/app/test_values_train_tabs.py",
             "tests/app/test_values_lookup_similarity.py", "tests/app/test_tokens.py",
             "tests/robust/test_budget.py", "tests/app/test_values_off_defaults.py",
             "tests/app/test_bigtext.py"),              # the background runs (LongRun, start, poll)
    "train_result": ("tests/app/test_values_train.py", "tests/app/test_captions.py", "tests/app/test_train.py",
                     "tests/app/test_train_result_panels.py"),
    "train_views": ("tests/app/test_values_train_tabs.py", "tests/app/test_train_lab.py",
                    "tests/app/test_values_off_defaults.py"),
    "pickers": ("tests/app/test_word_pickers.py", "tests/app/test_values_train.py"),
    # The data inside every chart: the value tests read each chart's rows back.
    "charts": ("tests/app/test_chart_identity.py", "tests/app/test_values_train.py",
               "tests/app/test_values_projections.py", "tests/app/test_values_lookup_similarity.py",
               "tests/app/test_scatter_colours.py", "tests/app/test_find_word.py"),
    "projection_views": ("tests/app/test_values_projections.py", "tests/app/test_projections.py",
                         "tests/app/test_values_own_vectors.py"),
    "tsne_motion": ("tests/app/test_tsne_motion.py",),
    "player": ("tests/app/test_tsne_motion.py", "tests/app/test_values_train_tabs.py"),
    "find_word": ("tests/app/test_find_word.py",),
    "similarity_views": ("tests/app/test_values_lookup_similarity.py", "tests/app/test_screens.py"),
    "cbow_view": ("tests/app/test_values_cbow.py",),
    "pair_view": ("tests/app/test_values_pair.py",),
    "position_view": ("tests/app/test_values_position.py",),
    "analogy_view": ("tests/app/test_values_analogies.py",),
    "own_vectors_view": ("tests/app/test_values_own_vectors.py",),
    "readable": ("tests/app/test_values_gradients_parameters.py",),
    "presets": ("tests/app/test_values_controls.py", "tests/app/test_values_projections.py",
                "tests/app/test_values_gradients_parameters.py"),
    "handout": ("tests/app/test_handout.py",),
    "links": ("tests/app/test_lesson_links.py", "tests/app/test_train_lab.py",
              "tests/robust/test_issue19_screens.py"),
    "registry": ("tests/app/test_presenter.py", "tests/app/test_lesson_links.py"),
    "process": (),                                   # the server process's tunings: unit tests only
}


def _keep(nodeid: str, mutant: str) -> bool:
    """Does this test judge this mutant (rules 3 and 4 of the module docstring)?"""
    if mutant.startswith("core."):
        return not nodeid.startswith(APP_TESTS)
    if mutant.startswith("app.lab_ui."):
        listed = LAB_UI_SCREEN_TESTS.get(mutant.split(".")[-2])      # app.lab_ui[.<role>].<module>.<function>
        return (not nodeid.startswith(APP_TESTS) or listed is None or nodeid.startswith(listed)  # unlisted: all
                or nodeid.startswith(WORDS_TEST))
    return True


def pytest_collection_modifyitems(config, items):
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    if not mutant.startswith(("core.", "app.lab_ui.")):
        return
    dropped = [i for i in items if not _keep(i.nodeid, mutant)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [i for i in items if _keep(i.nodeid, mutant)]
