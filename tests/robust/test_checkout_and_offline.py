"""A Windows checkout, server paths in messages, and no outside request at start (issue 19)."""
import subprocess
from pathlib import Path

import pytest

from core.tokenizer import RANKS_PATH, RANKS_SHA256, TokenizerUnavailable, gpt2
from tests.conftest import ROOT


def test_gitattributes_keep_the_bundled_data_byte_exact():
    out = subprocess.run(["git", "check-attr", "text", "binary", "--", "core/data/gpt2.tiktoken"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "text: unset" in out and "binary: set" in out, out


def test_a_crlf_checkout_reads_the_same_ranks(tmp_path):
    """What Git for Windows (core.autocrlf=true) would write without .gitattributes."""
    crlf = tmp_path / "gpt2.tiktoken"
    crlf.write_bytes(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    enc, ref = gpt2(crlf), gpt2()
    assert enc.encode(" bank") == ref.encode(" bank") == [3331]
    assert enc._mergeable_ranks == ref._mergeable_ranks
    assert enc.decode(ref.encode("Hello, world! Ünïcödé 🐱")) == "Hello, world! Ünïcödé 🐱"


def test_mixed_line_endings_read_the_same_ranks(tmp_path):
    lines = RANKS_PATH.read_bytes().split(b"\n")
    mixed = b"".join(line + (b"\r\n" if i % 2 else b"\n") for i, line in enumerate(lines[:-1]))
    f = tmp_path / "gpt2.tiktoken"
    f.write_bytes(mixed)
    assert gpt2(f).encode(" bank") == [3331]


def test_any_other_change_is_still_refused(tmp_path):
    data = bytearray(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    data[100] ^= 1
    f = tmp_path / "gpt2.tiktoken"
    f.write_bytes(bytes(data))
    with pytest.raises(TokenizerUnavailable, match="damaged"):
        gpt2(f)


@pytest.mark.parametrize("make", ["missing", "damaged", "folder"])
def test_messages_never_show_server_paths(tmp_path, make):
    f = tmp_path / "deep" / "secret-server-folder" / "gpt2.tiktoken"
    f.parent.mkdir(parents=True)
    if make == "damaged":
        f.write_bytes(b"garbage 0\n")
    elif make == "folder":
        f.mkdir()
    with pytest.raises(TokenizerUnavailable) as info:
        gpt2(f, RANKS_SHA256)
    message = str(info.value)
    assert "gpt2.tiktoken" in message
    assert str(tmp_path) not in message and "secret-server-folder" not in message
    assert "/" not in message.split("(git checkout")[0], message


def test_the_bundled_file_is_named_relative_to_the_repository(monkeypatch):
    import core.tokenizer as tok
    monkeypatch.setattr(Path, "read_bytes", lambda self: (_ for _ in ()).throw(
        PermissionError(13, "Permission denied")))
    with pytest.raises(TokenizerUnavailable) as info:
        tok.gpt2()
    assert "core/data/gpt2.tiktoken" in str(info.value)
    assert str(ROOT) not in str(info.value)
    assert "permission denied" in str(info.value)
