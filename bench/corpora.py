"""Deterministic synthetic corpora for the trainer benchmark.

The words are made up: two consonant-vowel syllables (``bako``, ``tilu``, ...), so they
pass ``core.corpus.split_words`` unchanged. Word frequencies follow a Zipf law: the word of
rank r is drawn with probability proportional to ``1 / r**s``, as in natural text. Every
word of the vocabulary appears at least once, so the distinct-word count is exact.

Run ``python -m bench.corpora`` to print the sizes of the benchmark corpora.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.corpus import GUIDE_TEXT, Corpus

CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"
SYLLABLES = [c + v for c in CONSONANTS for v in VOWELS]  # 70 syllables
MAX_WORDS = len(SYLLABLES) ** 2                          # 4,900 two-syllable words


@dataclass(frozen=True)
class CorpusSpec:
    """One benchmark corpus: a name, the text's size and the context window."""

    name: str
    n_tokens: int | None   # None: the lesson's reference text
    n_words: int | None    # distinct words; None for the reference text
    window: int


REFERENCE = CorpusSpec("reference", None, None, 2)
SPECS = [
    REFERENCE,
    CorpusSpec("5k tokens", 5_000, 500, 5),
    CorpusSpec("20k tokens", 20_000, 1_000, 2),
]
"""The three corpora of the trainer benchmark, smallest first."""


def made_up_words(n_words: int, seed: int = 0) -> list[str]:
    """``n_words`` distinct pronounceable two-syllable words, in a seeded random order.

    >>> made_up_words(3) == made_up_words(3)
    True
    >>> len(set(made_up_words(500)))
    500
    """
    if not 1 <= n_words <= MAX_WORDS:
        raise ValueError(f"n_words must be from 1 to {MAX_WORDS}")
    rng = np.random.default_rng(seed)
    picks = rng.permutation(MAX_WORDS)[:n_words]  # (n_words,) indices of syllable pairs
    n = len(SYLLABLES)
    return [SYLLABLES[k // n] + SYLLABLES[k % n] for k in picks]


def synthetic_text(n_tokens: int, n_words: int, seed: int = 0, zipf_s: float = 1.0) -> str:
    """A text of exactly ``n_tokens`` words using exactly ``n_words`` distinct words.

    Parameters
    ----------
    n_tokens : int
        Length of the text in words; at least ``n_words``.
    n_words : int
        Size of the vocabulary.
    seed : int
        Seed of ``numpy.random.default_rng``; the same seed gives the same text.
    zipf_s : float
        Zipf exponent: the word of rank r has probability proportional to ``r ** -zipf_s``.

    Returns
    -------
    str
        The words joined by single spaces.

    >>> synthetic_text(6, 3, seed=1) == synthetic_text(6, 3, seed=1)
    True
    >>> len(set(synthetic_text(50, 20).split()))
    20
    """
    if n_tokens < n_words:
        raise ValueError("n_tokens must be at least n_words (each word appears once)")
    rng = np.random.default_rng(seed)
    words = np.array(made_up_words(n_words, seed))                 # (n_words,) rank order
    prob = 1.0 / np.arange(1, n_words + 1) ** zipf_s               # (n_words,) Zipf weights
    prob /= prob.sum()
    extra = rng.choice(n_words, size=n_tokens - n_words, p=prob)   # (n_tokens - n_words,)
    ids = rng.permutation(np.concatenate([np.arange(n_words), extra]))  # (n_tokens,)
    return " ".join(words[ids])


def make_corpus(spec: CorpusSpec, seed: int = 0) -> Corpus:
    """The ``core.corpus.Corpus`` of a benchmark spec (the reference text for ``REFERENCE``)."""
    if spec.n_tokens is None:
        return Corpus.from_text(GUIDE_TEXT, window=spec.window)
    return Corpus.from_text(synthetic_text(spec.n_tokens, spec.n_words, seed), window=spec.window)


def pasted_text(n_chars: int, seed: int = 0, zipf_s: float = 1.0, n_words: int = MAX_WORDS) -> str:
    """A text of exactly ``n_chars`` characters that reads like pasted prose to the tokenizer:
    Zipf-distributed made-up words from ``n_words`` of them (at most ``MAX_WORDS``), in
    capitalised sentences of 6 to 16 words ending in a full stop, so the number of distinct
    words grows with the text.

    >>> len(pasted_text(1234)), pasted_text(300) == pasted_text(300)
    (1234, True)
    """
    rng = np.random.default_rng(seed)
    words = made_up_words(n_words, seed)                             # rank order
    prob = 1.0 / np.arange(1, n_words + 1) ** zipf_s                 # (n_words,) Zipf weights
    prob /= prob.sum()
    sentences, length = [], 0
    while length < n_chars:
        s = " ".join(words[i] for i in rng.choice(n_words, size=int(rng.integers(6, 17)), p=prob))
        sentences.append(s[0].upper() + s[1:] + ".")
        length += len(sentences[-1]) + 1
    return " ".join(sentences)[:n_chars]


def describe(corpus: Corpus) -> str:
    """One line: tokens, distinct words, window and pairs."""
    return (f"{len(corpus.ids):>6,} tokens  {corpus.V:>5,} words  window {corpus.window}  "
            f"{corpus.n_pairs:>7,} pairs")


if __name__ == "__main__":
    for spec in SPECS:
        print(f"{spec.name:<12} {describe(make_corpus(spec))}")
