"""The high-contrast dark theme: light text on a near-black page, charts included.

* One switch in the sidebar (in presenter mode: with Previous / Next at the end of the screen),
  or ``theme=dark`` in the page address: a lesson link keeps it, like ``present=1``.
* Streamlit sets its theme once per server (``.streamlit/config.toml``) and has no way to change
  it for one session, so the page takes a fixed style sheet (``DARK_CSS``: no data in it) over
  Streamlit's own elements, and every chart's spec is recoloured as it is drawn (``dark_spec``).
* Every colour is chosen for WCAG 2.2 AA on the dark page: text at least 4.5:1, chart marks and
  control outlines at least 3:1. Tables are drawn by Streamlit on a canvas in the light theme's
  colours; the style sheet turns them negative (dark cells, light numbers), keeping their hues.
* A handout prints in the light theme: paper is white.
"""
from __future__ import annotations

import json

import streamlit as st

THEME_KEY = "theme"       # the link parameter: theme=dark
DARK = "dark"
THEME_MODE_KEY = "theme_mode"   # the session's own record (widget state can be cleaned up)
SWITCH_KEY = "theme_switch"

BACKGROUND = "#0f1318"    # the page
PANEL_COLOUR = "#1b2129"         # the sidebar, text boxes, code, menus
TEXT = "#f3f4f6"          # 17:1 on BACKGROUND, 15:1 on PANEL_COLOUR
OUTLINE = "#8b95a3"       # a box's edge: 6.1:1 on BACKGROUND (WCAG 1.4.11 asks 3:1)
ACCENT = "#6cb6ff"        # links, focus ring, slider thumbs: 8.4:1 on BACKGROUND
GRID_COLOUR = "#3a434f"          # a chart's grid lines (not read: the axes' labels are)

