"""BERT's WordPiece tokenizer (uncased), as all-MiniLM-L6-v2 uses it, from its ``vocab.txt``.

Two steps (Devlin et al., 2019; the rules of Hugging Face's ``BertNormalizer``,
``BertPreTokenizer`` and ``WordPiece`` in the model's ``tokenizer.json``):

1. **Basic split**: drop control characters, turn every whitespace into a space, put spaces
   around CJK ideographs, lower-case, strip accents (decompose, drop combining marks), then split
   on spaces and cut every punctuation character off as its own piece.
2. **WordPiece**: each piece is cut greedily into the longest vocabulary entries from the
   left; every entry after the first is written with ``##`` ("continues the word"). A piece
   that cannot be cut (or is longer than 100 characters) becomes ``[UNK]``.

>>> wp = WordPiece(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "!"])
>>> wp.tokenize("Unaffable!")
['un', '##aff', '##able', '!']
"""
from __future__ import annotations

import unicodedata

MAX_CHARS_PER_WORD = 100      # tokenizer.json: "max_input_chars_per_word"
CJK_RANGES = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
              (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def _is_punctuation(c: str) -> bool:
    """BERT's rule: every ASCII non-letter, non-digit printable character, and Unicode P*."""
    o = ord(c)
    return 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126 or \
        unicodedata.category(c).startswith("P")


def _is_cjk(c: str) -> bool:
    return any(lo <= ord(c) <= hi for lo, hi in CJK_RANGES)


def basic_split(text: str) -> list[str]:
    """Step 1: the cleaned, lower-cased, accent-free pieces of ``text``.

    >>> basic_split("Héllo, World!\\tcafé")
    ['hello', ',', 'world', '!', 'cafe']
    """
    chars = []
    for c in text:
        cat = unicodedata.category(c)
        if c in "\t\n\r" or cat == "Zs":
            chars.append(" ")
        elif c == "\x00" or c == "\ufffd" or cat.startswith("C"):    # control and unassigned
            continue
        elif _is_cjk(c):
            chars.append(f" {c} ")
        else:
            chars.append(c)
    text = unicodedata.normalize("NFD", "".join(chars))
    text = "".join(c for c in text if unicodedata.category(c) != "Mn").lower()   # accents off, then lower
    pieces: list[str] = []
    for word in text.split():
        current = ""
        for c in word:
            if _is_punctuation(c):
                pieces += [current, c] if current else [c]
                current = ""
            else:
                current += c
        if current:
            pieces.append(current)
    return pieces


class WordPiece:
    """The vocabulary (one entry per line of ``vocab.txt``, id = line number) and step 2."""

    def __init__(self, vocab: list[str], unk: str = "[UNK]"):
        self.vocab = list(vocab)
        self.ids = {w: i for i, w in enumerate(self.vocab)}         # entry -> id
        self.unk = unk

    def split_word(self, word: str) -> list[str]:
        """Greedy longest-match-first: ``"unaffable"`` -> ``["un", "##aff", "##able"]``."""
        if len(word) > MAX_CHARS_PER_WORD:
            return [self.unk]
        out, start = [], 0
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                if piece in self.ids:
                    break
                end -= 1
            if end == start:                                          # nothing fits: the word is unknown
                return [self.unk]
            out.append(piece)
            start = end
        return out

    def tokenize(self, text: str) -> list[str]:
        return [p for word in basic_split(text) for p in self.split_word(word)]

    def encode(self, text: str, max_tokens: int) -> tuple[list[str], list[int]]:
        """``[CLS]`` + the tokens of ``text`` + ``[SEP]``, at most ``max_tokens`` in all (cut
        before ``[SEP]``), and their ids."""
        tokens = ["[CLS]", *self.tokenize(text)[: max_tokens - 2], "[SEP]"]
        return tokens, [self.ids[t] for t in tokens]
