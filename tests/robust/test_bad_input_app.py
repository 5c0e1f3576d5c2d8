"""Robustness through the screens (AppTest): every bad input gets a message, never a traceback."""
import json

import pytest

from tests.app.conftest import assert_clean, metric, open_screen


def give_text(at, text: str) -> None:
    """The text as a student gives it: pasted into the box when it fits the box's limit (the
    paste guard's), else uploaded as a .txt file."""
    from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT
    if len(text) <= TEXT_AREA_LIMIT:
        at.text_area(key="train_text").input(text).run()
    else:
        at.file_uploader(key="train_upload").set_value(("text.txt", text.encode("utf-8"), "text/plain")).run()


@pytest.mark.parametrize("lr", [20.0, 50.0])
def test_diverging_learning_rates_explain_and_draw_no_nan(lr):
    at = open_screen("train")
    at.select_slider(key="train_lr").set_value(lr).run()
    assert_clean(at)
    assert any("blew up" in e.value for e in at.error)
    assert "nan" not in metric(at, "loss, step").lower()


@pytest.mark.parametrize("key,value", [("train_d_model", 1), ("train_d_model", 32)])
def test_extreme_widths(key, value):
    at = open_screen("train")
    at.slider(key=key).set_value(value).run()
    assert_clean(at)
    assert float(metric(at, "loss, step 3,000")) < 2.487


def test_zero_steps_and_huge_seed():
    at = open_screen("train")
    at.select_slider(key="train_steps").set_value(0).run()
    assert_clean(at)
    assert metric(at, "loss, step 0") == "2.487"
    at.text_input(key="train_seed").input("1e6").run()
    assert_clean(at)


def test_window_larger_than_the_text():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.text_area(key="train_text").input("red fish blue").run()
    at.slider(key="train_window").set_value(5).run()
    assert_clean(at)
    assert metric(at, "pairs") == "6"


@pytest.mark.parametrize("text,message", [
    ("x" * 100_000, "at least two words"),
    ("🐱 🐶 ❤️", "at least two words"),
    ("", "at least two words"),
    ("word " * 200_000, "only one distinct word"),
])
def test_pasted_text(text, message):
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    give_text(at, text)
    assert_clean(at)
    assert any(message in e.value for e in at.error)


def test_a_megabyte_of_varied_text_goes_to_word2vec():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.select_slider(key="train_steps").set_value(100).run()
    text = " ".join(f"w{i % 997} the\r\nx\x0by" for i in range(60_000))   # a NUL would make it a binary file (refused)
    give_text(at, text)
    assert_clean(at)   # about 1,000 distinct words: word2vec's path, on the whole text
    assert any("negative sampling" in i.value for i in at.info)


def test_a_failing_training_run_shows_a_message_and_other_screens_still_work(monkeypatch):
    import lab_ui.server.runs as runs

    def broken(*args, **kwargs):
        raise RuntimeError("simulated fault")
    monkeypatch.setattr(runs.core_run, "run", broken)
    runs.run_cache().clear()                         # nothing cached for the faulty run
    at = open_screen("train")
    assert not at.exception
    assert any("unexpected error" in e.value for e in at.error)
    assert "simulated fault" not in json.dumps([e.value for e in at.error])
    monkeypatch.undo()
    runs.run_cache().clear()
    assert metric(open_screen("train"), "loss, step 0") == "2.487"


@pytest.mark.parametrize("screen,key,value", [
    ("similarity", "sim_u", "nan, 1, 2"), ("similarity", "sim_u", "inf, 1, 2"),
    ("similarity", "sim_u", "1; 2; ; ;"), ("lookup", "lookup_matrix", "1, 2\n3, 4, 5"),
    ("lookup", "lookup_matrix", "a, b\nc, d"), ("lookup", "lookup_batch", "0, 1\n2"),
    ("gradients", "grad_ids", "15, 50257"), ("gradients", "grad_ids", "1e5"),
    ("limits", "limits_a", "<script>alert(1)</script>"), ("tokens", "tok_id", "99999999999999999999"),
])
def test_typed_garbage(screen, key, value):
    at = open_screen(screen)
    widget = at.text_area(key=key) if key in ("lookup_matrix", "lookup_batch") else at.text_input(key=key)
    widget.input(value).run()
    assert_clean(at)
    assert at.error or at.warning or at.info


def test_zero_vector_is_not_an_error():
    at = open_screen("similarity")
    at.text_input(key="sim_v").input("0, 0, 0").run()
    assert_clean(at)
    assert metric(at, "cosine") == "0.000"


def test_tokenizer_takes_a_megabyte():
    at = open_screen("tokens")
    # The box's max_chars stops a paste at 20,000 characters in the browser; a crafted
    # request that sends more is cut to the same length by the server.
    at.text_area(key="tok_text").set_value("<|endoftext|> <b>x</b> " * 45_000).run()
    assert_clean(at)
    assert metric(at, "characters") == "20,000"


def test_the_maximum_number_of_steps_draws():
    """5,000 steps give 5,001 losses: the curve is thinned, never too big to draw."""
    at = open_screen("train")
    at.select_slider(key="train_steps").set_value(5000).run()
    assert_clean(at)
    assert metric(at, "loss, step 5,000")
    at2 = open_screen("train", train_tab="Compare runs", train_steps="5000")
    assert not at2.exception
