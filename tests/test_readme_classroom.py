"""The README tells a teacher how to stop the server and how students on the room's network
reach it, with options Streamlit really has and the address the terminal really prints."""
import re
import subprocess
import sys

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
    # the class command, with an option it really has, on the port it really listens on
    assert "python -m deploy.serve --address 0.0.0.0" in START
    help_text = " ".join(serve_help().split())
    assert "--address ADDRESS" in help_text and "0.0.0.0 for a class on the room's network" in help_text
    port = re.search(r"--port PORT\s+where nginx listens", serve_help())
    assert port, help_text
    assert "http://ADDRESS:8600" in START and "default=8600" in (ROOT / "deploy" / "serve.py").read_text()
    for how in ("hostname -I", "ipconfig getifaddr en0", "ipconfig"):
        assert f"`{how}`" in START
    # without nginx: one Streamlit process, with Streamlit's own address option and port
    command = re.search(r"streamlit run app\s+(--[\w.]+) (\S+)`", START)
    assert command, "a start command with the address flag"
    assert command.groups() == ("--server.address", "0.0.0.0")
    options = config.get_config_options()
    assert "server.address" in options                               # a real Streamlit option
    assert f"port {options['server.port'].default_val}" in START      # the port Streamlit listens on


def test_the_readme_says_what_the_class_command_prints():
    """The README quotes the line the class command prints when it is ready."""
    assert "`ready after N s`" in START
    assert "ready after " in (ROOT / "deploy" / "serve.py").read_text()
