"""Text -> vocabulary, ids, (centre, context) pairs and co-occurrence counts.

This is everything skip-gram needs to know about a text. The model never sees
the words themselves, only integer ids, and the full-batch training signal
depends only on *how often* each word appears as a neighbour of each other
word: the co-occurrence matrix ``C`` with ``C[i, j]`` = number of (centre i,
context j) pairs.

The word rule
-------------
The same rule for every script, in three steps:

1. **Normalise** with Unicode NFKC, then **case-fold** (``str.casefold``), then NFKC
   again: ``é`` typed as ``e`` + combining accent equals the precomposed ``é``, the
   ligature ``ﬁ`` is ``fi``, full-width ``Ａ`` is ``a``, ``ß`` folds to ``ss`` and ``Σ``/``ς``
   to ``σ``. Case folding may change a word's length (``STRASSE`` and ``Straße`` are both
   ``strasse``). It is Unicode's default folding, not a language's: Turkish ``İ`` becomes
   ``i`` + a combining dot above (kept, inside the word), distinct from ``i``.
2. **Word characters** are letters (category L), combining marks (M: Devanagari vowel
   signs, Arabic harakat, Thai vowel marks, accents) and numbers (N); a word starts with a
   letter or number (a mark belongs to the character before it), and emoji variation
   selectors (U+FE0F and kin) are not part of any word. A zero-width
   non-joiner or joiner (U+200C, U+200D, needed inside Persian and Indic words) and an
   apostrophe or hyphen (``don't``, ``well-known``) join two runs of word characters
   into one word.
3. Everything else separates words and is dropped: spaces, punctuation, symbols,
   emoji (with their joiners), control characters.

Scripts written without spaces (Thai, Chinese, Japanese) give one word per run between
spaces or punctuation: splitting them needs a dictionary, which this app does not have.
``text_changes`` says what steps 1 and 3 changed, for a notice on screen. On the
reference text, which is lower case ASCII with single spaces, the rule is exactly
``text.split()``.
"""
from __future__ import annotations

import functools
import re
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from core.checks import MAX_ROWS

GUIDE_TEXT = (
    "the cat sat on the mat and the dog sat on the log and the cat saw the dog "
    "then the dog ran to the cat and the cat ran on the mat"
)
"""The 33-word reference text of the lesson (docs/lesson.md section 5)."""
GUIDE_WINDOW = 2
"""The lesson's window: each word within 2 positions of a word is its neighbour (126 pairs)."""

UNK = "<unk>"
"""Stand-in for words outside a capped vocabulary."""

MAX_WINDOW = 10
# The largest vocabulary a corpus keeps is MAX_ROWS (core.checks): its (V, V) counts take
# 200 MB at 5,000 words. Pass ``max_vocab`` to fold rarer words into ``UNK`` for larger texts.
MAX_TEXT_CHARS = 20_000_000
_JOINERS = "'\u2019\\-\u200c\u200d"     # apostrophes, hyphen, ZWNJ, ZWJ: only inside a word


@functools.cache
def _marks() -> str:
    """Every combining mark (category M), escaped for a regex class. Python's ``re`` has
    no ``\\p{M}``, so they are listed once from ``unicodedata`` (about 0.2 s)."""
    return "".join(re.escape(chr(c)) for c in range(sys.maxunicode + 1)
                   if unicodedata.category(chr(c))[0] == "M" and not _is_variation_selector(c))


def _is_variation_selector(c: int) -> bool:
    """U+FE00-FE0F and U+E0100-E01EF choose how the character before them is drawn (emoji or
    text style): marks to Unicode, but never part of a word's spelling."""
    return 0xFE00 <= c <= 0xFE0F or 0xE0100 <= c <= 0xE01EF


@functools.cache
def _word_pattern() -> re.Pattern:
    """A letter or number, then letters, numbers and marks, joined by ``_JOINERS``."""
    w = f"(?:[^\\W_]|[{_marks()}])"                # a letter, number or mark
    run = f"[^\\W_]{w}*"                           # a run starts with a letter or number
    return re.compile(f"{run}(?:[{_JOINERS}]{run})*")


def normalise(text: str) -> str:
    """Steps 1 of the word rule: NFKC, case-fold, NFKC.

    >>> normalise("Cafe\u0301 STRAẞE ﬁsh")
    'café strasse fish'
    """
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())


class CorpusError(ValueError):
    """A text that cannot be turned into training pairs; the message says why."""


