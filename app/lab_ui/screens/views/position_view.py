"""Tables of the Position screen (lab_ui/screens/position.py): the vectors at each place, and the
summaries that can or cannot tell two sentences apart."""
from __future__ import annotations

import numpy as np
import pandas as pd

from core.position import OrderTest, with_positions
from core.similarity import cosine

KINDS = {"sinusoidal": "Sinusoidal (fixed)", "learned": "Learned, before training",
         "none": "None"}
POSITION_WIDTHS = [2, 4, 8, 16, 32, 64]
SUMMARIES = ("“mean” averages the vectors of the sentence; “mean of tanh” first squashes each number "
             "of each vector with tanh, then averages. “cosine” compares A's summary with B's, “largest "
             "gap” is the biggest difference between their numbers, and “no” under “tells apart” means "
             "the two summaries are equal, up to rounding in the last digits of a sum.")


def place_table(E: np.ndarray, vocab: list[str], ids, P: np.ndarray | None) -> pd.DataFrame:
    """One row per place: the word, then the numbers of x_t (the word's row, plus P[t] if any)."""
    ids = list(ids)
    X = E[ids] if P is None else with_positions(E, ids, P)        # (n, d)
    table = pd.DataFrame(X, columns=[f"dim {k}" for k in range(X.shape[1])]).round(3)
    table.insert(0, "word", [vocab[i] for i in ids])
    table.insert(0, "place", range(len(ids)))
    return table


def summary_table(tests: dict[bool, OrderTest]) -> pd.DataFrame:
    """Rows: each summary with and without positions; columns: cosine of A's and B's summary,
    their largest difference, and whether they tell A from B apart."""
    rows = []
    for with_p, t in tests.items():
        where = "with positions" if with_p else "rows only"
        for name, a, b, same in (("mean", t.mean_a, t.mean_b, t.same_mean),
                                 ("mean of tanh", t.squashed_a, t.squashed_b, t.same_squashed)):
            rows.append({"summary": f"{name}, {where}", "cosine": round(cosine(a, b), 6),
                         "largest gap": _difference(float(np.abs(a - b).max()), same),
                         "tells apart": "no" if same else "yes"})
    return pd.DataFrame(rows)


def _difference(value: float, same: bool) -> str:
    """The largest difference as text; a difference in the last bits of a sum is called so."""
    return f"{value:.1g} (rounding only)" if same and value else f"{value:.3g}"
