"""Approval test of every screen's words and chart settings.

Each screen (the Home screen and every file in app/lab_ui/screens/) is opened at its defaults with
the router, with every chart's table open, and written down as plain text, one line per
element, in the order the screen shows them: every title, text, caption and alert; every
control's label, help text, placeholder and options (and the address key it is kept under);
tab and box labels; button and download labels (with the download's file name and type, also
for a file made only on the click); metric labels and help; each table's columns, their
types, its shape, its row labels and its column settings (hidden index, formats, help); each
chart's Vega-Lite spec with sorted keys, its data reduced to each dataset's columns and row
count (but how many word labels found a free place is masked: ``_PLACED``). The description
is compared with the approved file ``tests/app/approved/<case>.txt``.
Besides each screen at its defaults (``CASES``): each tab of the Train screen (only the open
tab is built), its word-groups text (Result and Negative sampling), a found word (the rings on
the maps), a big uploaded text (word2vec's controls), two 2-D vectors on the Similarity screen
(the arrows), an empty sentence on the Limits screen (its message) and the sidebar's "Build a
lesson link" box opened.

What it leaves out: **every number in a text, a label or a chart's strings is masked to ``#``**
(metric values and deltas, figures in captions, a legend's "loss floor: 1.702"), and table
cells are not written at all. The value tests (tests/app/test_values_*.py) compare those
numbers with the core's own computation; an approved file that held them would be a
hard-coded answer, and would flip on another machine's float rounding. Numbers written in the
code's settings are kept: a chart's mark sizes, dash arrays, offsets and fixed domains (a
number in a spec with more than three decimals is a domain fitted to the data, and masked),
a slider's range and step, a text box's ``max_chars``. Words a screen computes (a caption's
"In both lists: dog, log, ...") are kept. Volatile things are dropped or renamed: element ids
(the key the code gave an element is kept, without the id's hash), a served file's hash, Altair's generated dataset and selection
names (renumbered in order), the sentences that say which of two timed runs was quicker
(``_TIMED``).

A deliberate change of wording or of a chart's settings is approved by rerunning

    EMBEDDING_LAB_APPROVE=1 python -m pytest tests/app/test_screen_words.py::test_screen_words

which rewrites the approved files; review the change with ``git diff tests/app/approved`` and
commit it with the screen change. An unintended change fails with a unified diff.

Cost: mutation runs (tests/mutmut_plugin.py, rule 5) run ``test_screen_words`` for every
mutant of an app/lab_ui module, each case one screen run (mutmut picks the cases that reach
the mutated function); ``test_descriptions_are_deterministic`` (a second fresh run of each
case) is kept out of them.
"""
from __future__ import annotations

import difflib
import json
import os
import re
from pathlib import Path

import pandas as pd
import pytest
from google.protobuf.json_format import MessageToDict
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.runtime.state.common import user_key_from_element_id
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

from lab_ui.screens import registry
from lab_ui.screens.registry import file_of
from lab_ui.screens.train.train_controls import GENERATED, PASTED, TABS
from tests.app.conftest import APP, assert_clean
from tests.bigtext_data import big_text

APPROVED = Path(__file__).parent / "approved"
UPLOAD = "upload"                # a text of over a thousand distinct words, uploaded on the Train screen
LINK_BOX = "links_builder"       # the sidebar box's key: set before the first run, it is open
SCREENS = [s.name for s in registry.SCREENS]
# Each case: (approved file's name, screen, URL parameters). The Train screen builds only its
# open tab (``on_change="rerun"``), so each of its tabs is a case of its own. Then content that
# the defaults do not show: the word-groups text, a found word, the lesson-link box, and so on.
CASES = [(name, name, {}) for name in SCREENS] + [
    (f"train-{tab.lower().replace(' ', '-')}", "train", {"train_tab": tab}) for tab in TABS[1:]] + [
    ("train-word-groups", "train", {"train_source": GENERATED}),
    ("train-word-groups-negative-sampling", "train", {"train_source": GENERATED, "train_tab": "Negative sampling"}),
    ("train-find-word", "train", {"train_find": "cat"}),     # the rings on every map
    ("limits-lesson-link", "limits", {LINK_BOX: True}),      # the box is the same on every screen
    ("train-big-text", "train", {UPLOAD: True}),             # word2vec's controls, before a run
    ("similarity-2d", "similarity", {"sim_u": "3, 1", "sim_v": "1, 2"}),  # two 2-D vectors: the arrows
    ("limits-empty-sentence", "limits", {"limits_a": "cat", "limits_b": " "})]   # the message
