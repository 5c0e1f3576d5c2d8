"""A pytest plugin for mutation runs only (``-p tests.mutmut_plugin``, set in pyproject.toml's
[tool.mutmut]); the normal test command never loads it.

1. The screens import the helpers in app/lab_ui/ as ``lab_ui.*`` (``streamlit run app`` puts app/ on
   sys.path), but mutmut names a mutant by its file path, ``app.lab_ui.*``, and only switches on
   a mutant inside a module of that exact name. So every ``lab_ui.X`` import is answered with the
   module ``app.lab_ui.X``: one module object under both names, whose functions say ``app.lab_ui.X``.
2. mutmut forks each mutant's test run from a process that has already run the suite, so
   Streamlit's in-memory caches (trained runs, chart specs) would be warm and hide a mutant
   behind a cached answer. Each run starts with them cleared, as a fresh ``pytest`` does.
3. A mutant of core/ is judged by the core's own tests only (not the screen tests that also
   reach it): the core's tests must catch a wrong core by themselves, and a surviving core
   mutant would otherwise cost a full run of every screen (hours for the whole core).
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
            return importlib.machinery.ModuleSpec(fullname, self, is_package=fullname == "lab_ui")
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


def pytest_collection_modifyitems(config, items):
    if not os.environ.get("MUTANT_UNDER_TEST", "").startswith("core."):
        return
    screens = [i for i in items if i.nodeid.startswith(SCREEN_TESTS)]
    if screens:
        config.hook.pytest_deselected(items=screens)
        items[:] = [i for i in items if not i.nodeid.startswith(SCREEN_TESTS)]
