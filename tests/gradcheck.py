"""The tests' one gradient check: central finite differences, entry by entry.

    dL/dP[i] ~ (L(P + h e_i) - L(P - h e_i)) / (2 h)

with an error of order h^2 for a smooth loss, so at h = 1e-6 it agrees with an exact
gradient to about 1e-8 (where rounding in L takes over).
"""
from __future__ import annotations

from typing import Callable

import numpy as np


def numerical_gradient(loss: Callable[[], float], P: np.ndarray, h: float = 1e-6) -> np.ndarray:
    """dL/dP by central differences: each entry of ``P`` is moved by +-h in place (and put back),
    and ``loss()`` is called after each move, so it must read ``P`` itself.

    >>> P = np.array([1.0, 2.0])
    >>> numerical_gradient(lambda: float((P ** 2).sum()), P).round(6)
    array([2., 4.])
    """
    num = np.zeros_like(P)
    for idx in np.ndindex(P.shape):
        old = P[idx]
        P[idx] = old + h
        up = loss()
        P[idx] = old - h
        down = loss()
        P[idx] = old
        num[idx] = (up - down) / (2 * h)
    return num
