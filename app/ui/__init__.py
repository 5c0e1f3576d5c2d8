"""Chart and widget helpers shared by the screens.

Importing this package also moves every object that exists at import time (Streamlit,
Altair, NumPy, pandas, pyarrow ...) out of the garbage collector's view with ``gc.freeze()``.
Streamlit runs a full collection after every script run; over the ~145,000 long-lived
objects of a warm server that took 80-110 ms per rerun, and after the freeze it takes
7-14 ms (docs/performance.md).
"""
import gc

import altair  # noqa: F401  (imported here so that freeze() covers them)
import numpy  # noqa: F401
import pandas  # noqa: F401

gc.freeze()