# The page style of the dark theme (a fixed string, no data in it). Every text of the app takes
# the light text colour (Streamlit's own greys and its primary colour as text fall below 4.5:1 on
# a dark page), except token chips (black on their light colour); each background Streamlit
# paints (page, sidebar, boxes, menus, tooltips, code, the sticky controls bar) turns dark.
DARK_CSS = f"""<style>
:root {{ color-scheme: dark; }}
html body, [data-testid="stApp"], [data-testid="stAppViewContainer"], [data-testid="stHeader"],
[data-testid="stMain"], [data-testid="stBottomBlockContainer"] {{ background-color: {BACKGROUND} !important; }}
[data-testid="stApp"] *, [data-baseweb="popover"] *, [data-baseweb="tooltip"] *,
[data-testid="stTooltipContent"] * {{ color: {TEXT} !important; }}
[data-testid="stSidebar"], [data-testid="stSidebarContent"], [data-testid="stSidebarHeader"]
{{ background-color: {PANEL_COLOUR} !important; }}
[data-testid="stApp"] a, [data-testid="stApp"] a * {{ color: {ACCENT} !important; }}
[data-testid="stApp"] [data-testid="stSidebarNavLink"] *, [data-testid="stApp"] [data-testid="stPageLink"] a *
{{ color: {TEXT} !important; }}
[data-testid="stAlertContainer"] {{ background-color: {PANEL_COLOUR} !important; border-left: 4px solid {ACCENT}; }}
[data-testid="stAlertContainer"]:has([data-testid="stAlertContentWarning"]) {{ border-left-color: #f2c94c; }}
[data-testid="stAlertContainer"]:has([data-testid="stAlertContentError"]) {{ border-left-color: #ff7b72; }}
[data-testid="stAlertContainer"]:has([data-testid="stAlertContentSuccess"]) {{ border-left-color: #56d364; }}
[data-testid="stCaptionContainer"], [data-testid="stCaptionContainer"] * {{ color: {TEXT} !important; opacity: 0.85 !important; }}
[data-baseweb="input"], [data-baseweb="input"] > div, [data-baseweb="base-input"], [data-baseweb="textarea"],
[data-testid="stApp"] input, [data-testid="stApp"] textarea, [data-baseweb="select"] > div,

[data-testid="stFileUploaderDropzone"], [data-testid="stNumberInputContainer"],
[data-testid="stApp"] pre, [data-testid="stApp"] code, [data-testid="stCode"] *
{{ background-color: {PANEL_COLOUR} !important; border-color: {OUTLINE} !important; }}
[data-baseweb="popover"] > div, [data-baseweb="popover"] ul, [data-baseweb="popover"] li,
[data-baseweb="menu"], [role="listbox"], [role="option"], [data-baseweb="tooltip"] > div,
[data-testid="stTooltipContent"] {{ background-color: {PANEL_COLOUR} !important; }}
[role="option"]:hover, [role="option"][aria-selected="true"] {{ background-color: #2c3440 !important; }}
[data-baseweb="select"] > div div {{ background-color: transparent !important; }}
[data-baseweb="select"] [data-baseweb="tag"], [data-baseweb="tag"] {{ background-color: #2c4a6b !important; }}
[data-testid="stBaseButton-secondary"], [data-testid="stBaseButton-secondaryFormSubmit"],
[data-testid="stBaseButton-minimal"], [data-testid="stDownloadButton"] button, [data-testid^="stBaseLinkButton"],
[data-testid="stPopoverButton"] {{ background-color: {PANEL_COLOUR} !important; border-color: {OUTLINE} !important; }}
[data-testid^="stBaseButton"], [data-testid="stMetricDelta"] {{ background-color: {PANEL_COLOUR} !important; }}
[data-testid="stButtonGroup"] button {{ background-color: {PANEL_COLOUR} !important; border-color: {OUTLINE} !important; }}
[data-testid="stButtonGroup"] button:is([aria-checked="true"], [aria-pressed="true"], [aria-selected="true"])
{{ background-color: #2c4a6b !important; border-color: {ACCENT} !important; }}
[data-testid="stBaseButton-primary"], [data-testid^="stBaseButton"][data-testid$="Active"]
{{ background-color: #0b5cad !important; border-color: {ACCENT} !important; }}
[data-testid="stExpander"] details, [data-testid="stExpander"] summary {{ background-color: {BACKGROUND} !important;
  border-color: {OUTLINE} !important; }}
[data-testid="stExpander"] summary:hover {{ background-color: {PANEL_COLOUR} !important; }}
[data-testid="stApp"] hr {{ background-color: {OUTLINE} !important; border-color: {OUTLINE} !important; }}
[data-testid="stApp"] [role="slider"] {{ background-color: {ACCENT} !important; }}
[data-testid="stSliderThumbValue"], [data-testid="stSliderTickBarMin"], [data-testid="stSliderTickBarMax"]
{{ color: {TEXT} !important; }}
[data-testid="stLayoutWrapper"]:has(> [class*="st-key-bar_"]) {{ background: {BACKGROUND} !important;
  box-shadow: 0 6px 6px -6px rgba(255, 255, 255, 0.3) !important; }}
[data-testid="stDataFrame"], [data-testid="stTable"] {{ filter: invert(1) hue-rotate(180deg); }}
[data-testid="stMarkdownContainer"] *:not(.chip, .chip *, code, pre) {{ background-color: transparent !important; }}
[data-testid="stApp"] .chip, [data-testid="stApp"] .chip * {{ color: #111111 !important; }}
[data-testid="stApp"] .chip.repeat {{ outline-color: {TEXT} !important; }}
[data-testid="stTooltipIcon"] svg {{ stroke: {TEXT} !important; opacity: 1 !important; }}
[data-testid="stApp"] ::placeholder {{ color: #aab2bd !important; opacity: 1 !important; }}
:focus-visible {{ outline: 3px solid {ACCENT} !important; }}
</style>"""


def dark() -> bool:
    """The dark theme is on. The first run of a session reads it from the address."""
    if THEME_MODE_KEY not in st.session_state:
        st.session_state[THEME_MODE_KEY] = st.query_params.get(THEME_KEY) == DARK
    return bool(st.session_state[THEME_MODE_KEY])


def sync_address() -> None:
    """The page address says ``theme=dark`` exactly while the dark theme is on."""
    if st.session_state.get(THEME_MODE_KEY):
        if st.query_params.get(THEME_KEY) != DARK:
            st.query_params[THEME_KEY] = DARK
    elif THEME_KEY in st.query_params:
        del st.query_params[THEME_KEY]


def link_params() -> dict[str, str]:
    """What a link to another screen carries for the theme."""
    return {THEME_KEY: DARK} if dark() else {}


def _flip() -> None:
    st.session_state[THEME_MODE_KEY] = bool(st.session_state.get(SWITCH_KEY, dark()))
    sync_address()


def switch(where) -> None:
    where.toggle("Dark, high-contrast theme", value=dark(), key=SWITCH_KEY, on_change=_flip,
                 help="Light text on a dark page, charts included. A link with theme=dark opens in it.")


def style() -> None:
    """The dark theme's style sheet, once at the top of every screen while it is on."""
    if dark():
        sync_address()
        st.html(DARK_CSS)


# ---- charts ---------------------------------------------------------------------------------

