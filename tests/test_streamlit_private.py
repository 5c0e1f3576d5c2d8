"""The private Streamlit APIs the app uses (lab_ui.server.streamlit_private) still exist and still
behave as the app expects: this fails loudly when a Streamlit release moves or changes one."""
from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest
from streamlit import runtime
from streamlit.runtime import scriptrunner
from streamlit.testing.v1 import AppTest

from lab_ui.server import streamlit_private as private


def test_outside_a_script_run_there_is_no_session_and_no_yield_check():
    assert private.session_id() is None
    assert private.get_run_yield_check() is None
    assert private.session_active("no-such-session") is True      # no server: nobody says it is gone


def test_the_session_id_is_the_script_run_context_s(monkeypatch):
    monkeypatch.setattr(scriptrunner, "get_script_run_ctx",
                        lambda suppress_warning=False: SimpleNamespace(session_id="tab-1"))
    assert private.session_id() == "tab-1"


def test_a_running_server_is_asked_about_the_session(monkeypatch):
    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setattr(runtime, "get_instance", lambda: SimpleNamespace(is_active_session=lambda s: s == "a"))
    assert private.session_active("a") and not private.session_active("b")


def _script():
    import streamlit as st

    from lab_ui.server import streamlit_private as private
    st.session_state["sid"] = private.session_id()
    st.session_state["check"] = callable(private.get_run_yield_check())


def test_inside_a_script_run_the_session_and_the_yield_check_are_there():
    at = AppTest.from_function(_script).run()
    assert isinstance(at.session_state["sid"], str) and at.session_state["sid"]
    assert at.session_state["check"] is True


def test_the_stop_request_is_a_script_control_exception():
    from streamlit.runtime.scriptrunner_utils.exceptions import RerunException, StopException
    assert issubclass(StopException, private.ScriptControlException)
    assert issubclass(RerunException, private.ScriptControlException)


def test_a_frame_becomes_arrow_bytes():
    import pyarrow as pa
    data = private.arrow_bytes(pd.DataFrame({"x": [1.5, 2.5]}))
    assert pa.ipc.open_stream(data).read_all().column("x").to_pylist() == [1.5, 2.5]


@pytest.mark.parametrize("name", ["ScriptControlException", "get_run_yield_check", "arrow_bytes"])
def test_every_re_export_is_importable(name):
    assert getattr(private, name) is not None
