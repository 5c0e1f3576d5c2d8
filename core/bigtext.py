"""A user's own big text: which objective fits it, how long word2vec will take, and
what one vector of an ambiguous word mixes.

* **Which objective.** The full softmax scores all V words for every pair, and the
  lesson's screens draw V x V pictures, so it suits the toy texts (at most
  ``MAX_SOFTMAX_VOCAB`` distinct words). Above that, word2vec's negative sampling
  (core.word2vec) scores K + 1 words per pair whatever V is.
* **The estimate** is words to read (words x epochs) divided by a speed measured on
  the project's benchmark machine (``python -m bench.word2vec``), scaled for d_model
  and the window; the screen then shows the real speed while it runs.
* **An ambiguous word** has one static vector for all its senses. Its nearest
  neighbours then fall into groups, one per sense ("bank": reserve, rates / west,
  gaza). ``sense_split`` splits the k nearest neighbours in two along the first
  principal direction of their unit vectors and measures the word's cosine to each
  group's centroid (core.generated.ambiguous_position).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from core.corpus import split_words
from core.generated import AmbiguousPosition, ambiguous_position
from core.projection import pca
from core.similarity import nearest
from core.vectors import Vectors
from core.word2vec import Word2VecConfig, Word2VecResult, train_word2vec, words_to_train

MAX_SOFTMAX_VOCAB = 300
"""Texts with more distinct words than this are trained with negative sampling."""
WORDS_PER_SECOND = 50_000
"""A deliberately low estimate of core.word2vec's speed at d_model 50, window 5: one epoch of
the tests' generated 3 MB text (406,462 words) runs at 370,000 to 450,000 words per second of
one core's CPU time, but a shared server gives a run only part of a core (the same run took
1.5 s of wall clock at a load of 7 and 16.5 s at a load of 11 on the 2-core test machine;
docs/performance.md, word2vec). The screen shows the real speed while it runs."""
MAX_WORDS_TO_READ = 12_000_000
"""Budget of one run: words x epochs (about four minutes at WORDS_PER_SECOND)."""


@dataclass(frozen=True)
class TextSize:
    """How big a text is, and the objective that fits it."""

    n_chars: int
    n_lines: int           # sentences for word2vec: its windows do not cross line ends
    n_words: int
    n_distinct: int
    objective: str         # "softmax" or "word2vec"


def text_size(text: str, max_softmax_vocab: int = MAX_SOFTMAX_VOCAB) -> TextSize:
    """Count a text's words and choose its objective.

    >>> s = text_size("the cat sat\\nthe dog sat")
    >>> s.n_words, s.n_distinct, s.n_lines, s.objective
    (6, 4, 2, 'softmax')
    """
    words = split_words(text)
    distinct = len(set(words))
    return TextSize(n_chars=len(text), n_lines=len(text_sentences(text)), n_words=len(words),
                    n_distinct=distinct,
                    objective="word2vec" if distinct > max_softmax_vocab else "softmax")


def text_sentences(text: str) -> list[list[str]]:
    """The text as word2vec's input: one token list per non-empty line.

    >>> text_sentences("The cat.\\n\\nA dog!")
    [['the', 'cat'], ['a', 'dog']]
    """
    return [words for words in (split_words(line) for line in text.splitlines()) if words]


EPOCH_CHOICES = (1, 2, 3, 5, 10, 20)
"""The epochs a run can be given (the Train screen's Epochs control offers exactly these)."""
WORDS_READ_TARGET = 1_200_000
"""About how many words a suggested run reads (words x epochs)."""


def train_on_text(text: str, config: Word2VecConfig,
                  callback: Callable[[int, float], bool | None] | None = None) -> Word2VecResult:
    """word2vec on a text: ``train_word2vec(text_sentences(text), config, callback)``.

    One call, so that a server can hand the whole job (splitting a big text into words
    costs seconds too) to a worker process with the text alone.

    >>> text = "the cat sat\\nthe dog sat\\n" * 20
    >>> train_on_text(text, Word2VecConfig(d_model=8, epochs=1, min_count=1)).vocab
    ['the', 'sat', 'cat', 'dog']
    """
    return train_word2vec(text_sentences(text), config, callback=callback)


def words_to_train_on_text(text: str, config: Word2VecConfig) -> int:
    """``words_to_train(text_sentences(text), config)``: the ``words_done`` of a finished run
    (core.word2vec), from the text alone, for the same reason as ``train_on_text``.

    >>> words_to_train_on_text("b a b\\nc a b", Word2VecConfig(min_count=2, epochs=3))
    15
    """
    return words_to_train(text_sentences(text), config)


def suggested_epochs(n_words: int, choices: tuple[int, ...] = EPOCH_CHOICES) -> int:
    """More passes for smaller texts: the choice from 5 to 20 epochs whose words read
    (``n_words`` x epochs) come closest to ``WORDS_READ_TARGET``. Always one of ``choices``
    (a number between two of them cannot be offered by the control).

    >>> suggested_epochs(58_000), suggested_epochs(100_000), suggested_epochs(1_000_000)
    (20, 10, 5)
    """
    usable = [e for e in choices if 5 <= e <= 20] or list(choices)
    ideal = WORDS_READ_TARGET / max(n_words, 1)                 # epochs for exactly the target
    return min(usable, key=lambda e: (abs(np.log(e / ideal)), e))


@dataclass(frozen=True)
class Estimate:
    words_to_read: int     # words x epochs
    seconds: float         # expected, at the benchmark's speed
    within_budget: bool


def estimate(n_words: int, config: Word2VecConfig) -> Estimate:
    """Words word2vec will read and the expected seconds.

    The speed scales with the work per word: ``(window + 1)`` context words, each
    scoring K + 1 words of d numbers; the benchmark's setting is d 50, window 5, K 5.

    >>> e = estimate(100_000, Word2VecConfig(epochs=10))
    >>> e.words_to_read, round(e.seconds, 1), e.within_budget
    (1000000, 20.0, True)
    """
    words = n_words * config.epochs
    work = (config.d_model / 50) * ((config.window + 1) / 6) * ((config.negative + 1) / 6)
    seconds = words / WORDS_PER_SECOND * max(work, 0.25)
    return Estimate(words_to_read=words, seconds=seconds, within_budget=words <= MAX_WORDS_TO_READ)


@dataclass(frozen=True)
class SenseSplit:
    """A word's k nearest neighbours split in two groups, and where the word sits."""

    word: str
    neighbours: list[tuple[str, float]]      # (word, cosine to the word), nearest first
    groups: dict[str, list[str]]             # "group 1", "group 2" -> members, nearest first
    coords: np.ndarray                       # (k + 1, 2) PCA map of the word and its neighbours
    position: AmbiguousPosition              # the word's cosines to both groups


def sense_split(table: Vectors, word: str, k: int = 12) -> SenseSplit:
    """Split ``word``'s k nearest neighbours along their first principal direction.

    >>> E = np.array([[1.0, 1.0], [1.0, 0.1], [0.9, 0.0], [0.1, 1.0], [0.0, 0.9]])
    >>> s = sense_split(Vectors(["bank", "money", "cash", "river", "lake"], E), "bank", k=4)
    >>> sorted(map(sorted, s.groups.values()))
    [['cash', 'money'], ['lake', 'river']]
    """
    index, vocab, E = table.index, table.labels, table.E
    if word not in index:
        raise KeyError(f"{word!r} is not in the vocabulary")
    k = min(k, len(vocab) - 1)
    if k < 2:
        raise ValueError("Splitting neighbours needs at least 3 words in the vocabulary.")
    near = nearest(E, index[word], k=k)                      # [(id, cosine)], nearest first
    ids = [j for j, _ in near]
    U = E[ids] / np.linalg.norm(E[ids], axis=1, keepdims=True).clip(1e-12)   # (k, d) unit rows
    side = pca(U, k=1).coords[:, 0] >= 0                      # (k,) which side of the split
    if side.all() or not side.any():                          # all one way (no spread): nearer half
        side = np.arange(k) < (k + 1) // 2                    # first, so neither group is empty
    groups = {"group 1": [vocab[j] for j, s in zip(ids, side) if s],
              "group 2": [vocab[j] for j, s in zip(ids, side) if not s]}
    position = ambiguous_position(table, groups, word, "group 1", "group 2")
    coords = pca(np.vstack([E[index[word]], E[ids]]), k=2).coords     # (k + 1, 2)
    return SenseSplit(word=word, neighbours=[(vocab[j], c) for j, c in near], groups=groups,
                      coords=coords, position=position)
