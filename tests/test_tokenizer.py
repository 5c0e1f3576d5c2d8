"""GPT-2's tokenizer from the bundled file: the ids of docs/lesson.md sections 1, 2 and 9."""
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.params import GPT2_VOCAB_SIZE
from core.tokenizer import (EOT_ID, RANKS_PATH, TokenizerUnavailable, clean_text, gpt2,
                            id_to_text, parse_ranks, tokenize)


@pytest.fixture(scope="module")
def enc():
    return gpt2()


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Any attempt to open a socket fails the test: nothing may be fetched."""
    def refuse(*args, **kwargs):
        raise AssertionError("the tokenizer tried to use the network")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("text,ids", [
    ("He sat on the river bank.", [1544, 3332, 319, 262, 7850, 3331, 13]),
    ("She got a bank loan.", [3347, 1392, 257, 3331, 8063, 13]),
    ("The cat sat on the", [464, 3797, 3332, 319, 262]),
    (" cat", [3797]),
    (" Cat", [5181]),
])
def test_lesson_ids(enc, text, ids):
    assert enc.encode(text) == ids


def test_bank_decodes(enc):
    assert enc.decode([3331]) == " bank"
    assert id_to_text(enc, 3331) == " bank"


def test_vocabulary_size(enc):
    assert enc.n_vocab == 50_257 == GPT2_VOCAB_SIZE
    assert enc.eot_token == EOT_ID == 50_256


def test_vocabulary_is_bytes_then_merges_then_end_of_text():
    ranks = parse_ranks(RANKS_PATH.read_bytes())        # every token but <|endoftext|>
    assert sorted(ranks.values()) == list(range(50_256))
    assert sorted(i for piece, i in ranks.items() if len(piece) == 1) == list(range(256))


def test_endoftext_text_does_not_crash(enc):
    text = "end<|endoftext|>start"
    as_special = [t.id for t in tokenize(enc, text, special_as_token=True)]
    as_plain = [t.id for t in tokenize(enc, text, special_as_token=False)]
    assert EOT_ID in as_special
    assert EOT_ID not in as_plain and len(as_plain) > len(as_special)


def test_split_emoji_is_marked_partial(enc):
    toks = tokenize(enc, "🐱")
    assert len(toks) > 1 and all(t.partial for t in toks)  # 4 UTF-8 bytes, split across tokens
    assert enc.decode([t.id for t in toks]) == "🐱"


@pytest.mark.parametrize("bad", [-1, 50_257, 10**12])
def test_id_outside_range(enc, bad):
    with pytest.raises(ValueError, match="0 to 50,256"):
        id_to_text(enc, bad)


def test_corrupted_file_is_refused(tmp_path):
    bad = tmp_path / "gpt2.tiktoken"
    data = bytearray(RANKS_PATH.read_bytes())
    data[100] ^= 1
    bad.write_bytes(bytes(data))
    with pytest.raises(TokenizerUnavailable, match="gpt2.tiktoken.*damaged"):
        gpt2(bad)


def test_missing_file_is_refused(tmp_path):
    with pytest.raises(TokenizerUnavailable, match="could not be read"):
        gpt2(tmp_path / "nope.tiktoken")


def test_loading_writes_nothing_to_the_tiktoken_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    gpt2()
    assert list(tmp_path.iterdir()) == []


def test_clean_text_replaces_lone_surrogates_and_cuts():
    text, notes = clean_text("a\ud800b" + "x" * 50, limit=10)
    assert text == "a\ufffdb" + "x" * 7
    assert len(notes) == 2


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_round_trip(text):
    assert _ENC.decode(_ENC.encode(text, disallowed_special=())) == text


@settings(max_examples=50, deadline=None)
@given(st.from_regex(r"[ \t\n]{0,12}[a-z🐱é]{0,8}[ \t\n]{0,12}", fullmatch=True))
def test_round_trip_whitespace_runs(text):
    assert _ENC.decode(_ENC.encode(text)) == text


_ENC = gpt2()
