"""lab_ui.lesson.presenter's rules, tested directly with a stand-in for Streamlit's page address and
session state: when presenter mode is on, how the address follows it, the screens before and
after each one, and what the reset forgets and keeps (tests/app/test_presenter.py runs the
screens)."""
from __future__ import annotations

import types

import pytest

from lab_ui.lesson import presenter
from lab_ui.lesson.handout import TABLES_KEY
from lab_ui.lesson.presenter import MODE_KEY, PRESENT_KEY
from lab_ui.screens.registry import SCREENS, neighbours


def fake(monkeypatch, address=None, state=None):
    st = types.SimpleNamespace(query_params=dict(address or {}), session_state=dict(state or {}))
    monkeypatch.setattr(presenter, "st", st)
    return st


@pytest.mark.parametrize("value, on", [("1", True), ("0", False), ("yes", False), (None, False)])
def test_the_first_run_reads_presenter_mode_from_the_address_and_keeps_it(monkeypatch, value, on):
    st = fake(monkeypatch, address={} if value is None else {PRESENT_KEY: value})
    assert presenter.presenting() is on
    assert st.session_state[MODE_KEY] is on
    st.query_params[PRESENT_KEY] = "0" if on else "1"          # later runs: the session decides
    assert presenter.presenting() is on


@pytest.mark.parametrize("mode, before, after", [(True, {}, {PRESENT_KEY: "1"}),
                                                 (True, {PRESENT_KEY: "0", "a": "2"}, {PRESENT_KEY: "1", "a": "2"}),
                                                 (False, {PRESENT_KEY: "1", "a": "2"}, {"a": "2"}),
                                                 (False, {"a": "2"}, {"a": "2"})])
def test_the_address_follows_the_mode(monkeypatch, mode, before, after):
    st = fake(monkeypatch, address=before, state={MODE_KEY: mode})
    presenter._sync_address()
    assert st.query_params == after


@pytest.mark.parametrize("switch, was, now", [(True, False, True), (False, True, False), (None, True, True),
                                              (None, False, False)])
def test_the_switch_flips_the_mode_or_keeps_it_when_its_state_is_missing(monkeypatch, switch, was, now):
    state = {MODE_KEY: was, **({} if switch is None else {"present_switch": switch})}
    st = fake(monkeypatch, state=state)
    presenter._flip()
    assert st.session_state[MODE_KEY] is now
    assert st.query_params == ({PRESENT_KEY: "1"} if now else {})


def test_each_screen_s_neighbours_in_lesson_order():
    files = [s.file for s in SCREENS]
    assert neighbours(files[0]) == (None, SCREENS[1])
    assert neighbours(files[1]) == (SCREENS[0], SCREENS[2])          # Home is before screen 1
    assert neighbours(files[3]) == (SCREENS[2], SCREENS[4])
    assert neighbours(files[-2]) == (SCREENS[-3], SCREENS[-1])       # the last screen is after it
    assert neighbours(files[-1]) == (SCREENS[-2], None)
    assert neighbours("not_a_screen.py") == (None, SCREENS[1])    # as Home


def test_reset_forgets_the_screen_s_settings_and_keeps_the_rest(monkeypatch):
    st = fake(monkeypatch,
              address={"train_lr": "2.0", "train_word": "dog", TABLES_KEY: "true", PRESENT_KEY: "1", "sim_a": "x"},
              state={"train_lr": 2.0, "train_word": "dog", "train_cmp_lr": 1.0, "sim_a": "x",
                     MODE_KEY: True, "cbow_k": 3})
    presenter._reset(("train_", "cbow_"), {"train_lr": 0.5})
    assert st.session_state == {"train_lr": 0.5, "sim_a": "x", MODE_KEY: True}
    # every setting leaves the address but the reader's table switch and presenter mode; a bound
    # widget's key stays for Streamlit to drop once the widget is back at its default
    assert st.query_params == {"train_lr": "2.0", TABLES_KEY: "true", PRESENT_KEY: "1"}
    st = fake(monkeypatch, address={"train_lr": "2.0", PRESENT_KEY: "1"}, state={MODE_KEY: False})
    presenter._reset(("train_",), {})
    assert st.query_params == {}                                # presenter mode was off
