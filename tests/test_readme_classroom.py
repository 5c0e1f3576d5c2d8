"""The README tells a teacher how to stop the server and how students on the room's network
reach it, with options Streamlit really has and the address the terminal really prints."""
import re
import tomllib

from streamlit import config

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
START = README.split("## Run the tests")[0]           # the "Start it" section


def test_the_readme_says_how_to_stop_the_server():
    assert re.search(r"Ctrl\+C in the terminal", START)


def test_the_readme_says_how_students_on_the_network_reach_it():
    command = re.search(r"streamlit run app (--[\w.]+) (\S+)", START)
    assert command, "a start command with the address flag"
    flag, value = command.groups()
    assert (flag, value) == ("--server.address", "0.0.0.0")
    options = config.get_config_options()
    assert "server.address" in options                               # a real Streamlit option
    port = options["server.port"].default_val
    assert f"http://ADDRESS:{port}" in START                         # the port Streamlit listens on
    for how in ("hostname -I", "ipconfig getifaddr en0", "ipconfig"):
        assert f"`{how}`" in START


def test_the_readme_says_what_the_terminal_prints():
    """The app's config sets the address the terminal shows; the README warns it is not the
    one students open."""
    settings = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    shown = settings["browser"]["serverAddress"]
    assert f"The terminal still prints `{shown}`" in START
