"""Load test: many browser sessions train different settings on one real server at once.

Starts ``streamlit run app`` on a free loopback port (as the README does), opens N sessions
in Debian's Chromium at the same time, each on the Train screen with its own settings from a
shareable link, and checks that every session shows the losses the core computes for *its*
settings (no cross-talk through shared caches or module state) and no error. Then every
session moves its d_model slider with the keyboard, and the check is repeated.

Run from the repository root:  .venv/bin/python -m bench.load --sessions 20
Prints the per-session table and the time per run (median, p95, max).
Only 127.0.0.1 is contacted; the number of sessions and every wait are bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import tempfile
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402

from bench.browser import _decode_forward, launch_server, stop_server, wait_healthy  # noqa: E402
from core.corpus import GUIDE_TEXT, Corpus  # noqa: E402
from core.skipgram import SkipGramConfig, train  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
MAX_SESSIONS = 40
TIMEOUT_MS = 120_000


@dataclass
class SessionResult:
    index: int
    d_model: int
    window: int
    seed: int
    shown: tuple[str, str]        # (loss at step 0, final loss) as the page shows them
    expected: tuple[str, str]
    after_key: tuple[str, str]    # the same after ArrowRight on d_model
    expected_after: tuple[str, str]
    seconds_first: float
    seconds_key: float
    errors: list[str]

    @property
    def ok(self) -> bool:
        return (not self.errors and self.shown == self.expected
                and self.after_key == self.expected_after)


def settings_for(i: int) -> tuple[int, int, int]:
    """A distinct (d_model, window, seed) for session i."""
    return 2 + i % 5, 1 + i % 3, i


def expected_losses(d_model: int, window: int, seed: int, steps: int) -> tuple[str, str]:
    r = train(Corpus.from_text(GUIDE_TEXT, window=window), SkipGramConfig(d_model=d_model, seed=seed, steps=steps))
    return f"{r.losses[0]:.3f}", f"{r.losses[-1]:.3f}"


def start_server(root: Path) -> tuple[subprocess.Popen, str]:
    """``streamlit run app`` on a free loopback port, as the README starts it (bench.browser)."""
    log = Path(tempfile.mkdtemp(prefix="load-")) / "server.log"
    proc, base = launch_server(log, root)
    wait_healthy(proc, base, log)
    return proc, base


async def metric(page, label_start: str) -> str:
    loc = page.locator("[data-testid='stMetric']").filter(
        has=page.locator("[data-testid='stMetricLabel']", has_text=label_start))
    return (await loc.first.locator("[data-testid='stMetricValue']").inner_text()).strip()


class RunCounter:
    """Counts finished script runs from the server's own messages on the websocket: a fast
    run can start and end without the page ever showing the "running" state, and two
    settings can give the same rounded loss, so neither is a safe signal."""

    def __init__(self, page):
        self.done = 0
        page.on("websocket", self._on_ws)

    def _on_ws(self, ws) -> None:
        if "/_stcore/stream" in ws.url:
            ws.on("framereceived", self._on_frame)

    def _on_frame(self, payload) -> None:
        msg = _decode_forward(payload)
        if msg is not None and msg.WhichOneof("type") == "script_finished" and \
                msg.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            self.done += 1

    async def wait_beyond(self, count: int, page) -> None:
        deadline = time.monotonic() + TIMEOUT_MS / 1000
        while time.monotonic() < deadline:
            if self.done > count and await page.locator(IDLE).count():
                return
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no script run finished within {TIMEOUT_MS / 1000:.0f} s")


STREAMLIT_PROBES = ("/_stcore/host-config", "/_stcore/health")


def watch(page, errors: list[str]) -> None:
    """Record page errors, failed requests and error responses. Streamlit's frontend probes
    ``<page path>/_stcore/health`` before the site root when a deep link is opened; those
    404s are its own and are not counted. Console lines that only echo a failed resource
    are covered by the request checks."""
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url} ({r.failure})"))
    page.on("response", lambda r: errors.append(f"HTTP {r.status}: {r.url}")
            if r.status >= 400 and not r.url.endswith(STREAMLIT_PROBES) else None)
    page.on("console", lambda m: errors.append(f"console: {m.text}")
            if m.type == "error" and not m.text.startswith("Failed to load resource") else None)


async def one_session(browser, base: str, i: int, steps: int, start: asyncio.Event) -> SessionResult:
    d, w, seed = settings_for(i)
    errors: list[str] = []
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    page = await ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    runs = RunCounter(page)
    watch(page, errors)
    await start.wait()
    t0 = time.perf_counter()
    await page.goto(f"{base}/train?train_d_model={d}&train_window={w}&train_seed={seed}"
                    f"&train_steps={steps}", timeout=TIMEOUT_MS)
    await runs.wait_beyond(0, page)
    await page.wait_for_selector("[data-testid='stMetric']", timeout=TIMEOUT_MS)
    first = time.perf_counter() - t0
    label = f"loss, step {steps:,}"
    shown = (await metric(page, "loss, step 0"), await metric(page, label))
    if await page.locator("[data-testid='stException']").count():
        errors.append("exception shown")
    thumb = page.locator(".st-key-train_d_model [data-testid='stSlider']").get_by_role("slider")
    await thumb.focus()
    before = runs.done
    t1 = time.perf_counter()
    await thumb.press("ArrowRight" if d < 32 else "ArrowLeft")
    await runs.wait_beyond(before, page)
    second = time.perf_counter() - t1
    after = (await metric(page, "loss, step 0"), await metric(page, label))
    await ctx.close()
    d2 = d + 1 if d < 32 else d - 1
    return SessionResult(i, d, w, seed, shown, expected_losses(d, w, seed, steps), after,
                         expected_losses(d2, w, seed, steps), first, second, errors)


async def guarded(browser, base: str, i: int, steps: int, start: asyncio.Event) -> SessionResult:
    """A session that failed (a timeout, a crash) is a failed row of the table, not a crash."""
    try:
        return await one_session(browser, base, i, steps, start)
    except Exception as err:  # reported, and the script exits non-zero
        d, w, seed = settings_for(i)
        return SessionResult(i, d, w, seed, ("-", "-"), ("?", "?"), ("-", "-"), ("?", "?"),
                             float("nan"), float("nan"), [f"{type(err).__name__}: {str(err)[:200]}"])


async def run_load(base: str, sessions: int, steps: int) -> list[SessionResult]:
    from playwright.async_api import async_playwright
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        start = asyncio.Event()
        tasks = [asyncio.create_task(guarded(browser, base, i, steps, start)) for i in range(sessions)]
        await asyncio.sleep(0.5)
        start.set()                                # every session starts at the same moment
        results = await asyncio.gather(*tasks)
        await browser.close()
    return list(results)


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(q * (len(xs) - 1))))]


def report(results: list[SessionResult]) -> str:
    lines = [f"{'session':>7} {'d_model':>7} {'window':>6} {'seed':>4}  {'shown (0 / end)':>16}  "
             f"{'core (0 / end)':>15}  {'after key':>13}  {'first s':>7} {'key s':>6}  ok"]
    for r in results:
        lines.append(f"{r.index:>7} {r.d_model:>7} {r.window:>6} {r.seed:>4}  {' / '.join(r.shown):>16}  "
                     f"{' / '.join(r.expected):>15}  {' / '.join(r.after_key):>13}  "
                     f"{r.seconds_first:>7.2f} {r.seconds_key:>6.2f}  {'yes' if r.ok else 'NO ' + '; '.join(r.errors)}")
    runs = [t for r in results for t in (r.seconds_first, r.seconds_key) if t == t]  # drop NaN
    lines.append("")
    lines.append(f"sessions: {len(results)}, all correct and error-free: "
                 f"{all(r.ok for r in results)}")
    lines.append(f"time per run (page load or key press -> result shown), {len(runs)} runs: "
                 f"median {statistics.median(runs):.2f} s, p95 {percentile(runs, 0.95):.2f} s, "
                 f"max {max(runs):.2f} s")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=20)
    ap.add_argument("--steps", type=int, default=3000, choices=[500, 1000, 2000, 3000])
    args = ap.parse_args()
    n = max(1, min(args.sessions, MAX_SESSIONS))
    proc, base = start_server(Path(os.environ.get("EMBEDDING_LAB_APP_ROOT", ROOT)))
    try:
        results = asyncio.run(run_load(base, n, args.steps))
    finally:
        stop_server(proc)
    print(f"Load test: {n} concurrent browser sessions on the Train screen, {args.steps} steps each, "
          f"one server on 127.0.0.1 ({os.cpu_count()} cores)\n")
    print(report(results))
    sys.exit(0 if all(r.ok for r in results) else 1)


if __name__ == "__main__":
    main()
