"""Two things Streamlit does for every session, which a class's server does not (forty sessions
opening Train at once, ``bench.arrival``; docs/performance.md, "The first minute of a class"):

* **watch the source files**: every new session gets a source watcher of its own, which after
  the session's first script run resolves the path of every imported module (about 1,400 in a
  warm server): 73% of the server's CPU, ~290 ms a session. A class never edits the code.
* **a full garbage collection after every script run**: it walks every open session's objects,
  so each new page paid for all the others (91-179 ms a session, 57-69 ms without).
  ``lab_ui.server.memory`` collects once every 30 s instead (tests/test_fair_share.py)."""
import asyncio
import tomllib
from unittest import mock

from streamlit import config
from streamlit.runtime.scriptrunner import script_runner
from streamlit.runtime.app_session import AppSession
from streamlit.runtime.script_data import ScriptData
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

from tests.conftest import ROOT

SETTINGS = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
OPTION = "server.fileWatcherType"
GC_OPTION = "runner.postScriptGC"


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


def full_collections_per_run(post_script_gc: bool, monkeypatch) -> int:
    """How many full collections the end of one script run makes (Streamlit's own
    ``ScriptRunner._on_script_finished``, which AppTest's runner replaces, called on a stand-in
    runner) with ``runner.postScriptGC = post_script_gc``."""
    calls: list[tuple] = []
    monkeypatch.setattr(script_runner.gc, "collect", lambda *a: calls.append(a) or 0)
    before = config.get_option(GC_OPTION)
    config.set_option(GC_OPTION, post_script_gc)
    try:
        script_runner.ScriptRunner._on_script_finished(
            mock.MagicMock(), mock.MagicMock(has_script_started=False),
            script_runner.ScriptRunnerEvent.SCRIPT_STOPPED_WITH_SUCCESS, True, mock.MagicMock())
    finally:
        config.set_option(GC_OPTION, before)
    return sum(1 for a in calls if a in ((2,), ()))


def test_the_app_config_turns_the_collection_after_every_run_off(monkeypatch):
    assert GC_OPTION in config.get_config_options()
    assert SETTINGS["runner"]["postScriptGC"] is False
    assert full_collections_per_run(SETTINGS["runner"]["postScriptGC"], monkeypatch) == 0


def test_the_control_streamlits_default_collects_after_every_run(monkeypatch):
    assert config.get_config_options()[GC_OPTION].default_val is True
    assert full_collections_per_run(True, monkeypatch) >= 1
