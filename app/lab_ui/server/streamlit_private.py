"""Every private Streamlit API the app needs, in one place (``tests/test_streamlit_private.py``
fails loudly when a Streamlit release moves one).

Streamlit has no public way to ask these four things, and the run machinery needs them:

* ``session_id()``: which browser session this script run serves (a Stop button's held run,
  the fair queue's owner when there is no XSRF cookie);
* ``session_active(session)``: whether that session is still connected (a closed tab's run stops);
* ``get_run_yield_check()`` and ``ScriptControlException``: a training loop asks, between two
  steps, whether Streamlit wants this script run to stop or rerun (``lab_ui.server.guard.Stopper``);
* ``arrow_bytes(frame)``: a chart's data frame as the Arrow bytes Streamlit sends, so a cached
  chart spec is built once (``lab_ui.widgets.charts``).

The modules are looked up when called, not imported here, so a test can stand in for them.
"""
from __future__ import annotations

from streamlit.dataframe_util import convert_anything_to_arrow_bytes as arrow_bytes
from streamlit.runtime.scriptrunner_utils.exceptions import ScriptControlException
from streamlit.runtime.scriptrunner_utils.script_run_context import get_run_yield_check

__all__ = ["ScriptControlException", "arrow_bytes", "get_run_yield_check", "session_active", "session_id"]


def session_id() -> str | None:
    """The id of this script's browser session (None outside a Streamlit script run)."""
    from streamlit.runtime import scriptrunner
    ctx = scriptrunner.get_script_run_ctx(suppress_warning=True)
    return None if ctx is None else ctx.session_id


def session_active(session: str) -> bool:
    """True unless a running Streamlit server says ``session`` is no longer connected."""
    from streamlit import runtime
    return not runtime.exists() or runtime.get_instance().is_active_session(session)
