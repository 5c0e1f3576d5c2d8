"""Where to put the word labels of a scatter plot so that they do not cover each other.

A greedy placement, the way map makers label towns: take the points in priority order
(most frequent word first); for each, try a few places around the point (right, left, above,
below, then the diagonals) and keep the first whose box is inside the plot and overlaps no
label already placed and no point. A label with no free place is left out (the word stays in
the table and the tooltip), unless ``label_all`` (presenter mode): then it takes the place,
inside the plot if one is, that covers the fewest labels and points (in a crowd some cover
each other; piling them all on the right-hand place made whole clusters unreadable).

Nothing is drawn to the right of the plot (no axis, no padding there), so a label may not
pass its right edge: it would be cut off. On the left it may reach a little into the axis's
margin, and above and below a little into the title's and the axis's.

Sizes are estimates in CSS px: a bold label is about 0.62 font sizes wide per character.
No Streamlit here, so the rule is testable on its own.
"""
from __future__ import annotations

import numpy as np

POINT_RADIUS = 7       # px kept free around every point
CHAR_WIDTH = 0.62      # label width per character, in font sizes
LINE_HEIGHT = 1.4      # a label's drawn height, in font sizes (its box as Chromium measures it: 27 px at 20 px)


def candidates(font: int) -> list[tuple[float, float, str]]:
    """(dx, dy, align) offsets of a label's anchor from its point, in order of preference."""
    g, v = 9.0, 0.9 * font
    return [(g, 0.0, "left"), (-g, 0.0, "right"), (0.0, -v, "center"), (0.0, v, "center"),
            (g - 2, -v, "left"), (g - 2, v, "left"), (2 - g, -v, "right"), (2 - g, v, "right")]


def _box(px: float, py: float, dx: float, dy: float, align: str, w: float, h: float):
    x = px + dx
    left = x if align == "left" else x - w if align == "right" else x - w / 2
    top = py + dy - h / 2
    return (left, top, left + w, top + h)


def _hits(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def padded_domain(coords: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each axis's range of the points, widened by 8% of its span on both sides: (lo, hi), each (2,).
    The scatter plot gives its scales exactly this domain, so that the pixels worked out here are
    where Vega draws the points."""
    xy = np.asarray(coords, dtype=float)
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    pad = 0.08 * np.maximum(hi - lo, 1e-9)
    return lo - pad, hi + pad


def to_pixels(coords: np.ndarray, width: float, height: float,
              domain: tuple[float, float] | None = None) -> np.ndarray:
    """Data coordinates (n, 2) -> pixel positions (n, 2), y pointing down:
    x_px = (x - lo) / (hi - lo) * width, y_px = (1 - (y - lo) / (hi - lo)) * height."""
    xy = np.asarray(coords, dtype=float)
    if domain is not None:
        lo = np.array([domain[0], domain[0]])
        hi = np.array([domain[1], domain[1]])
    else:
        lo, hi = padded_domain(xy)
    span = np.maximum(hi - lo, 1e-12)
    u = (xy - lo) / span                           # (n, 2) in [0, 1]
    return np.column_stack([u[:, 0] * width, (1 - u[:, 1]) * height])


def place(coords: np.ndarray, words: list[str], width: float, height: float, font: int,
          priority: list[int] | None = None, label_all: bool = False,
          domain: tuple[float, float] | None = None) -> dict[int, tuple[float, float, str]]:
    """Label offsets: {point index: (dx, dy, align)} for every point that gets a label.

    >>> pts = np.array([[0.0, 0.0], [1.0, 1.0]])
    >>> sorted(place(pts, ["a", "b"], 300, 300, 15))
    [0, 1]
    """
    pix = to_pixels(coords, width, height, domain)
    h = LINE_HEIGHT * font
    dots = [(x - POINT_RADIUS, y - POINT_RADIUS, x + POINT_RADIUS, y + POINT_RADIUS) for x, y in pix]
    order = list(priority) if priority is not None else list(range(len(words)))
    order += [i for i in range(len(words)) if i not in set(order)]
    placed: list[tuple] = []
    out: dict[int, tuple[float, float, str]] = {}
    for i in order:
        w = CHAR_WIDTH * font * len(str(words[i]))
        tries = []                    # (outside the plot, labels and points covered, offset, box)
        for dx, dy, align in candidates(font):
            box = _box(pix[i, 0], pix[i, 1], dx, dy, align, w, h)
            inside = box[0] >= -20 and box[2] <= width and box[1] >= -10 and box[3] <= height + 10
            covered = sum(_hits(box, b) for b in placed) + sum(_hits(box, d) for j, d in enumerate(dots) if j != i)
            tries.append((not inside, covered, (dx, dy, align), box))
            if inside and covered == 0:
                break
        best = min(tries, key=lambda t: t[:2])          # the first of the best, in order of preference
        if (not best[0] and best[1] == 0) or label_all:
            out[i] = best[2]
            placed.append(best[3])
    return out
