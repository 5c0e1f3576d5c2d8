"""Driving the running app in Chromium for the tests: reading widgets and metrics, checking a
screen's health, and taking full-page screenshots. Starting the server, the browser's
arguments and waiting for script runs (the server's ``script_finished`` message on the app's
websocket) are the shared harness's, ``bench.browser``, which the benchmarks use too.
"""
from __future__ import annotations

import io
import re
from pathlib import Path
from urllib.parse import urlparse

from bench.browser import CHROMIUM, CHROMIUM_ARGS, Page  # noqa: F401  (the fixtures import them from here)

try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect
except ImportError:  # the fixtures skip (or fail in CI) with a clear message
    expect = None
    PlaywrightTimeout = TimeoutError

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "test-artifacts" / "screenshots"
DOCS_SCREENSHOTS = REPO_ROOT / "docs" / "screenshots"

APP = "[data-testid='stApp']"
CHART_TIMEOUT = 15_000  # ms for Vega-Lite to draw after the run ends

# Console messages that are not the app's fault; they are listed at the end of the run.
IGNORED_CONSOLE: list[str] = []
# Layout observations that do not fail the suite (charts wider than their column).
LAYOUT_NOTES: list[str] = []

CHARTS_JS = """
() => Array.from(document.querySelectorAll("[data-testid='stVegaLiteChart']"))
  .filter(c => c.parentElement.checkVisibility())  // skip charts in closed tabs and expanders
  .map(c => {
  const g = c.querySelector('canvas, svg.marks');
  if (!g) return 'nothing drawn';
  const r = g.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return `zero size ${r.width}x${r.height}`;
  if (g.tagName.toLowerCase() === 'canvas') {
    const d = g.getContext('2d').getImageData(0, 0, g.width, g.height).data;
    for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) return 'ok';
    return 'blank canvas';
  }
  return g.querySelector('.role-mark > *') ? 'ok' : 'svg without marks';
})
"""

SCROLL_JS = """
() => {
  const d = document.documentElement, m = document.querySelector("[data-testid='stMain']");
  return {docScroll: d.scrollWidth, innerWidth: window.innerWidth,
          mainScroll: m ? m.scrollWidth : 0, mainClient: m ? m.clientWidth : 0};
}
"""

# Charts (or tables) sticking out of their column overlap the column beside them.
SPILL_JS = """
() => {
  const out = [];
  for (const el of document.querySelectorAll(
      "[data-testid='stVegaLiteChart'], [data-testid='stDataFrame'], [data-testid='stMetric']")) {
    const col = el.closest("[data-testid='stColumn']") || el.closest("[data-testid='stMainBlockContainer']");
    if (!col) continue;
    const r = el.getBoundingClientRect(), c = col.getBoundingClientRect();
    const g = el.querySelector('svg.marks, canvas');
    const right = Math.max(r.right, g ? g.getBoundingClientRect().right : 0);
    if (right > c.right + 2) out.push(`${el.dataset.testid} sticks out of its column by ` +
                                      `${Math.round(right - c.right)} px (at y=${Math.round(r.top)})`);
  }
  return out;
}
"""


def ignorable(text: str, url: str, base_url: str) -> str:
    """Why a console error is not the app's fault, or '' if it is."""
    host = urlparse(url).hostname or ""
    if text.startswith("Failed to load resource: net::") and host not in ("", "127.0.0.1", "localhost"):
        return "external resource, unreachable because the sandbox has no network"
    if "status of 404" in text and re.fullmatch(re.escape(base_url) + r"/[^?#]+/_stcore/(health|host-config)", url):
        return "Streamlit's frontend probing for a base path when a deep link (/<page>) is opened"
    return ""


def slug(url: str) -> str:
    """/ -> home, /train -> train, /a/b -> a-b (for file names)."""
    path = urlparse(url).path.strip("/")
    return re.sub(r"[^a-z0-9]+", "-", path.lower()).strip("-") or "home"