def split_words(text: str) -> list[str]:
    """Split ``text`` into lower-case words by the word rule (module docstring).

    >>> split_words("The cat sat. The DOG didn't!")
    ['the', 'cat', 'sat', 'the', 'dog', "didn't"]
    >>> split_words("नमस्ते दुनिया")        # Devanagari: the virama and vowel signs stay inside
    ['नमस्ते', 'दुनिया']
    >>> split_words("می\u200cخواهم")        # Persian: the zero-width non-joiner joins
    ['می\u200cخواهم']
    """
    if not isinstance(text, str):
        raise TypeError(f"The text must be a string, not {type(text).__name__}.")
    return _word_pattern().findall(normalise(text))


@dataclass(frozen=True)
class TextChanges:
    """What the word rule did to a text beyond lower-casing and dropping ASCII punctuation."""

    normalised: list[tuple[str, str]]   # (as typed, as read) examples of rewritten characters
    n_normalised: int                   # characters rewritten by normalisation (not by case)
    dropped: list[str]                  # examples of dropped non-ASCII characters (emoji, symbols)
    n_dropped: int                      # how many non-ASCII characters were dropped

    def __bool__(self) -> bool:
        return bool(self.n_normalised or self.n_dropped)


def text_changes(text: str, examples: int = 5) -> TextChanges:
    """What the word rule changed, for a notice: characters that normalisation rewrote
    (beyond lower-casing; a letter with its combining marks counts as one) and the
    non-ASCII characters that were dropped (emoji, symbols, other scripts' punctuation).

    >>> c = text_changes("ﬁsh 🐱 and e\u0301te STRAẞE!")
    >>> c.n_normalised, [b for a, b in c.normalised], c.dropped
    (3, ['fi', 'é', 'ss'], ['🐱'])
    """
    if text.isascii():                       # ASCII: only case changes, only ASCII is dropped
        return TextChanges([], 0, [], 0)
    # A non-ASCII character with its marks, or an ASCII letter with marks (e + U+0301):
    # a plain ASCII character cannot change beyond its case.
    clusters = Counter(re.findall(f"(?s)[^\\x00-\\x7f][{_marks()}]*|[\\x00-\\x7f][{_marks()}]+", text))
    norm = [(c, normalise(c)) for c in clusters if normalise(c) != c.lower()]
    rest = _word_pattern().sub(" ", normalise(text))           # what the words leave behind
    dropped = Counter(ch for ch in rest if ord(ch) > 127 and not ch.isspace())
    return TextChanges(norm[:examples], sum(clusters[c] for c, _ in norm),
                       list(dropped)[:examples], sum(dropped.values()))


def context_pairs(ids: np.ndarray, window: int) -> tuple[np.ndarray, np.ndarray]:
    """All (centre, context) pairs with ``0 < |i - j| <= window``, ordered by i then j.

    Parameters
    ----------
    ids : ndarray of shape (n_tokens,)
    window : int, at least 1

    Returns
    -------
    inputs, targets : ndarrays of shape (n_pairs,)

    >>> context_pairs(np.array([7, 8, 9]), 1)
    (array([7, 8, 8, 9]), array([8, 7, 9, 8]))
    """
    n = len(ids)
    offsets = np.array([o for o in range(-window, window + 1) if o != 0])  # (2w,)
    i = np.repeat(np.arange(n), len(offsets))  # (n * 2w,) centre positions
    j = i + np.tile(offsets, n)  # (n * 2w,) context positions, in order of i then j
    keep = (j >= 0) & (j < n)
    return ids[i[keep]], ids[j[keep]]


