"""Pieces of the Similarity screen: the arrows of two 2-D vectors, and the one-hot table's
cosines. The arithmetic the screen shows is done here or in core, never in the screen."""
from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from lab_ui import charts
from core.embedding import one_hot
from core.similarity import cosine_matrix


def arrows_frame(u: np.ndarray, v: np.ndarray) -> pd.DataFrame:
    """The two 2-D vectors as arrows from the origin: one row each (name, x, y, x0, y0)."""
    return pd.DataFrame({"name": ["u", "v"], "x": [u[0], v[0]], "y": [u[1], v[1]],
                         "x0": [0.0, 0.0], "y0": [0.0, 0.0]})


def arrows_chart(pts: pd.DataFrame, angle_degrees: float) -> alt.Chart:
    """u and v drawn as arrows on square axes that hold both (at least -1 to 1)."""
    lim = float(max(1.0, np.abs(pts[["x", "y"]].to_numpy()).max()) * 1.15)
    sc = alt.Scale(domain=[-lim, lim])
    colour = alt.Color("name:N", scale=alt.Scale(range=charts.WORD_COLOURS[:2]), legend=None)
    arrows = alt.Chart(pts).mark_rule(strokeWidth=4).encode(
        x=alt.X("x0:Q", scale=sc, title="dimension 0"), y=alt.Y("y0:Q", scale=sc, title="dimension 1"),
        x2="x:Q", y2="y:Q", color=colour)
    heads = alt.Chart(pts).mark_point(size=160, filled=True).encode(x="x:Q", y="y:Q", color=colour)
    labels = heads.mark_text(dx=12, dy=-10, fontSize=18, fontWeight="bold").encode(text="name:N")
    return charts.style((arrows + heads + labels).properties(
        width="container", height=360, title=f"u and v: {angle_degrees:.1f}° apart"), big=charts.presenting())


@dataclass(frozen=True)
class OneHotCosines:
    """The cosine of every pair of the V one-hot vectors, and what the different pairs show."""

    S: np.ndarray          # (V, V) cosine matrix of the one-hot vectors (the identity)
    n_different: int       # ordered pairs of different words: V (V - 1)
    largest: float         # the largest cosine between two different words


def onehot_cosines(V: int) -> OneHotCosines:
    S = cosine_matrix(one_hot(np.arange(V), V))          # (V, V)
    off = S[~np.eye(V, dtype=bool)]                      # (V (V - 1),) pairs of different words
    return OneHotCosines(S=S, n_different=int(off.size), largest=float(off.max()))
