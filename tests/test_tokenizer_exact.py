"""core.tokenizer: ids, pieces, cleaned text and the ranks file's messages, pinned exactly (details
mutation testing found loose: docs/quality.md)."""

import pytest

from core.tokenizer import clean_text, gpt2, id_to_text


def test_clean_text_surrogates_and_cut_messages():
    text, notes = clean_text("a\ud800b\udfffc", limit=100)
    assert text == "a\ufffdb\ufffdc"
    assert notes == ["Replaced 2 broken character(s) (lone surrogates, left by a bad copy-paste) with \ufffd."]
    assert clean_text("a\ue000", limit=100) == ("a\ue000", [])      # just past the surrogates: a normal character
    text, notes = clean_text("abcdef", limit=4)
    assert text == "abcd" and notes == ["The text was cut to its first 4 characters (it had 6)."]


def test_id_to_text_bounds_and_message():
    enc = gpt2()
    assert id_to_text(enc, 0) == "!" and id_to_text(enc, 50_256) == "<|endoftext|>"
    for bad in (-1, 50_257, 3.0):
        with pytest.raises(ValueError, match=r"^GPT-2's ids run from 0 to 50,256; .* is not one\.$"):
            id_to_text(enc, bad)


def test_tokenize_defaults_positions_pieces_and_partial_bytes():
    from core.tokenizer import tokenize
    enc = gpt2()
    assert [t.id for t in tokenize(enc, "a<|endoftext|>")] == [64, 50_256]     # special token by default
    toks = tokenize(enc, "He sat by the bank")
    assert [t.position for t in toks] == list(range(len(toks)))
    assert "".join(t.text for t in toks) == "He sat by the bank" and not any(t.partial for t in toks)
    emoji = tokenize(enc, "🦜")
    assert len(emoji) > 1 and all(t.partial for t in emoji) and all("\ufffd" in t.text for t in emoji)


def test_gpt2_messages_name_the_file(tmp_path):
    from core.tokenizer import TokenizerUnavailable
    with pytest.raises(TokenizerUnavailable, match=r"^The GPT-2 vocabulary file .*missing\.tiktoken could not be "
                                                   r"read \(No such file or directory\)\.$"):
        gpt2(tmp_path / "missing.tiktoken")
    bad = tmp_path / "bad.tiktoken"
    bad.write_bytes(b"not the ranks")
    with pytest.raises(TokenizerUnavailable, match=r"does not match the published one\. Restore it from the "
                                                   r"repository \(git checkout core/data\)\.$"):
        gpt2(bad)
    assert gpt2().name == "gpt2-offline" and gpt2().n_vocab == 50_257


def test_a_file_error_without_a_description_is_named_by_its_kind(tmp_path, monkeypatch):
    from pathlib import Path

    from core.tokenizer import TokenizerUnavailable, gpt2

    def fail(self):
        raise PermissionError()                        # no strerror: the message names the kind

    monkeypatch.setattr(Path, "read_bytes", fail)
    with pytest.raises(TokenizerUnavailable) as caught:
        gpt2(tmp_path / "gpt2.tiktoken")
    assert str(caught.value) == "The GPT-2 vocabulary file gpt2.tiktoken could not be read (PermissionError)."


def test_clean_text_replaces_only_surrogates_and_cuts_only_past_the_limit():
    from core.tokenizer import clean_text

    fixed, notes = clean_text("a\ud800\ue000b", limit=100)  # U+E000 (private use) is a real character
    assert fixed == "a\ufffd\ue000b" and len(notes) == 1
    assert clean_text("abc", limit=3) == ("abc", [])        # exactly at the limit: nothing cut
    assert clean_text("abcd", limit=3) == ("abc", ["The text was cut to its first 3 characters (it had 4)."])


def test_a_crlf_copy_of_the_ranks_file_loads_the_same_tokenizer(tmp_path):
    from core.tokenizer import RANKS_PATH, gpt2

    crlf = tmp_path / "gpt2.tiktoken"
    crlf.write_bytes(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    enc = gpt2(crlf)
    assert enc.n_vocab == 50_257 and enc.encode(" bank") == [3331]


def test_a_token_that_is_part_of_a_character_reads_as_the_replacement_mark():
    from core.tokenizer import gpt2, id_to_text

    enc = gpt2()
    assert enc.decode_single_token_bytes(94) == b"\xa1"        # one byte of a two-byte character
    assert id_to_text(enc, 94) == "\ufffd"