APPROVE = os.environ.get("EMBEDDING_LAB_APPROVE") == "1"

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# Fields of an element's message that are not words or settings a user sees.
_VOLATILE = {"id", "form_id", "set_value", "value", "url", "deferred_file_id",
             "arrow_data", "data",
             "spec", "datasets", "selection_state", "page_script_hash"}
# String fields that hold a setting, not a text: their digits are kept.
_SETTINGS = {"tag", "format", "icon", "element_type", "type", "url", "page"}


# Sentences whose words follow a stopwatch (which of two timed runs was quicker): every branch
# of lab_ui.widgets.captions.objectives and lab_ui.widgets.captions.speed_verdict, after masking, becomes one
# fixed mark. Rewording one of those sentences means rewording its pattern here too.
_TIMED = [
    (re.compile(r"Here negative sampling was faster \(# s against # s for the full softmax\)\."
                r"|Here negative sampling was slower \(# s against # s\): on # words the full softmax "
                r"is cheap, and the sampling and small batches cost more than they save\."
                r"|On # words both took about the same time \(# s and # s\): the softmax over so few "
                r"words is cheap\."), "<timed: which objective was quicker>"),
    (re.compile(r"(?:CBOW|skip-gram) was quicker \((?:CBOW|skip-gram) took (?:at least )?# times as long\)"
                r"|CBOW and skip-gram took about the same time \(the slower took # times as long; one "
                r"timing can be off by half, so only # times or more counts as quicker\)"
                r"|CBOW and skip-gram both took under # ms, too little to time apart \(so short a timing "
                r"is mostly the machine's noise\)"),
     "<timed: which was quicker>"),
]


def mask(text: str) -> str:
    """Every number in a text as ``#``: "cosine 0.731 of 12 words" -> "cosine # of # words"
    (and a timed verdict as its mark, ``_TIMED``)."""
    text = _NUMBER.sub("#", text)
    for pattern, mark in _TIMED:
        text = pattern.sub(mark, text)
    return text


def _masked(obj):
    """Strings with their numbers masked, inside any JSON-like value (but a heading's level
    and a number format stay: they are settings), and empty settings dropped."""
    if isinstance(obj, str):
        return mask(obj)
    if isinstance(obj, dict):
        return {k: v if k in _SETTINGS else _masked(v) for k, v in obj.items() if v not in ({}, [])}
    if isinstance(obj, list):
        return [_masked(v) for v in obj]
    return obj


def _table(arrow: bytes) -> str:
    df = convert_arrow_bytes_to_pandas_df(arrow)
    cols = [f"{mask(str(c))} ({df[c].dtype})" if df.columns.is_unique else mask(str(c)) for c in df.columns]
    index = ""
    if not isinstance(df.index, pd.RangeIndex):         # row labels a reader sees ("u", "v", a word)
        index = f"; rows: {' | '.join(mask(str(r)) for r in df.index[:20])}{' ...' if len(df) > 20 else ''}"
    return f"{df.shape[0]} x {df.shape[1]}{index}; columns: {' | '.join(cols)}"


def _spec(proto) -> str:
    """A Vega-Lite spec with its data replaced by each dataset's columns and row count.
    Altair names an unnamed dataset by a hash of its values, and numbers its selections
    and views per process: those names are renumbered in order of appearance."""
    spec = json.loads(proto.spec)
    shapes = {}
    for ds in proto.datasets:
        df = convert_arrow_bytes_to_pandas_df(ds.data.data)
        shapes[ds.name] = {"columns": [str(c) for c in df.columns], "rows": "#" if ds.name in _PLACED else len(df)}
    for name, rows in spec.pop("datasets", {}).items():
        shapes[name] = {"columns": sorted({k for r in rows for k in r}), "rows": len(rows)}
    spec.pop("usermeta", None)             # the renderer: tests/app/test_chart_identity.py
    _strip_values(spec)
    names: dict[str, str] = {}

    def rename(m: re.Match) -> str:
        kind = m.group(1) or "data"          # a bare hash is a dataset's name
        if m.group() not in names:
            names[m.group()] = f"{kind}_{sum(v.startswith(kind) for v in names.values()) + 1}"
        return names[m.group()]
    renamed = json.loads(_GENERATED.sub(rename, json.dumps({"spec": spec, "data": shapes}, sort_keys=True)))
    return json.dumps({"spec": _spec_masked(renamed["spec"]), "data": renamed["data"]}, sort_keys=True)