def _rgb(colour: str) -> tuple[int, int, int] | None:
    named = {"black": "#000000", "white": "#ffffff"}
    c = named.get(colour.lower(), colour)
    if len(c) != 7 or not c.startswith("#"):
        return None
    try:
        return int(c[1:3], 16), int(c[3:5], 16), int(c[5:7], 16)
    except ValueError:
        return None


def on_dark(colour: str, ratio: float = 4.5) -> str:
    """``colour`` lightened (mixed with white by 2 % steps, so its hue stays) until it has
    ``ratio``:1 on the dark page (L = relative luminance, (L1 + 0.05) / (L2 + 0.05));
    unchanged if it has it already, or if it is not a ``#rrggbb`` colour.

    >>> on_dark("#000000"), on_dark("#6cb6ff")
    ('#808080', '#6cb6ff')
    """
    from lab_ui.widgets.charts import contrast
    rgb = _rgb(colour)
    if rgb is None:
        return colour
    for step in range(51):
        shade = "#" + "".join(f"{round(c + (255 - c) * step / 50):02X}" for c in rgb)
        if contrast(shade, BACKGROUND) >= ratio:
            return colour if step == 0 else shade
    return "#FFFFFF"


# The heatmap's diverging colours on a dark page: blue for -1, the page's panel colour at the
# middle (as white is the middle on a white page), orange for +1; each end 3:1 or more.
DARK_DIVERGING = ["#4f9dff", PANEL_COLOUR, "#ff9b45"]
# A number on a heatmap cell: black or white, whichever has more contrast with the cell's own
# colour (one of them always has at least 4.58:1), from Vega's own contrast() of the colour drawn.
_CELL_TEXT = "contrast('#000000', scale('color', datum['{v}'])) > contrast('#ffffff', scale('color', datum['{v}']))"


def _recolour(node, value_field: str | None = None):
    """A copy of a Vega-Lite spec node with every colour it names lightened for the dark page."""
    if isinstance(node, list):
        return [_recolour(v, value_field) for v in node]
    if not isinstance(node, dict):
        return on_dark(node) if isinstance(node, str) else node
    out = {}
    for key, v in node.items():
        if key in ("datasets", "data", "description", "title", "tooltip", "text", "field", "test",
                   "expr", "format", "type", "shape"):
            out[key] = v
        elif key == "scale" and isinstance(v, dict) and "scheme" in v and isinstance(v.get("domain"), list):
            lo, hi = v["domain"][0], v["domain"][-1]
            rest = {k: x for k, x in v.items() if k not in ("scheme", "domain")}
            out[key] = {**rest, "domain": [lo, (lo + hi) / 2, hi], "range": DARK_DIVERGING}
        else:
            out[key] = _recolour(v, value_field)
    return out


def _cell_numbers(node) -> None:
    """Heatmap numbers (a text mark coloured by a condition on the value) take black or white
    by the cell under them."""
    if isinstance(node, list):
        for v in node:
            _cell_numbers(v)
        return
    if not isinstance(node, dict):
        return
    enc = node.get("encoding", {})
    colour, text = enc.get("color"), enc.get("text")
    if isinstance(colour, dict) and "condition" in colour and isinstance(text, dict) and "field" in text:
        enc["color"] = {"condition": {"test": _CELL_TEXT.format(v=text["field"]), "value": "#000000"},
                        "value": "#ffffff"}
    for key in ("layer", "concat", "hconcat", "vconcat", "spec"):
        if key in node:
            _cell_numbers(node[key])


def dark_spec(spec: dict) -> dict:
    """A Vega-Lite spec drawn on the dark page: dark background, light axes, legends and
    titles, every mark colour lightened to 4.5:1 (``on_dark``), the heatmap's diverging colours
    centred on the dark panel colour, and heatmap numbers black or white by their cell."""
    body = {k: v for k, v in spec.items() if k not in ("config", "datasets", "usermeta", "$schema")}
    body = _recolour(json.loads(json.dumps(body)))
    _cell_numbers(body)
    config = json.loads(json.dumps(spec.get("config", {})))
    for part in ("axis", "legend"):
        config[part] = {**config.get(part, {}), "labelColor": TEXT, "titleColor": TEXT}
    config["axis"].update(domainColor=OUTLINE, tickColor=OUTLINE, gridColor=GRID_COLOUR)
    config["title"] = {**config.get("title", {}), "color": TEXT, "subtitleColor": TEXT}
    config["view"] = {**config.get("view", {}), "stroke": OUTLINE}
    config["mark"] = {**config.get("mark", {}), "color": ACCENT}
    config["background"] = BACKGROUND
    out = {**spec, **body, "config": config}
    return out
