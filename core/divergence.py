"""When gradient descent has blown up, and going back one update when it has.

One rule for every trainer: a step diverged when its loss (or its gradients) is not a finite
number, or when the loss has grown past ``BLOWUP_FACTOR`` times the first one. The full-batch
trainers (skip-gram, CBOW) and negative sampling then return the parameters as they were
*before* the update that led there (``Descent``): the last table whose loss was reported.
word2vec (core.word2vec) updates its rows in place, block by block, so it keeps no earlier
copy: it applies the rule without a first loss (``has_diverged(loss, None)``) and stops.

The checks run at every update, so they are kept cheap without changing a single answer: a
sum of numbers is finite only if every one of them is (an inf or a nan stays in any sum it
enters), so one sum per array settles almost every check, and only a sum that is not finite
is looked at number by number (it may just have overflowed). And since E is finite,
``E - lr dE`` is finite only if ``dE`` is too: the full-batch loop (core.skipgram.descend)
checks the next parameters and the gradients with one look (``propose``).
"""
from __future__ import annotations

import math

import numpy as np

BLOWUP_FACTOR = 10.0
"""A loss above this many times its starting value counts as diverged."""


def all_finite(*arrays) -> bool:
    """True when every number of every argument is finite (no inf, no nan).

    >>> all_finite(1.0, np.zeros(3)), all_finite(np.array([1.0, np.inf]))
    (True, False)

    One sum per array: finite means every number is. A sum that is not finite (it may have
    overflowed: NumPy warns, unless under ``np.errstate(over="ignore")`` as the trainers run)
    is settled number by number.
    """
    for a in arrays:
        if isinstance(a, (float, int)):             # a Python number (a loss): no array needed
            if not math.isfinite(a):
                return False
            continue
        a = np.asarray(a)
        total = np.add.reduce(a, axis=None)         # finite -> every number is finite
        if not math.isfinite(total) and not np.isfinite(a).all():   # else: overflow, or not finite
            return False
    return True


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
    finite (else False, and E and W stay as they were). The same in two halves:
    ``propose(lr, dE, dW)`` computes them and says whether they are finite (and so are dE
    and dW), ``accept()`` keeps them.

    >>> d = Descent(np.ones((2, 2)), np.ones((2, 2)))
    >>> d.update(0.5, np.ones((2, 2)), np.zeros((2, 2))), float(d.E[0, 0])
    (True, 0.5)
    >>> d.diverged(float("inf"), 1.0), float(d.E[0, 0])      # back to before that update
    (True, 1.0)
    >>> d.update(1.0, np.full((2, 2), np.inf), np.zeros((2, 2))), float(d.E[0, 0])
    (False, 1.0)
    >>> d.propose(0.5, np.ones((2, 2)), np.zeros((2, 2))), float(d.E[0, 0])   # not kept yet
    (True, 1.0)
    >>> d.accept(); float(d.E[0, 0])
    0.5
    """

    def __init__(self, E: np.ndarray, W: np.ndarray):
        self.E, self.W = E, W                  # (V, d), (d, V) the current parameters
        self.E_prev, self.W_prev = E, W        # before the last update (at the start: the same)
        self.E_next, self.W_next = E, W        # the update ``propose`` computed, until ``accept``

    def diverged(self, loss: float, first_loss: float | None, *grads: np.ndarray) -> bool:
        if not has_diverged(loss, first_loss, *grads):
            return False
        self.E, self.W = self.E_prev, self.W_prev                   # undo the last update
        return True

    def update(self, lr: float, dE: np.ndarray, dW: np.ndarray) -> bool:
        if not self.propose(lr, dE, dW):
            return False
        self.accept()
        return True

    def propose(self, lr: float, dE: np.ndarray, dW: np.ndarray) -> bool:
        """Compute ``E - lr dE`` and ``W - lr dW`` (not kept yet); True if every number of both
        is finite, which also means every number of dE and dW is (E and W are finite)."""
        self.E_next, self.W_next = self.E - lr * dE, self.W - lr * dW   # (V, d), (d, V)
        return all_finite(self.E_next, self.W_next)

    def accept(self) -> None:
        """Keep the update ``propose`` computed (call it only after a True)."""
        self.E_prev, self.W_prev, self.E, self.W = self.E, self.W, self.E_next, self.W_next
