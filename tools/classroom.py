"""Screenshots of every screen at classroom sizes, and the layout checks' verdict, for
docs/classroom.md.

    .venv/bin/python -m tools.classroom        # from the repository root; needs /usr/bin/chromium

Starts ``streamlit run app`` on a free local port, opens every screen at 1024x768 (an older
projector) and at 853x533 CSS px (a 1280x800 laptop zoomed to 150%), sidebar open, and
saves the screen from its top (up to 3,200 px of it) as a small palette PNG in
docs/classroom/. It also runs the browser suite's layout checks (tests/browser/layout.py) on
the whole page at each size and writes the table of results into docs/classroom.md between the
markers below.
"""
from __future__ import annotations

import io
from urllib.parse import urlparse

from bench.browser import CHROMIUM, CHROMIUM_ARGS, ROOT, launch_server, need_browser, stop_server, wait_healthy
from tests.browser.helpers import AppPage, slug
from tests.browser.layout import layout_problems

SIZES = [(1024, 768), (853, 533)]
OUT = ROOT / "docs" / "classroom"
DOC = ROOT / "docs" / "classroom.md"
BEGIN, END = "<!-- classroom:begin -->", "<!-- classroom:end -->"


def small_png(png: bytes) -> bytes:
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("RGB").quantize(colors=96, method=Image.Quantize.MEDIANCUT)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


def whole_page(page, max_height: int = 3200) -> bytes:
    """The screen from its top, as tall as its content (at most ``max_height`` px): Streamlit
    scrolls inside its main area, so the viewport is made as tall as the content for the shot."""
    size = dict(page.viewport_size)
    js = "() => document.querySelector(\"[data-testid='stMain']\").scrollHeight"
    try:
        page.set_viewport_size({"width": size["width"], "height": min(page.evaluate(js), max_height)})
        page.wait_for_timeout(600)
        return page.screenshot(animations="disabled", caret="hide")
    finally:
        page.set_viewport_size(size)


def page_path(href: str) -> str:
    """The path to open a sidebar link's screen: its own path (``/own_vectors``), not the file
    name made of it (``own-vectors``, which Streamlit answers with "Page not found" and Home)."""
    return "/" + urlparse(href).path.strip("/")


def main() -> None:
    from playwright.sync_api import sync_playwright

    need_browser()
    OUT.mkdir(parents=True, exist_ok=True)
    log = ROOT / "test-artifacts" / "classroom-server.log"
    log.parent.mkdir(exist_ok=True)
    proc, base = launch_server(log)
    rows, screens = [], []
    try:
        wait_healthy(proc, base, log)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            for w, h in SIZES:
                ctx = browser.new_context(viewport={"width": w, "height": h})
                app = AppPage(ctx, base)
                app.goto("/")
                screens = screens or app.nav_links()   # the screens as the sidebar lists them
                for title, href in screens:
                    name = slug(href)                   # the file's name
                    app.goto(page_path(href))
                    app.chart_problems(0)
                    app.page.wait_for_timeout(800)           # Vega-Lite's last resize
                    problems = layout_problems(app.page)
                    file = f"{name}-{w}x{h}.png"
                    (OUT / file).write_bytes(small_png(whole_page(app.page)))
                    rows.append((title, f"{w}x{h}", file, problems))
                    print(f"{title:18} {w}x{h}: {len(problems)} layout problem(s)", flush=True)
                ctx.close()
            browser.close()
    finally:
        stop_server(proc)
    table = ["| Screen | Size | Layout checks | Screenshot |", "|---|---|---|---|"]
    for title, size, name, problems in rows:
        verdict = "pass" if not problems else "FAIL: " + "; ".join(problems)[:300]
        table.append(f"| {title} | {size} | {verdict} | ![{title} at {size}](classroom/{name}) |")
    text = DOC.read_text()
    head, rest = text.split(BEGIN)
    _, tail = rest.split(END)
    DOC.write_text(head + BEGIN + "\n" + "\n".join(table) + "\n" + END + tail)


if __name__ == "__main__":
    main()
