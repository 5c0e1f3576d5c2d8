"""How long a big paste into the Tokens screen's text box keeps the browser busy.

    python -m bench.paste [lines ...]        (default: 3,000 30,000 100,000 lines of "ab")

Starts ``streamlit run app`` on 127.0.0.1, opens the Tokens screen in Debian's Chromium,
puts the text on the clipboard and presses Ctrl+V in the box, then times until the browser
draws its next frame. Two ways per size:

* ``as shipped``: the box has ``max_chars`` = 20,000. Streamlit 1.67 passes it to its own
  change handler, which *rejects* a longer value after the browser has inserted and laid
  out the whole paste; the textarea element itself has no ``maxlength``.
* ``native maxlength``: the bench sets the element's ``maxlength`` attribute first, as a
  browser-side fix would; the browser then cuts the paste before inserting it.

Record the machine load with the table: other work on the machine slows every figure.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request

from bench.browser import free_port, stop_server
from bench.machine import load

CHROMIUM = "/usr/bin/chromium"
FRAME_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def main(sizes: list[int]) -> None:
    from playwright.sync_api import sync_playwright

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen([sys.executable, "-P", "-m", "streamlit", "run", "app", "--server.port",
                             str(port), "--server.address", "127.0.0.1", "--server.headless", "true"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        print(f"load averages at start: {load()}")
        print(f"{'lines':>9} {'characters':>11} {'box':>17} {'kept':>7} {'seconds to next frame':>22}")
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            ctx = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
            page = ctx.new_page()
            for n in sizes:
                for native in (False, True):
                    page.goto(f"http://127.0.0.1:{port}/tokens")
                    area = page.locator("[data-testid='stTextArea'] textarea").first
                    area.wait_for(timeout=60_000)
                    if native:
                        area.evaluate("el => el.maxLength = 20000")
                    text = "ab\n" * n
                    page.evaluate("t => navigator.clipboard.writeText(t)", text)
                    area.click()
                    area.press("Control+a")
                    start = time.perf_counter()
                    area.press("Control+v")
                    page.evaluate(FRAME_JS)
                    took = time.perf_counter() - start
                    box = "native maxlength" if native else "as shipped"
                    print(f"{n:9,} {len(text):11,} {box:>17} {len(area.input_value()):7,} {took:22.2f}",
                          flush=True)
            browser.close()
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [3_000, 30_000, 100_000])
