"""lab_ui.lesson.links' rules, tested directly: what a link's value must equal to count as taken,
which settings fall back (and the notice naming them), what ``hide=`` hides, and how an old
link's renamed value is followed. Streamlit's page address and session state are replaced by
plain stand-ins (``links.st``); the screens' side is tests/app/test_lesson_links.py."""
from __future__ import annotations

import types

import pytest

from lab_ui.lesson import links
from lab_ui.widgets.common import plain


class Address(dict):
    """The page address: key -> list of values, as st.query_params.get_all gives them."""

    def get_all(self, key):
        return list(self.get(key, []))

    def __setitem__(self, key, value):
        super().__setitem__(key, [value])


class Rerun(Exception):
    pass


shown: list = []     # what st.html received


def _rerun():
    raise Rerun


def fake(monkeypatch, address=None, state=None):
    st = types.SimpleNamespace(query_params=Address(address or {}), session_state=dict(state or {}),
                               html=lambda body: shown.append(("html", body)), rerun=_rerun)
    monkeypatch.setattr(links, "st", st)
    return st


class Where:
    def __init__(self):
        self.warnings = []

    def warning(self, text):
        self.warnings.append(text)


@pytest.mark.parametrize("value, written", [(True, ["true"]), (False, ["false"]), (3, ["3"]), (0.5, ["0.5"]),
                                            ("cat", ["cat"]), (["a", "b"], ["a", "b"]), (("x",), ["x"])])
def test_a_value_as_the_address_writes_it(value, written):
    assert links._shown(value) == written


@pytest.mark.parametrize("raw, value, same", [
    (["0.50"], 0.5, True), (["1e1"], 10, True), (["3"], 4, False),
    (["Cat"], "cat", True), (["cat"], "dog", False), (["TRUE"], True, True), (["false"], True, False),
    (["a", "b"], ["a", "b"], True), (["a"], ["a", "b"], False), (["a", "b"], ["a"], False),
    (["a", "c"], ["a", "b"], False), (["2", "x"], [2.0, "X"], True)])
def test_when_a_link_s_value_counts_as_taken(raw, value, same):
    assert links._same(raw, value) is same


def test_the_settings_that_fell_back_and_their_notice(monkeypatch):
    fake(monkeypatch, state={"sim_a": "cat", "sim_b": "dog", "sim_n": 5, "sim_skip": 1})
    link = {"sim_a": ["cat"], "sim_b": ["zebra"], "sim_n": ["500"], "sim_skip": ["9"], "sim_gone": ["1"]}
    bad = links.unusable(link, skip={"sim_skip"})
    assert bad == [("sim_b", ["zebra"], "dog"), ("sim_n", ["500"], 5)]
    where = Where()
    links.notice(where, link, {"sim_skip"})
    assert where.warnings == [
        "Some settings in this link could not be used and fell back to the screen's own values: "
        + f"{plain('sim_b')} = {plain(repr('zebra'))} (using {plain('dog')}); "
        + f"{plain('sim_n')} = {plain(repr('500'))} (using {plain('5')})."]
    quiet = Where()
    links.notice(quiet, {"sim_a": ["cat"]}, set())
    assert quiet.warnings == []


def test_a_long_or_many_valued_fallback_is_cut_in_the_notice(monkeypatch):
    fake(monkeypatch, state={"sim_a": "y" * 60})
    where = Where()
    links.notice(where, {"sim_a": ["x" * 50, "b", "c", "d"]}, set())
    text = where.warnings[0]
    assert plain(", ".join(repr(r) for r in ["x" * 30, "b", "c"])) in text and "'d'" not in text
    assert f"(using {plain('y' * 40)})" in text


def test_given_leaves_out_the_reserved_keys(monkeypatch):
    fake(monkeypatch, address={"present": ["1"], "handout": ["1"], "hide": ["a"], links.TABLES_KEY: ["1"],
                               "sim_a": ["cat"], "sim_m": ["x", "y"]})
    assert links.given() == {"sim_a": ["cat"], "sim_m": ["x", "y"]}


def test_hide_splits_keys_from_entries_that_are_not_keys(monkeypatch):
    fake(monkeypatch, address={"hide": ["sim_a, sim_b,,", "bad key!,x,<b>"]})
    keys, bad = links.hidden()
    assert keys == ["sim_a", "sim_b", "x"] and bad == ["bad key!", "<b>"]
    assert links.KEY_RULE.match("a" * 64) and not links.KEY_RULE.match("a" * 65)


def test_apply_hide_hides_the_keys_and_names_the_rest(monkeypatch):
    from lab_ui.widgets.chips import hide_css
    shown.clear()
    fake(monkeypatch, address={"hide": ["sim_a,no way"]})
    where = Where()
    links.apply_hide(where)
    assert shown == [("html", hide_css(["sim_a"]))]
    assert where.warnings == ["These entries of hide= are not element keys and were ignored: "
                              + plain(repr("no way")) + "."]
    shown.clear()
    fake(monkeypatch, address={})
    quiet = Where()
    links.apply_hide(quiet)
    assert shown == [] and quiet.warnings == []


def test_an_old_link_s_renamed_value_is_followed_once(monkeypatch):
    renamed = {"proj_kind": {"old": "new"}}
    st = fake(monkeypatch, address={"proj_kind": ["old"]})
    with pytest.raises(Rerun):
        links.follow_renames(renamed)
    assert st.query_params.get_all("proj_kind") == ["new"]
    links.follow_renames(renamed)                        # now "new": nothing to do, no rerun
    st = fake(monkeypatch, address={"proj_kind": ["old"]}, state={"proj_kind": "other"})
    links.follow_renames(renamed)                        # the control already has a value: left alone
    assert st.query_params.get_all("proj_kind") == ["old"]
    st = fake(monkeypatch, address={"proj_kind": ["old", "old"]})
    links.follow_renames(renamed)                        # two values: not a rename
