"""Hostile inputs, screens: own texts of any length open their settings, and every text box
has the paste guard.

* Own text with more than 300 distinct words and 61,601-114,201 or 126,401-218,101 words
  crashed the Train screen: the suggested Epochs value (``round(1.2 million / words)``) was
  not one of the control's options ("12 is not in iterable").
* 300 KB pasted into the Train screen's own-text box froze its tab for 104 s: that box was the
  one the paste guard (``lab_ui.widgets.paste_guard``, a native ``maxlength``) left out.
"""
import ast
import importlib
from pathlib import Path

import pytest

from core.bigtext import EPOCH_CHOICES, MAX_SOFTMAX_VOCAB, suggested_epochs
from tests.app.conftest import assert_clean, open_screen, texts
from tests.conftest import ROOT

TEXT_BOXES = {"text_area", "text_input", "chat_input"}


def test_the_suggested_epochs_is_an_option_at_every_word_count():
    """Every count from 0 to 400,000 words (both reported ranges and past them), then every
    thousandth up to 5 million (a 5 MB text has at most 2.5 million words) and beyond."""
    counts = list(range(0, 400_001)) + list(range(400_000, 5_000_001, 1_000)) + [10**7, 10**9, 10**12]
    wrong = [n for n in counts if suggested_epochs(n) not in EPOCH_CHOICES]
    assert not wrong, f"{len(wrong):,} word counts get an epoch count the control does not offer, e.g. {wrong[:5]}"
    assert {suggested_epochs(n) for n in counts} == {5, 10, 20}
    # more words never get more passes
    assert all(suggested_epochs(a) >= suggested_epochs(b) for a, b in zip(counts, counts[1:]))


@pytest.mark.parametrize("n_words", [61_601, 218_101])
def test_a_big_text_at_a_reported_word_count_shows_word2vecs_settings(n_words):
    """The two ends of the reported ranges, through the screen (an uploaded file)."""
    text = " ".join(f"w{i % (MAX_SOFTMAX_VOCAB + 100)}" for i in range(n_words))
    at = open_screen("train", tables=False)
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("big.txt", text.encode(), "text/plain")).run()
    assert_clean(at)
    epochs = at.select_slider(key="train_w2v_epochs")
    assert list(epochs.options) == [str(e) for e in EPOCH_CHOICES]
    assert epochs.value == suggested_epochs(n_words)
    assert f"{n_words:,} words × {epochs.value} epochs" in texts(at)


def _text_box_calls():
    """Every call of a Streamlit text box in app/: (file, line, box, its max_chars expression)."""
    for path in sorted((ROOT / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in TEXT_BOXES:
                limit = next((k.value for k in node.keywords if k.arg == "max_chars"), None)
                yield path, tree, node, limit


def _value(path: Path, tree: ast.Module, expr: ast.expr):
    """A ``max_chars`` expression's value: a number, a module-level name of the same file, or
    a name imported from a module without side effects (lab_ui's helpers, core)."""
    if isinstance(expr, ast.Constant):
        return expr.value
    assert isinstance(expr, ast.Name), f"{path.name}: max_chars={ast.unparse(expr)} is not a name or number"
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == expr.id for t in node.targets):
            return _value(path, tree, node.value)
        if isinstance(node, ast.ImportFrom) and expr.id in {a.asname or a.name for a in node.names}:
            return getattr(importlib.import_module(node.module), expr.id)
    raise AssertionError(f"{path.name}: cannot find the value of {expr.id}")


def test_every_text_box_in_the_app_has_a_limit_within_the_paste_guard():
    """A new box without ``max_chars`` (or above the guard's limit for its kind) fails here."""
    from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT, TEXT_INPUT_LIMIT

    calls = list(_text_box_calls())
    assert len(calls) >= 15                               # the screens' boxes, found
    for path, tree, node, limit in calls:
        where = f"{path.relative_to(ROOT)}:{node.lineno}"
        assert limit is not None, f"{where}: a text box without max_chars"
        value = _value(path, tree, limit)
        most = TEXT_AREA_LIMIT if node.func.attr == "text_area" else TEXT_INPUT_LIMIT
        assert isinstance(value, int) and 0 < value <= most, f"{where}: max_chars {value} (guard: {most})"


def test_the_guard_reaches_every_box_on_the_page():
    """The browser-side script leaves no box out: its selectors are every text area and every
    one-line box, with no test on a box's label."""
    from lab_ui.widgets import paste_guard

    script = paste_guard._SCRIPT
    assert "['[data-testid=\"stTextArea\"] textarea', 20000]" in script
    assert "['[data-testid=\"stTextInput\"] input', 4000]" in script
    assert "aria-label" not in script and "label" not in script.replace("data-testid", "")


def test_the_train_screen_s_own_text_box_takes_what_the_guard_allows():
    """The box's limit is the guard's (the browser cuts a paste there); Streamlit itself
    refuses a longer value from any client, keeping the box's previous text."""
    from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT

    at = open_screen("train", tables=False)
    at.radio(key="train_source").set_value("Paste your own text").run()
    box = at.text_area(key="train_text")
    assert box.proto.max_chars == TEXT_AREA_LIMIT
    assert f"up to {TEXT_AREA_LIMIT:,} characters; upload a longer one as a file" in box.label
    text = ("the cat sat on the mat and the dog sat on the log " * 400)[:TEXT_AREA_LIMIT]
    box.input(text).run()
    assert_clean(at)
    assert at.text_area(key="train_text").value == text
    box = at.text_area(key="train_text")
    box.input(text + " and more").run()                       # one character over: refused
    assert_clean(at)
    assert at.text_area(key="train_text").value == text
