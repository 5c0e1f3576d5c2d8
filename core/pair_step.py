"""One (centre, context) pair through skip-gram, forward and backward, every number kept.

The Train screen averages the gradient over all pairs before it moves anything. Here one pair
at a time is followed through the model, as word2vec itself trains (stochastic gradient
descent: update after every pair)::

    x    = E[c]                      # (d,)    the centre word's row
    z    = x @ W                     # (V,)    one score per word of the vocabulary
    p    = softmax(z)                # (V,)    predicted chance of each word as a neighbour
    loss = -log p[t]                 #         t is the context word actually seen
    dz   = p - onehot(t)             # (V,)    d loss / d z
    dW   = outer(x, dz)              # (d, V)  d loss / d W: every column gets a share
    dx   = W @ dz                    # (d,)    d loss / d x: goes to row c of E only
    E[c] -= lr * dx ;  W -= lr * dW

Only row c of E moves; every column of W moves, most the context word's (pushed up, since
``dz[t] = p[t] - 1 < 0``) and the words the model wrongly gave a high chance (pushed down).

Two tables with nothing between them are one: ``E @ W`` is a single V x V table of scores,
but it can never have more than d_model independent rows (its rank is at most d_model). That
is why the model has to squeeze what it learns into d_model numbers per word.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import array, number, whole
from core.embedding import rows_touched
from core.skipgram import softmax


@dataclass(frozen=True)
class PairStep:
    """Every intermediate of one pair's forward and backward pass, and the tables after it."""

    centre: int
    context: int
    x: np.ndarray          # (d,)
    z: np.ndarray          # (V,)
    p: np.ndarray          # (V,)
    loss: float
    dz: np.ndarray         # (V,)
    dW: np.ndarray         # (d, V)
    dx: np.ndarray         # (d,)
    E_after: np.ndarray    # (V, d)
    W_after: np.ndarray    # (d, V)
    lr: float

    @property
    def column_moves(self) -> np.ndarray:
        """How far each column of W moves, ``lr * |dW[:, j]|``: shape (V,). Every column moves."""
        return self.lr * np.linalg.norm(self.dW, axis=0)

    @property
    def most_moved_column(self) -> int:
        """The word whose column of W moves furthest."""
        return int(np.argmax(self.column_moves))

    @property
    def row_move(self) -> float:
        """How far row c of E moves, ``lr * |dx|``; every other row of E stays where it was."""
        return self.lr * float(np.linalg.norm(self.dx))


def pair_step(E: np.ndarray, W: np.ndarray, centre: int, context: int, lr: float) -> PairStep:
    """One stochastic gradient step on the pair (centre, context); E and W are not changed."""
    E = array(E, "E", 2)
    W = array(W, "W", 2)
    V, d = E.shape
    if W.shape != (d, V):
        raise ValueError(f"W must be {d} x {V} to go with a {V} x {d} table E, not "
                         f"{W.shape[0]} x {W.shape[1]}.")
    c = whole(centre, "The centre id", 0, V - 1)
    t = whole(context, "The context id", 0, V - 1)
    lr = number(lr, "The learning rate", 0.0, 1e6)
    x = E[c].copy()                                    # (d,)
    z = x @ W                                          # (V,)
    p = softmax(z)                                     # (V,)
    loss = float(-np.log(p[t]))
    dz = p.copy()
    dz[t] -= 1.0                                       # (V,)
    dW = np.outer(x, dz)                               # (d, V)
    dx = W @ dz                                        # (d,)
    E_after = E.copy()
    E_after[c] -= lr * dx
    return PairStep(c, t, x, z, p, loss, dz, dW, dx, E_after, W - lr * dW, lr)


def walk(E: np.ndarray, W: np.ndarray, centres: np.ndarray, contexts: np.ndarray, lr: float,
         n_steps: int) -> tuple[np.ndarray, np.ndarray]:
    """The tables after the first ``n_steps`` pairs, one step per pair, in order."""
    n_steps = whole(n_steps, "The number of steps", 0, len(centres))
    for c, t in zip(centres[:n_steps], contexts[:n_steps]):
        step = pair_step(E, W, int(c), int(t), lr)
        E, W = step.E_after, step.W_after
    return E, W


def rows_moved(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Ids of the rows of a table that differ after a step (compared number by number)."""
    return rows_touched(np.asarray(after) - np.asarray(before))


def combined_scores(E: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, int]:
    """``E @ W`` (V, V), the one table the two layers amount to, and its rank (<= d_model).

    >>> S, rank = combined_scores(np.ones((3, 1)), np.arange(3.0)[None, :])
    >>> S.shape, rank
    ((3, 3), 1)
    """
    E = array(E, "E", 2)
    W = array(W, "W", 2)
    S = E @ W                                          # (V, V)
    return S, int(np.linalg.matrix_rank(S))
