"""The README tells a teacher how to stop the server and how students on the room's network
reach it, with options Streamlit really has and the address the terminal really prints."""
import re
import subprocess
import sys
import tomllib

from streamlit import config

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")
START = README.split("## Run the tests")[0]           # the "Start it" section


def test_the_readme_says_how_to_stop_the_server():
    assert re.search(r"Ctrl\+C in the terminal", START)


def serve_help() -> str:
    """``python -m deploy.serve --help``: the class command's own options and defaults."""
    out = subprocess.run([sys.executable, "-m", "deploy.serve", "--help"], capture_output=True, text=True,
                         timeout=120, check=True, cwd=ROOT)
    return out.stdout


def test_the_readme_says_how_students_on_the_network_reach_it():
    command = re.search(r"streamlit run app (--[\w.]+) (\S+)", START)
    assert command, "a start command with the address flag"
    assert command.groups() == ("--server.address", "0.0.0.0")
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


def test_the_readme_names_the_many_process_commands_own_option_and_port():
    assert "python -m deploy.serve --address 0.0.0.0" in START
    help_text = " ".join(serve_help().split())
    assert "--address ADDRESS" in help_text and "0.0.0.0 for a class on the room's network" in help_text
    assert "http://ADDRESS:8600" in START and "default=8600" in (ROOT / "deploy" / "serve.py").read_text()


def test_the_readme_says_what_the_class_command_prints():
    """The README quotes the line the class command prints when it is ready."""
    assert "`ready after N s`" in START
    assert "ready after " in (ROOT / "deploy" / "serve.py").read_text()