def whole_count(n) -> int:
    """``n`` if it is a whole number >= 0 (TypeError / ValueError otherwise)."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be a whole number, not {type(n).__name__}.")
    if n < 0:
        raise ValueError(f"n must be at least 0; got {n}.")
    return int(n)


@dataclass(frozen=True)
class Corpus:
    """A tokenised text with its vocabulary and training pairs.

    Attributes
    ----------
    words : list[str]
        The text as words, in order (capped words replaced by ``UNK``).
    vocab : list[str]
        Distinct words, sorted.
    ids : ndarray of shape (n_tokens,)
        ``vocab[ids[t]] == words[t]``.
    window : int
    inputs, targets : ndarrays of shape (n_pairs,)
        Centre and context ids, in the reference order.
    cooccurrence : ndarray of shape (V, V)
        ``cooccurrence[i, j]`` = how often word j is a neighbour of word i.
    n_dropped_words : int
        Distinct words folded into ``UNK`` by the vocabulary cap.
    """

    words: list[str]
    vocab: list[str]
    ids: np.ndarray
    window: int
    inputs: np.ndarray = field(repr=False)
    targets: np.ndarray = field(repr=False)
    cooccurrence: np.ndarray = field(repr=False)
    n_dropped_words: int = 0

    @classmethod
    def from_text(cls, text: str, window: int = GUIDE_WINDOW, max_vocab: int | None = None) -> "Corpus":
        """Build a corpus; raise ``CorpusError`` with a plain message on unusable input.

        ``max_vocab`` keeps the most frequent words (ties broken alphabetically) and
        maps the rest to ``UNK``, so the (V, V) work stays bounded.

        >>> c = Corpus.from_text(GUIDE_TEXT, window=2)
        >>> len(c.words), len(c.vocab), len(c.inputs)
        (33, 12, 126)
        >>> [(c.vocab[a], c.vocab[b]) for a, b in zip(c.inputs[:2], c.targets[:2])]
        [('the', 'cat'), ('the', 'sat')]
        """
        if isinstance(window, bool) or not isinstance(window, (int, np.integer)) \
                or not 1 <= window <= MAX_WINDOW:
            raise CorpusError(f"The window must be a whole number from 1 to {MAX_WINDOW}.")
        if max_vocab is not None:
            if isinstance(max_vocab, bool) or not isinstance(max_vocab, (int, np.integer)):
                raise TypeError(f"max_vocab must be a whole number or None, not {type(max_vocab).__name__}.")
            if max_vocab < 2:
                raise CorpusError("The vocabulary cap must be at least 2.")
            if max_vocab > MAX_ROWS:
                raise CorpusError(f"The vocabulary cap must be at most {MAX_ROWS:,}.")
        if not isinstance(text, str):
            raise TypeError(f"The text must be a string, not {type(text).__name__}.")
        if len(text) > MAX_TEXT_CHARS:
            raise CorpusError(f"The text has {len(text):,} characters; at most {MAX_TEXT_CHARS:,}.")
        words = split_words(text)
        if len(words) < 2:
            raise CorpusError(
                "The text needs at least two words (letters or digits) to make a single "
                f"(centre, context) pair; it has {len(words)}."
            )
        counts = Counter(words)
        if len(counts) < 2:
            raise CorpusError(
                f"The text uses only one distinct word ({words[0]!r}); with a single word there "
                "is nothing to tell apart. Add at least one other word."
            )
        dropped = 0
        if max_vocab is not None and len(counts) > max_vocab:
            if max_vocab < 2:
                raise CorpusError("The vocabulary cap must be at least 2.")
            ranked = sorted(counts, key=lambda w: (-counts[w], w))
            kept = set(ranked[: max_vocab - 1])
            dropped = len(counts) - len(kept)
            words = [w if w in kept else UNK for w in words]
        vocab = sorted(set(words))
        if len(vocab) > MAX_ROWS:
            raise CorpusError(f"The text has {len(vocab):,} distinct words; at most {MAX_ROWS:,} fit "
                              "(pass max_vocab to keep only the most frequent).")
        index = {w: k for k, w in enumerate(vocab)}
        ids = np.array([index[w] for w in words], dtype=np.int64)  # (n_tokens,)
        inputs, targets = context_pairs(ids, window)  # (n_pairs,) each
        V = len(vocab)
        cooc = np.bincount(inputs * V + targets, minlength=V * V).reshape(V, V)  # (V, V)
        return cls(words, vocab, ids, window, inputs, targets, cooc.astype(np.float64), dropped)

    @property
    def n_pairs(self) -> int:
        return int(len(self.inputs))

    @property
    def V(self) -> int:
        return len(self.vocab)

    def most_frequent(self, n: int) -> np.ndarray:
        """Ids of the ``n`` most frequent words, most frequent first (ties: alphabetical).

        >>> c = Corpus.from_text(GUIDE_TEXT)
        >>> [c.vocab[i] for i in c.most_frequent(3)]
        ['the', 'cat', 'and']
        """
        n = min(whole_count(n), self.V)
        counts = np.bincount(self.ids, minlength=self.V)            # (V,)
        return np.lexsort((np.arange(self.V), -counts))[:n]

    def index(self, word: str) -> int:
        """The id of ``word`` (normalised by the same word rule as the text); KeyError if absent."""
        if not isinstance(word, str):
            raise TypeError(f"A word must be a string, not {type(word).__name__}.")
        key = normalise(word.strip())
        try:
            return self._positions[key]
        except KeyError:
            raise KeyError(f"{word!r} is not in the vocabulary") from None

    @cached_property
    def _positions(self) -> dict[str, int]:
        """word -> id, built once on first use (``vocab.index`` would scan the list each time)."""
        return {w: k for k, w in enumerate(self.vocab)}

    def encode(self, text: str) -> np.ndarray:
        """Ids of the words of ``text``; KeyError naming the first unknown word.

        >>> Corpus.from_text(GUIDE_TEXT).encode("The dog")
        array([9, 2])
        """
        return np.array([self.index(w) for w in split_words(text)], dtype=np.int64)
