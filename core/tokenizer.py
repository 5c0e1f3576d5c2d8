"""GPT-2's tokenizer, built offline from a bundled ranks file.

``tiktoken.get_encoding("gpt2")`` downloads its vocabulary the first time it is
used, which fails in an offline classroom. The same ranks ship in this package as
``core/data/gpt2.tiktoken`` (see ``core/data/LICENSE-gpt2-tiktoken.md``): one line
per token, ``base64(token bytes) rank``, where the rank *is* the GPT-2 token id.
The split pattern comes from ``tiktoken_ext.openai_public`` (importing it
downloads nothing), and ``<|endoftext|>`` is id 50,256.
"""
from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import tiktoken
from tiktoken_ext.openai_public import ENDOFTEXT, r50k_pat_str

from core.params import GPT2_VOCAB_SIZE

if TYPE_CHECKING:
    from core.encodings import TextEncoding

RANKS_PATH = Path(__file__).parent / "data" / "gpt2.tiktoken"
RANKS_SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"
EOT_ID = GPT2_VOCAB_SIZE - 1
"""``<|endoftext|>``, GPT-2's one special token: the last id."""
ENCODINGS = ("gpt2", "cl100k_base", "o200k_base", "smollm2-135m")


class TokenizerUnavailable(RuntimeError):
    """The bundled ranks file is missing or damaged; the message names the file."""


def gpt2(path: str | os.PathLike = RANKS_PATH, expected_hash: str = RANKS_SHA256) -> tiktoken.Encoding:
    """A ``tiktoken.Encoding`` identical to GPT-2's, loaded with no network.

    Line endings do not matter: a checkout that turned the file's ``\\n`` into ``\\r\\n``
    (Git for Windows with ``core.autocrlf=true``, before ``.gitattributes`` marked the file
    binary) is read as the same ranks. The SHA-256 is checked over the LF-normalised bytes,
    which are exactly the published file, so any other change is still refused.
    Raises ``TokenizerUnavailable`` naming the file (never a server path) if it is missing or
    its checksum does not match.

    >>> enc = gpt2()
    >>> enc.encode(" bank"), enc.n_vocab
    ([3331], 50257)
    """
    path = Path(path)
    name = _shown_name(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise TokenizerUnavailable(
            f"The GPT-2 vocabulary file {name} could not be read ({_reason(err)})."
        ) from err
    data = data.replace(b"\r\n", b"\n")       # CRLF -> LF: the published bytes
    if hashlib.sha256(data).hexdigest() != expected_hash:
        raise TokenizerUnavailable(
            f"The GPT-2 vocabulary file {name} is damaged: its SHA-256 checksum does not match "
            "the published one. Restore it from the repository (git checkout core/data)."
        )
    ranks = parse_ranks(data)
    return tiktoken.Encoding(
        name="gpt2-offline",
        pat_str=r50k_pat_str,
        mergeable_ranks=ranks,
        special_tokens={ENDOFTEXT: EOT_ID},
        explicit_n_vocab=GPT2_VOCAB_SIZE,
    )


@lru_cache(maxsize=None)
def encoding(name: str) -> TextEncoding:
    """A real tokenizer by name (one of ``ENCODINGS``), built once per process from files on disk:
    an object with ``encode(text) -> ids`` and ``decode(ids) -> text`` (see core.encodings).

    >>> encoding("gpt2").encode(" bank")
    [3331]
    >>> encoding("gpt-5")
    Traceback (most recent call last):
    ValueError: Unknown tokenizer 'gpt-5'; the tokenizers are gpt2, cl100k_base, o200k_base, smollm2-135m.
    """
    from core import encodings

    if name == "gpt2":
        return encodings.TextEncoding("gpt2", gpt2())
    if name in encodings.OPENAI:
        return encodings.openai(name)
    if name == "smollm2-135m":
        return encodings.smollm2()
    raise ValueError(f"Unknown tokenizer {name!r}; the tokenizers are {', '.join(ENCODINGS)}.")


def parse_ranks(data: bytes) -> dict[bytes, int]:
    """The ranks file's lines ``base64(token bytes) rank`` as ``{token bytes: rank}``
    (what ``tiktoken.load.load_tiktoken_bpe`` returns, without its download cache).

    >>> parse_ranks(b"IQ== 0\\nIg== 1\\n")
    {b'!': 0, b'"': 1}
    """
    ranks = {}
    for line in data.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _shown_name(path: Path) -> str:
    """The file as a user may see it: relative to the repository for the bundled file,
    the bare file name otherwise (a server's folders are nobody's business)."""
    try:
        return str(path.resolve().relative_to(RANKS_PATH.parent.parent.parent))
    except ValueError:
        return path.name


def _reason(err: OSError) -> str:
    return err.strerror or type(err).__name__


@dataclass(frozen=True)
class Token:
    position: int
    id: int
    text: str        # the token's bytes as text; a piece of a multi-byte character shows as U+FFFD
    partial: bool    # True when the bytes are not whole UTF-8 characters


def tokenize(enc: tiktoken.Encoding, text: str, special_as_token: bool = True) -> list[Token]:
    """Encode ``text`` and return each token with its position, id and text.

    ``special_as_token``: if True, the literal text ``<|endoftext|>`` becomes the
    special token 50,256 (as in GPT-2's training data); if False, it is split as
    ordinary characters. Either way, nothing raises.

    >>> [(t.id, t.text) for t in tokenize(gpt2(), "The cat")]
    [(464, 'The'), (3797, ' cat')]
    """
    if special_as_token:
        ids = enc.encode(text, allowed_special={ENDOFTEXT})
    else:
        ids = enc.encode(text, disallowed_special=())
    tokens = []
    for pos, i in enumerate(ids):
        raw = enc.decode_single_token_bytes(i)
        try:
            piece, partial = raw.decode("utf-8"), False
        except UnicodeDecodeError:
            piece, partial = raw.decode("utf-8", errors="replace"), True
        tokens.append(Token(pos, i, piece, partial))
    return tokens


def id_to_text(enc: tiktoken.Encoding, token_id: int) -> str:
    """The text of one id; ValueError with a plain message outside 0..50256.

    >>> id_to_text(gpt2(), 3331)
    ' bank'
    """
    if not isinstance(token_id, int) or not 0 <= token_id < enc.n_vocab:
        raise ValueError(f"GPT-2's ids run from 0 to {enc.n_vocab - 1:,}; {token_id!r} is not one.")
    return enc.decode_single_token_bytes(token_id).decode("utf-8", errors="replace")


def clean_text(text: str, limit: int) -> tuple[str, list[str]]:
    """Make pasted text safe to encode; returns the text and notes on what was changed.

    Lone surrogates (from broken copy-paste) become U+FFFD, and text past
    ``limit`` characters is cut (the caller's limit: tiktoken's time grows with the text).

    >>> clean_text("ok\\ud800", limit=100)
    ('ok\ufffd', ['Replaced 1 broken character(s) (lone surrogates, left by a bad copy-paste) with \ufffd.'])
    """
    notes = []
    n_bad = sum(1 for c in text if 0xD800 <= ord(c) <= 0xDFFF)
    fixed = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text) if n_bad else text
    if n_bad:
        notes.append(f"Replaced {n_bad} broken character(s) (lone surrogates, left by a bad "
                     "copy-paste) with \ufffd.")
    if len(fixed) > limit:
        notes.append(f"The text was cut to its first {limit:,} characters (it had {len(fixed):,}).")
        fixed = fixed[:limit]
    return fixed, notes
