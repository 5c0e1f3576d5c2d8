"""A word in real word vectors (GloVe): its rank, its neighbours in the full space next to its
neighbours on a 2-D map, and the hidden-word game's hints.

Neighbours in d dimensions are the k words with the largest cosine; on the map (PCA of the
top-N words' rows, ``core.projection.pca``) the k words at the smallest distance. Comparing them:

    kept  = N_full & N_map      lost = N_full - N_map      false = N_map - N_full

The game's hint for a guess g of the hidden word h is ``cos(E[g], E[h])`` and the rank of g among
all the top-N words by cosine to h (1 = the nearest word to h).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.projection import pca
from core.vectors import UnknownLabel, Vectors


@dataclass(frozen=True)
class MapNeighbours:
    word: str
    rank: int                        # 1 = the most frequent word
    full: list[tuple[str, float]]    # neighbours by cosine in all d dimensions
    on_map: list[tuple[str, float]]  # neighbours by distance on the 2-D map
    kept: list[str]
    lost: list[str]
    false: list[str]
    explained: float                 # the map's share of the spread, (s1^2 + s2^2) / sum(s^2)


def frequency_rank(table: Vectors, word: str) -> int:
    """The word's place in a table in frequency order (1 = the commonest); raises UnknownLabel."""
    return table.row(word) + 1


def map_neighbours(table: Vectors, word: str, top: int, k: int = 10) -> MapNeighbours:
    """``word``'s k nearest among the ``top`` commonest words, in d dimensions and on their 2-D PCA map."""
    rank = frequency_rank(table, word)
    if rank > top:
        raise ValueError(f"“{word}” is word {rank:,} by frequency, outside the top {top:,} drawn on the map.")
    sub = table.first(top)
    full = sub.nearest(word, k)                                      # [(word, cosine)] in d dims
    p = pca(np.asarray(sub.E, dtype=np.float64), k=2)                # coords (top, 2)
    i = sub.row(word)
    dist = np.linalg.norm(p.coords - p.coords[i], axis=1)            # (top,) distances on the map
    dist[i] = np.inf                                                 # never its own neighbour
    order = np.argsort(dist, kind="stable")[:k]
    on_map = [(sub.labels[j], float(dist[j])) for j in order]
    a, b = [w for w, _ in full], [w for w, _ in on_map]
    return MapNeighbours(word, rank, full, on_map, [w for w in a if w in b], [w for w in a if w not in b],
                         [w for w in b if w not in a], float(p.explained.sum()))


@dataclass(frozen=True)
class Hint:
    guess: str
    cosine: float                    # cos(E[guess], E[hidden])
    rank: int | None                 # 1 = the nearest word to hidden, 0 = hidden itself, None: outside the top words


def hint(table: Vectors, hidden: str, guess: str, top: int) -> Hint:
    """How close ``guess`` is to ``hidden``: their cosine and the guess's rank among the ``top``
    commonest words by cosine to the hidden word (1 = its nearest word; the hidden word is 0)."""
    g = table.row(guess)
    h = table.row(hidden)
    cos = table.cosine(guess, hidden)
    if g == h:
        return Hint(guess, cos, 0)
    sims = table.first(top).cosines(table.E[h])                      # (top,)
    if h < top:
        sims[h] = -np.inf                                            # the hidden word is not its own neighbour
    rank = 1 + int((sims > cos).sum()) if g < top else None        # 1 + how many words are closer
    return Hint(guess, cos, rank)


def check_word(table: Vectors, word: str) -> str:
    """The word as the table spells it (GloVe is lower case); UnknownLabel naming near spellings."""
    w = word.strip()
    if w in table:
        return w
    if w.lower() in table:
        return w.lower()
    raise UnknownLabel(w, table.suggest(w))
