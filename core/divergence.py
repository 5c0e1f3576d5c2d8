"""When gradient descent has blown up, and going back one update when it has.

One rule for every trainer: a step diverged when its loss (or its gradients) is not a finite
number, or when the loss has grown past ``BLOWUP_FACTOR`` times the first one. The full-batch
trainers (skip-gram, CBOW) and negative sampling then return the parameters as they were
*before* the update that led there (``Descent``): the last table whose loss was reported.
word2vec (core.word2vec) updates its rows in place, block by block, so it keeps no earlier
copy: it applies the rule without a first loss (``has_diverged(loss, None)``) and stops.
"""
from __future__ import annotations

import numpy as np

BLOWUP_FACTOR = 10.0
"""A loss above this many times its starting value counts as diverged."""


def all_finite(*arrays) -> bool:
    """True when every number of every argument is finite (no inf, no nan).

    >>> all_finite(1.0, np.zeros(3)), all_finite(np.array([1.0, np.inf]))
    (True, False)
    """
    return all(bool(np.isfinite(a).all()) for a in arrays)


def has_diverged(loss: float, first_loss: float | None, *arrays: np.ndarray) -> bool:
    """The divergence rule of every trainer: the loss (or any of ``arrays``, e.g. its gradients)
    is not finite, or the loss has grown past ``BLOWUP_FACTOR`` times ``first_loss``.

    >>> has_diverged(2.0, 1.0), has_diverged(11.0, 1.0), has_diverged(float("nan"), None)
    (False, True, True)
    """
    blown_up = first_loss is not None and loss > BLOWUP_FACTOR * first_loss
    return blown_up or not all_finite(loss, *arrays)


class Descent:
    """The parameters E and W of a gradient descent, and the ones before its last update.

    ``diverged(loss, first_loss, *grads)``: True if the rule says so, and then E and W are
    put back to before the last update (its loss is the first that broke the rule).
    ``update(lr, dE, dW)``: ``E - lr dE``, ``W - lr dW``, kept only if every number is
    finite (else False, and E and W stay as they were).

    >>> d = Descent(np.ones((2, 2)), np.ones((2, 2)))
    >>> d.update(0.5, np.ones((2, 2)), np.zeros((2, 2))), float(d.E[0, 0])
    (True, 0.5)
    >>> d.diverged(float("inf"), 1.0), float(d.E[0, 0])      # back to before that update
    (True, 1.0)
    >>> d.update(1.0, np.full((2, 2), np.inf), np.zeros((2, 2))), float(d.E[0, 0])
    (False, 1.0)
    """

    def __init__(self, E: np.ndarray, W: np.ndarray):
        self.E, self.W = E, W                  # (V, d), (d, V) the current parameters
        self.E_prev, self.W_prev = E, W        # before the last update (at the start: the same)

    def diverged(self, loss: float, first_loss: float | None, *grads: np.ndarray) -> bool:
        if not has_diverged(loss, first_loss, *grads):
            return False
        self.E, self.W = self.E_prev, self.W_prev                   # undo the last update
        return True

    def update(self, lr: float, dE: np.ndarray, dW: np.ndarray) -> bool:
        E_new, W_new = self.E - lr * dE, self.W - lr * dW           # (V, d), (d, V)
        if not all_finite(E_new, W_new):
            return False
        self.E_prev, self.W_prev, self.E, self.W = self.E, self.W, E_new, W_new
        return True
