"""From typed text to a real model's rows: tokens, ids, the lookup ``X = E[ids]`` and each
token's nearest tokens.

The whole path of the lesson, on a real table::

    text  --tokenizer-->  ids (n,)  --gather-->  X = E[ids]  (n, d)

and, for each row ``X[t]``, the tokens whose rows point the most the same way:

    cos(X[t], E[j]) = X[t] . E[j] / (|X[t]| |E[j]|)     for every row j of the table

Only the first ``MAX_NEAREST`` tokens get their neighbours (all of them one (V, d) @ (d, m)
product, m the distinct tokens among them); the rows of all tokens are gathered.

>>> import numpy as np
>>> from core.vectors import Vectors
>>> class Toy:                       # a tokenizer over a 3-token vocabulary: one id per character
...     def encode(self, text): return ["abc".index(c) for c in text]
...     def token_bytes(self, i): return "abc"[i].encode()
>>> t = Vectors(["a", "b", "c"], np.array([[1.0, 0], [0.9, 0.1], [-1, 0]]))
>>> r = look_up(t, Toy(), "ab", k=1)
>>> r.ids, r.X.shape, r.nearest[0][0][0]
([0, 1], (2, 2), 'b')
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.vectors import Vectors

MAX_NEAREST = 24        # tokens whose neighbours are listed (the rows of all are shown)
NEAREST_K = 5           # neighbours per token


@dataclass(frozen=True)
class TokenPiece:
    """One token of a text: its position, id and what it stands for."""
    position: int
    id: int
    text: str            # the token's text; bytes that are not whole UTF-8 characters as <bytes ..>
    partial: bool        # True when the token's bytes are not valid UTF-8 on their own


@dataclass(frozen=True)
class Lookup:
    """A text looked up in a real table."""
    tokens: list[TokenPiece]
    X: np.ndarray                                   # (n, d): row t is E[ids[t]]
    nearest: list[list[tuple[str, float]]]          # for the first MAX_NEAREST tokens: (label, cosine)

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.tokens]


def piece(enc, position: int, token_id: int) -> TokenPiece:
    """The token ``token_id`` as text; bytes that are no valid UTF-8 alone shown as bytes.

    >>> class Enc:
    ...     def token_bytes(self, i): return b"\\xe2\\x80"
    >>> piece(Enc(), 0, 7)
    TokenPiece(position=0, id=7, text='<bytes e2 80>', partial=True)
    """
    raw = enc.token_bytes(token_id)
    try:
        return TokenPiece(position, token_id, raw.decode("utf-8"), False)
    except UnicodeDecodeError:
        return TokenPiece(position, token_id, "<bytes " + raw.hex(" ") + ">", True)


def pieces(enc, text: str) -> list[TokenPiece]:
    """``text`` encoded by ``enc`` (an object with ``encode`` and ``token_bytes``), token by token."""
    return [piece(enc, p, i) for p, i in enumerate(enc.encode(text))]


def look_up(table: Vectors, enc, text: str, k: int = NEAREST_K, max_nearest: int = MAX_NEAREST) -> Lookup:
    """The tokens of ``text``, their rows ``X = E[ids]`` and the ``k`` nearest tokens of each of the
    first ``max_nearest`` tokens (the token itself excluded; its row is in the table)."""
    tokens = pieces(enc, text)
    ids = np.array([t.id for t in tokens], dtype=np.int64)           # (n,)
    X = np.asarray(table.E[ids], dtype=np.float32).reshape(len(ids), table.shape[1])  # (n, d) a gather
    first = [int(i) for i in ids[:max_nearest]]
    distinct = list(dict.fromkeys(first))                            # a repeated token is looked up once
    found = table.nearest_to_many(np.asarray(table.E[distinct]), k, [[table.labels[i]] for i in distinct])
    by_id = dict(zip(distinct, found))
    return Lookup(tokens, X, [by_id[i] for i in first])


@dataclass(frozen=True)
class Split:
    """One tokenizer's reading of a text."""
    name: str
    tokens: list[TokenPiece]

    @property
    def ids(self) -> list[int]:
        return [t.id for t in self.tokens]


def side_by_side(encodings: dict, text: str) -> list[Split]:
    """``text`` under each tokenizer of ``encodings`` (name -> encoding), in that order.

    >>> class Chars:
    ...     def encode(self, text): return [ord(c) for c in text]
    ...     def token_bytes(self, i): return chr(i).encode()
    >>> [(s.name, s.ids) for s in side_by_side({"chars": Chars()}, "ab")]
    [('chars', [97, 98])]
    """
    return [Split(name, pieces(enc, text)) for name, enc in encodings.items()]
