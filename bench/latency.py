"""Screen latency through AppTest: the time one script run takes after a control changes,
with the caches cold (first time those settings are seen) and warm (seen before).

Run from the repository root:  .venv/bin/python -m bench.latency [--repeats N]
Prints a table; targets: Train (reference run) under 150 ms warm and 500 ms cold, every
screen under 300 ms warm. AppTest runs the script in this process, so the numbers are the
server's own work for one rerun, without the browser's drawing or the websocket.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "app"):
    sys.path.insert(0, str(p))

import streamlit as st  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from bench.machine import describe  # noqa: E402

APP = str(ROOT / "app" / "streamlit_app.py")

# screen -> (widget kind, key, a cold value per repeat (function of i), the warm value)
CONTROLS = {
    "lookup": ("slider", "lookup_row", lambda i: i % 3, 1),
    "similarity": ("slider", "sim_scale", lambda i: 0.25 * (i % 19 + 1), 1.0),
    "train": ("slider", "train_d_model", lambda i: 5 + i % 27, 4),
    "gradients": ("text_input", "grad_ids", lambda i: f"15, 824, {391 + i}", "15, 824, 391"),
    "parameters": ("selectbox", "params_preset", lambda i: ["GPT-2 XL", "GPT-3 175B"][i % 2], "GPT-2 small"),
    "limits": ("text_input", "limits_b", lambda i: ["the dog saw the cat", "the cat sat on the mat"][i % 2],
               "the dog saw the cat"),
    "tokens": ("text_area", "tok_text", lambda i: f"He sat on the river bank number {i}.",
               "He sat on the river bank.\nShe got a bank loan."),
    "projections": ("slider", "proj_rotation", lambda i: 2 + i % 18, 1),
}


def clear_caches() -> None:
    st.cache_data.clear()
    from lab_ui.runs import run_cache
    run_cache().clear()


def set_value(at: AppTest, kind: str, key: str, value):
    widget = getattr(at, kind)(key=key)
    if kind in ("text_input", "text_area"):
        return widget.input(value)
    return widget.set_value(value)


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return 1000 * (time.perf_counter() - t0)


def measure(screen: str, repeats: int) -> tuple[float, float, float]:
    """(first open, cold change, warm change) medians in ms."""
    kind, key, cold_value, warm_value = CONTROLS[screen]
    opens, colds, warms = [], [], []
    for i in range(repeats):
        clear_caches()
        at = AppTest.from_file(APP, default_timeout=120)
        at.run()
        # each lambda runs at once, inside this iteration: binding the loop variables is safe
        opens.append(timed(lambda: at.switch_page(f"app_pages/{screen}.py").run()))  # noqa: B023
        colds.append(timed(lambda: set_value(at, kind, key, cold_value(i)).run()))  # noqa: B023
        warms.append(timed(lambda: set_value(at, kind, key, warm_value).run()))  # noqa: B023
        assert not at.exception, [e.value for e in at.exception]
    return statistics.median(opens), statistics.median(colds), statistics.median(warms)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    for line in describe():
        print(line)
    print(f"\nScreen latency through AppTest, median of {args.repeats} (ms)\n")
    print(f"{'screen':<12} {'first open, cold':>17} {'control, cold':>14} {'control, warm':>14}  target (warm / cold)")
    for screen in CONTROLS:
        o, c, w = measure(screen, args.repeats)
        target = "150 / 500" if screen == "train" else "300 / -"
        ok = w < (150 if screen == "train" else 300) and (screen != "train" or c < 500)
        print(f"{screen:<12} {o:>17.0f} {c:>14.0f} {w:>14.0f}  {target:<10} {'met' if ok else 'MISSED'}")


if __name__ == "__main__":
    main()
