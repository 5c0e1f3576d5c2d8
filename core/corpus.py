"""Text -> vocabulary, ids, (centre, context) pairs and co-occurrence counts.

This is everything skip-gram needs to know about a text. The model never sees
the words themselves, only integer ids, and the full-batch training signal
depends only on *how often* each word appears as a neighbour of each other
word: the co-occurrence matrix ``C`` with ``C[i, j]`` = number of (centre i,
context j) pairs.

Splitting rule
--------------
Text is lower-cased (``str.casefold``) and split into *words*: maximal runs of
letters or digits, optionally joined by an apostrophe or hyphen (``don't``,
``well-known``). Everything else (punctuation, symbols, emoji, control
characters, whitespace of any kind) separates words and is dropped. On the
reference text, which is lower case with single spaces, this is exactly
``text.split()``.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

GUIDE_TEXT = (
    "the cat sat on the mat and the dog sat on the log and the cat saw the dog "
    "then the dog ran to the cat and the cat ran on the mat"
)
"""The 33-word reference text of the lesson (brief.md section 5)."""

UNK = "<unk>"
"""Stand-in for words outside a capped vocabulary."""

MAX_WINDOW = 10
_WORD = re.compile(r"[^\W_]+(?:['\u2019-][^\W_]+)*")


class CorpusError(ValueError):
    """A text that cannot be turned into training pairs; the message says why."""


def tokenize(text: str) -> list[str]:
    """Split ``text`` into lower-case words (see the module docstring).

    >>> tokenize("The cat sat. The DOG didn't!")
    ['the', 'cat', 'sat', 'the', 'dog', "didn't"]
    """
    return _WORD.findall(text.casefold())


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
    def from_text(cls, text: str, window: int = 2, max_vocab: int | None = None) -> "Corpus":
        """Build a corpus; raise ``CorpusError`` with a plain message on unusable input.

        ``max_vocab`` keeps the most frequent words (ties broken alphabetically) and
        maps the rest to ``UNK``, so the (V, V) work stays bounded.

        >>> c = Corpus.from_text(GUIDE_TEXT, window=2)
        >>> len(c.words), len(c.vocab), len(c.inputs)
        (33, 12, 126)
        >>> [(c.vocab[a], c.vocab[b]) for a, b in zip(c.inputs[:2], c.targets[:2])]
        [('the', 'cat'), ('the', 'sat')]
        """
        if not isinstance(window, (int, np.integer)) or not 1 <= window <= MAX_WINDOW:
            raise CorpusError(f"The window must be a whole number from 1 to {MAX_WINDOW}.")
        words = tokenize(text)
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
        counts = np.bincount(self.ids, minlength=self.V)            # (V,)
        return np.lexsort((np.arange(self.V), -counts))[:n]

    def index(self, word: str) -> int:
        """The id of ``word`` (after the same lower-casing as the text); KeyError if absent."""
        key = word.strip().casefold()
        try:
            return self.vocab.index(key)
        except ValueError:
            raise KeyError(f"{word!r} is not in the vocabulary") from None

    def encode(self, text: str) -> np.ndarray:
        """Ids of the words of ``text``; KeyError naming the first unknown word.

        >>> Corpus.from_text(GUIDE_TEXT).encode("The dog")
        array([9, 2])
        """
        return np.array([self.index(w) for w in tokenize(text)], dtype=np.int64)