# Datasets whose row count is a figure the picture decides, not a setting: how many word labels
# found a free place beside their points (lab_ui.widgets.label_layout.place) depends on where the points
# land, and a t-SNE picture lands a little differently on each BLAS kernel (36 labels on one
# machine, 38 on another). Their count is masked like any other number.
_PLACED = {"labels"}
_GENERATED = re.compile(r"\b(?:(data|param|view)[-_][0-9a-f]+|[0-9a-f]{32})\b")
_COLOUR = re.compile(r"#[0-9a-fA-F]{3,8}")
# Spec strings that are code, not text: number formats, expressions, the schema's version, names.
_SPEC_CODE = {"format", "expr", "test", "calculate", "filter", "$schema", "labelExpr", "name"}


def _spec_masked(node, key: str = ""):
    """A spec's settings kept, its figures masked: numbers inside its strings (a legend's
    "loss floor: 1.702", a title's values) and numbers with more than three decimals (a scale's
    domain fitted to the data); short numbers (sizes, dash lengths, offsets) are code's settings."""
    if isinstance(node, dict):
        return {k: _spec_masked(v, k) for k, v in node.items()}
    if isinstance(node, list):
        return [_spec_masked(v, key) for v in node]
    if isinstance(node, str):
        return node if key in _SPEC_CODE or _COLOUR.fullmatch(node) else mask(node)
    if isinstance(node, float) and round(node, 3) != node:
        return "#"
    return node


def _strip_values(node) -> None:
    """Inline data (``"data": {"values": [...]}``) -> its columns and row count."""
    if isinstance(node, dict):
        values = node.get("values") if isinstance(node.get("values"), list) else None
        if values is not None and "data" not in node:
            cols = sorted({k for r in values if isinstance(r, dict) for k in r})
            node["values"] = {"columns": cols, "rows": len(values)}
        for v in node.values():
            _strip_values(v)
    elif isinstance(node, list):
        for v in node:
            _strip_values(v)


def _element(node, files) -> str:
    kind = node.type
    proto = node.proto
    if kind == "vega_lite_chart":
        return f"chart {_spec(proto)}"
    fields = {k: v for k, v in MessageToDict(proto, preserving_proto_field_name=True).items()
              if k not in _VOLATILE or (k == "url" and kind in ("link_button", "page_link"))}
    extra = ""
    if isinstance(fields.get("columns"), str):          # a dataframe's column settings, as JSON
        fields["columns"] = json.loads(fields["columns"])
    if kind in ("dataframe", "table", "arrow_data_frame"):
        extra = " " + _table(proto.arrow_data.data if hasattr(proto, "arrow_data") else proto.data)
    if kind == "download_button":
        fid = proto.deferred_file_id or (proto.url or "").rsplit("/", 1)[-1].split(".")[0]
        name, mime = files[fid]
        extra = f" file {name!r} {mime}"
    if kind == "metric":
        fields.pop("body", None)
        fields.pop("delta", None)
    fields = _masked(fields)
    return f"{kind}{_key(getattr(proto, 'id', ''))}{extra} {json.dumps(fields, sort_keys=True, ensure_ascii=False)}"


def _key(element_id: str) -> str:
    """The key the code gave an element (its state, its place in the address, its CSS class),
    without the id's hash."""
    key = user_key_from_element_id(element_id) if element_id.startswith("$$") else None
    return f" key={key}" if key else ""


def _block(node) -> str:
    label = getattr(node, "label", None) or ""
    return node.type + _key(node._block_id) + (f" {mask(label)!r}" if label else "")


