"""Pieces of the Similarity screen: the arrows of two 2-D vectors, and the one-hot table's
cosines. The arithmetic the screen shows is done here or in core, never in the screen."""
from __future__ import annotations

from dataclasses import dataclass

import altair as alt
import numpy as np
import pandas as pd

from lab_ui.widgets import charts
from core.embedding import one_hot
from core.similarity import cosine_matrix


LABEL_GAP = 16   # px from an arrow's head to its name, along the arrow


def arrows_frame(u: np.ndarray, v: np.ndarray) -> pd.DataFrame:
    """The two 2-D vectors as arrows from the origin: one row each (name, x, y, x0, y0), and
    where each name sits (dx, dy in px) beyond its head, along the arrow (screen y points
    down), so that it never covers the other arrow."""
    heads = np.vstack([u, v]).astype(float)                        # (2, 2)
    lengths = np.linalg.norm(heads, axis=1)                        # (2,)
    unit = np.where(lengths[:, None] > 0, heads / np.where(lengths > 0, lengths, 1.0)[:, None],
                    np.array([0.7, 0.7]))                          # a zero vector: up and right
    return pd.DataFrame({"name": ["u", "v"], "x": heads[:, 0], "y": heads[:, 1],
                         "x0": [0.0, 0.0], "y0": [0.0, 0.0],
                         "dx": LABEL_GAP * unit[:, 0], "dy": -LABEL_GAP * unit[:, 1]})


def arrows_px(big: bool = False) -> int:
    """Width and height of the arrows' plot area (axes outside it): larger in presenter mode."""
    return 400 if big else 280


def arrows_chart(pts: pd.DataFrame, angle_degrees: float, big: bool = False) -> alt.Chart:
    """u and v drawn as arrows on square axes that hold both (at least -1 to 1): the same
    range on x and y, and a plot area as high as it is wide (``arrows_px``), so one unit is
    as long across as up and the angle on screen is the true one. The range leaves room
    for the names beyond the heads."""
    lim = float(max(1.0, np.abs(pts[["x", "y"]].to_numpy()).max()) * 1.3)
    sc = alt.Scale(domain=[-lim, lim], nice=False)
    colour = alt.Color("name:N", scale=alt.Scale(range=charts.WORD_COLOURS[:2]), legend=None)
    arrows = alt.Chart(pts).mark_rule(strokeWidth=4).encode(
        x=alt.X("x0:Q", scale=sc, title="dimension 0"), y=alt.Y("y0:Q", scale=sc, title="dimension 1"),
        x2="x:Q", y2="y:Q", color=colour)
    heads = alt.Chart(pts).mark_point(size=160, filled=True).encode(x="x:Q", y="y:Q", color=colour)
    labels = heads.mark_text(fontSize=charts.BIG_FONT if big else 18, fontWeight="bold", align="center",
                             baseline="middle", dx=alt.ExprRef("datum.dx"), dy=alt.ExprRef("datum.dy")
                             ).encode(text="name:N")
    size = arrows_px(big)
    return charts.style((arrows + heads + labels).properties(
        width=size, height=size, title=f"u and v: {angle_degrees:.1f}° apart"), fit_width=False, big=big)


def squares(values: np.ndarray) -> str:
    """The squares of a sum of squares as written out: "3² + (-1)² + 0.5²" (a negative
    number, or one written with an exponent, in parentheses: -1² would read as -(1²))."""
    return " + ".join(f"({t})²" if t.startswith("-") or "e" in t else f"{t}²"
                      for t in (f"{x:g}" for x in values))


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
