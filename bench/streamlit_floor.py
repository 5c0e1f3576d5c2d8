"""Streamlit's own floor: what a slider move costs on a page of N plain elements and 0-3 small
charts, with none of the app's code, measured as ``bench.browser_latency`` measures the screens.

Run from the repository root:  .venv/bin/python -m bench.streamlit_floor [--repeats 10]

Starts ``streamlit run bench/floor_app.py`` (a synthetic page: one slider, ``n`` captions,
Markdown lines, metrics, subheaders and column pairs, and up to three canvas charts of the
lesson's shapes; see that file) on 127.0.0.1 and opens one Chromium page at 1280 x 900. For
each shape it presses the slider's arrow keys (4 -> 5 -> 4 ...), twice to warm up, then
``--repeats`` times, and prints the median key press -> painted time (the same clock and rule
as ``bench.browser_latency``: the first frame after the page's last change, once the run is
over and the page idle), and the means of the page's main-thread CPU time and the server's.
The table answers: how many elements and charts fit in a 100 ms rerun on this machine?"""
from __future__ import annotations

import argparse
import statistics
import sys

from bench import machine
from bench.browser import Page, need_browser
from bench.browser_latency import CpuClock, timed_page

SHAPES = [(0, 0, 1), (20, 0, 1), (40, 0, 1), (80, 0, 1), (160, 0, 1), (80, 0, 0),
          (0, 1, 1), (0, 3, 1), (40, 3, 1), (80, 3, 1)]
"""(elements, charts, every element changes) for each row."""


def measure(s: Page, cpu: CpuClock, n: int, charts: int, change: int, repeats: int) -> dict:
    s.goto(f"/?n={n}&charts={charts}&change={change}")
    thumb = s.page.locator(".st-key-floor_value").get_by_role("slider")
    thumb.focus()
    runs = []
    for i in range(2 + repeats):
        key = "ArrowRight" if i % 2 == 0 else "ArrowLeft"
        run = cpu.timed(s, lambda key=key: thumb.press(key))
        if i >= 2:
            runs.append(run)
    return {"painted": statistics.median(r["painted"] for r in runs),
            "worst": max(r["painted"] for r in runs),
            "page_cpu": statistics.fmean(r["page_cpu"] for r in runs),
            "server_cpu": statistics.fmean(r["server_cpu"] for r in runs)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10, help="timed slider moves per shape (10)")
    args = ap.parse_args(argv)
    need_browser()
    repeats = max(2, min(args.repeats, 50))
    print("\n".join(machine.describe()), flush=True)
    rows, errors = [], []
    with timed_page(errors, script="bench/floor_app.py") as (s, cpu):
        for n, charts, change in SHAPES:
            rows.append(((n, charts, change), measure(s, cpu, n, charts, change, repeats)))
            print(f"  measured n={n} charts={charts} change={change} (load {machine.load()})", flush=True)
    print(f"\nSlider key press -> page painted on a synthetic Streamlit page (no app code), ms; "
          f"median and worst of {repeats} warm moves; page cpu / srv cpu: means of CPU time per move.\n")
    print(f"{'elements':>8} {'charts':>6} {'all change':>10} {'painted':>8} {'worst':>6} {'page cpu':>8} {'srv cpu':>7}")
    for (n, charts, change), r in rows:
        print(f"{n:>8} {charts:>6} {'yes' if change else 'no':>10} {1000 * r['painted']:>8.0f} "
              f"{1000 * r['worst']:>6.0f} {1000 * r['page_cpu']:>8.0f} {1000 * r['server_cpu']:>7.0f}")
    print(f"\nload at the end: {machine.load()}")
    if errors:
        print("\nThe server's log has errors:\n  " + "\n  ".join(errors[:10]))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
