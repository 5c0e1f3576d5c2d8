"""A class's server watches no source files. Streamlit gives every new session a source watcher
of its own, which after the session's first script run resolves the path of every imported
module (about 1,400 in a warm server): with forty sessions opening Train at once that was 73% of
the server's CPU, ~300 ms a session (docs/performance.md, "The first minute of a class";
``bench.arrival``). A class never edits the code while it runs."""
import asyncio
import tomllib
from unittest import mock

from streamlit import config
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.script_data import ScriptData
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

from tests.conftest import ROOT

SETTINGS = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
OPTION = "server.fileWatcherType"


def new_session_has_a_watcher(watcher_type: str) -> bool:
    """Whether a new session (Streamlit's own AppSession, as the server makes one per tab)
    gets a source watcher when the server runs with ``server.fileWatcherType = watcher_type``."""
    before = config.get_option(OPTION)
    config.set_option(OPTION, watcher_type)

    async def open_one() -> bool:
        session = AppSession(ScriptData(str(ROOT / "app" / "streamlit_app.py")), mock.MagicMock(),
                             ScriptCache(), None, {})
        try:
            return session._local_sources_watcher is not None
        finally:
            session.shutdown()
    try:
        return asyncio.run(open_one())
    finally:
        config.set_option(OPTION, before)


def test_the_app_config_turns_the_source_watcher_off():
    assert OPTION in config.get_config_options()                        # a real Streamlit option
    assert SETTINGS["server"]["fileWatcherType"] == "none"
    assert SETTINGS["server"]["runOnSave"] is False                     # nothing would use it


def test_a_new_session_then_gets_no_watcher():
    assert not new_session_has_a_watcher(SETTINGS["server"]["fileWatcherType"])


def test_the_control_streamlits_default_gives_every_session_one():
    assert config.get_config_options()[OPTION].default_val == "auto"
    assert new_session_has_a_watcher("auto")
