"""AppTest: the GPT-2 "bank" screen."""

from tests.app.conftest import assert_clean, metric, open_screen, texts


def chips(at) -> str:
    return "\n".join(m.value for m in at.markdown if 'class="chips"' in m.value)


def test_bank_sentences_and_table():
    at = open_screen("tokens")
    html = chips(at)
    assert html.count("<span class=\"id\">3331</span>") == 2
    assert metric(at, "tokens") == "14"          # 7 + newline + 6
    table = [d.value for d in at.dataframe if "id" in d.value.columns][0]
    assert table["id"].tolist() == [1544, 3332, 319, 262, 7850, 3331, 13, 198,
                                    3347, 1392, 257, 3331, 8063, 13]


def test_typing_changes_the_table():
    at = open_screen("tokens")
    at.text_area(key="tok_text").input("The cat sat on the").run()
    assert_clean(at)
    table = [d.value for d in at.dataframe if "id" in d.value.columns][0]
    assert table["id"].tolist() == [464, 3797, 3332, 319, 262]


def test_html_is_shown_escaped():
    at = open_screen("tokens")
    at.text_area(key="tok_text").input("<script>alert(1)</script><img src=x onerror=alert(2)></div>").run()
    assert_clean(at)
    html = chips(at)
    assert "<script" not in html and "<img" not in html and "</div></span>" not in html
    assert "&lt;" in html and "script" in html


def test_endoftext_does_not_raise_either_way():
    at = open_screen("tokens")
    at.text_area(key="tok_text").input("a<|endoftext|>b").run()
    assert_clean(at)
    assert "50256" in chips(at)
    at.toggle(key="tok_special").set_value(False).run()
    assert_clean(at)
    assert "50256" not in chips(at)


def test_compare_view():
    at = open_screen("tokens")
    table = [d.value for d in at.dataframe if "ids" in d.value.columns][0]
    ids = dict(zip(table["text (· = space)"], table["ids"]))
    assert ids["·cat"] == "3797" and ids["·Cat"] == "5181" and ids["·bank"] == "3331"


def test_the_compare_caption_writes_each_token_as_the_table_does():
    """The caption names "·cat" (with its leading space, the table's ·) for 3797, never a bare
    "cat", and tells the spaced "·bank" from the unspaced "bank" by their table ids."""
    at = open_screen("tokens")
    table = [d.value for d in at.dataframe if "ids" in d.value.columns][0]
    ids = dict(zip(table["text (· = space)"], table["ids"]))
    caption = next(c.value for c in at.caption if "not a quantity" in c.value)
    for text in ("·Cat", "·bank"):
        assert f"“{text}” is {ids[text]}" in caption, text
    assert f"“·cat” (cat with the space before it, as in “the cat”) is {ids['·cat']}" in caption
    assert f"“bank” without it is {ids['bank']}" in caption and ids["bank"] != ids["·bank"]
    assert "`" not in caption                 # a code span would drop the leading space on screen


def test_id_lookup():
    at = open_screen("tokens")
    assert "**·bank**" in texts(at)
    for bad in ("50257", "-1", "abc"):
        at.text_input(key="tok_id").input(bad).run()
        assert_clean(at)
        assert any("0 to 50,256" in e.value for e in at.error), bad


def test_long_and_broken_input():
    at = open_screen("tokens")
    # (lone surrogates cannot cross the browser connection at all; core.tokenizer.clean_text
    # handles them for other callers, see tests/test_tokenizer.py)
    # The box's max_chars (issue 19) makes the browser stop a paste at 20,000 characters; a
    # request sending more (as set_value does) is cut to the same length by the server.
    at.text_area(key="tok_text").set_value("word " * 5000).run()
    assert_clean(at)
    assert metric(at, "characters") == "20,000"


def test_missing_vocabulary_file_is_explained(monkeypatch, tmp_path):
    import core.tokenizer as tok
    import lab_ui.server.runs
    # Patch the loader the screen calls (not gpt2.__defaults__, which a wrapper such as
    # mutmut's trampoline would not pass through).
    monkeypatch.setattr(lab_ui.server.runs, "gpt2", lambda: tok.gpt2(tmp_path / "missing.tiktoken"))
    from lab_ui.server.runs import tokenizer
    tokenizer.clear()
    try:
        at = open_screen("tokens")
        assert any("cannot be loaded" in e.value and "missing.tiktoken" in e.value for e in at.error)
        other = open_screen("train")      # every other screen still works
        assert metric(other, "loss, step 0") == "2.487"
    finally:
        monkeypatch.undo()
        tokenizer.clear()