def describe(at, files) -> str:
    lines: list[str] = []

    def walk(node, depth):
        for i in sorted(node.children):
            child = node.children[i]
            if isinstance(child, Block):
                lines.append("  " * depth + _block(child))
                walk(child, depth + 1)
            else:
                lines.append("  " * depth + _element(child, files))

    walk(at._tree, 0)
    return "\n".join(lines) + "\n"


@pytest.fixture
def files(monkeypatch):
    """Each served file's name and type by its id (a download's URL holds only a hash)."""
    seen: dict[str, tuple[str, str]] = {}
    load = MemoryMediaFileStorage.load_and_get_id
    add_deferred = MediaFileManager.add_deferred      # a file made only on the click (PNG, SVG)

    def record(self, path_or_data, mimetype, kind, filename=None):
        fid = load(self, path_or_data, mimetype, kind, filename)
        seen[fid] = (filename, mimetype)
        return fid

    def record_deferred(self, data_callable, mimetype, coordinates, file_name=None, **kw):
        fid = add_deferred(self, data_callable, mimetype, coordinates, file_name=file_name, **kw)
        seen[fid] = (file_name, mimetype)
        return fid

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", record)
    monkeypatch.setattr(MediaFileManager, "add_deferred", record_deferred)
    return seen


_SEEN: dict[str, str] = {}      # each case's description from test_screen_words, for the next test


def screen_text(screen: str, query: dict, files) -> str:
    """The screen at its defaults, run once, as ``tests/app/conftest.py::open_screen`` opens it."""
    query = dict(query)
    upload = query.pop(UPLOAD, False)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["tables"] = True
    if query.pop(LINK_BOX, False):
        at.session_state[LINK_BOX] = True
    at.query_params.update(query)
    at.run()
    if screen != "home":
        at.switch_page(file_of(screen)).run()
    if upload:
        at.radio(key="train_source").set_value(PASTED).run()
        at.file_uploader(key="train_upload").set_value(("big.txt", big_text(50_000).encode(), "text/plain")).run()
    assert_clean(at)
    return describe(at, files)


@pytest.mark.parametrize("name, screen, query", CASES, ids=[c[0] for c in CASES])
def test_screen_words(name, screen, query, files):
    got = _SEEN[name] = screen_text(screen, query, files)
    path = APPROVED / f"{name}.txt"
    if APPROVE:
        path.parent.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
        return
    want = path.read_text(encoding="utf-8") if path.exists() else ""
    if got != want:
        pytest.fail(f"The {name} screen's words or chart settings changed. If deliberate, approve "
                    f"with EMBEDDING_LAB_APPROVE=1 (module docstring).\n"
                    f"{_diff(want, got, f'approved/{name}.txt', 'on screen')}", pytrace=False)


def _diff(a: str, b: str, name_a: str, name_b: str) -> str:
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True), name_a, name_b, n=1))[:6000]


@pytest.mark.parametrize("name, screen, query", CASES, ids=[c[0] for c in CASES])
def test_descriptions_are_deterministic(name, screen, query, files):
    """Two fresh runs of a screen describe it alike: nothing random or volatile in the files.
    The first is ``test_screen_words``'s run when it ran before in this session. (Not run for
    mutants: ``test_screen_words`` runs each screen once.)"""
    first = _SEEN.pop(name, None) or screen_text(screen, query, files)
    second = screen_text(screen, query, files)
    assert second == first, _diff(first, second, "first run", "second run")


@pytest.mark.parametrize("softmax, ns", [(1.0, 1.0), (1.0, 3.0), (3.0, 1.0)])
def test_every_timed_verdict_is_masked(softmax, ns):
    """Whichever run was quicker, a timed sentence reads the same in the approved file."""
    from lab_ui.widgets import captions

    assert "<timed: which objective was quicker>" in mask(captions.objectives(12, softmax, ns, 6))
    assert mask(captions.speed_verdict("CBOW", softmax, "skip-gram", ns)) == "<timed: which was quicker>"


def test_every_approved_file_is_a_case():
    """A case removed or renamed leaves no stale approved file behind."""
    assert {p.stem for p in APPROVED.glob("*.txt")} == {c[0] for c in CASES}
