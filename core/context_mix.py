"""A preview of contextual vectors: each token's row mixed with its neighbours' rows.

**This is a stand-in, not attention.** It only previews the idea that later layers
give a token a vector that depends on the sentence around it. The mixing weights
here are fixed by position (a window, equal shares); attention *learns* its
weights from the vectors themselves (queries and keys), reaches the whole
sentence, and is followed by learned projections. None of that happens here.

For a sentence with ids ``ids`` (T tokens) and a table ``E`` (V, d)::

    h_t = s * E[ids[t]] + (1 - s) * mean_{0 < |j - t| <= w} E[ids[j]]

with ``s`` the self weight and ``w`` the window, cut at the sentence's ends. As a
matrix product, ``H = A @ E[ids]`` where ``A`` (T, T) holds the mixing weights:
each row sums to 1, like a row of attention weights, but nothing in ``A`` is learned.

The ambiguous word ``bank`` has one row in ``E`` (static), yet its mixed vector
differs between "the lake bank was muddy" and "the bank lent cash to her",
because its neighbours differ.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.checks import number, whole

from core.generated import GeneratedCorpus, group_centroids
from core.similarity import cosine
from core.vectors import Vectors


def mixing_weights(T: int, window: int = 2, self_weight: float = 0.5) -> np.ndarray:
    """The fixed (T, T) weights of ``mix_with_neighbours``; each row sums to 1.

    A token with no neighbour (T = 1) keeps its own row (weight 1).

    >>> mixing_weights(3, window=1, self_weight=0.5)
    array([[0.5 , 0.5 , 0.  ],
           [0.25, 0.5 , 0.25],
           [0.  , 0.5 , 0.5 ]])
    """
    T, window = whole(T, "T", 1, 10_000), whole(window, "window", 1)
    self_weight = number(self_weight, "self_weight", 0.0, 1.0)
    pos = np.arange(T)
    gap = np.abs(pos[:, None] - pos[None, :])         # (T, T) distance between positions
    near = (gap > 0) & (gap <= window)                # (T, T) neighbours within the window
    n_near = near.sum(axis=1, keepdims=True)          # (T, 1)
    A = np.where(near, (1.0 - self_weight) / np.maximum(n_near, 1), 0.0)  # (T, T)
    A[pos, pos] = np.where(n_near[:, 0] > 0, self_weight, 1.0)
    return A


def mix_with_neighbours(E: np.ndarray, ids, window: int = 2, self_weight: float = 0.5) -> np.ndarray:
    """Each token's row mixed with the mean of its neighbours' rows: a stand-in for attention.

    ``h_t = self_weight * E[ids[t]] + (1 - self_weight) * mean of E[ids[j]]`` over the
    positions j of the same sentence with ``0 < |j - t| <= window``.

    Parameters
    ----------
    E : ndarray of shape (V, d)
    ids : sequence of int of length T
        One sentence.
    window : int
    self_weight : float in [0, 1]

    Returns
    -------
    H : ndarray of shape (T, d)

    >>> E = np.array([[1.0, 0], [0, 1]])
    >>> mix_with_neighbours(E, [0, 1, 0], window=1)
    array([[0.5, 0.5],
           [0.5, 0.5],
           [0.5, 0.5]])
    """
    ids = np.asarray(ids, dtype=np.int64)
    X = E[ids]                                         # (T, d) the static rows
    return mixing_weights(len(ids), window, self_weight) @ X  # (T, d)


@dataclass(frozen=True)
class ContextPreview:
    """The ambiguous word's static row against its mixed vectors in each kind of sentence.

    ``sense_cos[s][g]`` is the cosine of the average mixed vector over the sentences of sense s
    to group g's centroid; ``sense_similarity`` is the cosine between the two sense averages
    (1 would mean that mixing in the neighbours made no difference).
    """

    word: str
    senses: tuple[str, str]                  # its two senses, named after the two groups
    static_cos: dict[str, float]             # cosine of the static row to each sense group's centroid
    sense_cos: dict[str, dict[str, float]]   # sense -> group -> cosine of the sense average to the centroid
    sense_similarity: float
    n_occurrences: dict[str, int]            # occurrences averaged per sense (one per sentence here)
    static: np.ndarray = field(repr=False)                    # (d,) the word's one row of the table
    sense_vectors: dict[str, np.ndarray] = field(repr=False)  # sense -> (d,) average mixed vector
    occurrence_vectors: np.ndarray = field(repr=False)        # (n, d) every occurrence, in text order
    occurrence_senses: list[str] = field(repr=False)          # (n,) the sense of each occurrence


def ambiguous_in_context(table: Vectors, generated: GeneratedCorpus, window: int = 2,
                         self_weight: float = 0.5) -> ContextPreview:
    """Mix the ambiguous word with its neighbours in each of its sentences, average per sense.

    Each sentence is mixed on its own (no neighbours across sentence ends).

    >>> from core.generated import generate_corpus
    >>> g = generate_corpus(60)
    >>> vocab = sorted({w for s in g.sentences for w in s.split()})
    >>> E = np.random.default_rng(0).normal(size=(len(vocab), 8))
    >>> p = ambiguous_in_context(Vectors(vocab, E), g)
    >>> p.senses, sum(p.n_occurrences.values()) == len(p.occurrence_senses)
    (('river', 'money'), True)
    """
    index, E = table.index, table.E
    word, senses = generated.ambiguous, generated.ambiguous_groups
    if word not in index:
        raise KeyError(f"{word!r} is not in the vocabulary")
    vectors, labels = [], []
    for sentence, sense in zip(generated.sentences, generated.sentence_sense):
        if sense is None:
            continue
        words = sentence.split()
        H = mix_with_neighbours(E, [index[w] for w in words], window, self_weight)  # (T, d)
        for t, w in enumerate(words):
            if w == word:
                vectors.append(H[t])
                labels.append(sense)
    occ = np.array(vectors).reshape(len(vectors), E.shape[1])  # (n, d)
    lab = np.array(labels)
    if not all((lab == s).any() for s in senses):
        raise ValueError(f"{word!r} needs at least one sentence of each sense.")
    centroids = group_centroids(table, {s: generated.groups[s] for s in senses})
    static = E[index[word]]                                    # (d,)
    means = {s: occ[lab == s].mean(axis=0) for s in senses}    # sense -> (d,)
    return ContextPreview(
        word=word, senses=(senses[0], senses[1]),
        static_cos={g: cosine(static, c) for g, c in centroids.items()},
        sense_cos={s: {g: cosine(means[s], c) for g, c in centroids.items()} for s in senses},
        sense_similarity=cosine(means[senses[0]], means[senses[1]]),
        n_occurrences={s: int((lab == s).sum()) for s in senses},
        static=static, sense_vectors=means, occurrence_vectors=occ, occurrence_senses=labels,
    )
