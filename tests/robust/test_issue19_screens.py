"""Issue 19 through the screens (AppTest): literal quoting, strict numbers, honest notices."""
import re

import pytest
from streamlit.testing.v1 import AppTest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train
from tests.app.conftest import APP, assert_clean, metric, open_screen, texts

LINKY = ["www.evil.example", "https://evil.example/login", "teacher@evil.example",
         "[click](https://evil.example)", "<a href=x>x</a>", "**bold** :red[alarm] $x^2$"]


def _outside_code_spans(markdown: str) -> str:
    """What Markdown would still interpret: code spans and backslash-escaped characters removed."""
    return re.sub(r"\\.", "", re.sub(r"(`+) .*? \1", "", markdown))


def _assert_literal(markdown: str) -> None:
    """Nothing Markdown could turn into a link, formatting, HTML, a directive or LaTeX."""
    rest = _outside_code_spans(markdown)
    for raw in ("www.", "://", "@", "](", "<a", "**", ":red[", "$x"):
        assert raw not in rest, (raw, markdown)


@pytest.mark.parametrize("value", LINKY)
def test_link_values_are_quoted_literally(value):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"train_d_model": value})
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert_clean(at)
    notice = " ".join(w.value for w in at.warning)
    assert "d_model" in notice
    _assert_literal(notice)


@pytest.mark.parametrize("value", LINKY)
def test_vector_box_errors_quote_literally(value):
    at = open_screen("similarity")
    at.text_input(key="sim_u").input(value).run()
    assert_clean(at)
    message = " ".join(e.value for e in at.error)
    assert "not a number" in message
    _assert_literal(message)


def test_exercise_feedback_quotes_literally():
    at = open_screen("similarity")
    at.text_input(key="sim_ex1_answer").input("see www.evil.example")
    next(b for b in at.button if b.proto.form_id == "sim_ex1").click().run()
    warning = " ".join(w.value for w in at.warning)
    assert "` see ` " not in warning and "www.evil.example" in warning
    assert "www." not in _outside_code_spans(warning)


# --- numbers ----------------------------------------------------------------------------------

def test_seed_in_scientific_notation_is_read_exactly():
    at = open_screen("train")
    at.text_input(key="train_seed").input("1e6").run()
    assert_clean(at)
    ref = train(Corpus.from_text(GUIDE_TEXT), SkipGramConfig(seed=1_000_000))
    assert metric(at, "loss, step 0") == f"{ref.losses[0]:.3f}"
    assert metric(at, "loss, step 3,000") == f"{ref.final_loss:.3f}"
    assert metric(at, "loss, step 3,000") != "1.713"          # not seed 1, not seed 0


@pytest.mark.parametrize("typed", ["1.5", "1e-3", "abc", "-3", "2e6"])
def test_a_seed_that_is_not_a_whole_number_in_range_is_refused_clearly(typed):
    at = open_screen("train")
    at.text_input(key="train_seed").input(typed).run()
    assert_clean(at)
    warning = " ".join(w.value for w in at.warning)
    assert "Seed" in warning and "Using seed 0" in warning
    assert metric(at, "loss, step 3,000") == "1.713"


def test_parameter_boxes_read_scientific_notation():
    at = open_screen("parameters")
    at.selectbox(key="params_preset").set_value("Custom").run()
    at.text_input(key="params_vocab_Custom").input("5e4").run()
    at.text_input(key="params_d_Custom").input("1e3").run()
    assert_clean(at)
    assert metric(at, "embedding table") == "50,000,000"
    at.text_input(key="params_d_Custom").input("1.5e0").run()
    assert any("not a whole number" in e.value for e in at.error)


@pytest.mark.parametrize("key,typed,right", [
    ("params_ex1", "131,072,000", True),
    ("params_ex1", "131072000", True),
    ("params_ex1", "131,072,001", False),       # off by one: a count is exact
    ("params_ex1", "131,500,000", False),       # 0.3% off: was accepted before issue 19
    ("params_ex2", "77 194 752", True),
    ("params_ex2", "7.7194752e7", True),
])
def test_counts_are_exact(key, typed, right):
    at = open_screen("parameters")
    at.text_input(key=f"{key}_answer").input(typed)
    next(b for b in at.button if b.proto.form_id == key).click().run()
    assert_clean(at)
    assert bool(at.success) == right and bool(at.error) == (not right)


@pytest.mark.parametrize("typed,right", [("0,96", True), ("0.96", True), ("0,960", True),
                                         ("0,5", False), ("96%", True), ("0.96%", False)])   # 96% is 0.96
def test_decimals_read_a_decimal_comma(typed, right):
    at = open_screen("similarity")
    at.text_input(key="sim_ex1_answer").input(typed)
    next(b for b in at.button if b.proto.form_id == "sim_ex1").click().run()
    assert_clean(at)
    assert bool(at.success) == right


def test_the_id_box_never_echoes_a_long_input():
    at = open_screen("tokens")
    at.text_input(key="tok_id").set_value("9" * 1_000_000).run()   # past max_chars, as a crafted request
    assert_clean(at)
    message = " ".join(e.value for e in at.error)
    assert "0 to 50,256" in message and len(message) < 300


def test_the_id_box_reads_scientific_notation():
    at = open_screen("tokens")
    at.text_input(key="tok_id").input("3.331e3").run()
    assert "**·bank**" in texts(at)


# --- honest notices ---------------------------------------------------------------------------

def test_limits_says_case_and_punctuation_are_dropped():
    at = open_screen("limits")
    at.text_input(key="limits_a").input("The cat saw the DOG!").run()
    at.text_input(key="limits_b").input("the cat saw the dog").run()
    assert_clean(at)
    info = " ".join(i.value for i in at.info)
    assert "Same sentence, same vector" in info and "capital letters or punctuation" in info
    assert not [w for w in at.warning if "Identical" in w.value]


def test_limits_still_shows_the_order_collapse():
    at = open_screen("limits")
    at.text_input(key="limits_b").input("The dog saw the cat.").run()
    assert any("Identical vectors" in w.value for w in at.warning)


def test_a_link_to_a_pasted_text_run_says_the_text_is_not_in_it():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"train_source": "Paste your own text", "train_d_model": "8"})
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert_clean(at)
    assert any("carries only the settings, not the text" in i.value for i in at.info)
    assert "not in the address" in texts(at)
