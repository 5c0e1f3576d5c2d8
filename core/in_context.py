"""One word in several sentences: its static row against its contextual vectors, and retrieval by
cosine, on all-MiniLM-L6-v2.

A static table gives the word one row ``E[id]`` whatever the sentence, so two sentences' static
vectors of it have cosine 1 by construction. The contextual vector ``H[t]`` (the last layer's row at
the word's position ``t``, ``core.contextual``) depends on the whole sentence:

    static:      cos(E[id], E[id]) = 1
    contextual:  cos(H_1[t_1], H_2[t_2])  < 1 when the sentences differ

Retrieval ranks passages by the cosine of their sentence vectors with a question's; the top
score says "closest in this model's space", not "answers the question".
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.contextual import contextual_vectors, sentence_vector
from core.similarity import cosine_matrix


class WordNotFound(ValueError):
    """The word is not one token of a sentence; the message lists that sentence's tokens."""


@dataclass(frozen=True)
class WordInContext:
    """A word's vectors in each sentence."""
    word: str
    sentences: list[str]
    positions: list[int]            # the word's token position in each sentence ([CLS] is 0)
    static: np.ndarray              # (m, d) the table's row of the word, once per sentence
    contextual: np.ndarray          # (m, 384) the last layer's row at the word's position
    static_cos: np.ndarray          # (m, m) all ones (up to rounding)
    contextual_cos: np.ndarray      # (m, m)


def word_in_context(table, word: str, sentences: list[str]) -> WordInContext:
    """``word`` (one WordPiece token of ``table``, e.g. ``"bank"``) in each of ``sentences``: its
    first position, its static row and its contextual vector, with both cosine matrices."""
    key = word.strip().lower()                                       # MiniLM's WordPiece is uncased
    row = table.vector(key)                                          # (d,) raises UnknownLabel
    positions, H = [], []
    for s in sentences:
        tokens, X = contextual_vectors(s)                            # (n, 384)
        if key not in tokens:
            shown = " ".join(tokens[1:-1][:40])
            raise WordNotFound(f"“{key}” is not one token of the sentence “{s[:80]}”; its tokens are: {shown}")
        t = tokens.index(key)
        positions.append(t)
        H.append(X[t])
    static = np.tile(np.asarray(row, np.float64), (len(sentences), 1))   # (m, d) the same row m times
    contextual = np.asarray(H, np.float64)                               # (m, 384)
    return WordInContext(key, list(sentences), positions, static, contextual,
                         cosine_matrix(static), cosine_matrix(contextual))


@dataclass(frozen=True)
class Ranked:
    passage: str
    cosine: float


def rank_passages(question: str, passages: list[str]) -> list[Ranked]:
    """The passages by the cosine of their sentence vectors with the question's, best first
    (the vectors have length 1, so the cosine is their dot product)."""
    q = sentence_vector(question)                                    # (384,)
    P = np.array([sentence_vector(p) for p in passages])             # (k, 384)
    scores = P @ q                                                   # (k,)
    order = np.argsort(-scores, kind="stable")
    return [Ranked(passages[i], float(scores[i])) for i in order]