class Server:
    """The running app: its base URL and the end of what it printed."""

    def __init__(self, base_url: str, log_path: Path):
        self.base_url, self.log_path = base_url, log_path

    def log_tail(self, chars: int = 3000) -> str:
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text[-chars:].strip()


class AppPage(Page):
    """One browser page on the app, with the bookkeeping the tests assert on: console errors,
    uncaught page errors and dialogs (the ``app`` fixture fails a test that has any)."""

    def __init__(self, context, base_url: str, server_log=lambda: ""):
        context.set_default_timeout(30_000)
        super().__init__(context, base_url)
        self.server_log = server_log
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.dialogs: list[str] = []
        self.page.on("console", self._on_console)
        self.page.on("pageerror", lambda err: self.page_errors.append(str(err)))
        self.page.on("dialog", self._on_dialog)

    def _on_console(self, msg) -> None:
        if msg.type != "error":
            return
        url = (msg.location or {}).get("url", "")
        why = ignorable(msg.text, url, self.base_url)
        line = f"{msg.text} [{url}]" if url else msg.text
        if why:
            IGNORED_CONSOLE.append(f"{why}: {line}")
        else:
            self.console_errors.append(line)

    def _on_dialog(self, dialog) -> None:
        self.dialogs.append(f"{dialog.type}: {dialog.message!r}")
        dialog.dismiss()

    # --- navigation ------------------------------------------------------------------
    def nav_links(self) -> list[tuple[str, str]]:
        """(title, href) of every screen in the sidebar navigation, in order."""
        nav = self.page.locator("[data-testid='stSidebarNav']")
        expect(nav.locator("a").first).to_be_visible()
        more = nav.locator("[data-testid='stSidebarNavViewButton']")
        if more.count() and "more" in more.inner_text().lower():
            more.click()
        links = nav.locator("a[data-testid='stSidebarNavLink']")
        return [(a.locator("[data-testid='stMarkdownContainer']").inner_text().strip(),
                 a.get_attribute("href")) for a in links.all()]

    def open_screen(self, title: str, href: str) -> None:
        """Click the screen's sidebar link and wait for its run."""
        link = self.page.locator("[data-testid='stSidebarNav'] a[data-testid='stSidebarNavLink']").filter(
            has=self.page.locator("[data-testid='stMarkdownContainer']", has_text=re.compile(
                "^" + re.escape(title) + "$")))
        expect(link).to_have_count(1)
        self.rerun(link.click)
        self.page.wait_for_url(href)

    # --- reading the screen ----------------------------------------------------------
    def metric(self, label: str | re.Pattern):
        """The value element of the st.metric whose label matches."""
        lab = self.page.locator("[data-testid='stMetricLabel']", has_text=label)
        return self.page.locator("[data-testid='stMetric']").filter(has=lab).locator(
            "[data-testid='stMetricValue']")

    def slider(self, key: str):
        """The [data-testid='stSlider'] of the widget with this key (Streamlit marks each keyed
        widget's container with the class ``st-key-<key>``), so relabelling does not matter."""
        return self.page.locator(f".st-key-{key} [data-testid='stSlider']")

    def press_on_slider(self, key: str, press: str) -> None:
        """Focus the slider's thumb, press a key (ArrowRight, End, ...), wait for the rerun."""
        thumb = self.slider(key).get_by_role("slider")
        expect(thumb).to_have_count(1)
        thumb.focus()
        self.rerun(lambda: thumb.press(press))

    def slider_value(self, key: str) -> str:
        return self.slider(key).locator("[data-testid='stSliderThumbValue']").inner_text().strip()

    # --- health checks ---------------------------------------------------------------
    def problems(self, min_charts: int | None) -> list[str]:
        """Everything wrong with the screen now on show ([] when it is healthy)."""
        found = []
        state = self.page.locator(APP).get_attribute("data-test-script-state")
        if state != "notRunning":
            found.append(f"script state is {state!r}")
        exceptions = self.page.locator("[data-testid='stException']").all()
        for exc in exceptions:
            found.append("exception shown: " + exc.inner_text().strip().splitlines()[0][:300])
        for err in self.page.locator("[data-testid='stAlertContentError']").all():
            if not err.locator("xpath=ancestor::*[@data-testid='stException']").count():
                found.append("error message shown: " + err.inner_text()[:500])
        if min_charts is not None:
            # With an exception on screen, say so at once instead of waiting for charts.
            found += self.chart_problems(min_charts, timeout=1 if exceptions else CHART_TIMEOUT)
        s = self.page.evaluate(SCROLL_JS)
        if s["docScroll"] > s["innerWidth"] + 1:
            found.append(f"the page scrolls sideways: scrollWidth {s['docScroll']} > {s['innerWidth']}")
        if s["mainScroll"] > s["mainClient"] + 1:
            found.append(f"the main area scrolls sideways: {s['mainScroll']} > {s['mainClient']} px")
        if exceptions:
            found.append("the server's log ends with:\n" + self.server_log())
        return found

    def assert_healthy(self, min_charts: int | None = None) -> None:
        found = self.problems(min_charts)
        assert not found, f"{self.page.url}:\n" + "\n".join(found)

    def chart_problems(self, min_charts: int, timeout: int = CHART_TIMEOUT) -> list[str]:
        """Wait (bounded) for at least ``min_charts`` Vega-Lite charts, all drawn."""
        try:
            self.page.wait_for_function(
                f"n => {{ const s = ({CHARTS_JS})(); return s.length >= n && s.every(x => x === 'ok'); }}",
                arg=min_charts, timeout=timeout)
            return []
        except PlaywrightTimeout:  # report what is there instead of a bare timeout
            states = self.page.evaluate(CHARTS_JS)
            return [f"expected at least {min_charts} drawn chart(s), found {len(states)}: {states}"]

    def note_spills(self, name: str) -> None:
        LAYOUT_NOTES.extend(f"{name}: {s}" for s in self.page.evaluate(SPILL_JS))

    # --- screenshots -----------------------------------------------------------------
    def full_page_screenshot(self, *paths: Path) -> None:
        """Screenshot of the whole screen, not just the viewport.

        Streamlit scrolls inside [data-testid='stMain'], so Playwright's full_page option
        only sees the viewport: make the viewport as tall as the content for the shot.
        """
        page = self.page
        size = dict(page.viewport_size)
        height_js = ("() => { const m = document.querySelector(\"[data-testid='stMain']\");"
                     " return m ? m.scrollHeight : document.documentElement.scrollHeight; }")
        try:
            for _ in range(3):  # the layout can grow a little once it has more room
                height = min(page.evaluate(height_js), 12_000)
                if height <= page.viewport_size["height"]:
                    break
                page.set_viewport_size({"width": size["width"], "height": height})
            png = page.screenshot(full_page=True, animations="disabled", caret="hide")
        finally:
            page.set_viewport_size(size)
        for path in paths:
            write_png(path, png)


def write_png(path: Path, png: bytes, tolerance: float = 0.001) -> None:
    """Write a screenshot, unless the file already holds practically the same picture
    (fewer than ``tolerance`` of its pixels differ): a committed screenshot then does not
    change with every test run because of anti-aliasing noise."""
    from PIL import Image, ImageChops

    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        try:
            old, new = Image.open(path).convert("RGB"), Image.open(io.BytesIO(png)).convert("RGB")
            if old.size == new.size:
                diff = ImageChops.difference(old, new).convert("L").point(lambda v: 255 if v > 16 else 0)
                changed = diff.histogram()[255]
                if changed <= tolerance * old.size[0] * old.size[1]:
                    return
        except OSError:
            pass  # unreadable old file: overwrite it
    path.write_bytes(png)
