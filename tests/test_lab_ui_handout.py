"""lab_ui.lesson.handout's small rules, tested directly with a stand-in for Streamlit's page address
and session state: when a page is a handout, when every table is open, and the address printed
under a chart file or behind the handout link (tests/app/test_handout.py runs the screens)."""
from __future__ import annotations

import types

import pytest

from lab_ui.lesson import handout


class Address(dict):
    def to_dict(self):
        return dict(self)


def fake(monkeypatch, address=None, state=None, url=None):
    st = types.SimpleNamespace(query_params=Address(address or {}), session_state=dict(state or {}),
                               context=types.SimpleNamespace(url=url))
    monkeypatch.setattr(handout, "st", st)


@pytest.mark.parametrize("value, is_handout", [("1", True), ("0", False), ("true", False), (None, False)])
def test_only_handout_1_makes_a_handout(monkeypatch, value, is_handout):
    fake(monkeypatch, address={} if value is None else {"handout": value})
    assert handout.handout() is is_handout
    assert handout.every_table_open() is is_handout          # the switch is off


@pytest.mark.parametrize("switch, is_open", [(True, True), (False, False), (None, False)])
def test_the_switch_opens_every_table(monkeypatch, switch, is_open):
    fake(monkeypatch, state={} if switch is None else {handout.TABLES_KEY: switch})
    assert handout.every_table_open() is is_open


def test_the_address_keeps_the_settings_drops_handout_and_adds_the_extras(monkeypatch):
    fake(monkeypatch, address={"train_d_model": "8", "handout": "1", "q": "a b&c"},
         url="http://localhost:8501/train")
    assert handout.address() == "http://localhost:8501/train?train_d_model=8&q=a+b%26c"
    assert handout.address(handout="1", hide="x,y") == \
        "http://localhost:8501/train?train_d_model=8&q=a+b%26c&handout=1&hide=x%2Cy"
    fake(monkeypatch, url="http://localhost:8501/train")
    assert handout.address() == "http://localhost:8501/train"               # no settings: no "?"
    fake(monkeypatch, address={"a": "1"})
    assert handout.address() == "?a=1"                                      # no browser address


def test_fixed_width_replaces_only_container_widths_at_every_depth():
    spec = {"width": "container", "height": 300, "vconcat": [{"width": "container", "mark": "bar"},
                                                            {"width": 100}], "title": {"text": "container"}}
    assert handout._fixed_width(spec) == {"width": handout.EXPORT_WIDTH, "height": 300,
                                          "vconcat": [{"width": handout.EXPORT_WIDTH, "mark": "bar"},
                                                      {"width": 100}], "title": {"text": "container"}}
