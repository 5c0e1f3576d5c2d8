"""How long a big paste into the Tokens screen's text box keeps the browser busy.

    python -m bench.paste [lines ...]        (default: 3,000 30,000 100,000 lines of "ab")

Starts ``streamlit run app`` on 127.0.0.1, opens the Tokens screen in Debian's Chromium,
puts the text on the clipboard and presses Ctrl+V in the box, then times until the browser
draws its next frame, and reads how many characters the box kept. Streamlit 1.67's
``max_chars`` alone *rejects* a longer value only after the browser has inserted and laid out
the whole paste; the app's ``lab_ui.widgets.paste_guard`` gives the box a native ``maxlength``, so the
browser cuts the paste first (the box keeps its first 20,000 characters).

Record the machine load with the table: other work on the machine slows every figure.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from bench.browser import CHROMIUM, CHROMIUM_ARGS, FRAMES_JS, launch_server, stop_server, wait_healthy
from bench.machine import load


def main(sizes: list[int]) -> None:
    from playwright.sync_api import sync_playwright

    log = Path(tempfile.mkdtemp()) / "server.log"
    proc, base = launch_server(log)
    try:
        wait_healthy(proc, base, log)
        print(f"load averages at start: {load()}")
        print(f"{'lines':>9} {'characters':>11} {'kept':>7} {'seconds to next frame':>22}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
            page = ctx.new_page()
            for n in sizes:
                page.goto(f"{base}/tokens")
                area = page.locator("[data-testid='stTextArea'] textarea").first
                area.wait_for(timeout=60_000)
                text = "ab\n" * n
                page.evaluate("t => navigator.clipboard.writeText(t)", text)
                area.click()
                area.press("Control+a")
                start = time.perf_counter()
                area.press("Control+v")
                page.evaluate(FRAMES_JS)
                took = time.perf_counter() - start
                print(f"{n:9,} {len(text):11,} {len(area.input_value()):7,} {took:22.2f}", flush=True)
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [3_000, 30_000, 100_000])
