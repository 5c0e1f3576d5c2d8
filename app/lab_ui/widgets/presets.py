"""The settings and worked examples the screens start from: choices made for a class, kept
out of the core, which holds only the maths they feed."""
from __future__ import annotations

import numpy as np

from core.embedding import example_upstream
from core.skipgram import SkipGramConfig

SOFTMAX_SETTINGS = SkipGramConfig(d_model=12, lr=1.0, steps=2000)
"""Full-softmax settings that recover the word groups of core.generated's default corpus
(recovery 1.0; tests/test_generated.py): the Train screen's "settings that suit this text"
and the Projections screen's table of word groups."""


def upstream_in_hundredths(T: int, d_model: int, seed: int = 1) -> np.ndarray:
    """core.embedding's stand-in upstream gradient, shape (1, T, d_model), rounded to 2 decimals
    so a class can add the numbers up by hand.

    >>> upstream_in_hundredths(1, 3)
    array([[[0.35, 0.82, 0.33]]])
    """
    return example_upstream(T, d_model, seed).round(2)
