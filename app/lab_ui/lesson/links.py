"""Lesson links: every screen's controls live in the page address (``bind="query-params"``),
so a link opens a screen in a fixed state; ``hide=key1,key2`` hides chosen controls or
sections (any keyed element: a control's key, or a panel's) for a class; a value a screen
cannot use falls back to its default with a notice; and the sidebar builds such a link.

The Train screen keeps its own richer notice (``lab_ui.screens.train.train_controls.link_notice``) for its
run settings; this one covers every other bound control."""
from __future__ import annotations

import ast
import functools
import re

import streamlit as st

from lab_ui import APP_DIR
from lab_ui.widgets.chips import hide_css
from lab_ui.widgets.common import plain
from lab_ui.lesson.handout import TABLES_KEY
from lab_ui.screens.registry import BY_FILE

HIDE_KEY = "hide"
RESERVED = {"present", "theme", "handout", TABLES_KEY, HIDE_KEY}
KEY_RULE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def given() -> dict[str, list[str]]:
    """The settings the page's address carries (read before the screen runs)."""
    return {k: st.query_params.get_all(k) for k in st.query_params if k not in RESERVED}


def follow_renames(renamed: dict[str, dict[str, str]]) -> None:
    """Older links keep working after a value was renamed (``renamed``: key -> old value ->
    new value): on the link's first load the address takes the new value and the page starts
    again from it, so the control opens on it and the address shows it."""
    moved = False
    for key, names in renamed.items():
        raw = st.query_params.get_all(key)
        if len(raw) == 1 and raw[0] in names and key not in st.session_state:
            st.query_params[key] = names[raw[0]]
            moved = True
    if moved:
        st.rerun()


def _shown(value) -> list[str]:
    """A widget's value as the address writes it."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return ["true" if v is True else "false" if v is False else str(v) for v in values]


def _same(raw: list[str], value) -> bool:
    shown = _shown(value)
    if len(raw) != len(shown):
        return False
    for r, s in zip(raw, shown):
        try:
            if float(r) != float(s):
                return False
        except ValueError:
            if r.lower() != s.lower():
                return False
    return True


def unusable(link: dict[str, list[str]], skip: set[str]) -> list[tuple[str, list[str], object]]:
    """(key, what the link said, what the screen uses) for every setting of this screen that
    the link gave but the control could not take."""
    return [(k, raw, st.session_state[k]) for k, raw in link.items()
            if k not in skip and k in st.session_state and not _same(raw, st.session_state[k])]


def notice(where, link: dict[str, list[str]], skip: set[str]) -> None:
    bad = unusable(link, skip)
    if bad:
        where.warning("Some settings in this link could not be used and fell back to the screen's "
                      "own values: " + "; ".join(f"{plain(k)} = {plain(', '.join(repr(r[:30]) for r in raw[:3]))} "
                                                 f"(using {plain(str(v)[:40])})" for k, raw, v in bad) + ".")


def hidden() -> tuple[list[str], list[str]]:
    """(keys to hide, entries of ``hide=`` that are not keys) from the page's address."""
    entries = [e.strip() for raw in st.query_params.get_all(HIDE_KEY) for e in raw.split(",") if e.strip()]
    return [e for e in entries if KEY_RULE.match(e)], [e for e in entries if not KEY_RULE.match(e)]


def apply_hide(where) -> None:
    keys, bad = hidden()
    if keys:
        st.html(hide_css(keys))
    if bad:
        where.warning("These entries of hide= are not element keys and were ignored: "
                      + plain(", ".join(repr(b[:30]) for b in bad[:5])) + ".")


_NAMED: dict[str, str] = {}
"""Labels of the controls whose key is made at run time (``named``), by key."""


def named(key: str, label: str) -> str:
    """``key``, with ``label`` noted as its control's label for the link builder: for a
    control whose key is made at run time (``f"{prefix}a"``), which the source cannot tell."""
    _NAMED[key] = label
    return key


def _text(node) -> str | None:
    """A label written in the source: a string, or an f-string with "…" for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "…" for v in node.values)
    return None


@functools.cache
def written_labels() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(label by key, [(key prefix, label)]) of every call in app/ written as
    ``widget("Label", ..., key="screen_key")`` (or ``key=f"screen_key_{...}"``: a prefix),
    read from the source once per process."""
    exact: dict[str, str] = {}
    prefixed: list[tuple[str, str]] = []
    for path in sorted(APP_DIR.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            kw = {k.arg: k.value for k in node.keywords}
            label = _text(node.args[0] if node.args else kw.get("label"))
            key = kw.get("key")
            if label is None or key is None:
                continue
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                exact[key.value] = label
            elif isinstance(key, ast.JoinedStr) and isinstance(key.values[0], ast.Constant):
                prefixed.append((str(key.values[0].value), label))
    return exact, sorted(prefixed, key=lambda p: -len(p[0]))


def label_of(key: str) -> str:
    """The label of the control kept under ``key`` (the key itself if none is known)."""
    exact, prefixed = written_labels()
    if key in _NAMED:
        return _NAMED[key]
    if key in exact:
        return exact[key]
    return next((label for start, label in prefixed if key.startswith(start)), key)


def builder(where, page_file: str) -> None:
    """In the sidebar: pick this screen's controls to hide and copy the link (the box's content
    is built only while it is open, like the charts' tables)."""
    from lab_ui.lesson.handout import address
    screen = BY_FILE.get(page_file)
    prefix = screen.prefix if screen else ""
    if not prefix:
        return
    box = where.expander("Build a lesson link", key="links_builder", on_change="rerun")
    if not box.open:       # built only while open: a closed box costs every rerun of every screen nothing
        return
    keys = sorted(k for k in st.session_state if isinstance(k, str) and k.startswith(prefix)
                  and KEY_RULE.match(k) and not k.endswith(("_reset", "_held", "_png", "_svg", "_box")))
    with box:
        st.caption("The address already holds this screen's settings. Pick controls to hide from the "
                   "class, then copy the link.")
        chosen = st.multiselect("Hide", keys, key="links_hide_choice", format_func=label_of)
        link = address(**({HIDE_KEY: ",".join(chosen)} if chosen else {}))
        st.caption("The link, whole (point at it: the button at its top right copies it):")
        st.code(link or "(open the app in a browser to get its address)", language=None, wrap_lines=True)
