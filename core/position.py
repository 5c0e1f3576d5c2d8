"""Position vectors: how a model gets word order back after the lookup.

The lookup gives each token its row whatever its place, so "the cat saw the dog" and "the dog
saw the cat" hand the model the same five rows in another order. A transformer adds a
**position vector** to each row before anything else:

    x_t = E[ids[t]] + P[t]          (t = 0, 1, ..., n-1; each x_t has shape (d,))

Two ways to get P, both in the lesson's next chapter:

* **Sinusoidal** (fixed; Vaswani et al., 2017, "Attention is all you need", section 3.5):

      P[t, 2i]   = sin(t / base^(2i/d))
      P[t, 2i+1] = cos(t / base^(2i/d)),      base = 10,000

  Each pair of columns is a clock hand turning at its own speed: fast in the first columns,
  slower and slower after. Nearby positions get similar vectors.
* **Learned** (GPT-2): P is one more table, ``n_ctx x d`` (1,024 x 768 in GPT-2 small), started
  at random and trained with the rest of the model. GPT-2's released code starts it with
  standard deviation 0.01.

A point the screen makes with the numbers below: **adding positions and then averaging still
cannot tell the two sentences apart**, because a sum does not care about order:

    mean_t (E[ids[t]] + P[t]) = mean_t E[ids[t]] + mean_t P[t]

and the second term is the same for any two sentences of the same length. What changes is the
set of vectors: "cat at place 1" and "cat at place 4" are now different vectors. Anything that
treats each vector on its own before combining them (every layer after the table does, here
shown with ``tanh`` of each number) sees the difference.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import array, indices, number, whole

SINUSOID_BASE = 10_000.0     # Vaswani et al., 2017
LEARNED_INIT_STD = 0.01      # GPT-2's released code: the position table's starting spread
MAX_POSITIONS = 4_096        # rows of a position table made here
MAX_WIDTH = 4_096            # columns of a position table made here


def sinusoidal(n_positions: int, d_model: int, base: float = SINUSOID_BASE) -> np.ndarray:
    """The fixed sinusoidal position table, shape (n_positions, d_model).

    >>> np.round(sinusoidal(3, 4), 4)
    array([[ 0.    ,  1.    ,  0.    ,  1.    ],
           [ 0.8415,  0.5403,  0.01  ,  1.    ],
           [ 0.9093, -0.4161,  0.02  ,  0.9998]])
    """
    n = whole(n_positions, "The number of positions", 1, MAX_POSITIONS)
    d = whole(d_model, "d_model", 1, MAX_WIDTH)
    base = number(base, "The base", 1.0, 1e12)
    t = np.arange(n, dtype=float)[:, None]                  # (n, 1)
    i = np.arange(0, d, 2, dtype=float)[None, :]           # (1, ceil(d/2)): 0, 2, 4, ...
    angle = t / base ** (i / d)                             # (n, ceil(d/2))
    P = np.empty((n, d))
    P[:, 0::2] = np.sin(angle)                              # even columns
    P[:, 1::2] = np.cos(angle[:, : d // 2])                 # odd columns (one fewer when d is odd)
    return P


def learned_start(n_positions: int, d_model: int, seed: int = 0,
                  std: float = LEARNED_INIT_STD) -> np.ndarray:
    """A learned position table as it starts, before any training: N(0, std^2) numbers,
    shape (n_positions, d_model)."""
    n = whole(n_positions, "The number of positions", 1, MAX_POSITIONS)
    d = whole(d_model, "d_model", 1, MAX_WIDTH)
    std = number(std, "The standard deviation", 0.0, 1e6)
    return np.random.default_rng(seed).normal(0.0, std, (n, d))


def with_positions(E: np.ndarray, ids, P: np.ndarray) -> np.ndarray:
    """``x_t = E[ids[t]] + P[t]`` for every place t of the sentence: shape (n, d)."""
    E = array(E, "The table", 2)
    P = array(P, "The position table", 2)
    ids = indices(ids, "The ids", len(E)).reshape(-1)      # (n,)
    if len(ids) > len(P):
        raise ValueError(f"The sentence has {len(ids)} tokens but the position table only "
                         f"{len(P)} rows.")
    if P.shape[1] != E.shape[1]:
        raise ValueError(f"Position vectors have {P.shape[1]} numbers, token rows {E.shape[1]}: "
                         "they must be the same width to be added.")
    return E[ids] + P[: len(ids)]                            # (n, d)


@dataclass(frozen=True)
class OrderTest:
    """Two sentences summarised two ways, each a (d,) vector per sentence."""

    mean_a: np.ndarray          # mean_t x_t for sentence A
    mean_b: np.ndarray
    squashed_a: np.ndarray      # mean_t tanh(x_t): a step on each vector before the average
    squashed_b: np.ndarray

    @property
    def same_mean(self) -> bool:
        """Equal up to rounding in the last bits (a sum in another order rounds differently)."""
        return _same(self.mean_a, self.mean_b)

    @property
    def same_squashed(self) -> bool:
        return _same(self.squashed_a, self.squashed_b)


def _same(u: np.ndarray, v: np.ndarray) -> bool:
    scale = max(1.0, float(np.abs(u).max()), float(np.abs(v).max()))
    return bool(np.abs(u - v).max() <= 1e-12 * scale)


def order_test(E: np.ndarray, ids_a, ids_b, P: np.ndarray | None) -> OrderTest:
    """Summaries of two sentences, with the positions ``P`` added (or without, ``P=None``)."""
    E = array(E, "The table", 2)

    def vectors(ids) -> np.ndarray:                        # (n, d)
        ids = indices(ids, "The ids", len(E)).reshape(-1)
        if ids.size == 0:
            raise ValueError("A sentence needs at least one word.")
        return E[ids] if P is None else with_positions(E, ids, P)

    Xa, Xb = vectors(ids_a), vectors(ids_b)
    return OrderTest(Xa.mean(axis=0), Xb.mean(axis=0),
                     np.tanh(Xa).mean(axis=0), np.tanh(Xb).mean(axis=0))


@dataclass(frozen=True)
class Repeat:
    """A word found at two places of a sentence, and whether it enters the model there as the
    same vector."""

    word: int                   # its id
    first: int                  # its first two places, t1 < t2
    second: int
    same: bool                  # x_t1 == x_t2 (up to rounding in the last bits)


def first_repeat(E: np.ndarray, ids, P: np.ndarray | None) -> Repeat | None:
    """The first word that appears twice in the sentence (``None`` if none does), with
    ``x_t = E[ids[t]]`` (+ ``P[t]``) compared at its first two places.

    >>> E = np.eye(3)
    >>> first_repeat(E, [0, 1, 0], None)
    Repeat(word=0, first=0, second=2, same=True)
    >>> first_repeat(E, [0, 1, 0], sinusoidal(3, 3)).same
    False
    >>> first_repeat(E, [0, 1, 2], None) is None
    True
    """
    E = array(E, "The table", 2)
    ids = indices(ids, "The ids", len(E)).reshape(-1)          # (n,)
    seen: dict[int, int] = {}
    for t, i in enumerate(ids.tolist()):
        if i in seen:
            X = E[ids] if P is None else with_positions(E, ids, P)      # (n, d)
            return Repeat(i, seen[i], t, _same(X[seen[i]], X[t]))
        seen[i] = t
    return None
