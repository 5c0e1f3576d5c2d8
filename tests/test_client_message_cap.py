"""The server refuses a client message far larger than any page of the app can send: a script
that pastes 5 MB into a 20,000-character box and sends it with every progress poll (twice a
second per tab) doubled the server's CPU per poll (bench/attack.py)."""
import tomllib

from streamlit import config

from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT, TEXT_INPUT_LIMIT
from tests.conftest import ROOT

SETTINGS = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text(encoding="utf-8"))


def test_a_client_message_over_two_megabytes_is_refused():
    assert "server.maxWidgetStateSize" in config.get_config_options()   # a real Streamlit option
    assert SETTINGS["server"]["maxWidgetStateSize"] == 2                 # megabytes


def test_every_box_a_page_can_hold_fits_well_under_the_cap():
    """Ten full text areas and ten full one-line boxes, four bytes a character (UTF-8's most),
    stay under half the cap: a browser's rerun is never refused."""
    most = 10 * 4 * TEXT_AREA_LIMIT + 10 * 4 * TEXT_INPUT_LIMIT
    assert most < SETTINGS["server"]["maxWidgetStateSize"] * 1e6 / 2
