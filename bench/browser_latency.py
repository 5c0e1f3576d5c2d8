"""What a student feels: from a key press (or click) in Chromium to the page painted, for every
screen and every Train tab, with the caches cold and warm, through the real server.

Run from the repository root:  .venv/bin/python -m bench.browser_latency [--repeats 5]

Starts ``streamlit run app`` on 127.0.0.1 (as the README does) and opens one Chromium page.
For each case (a screen, a Train tab, or one of the Train screen's pickers) it opens the
screen from the sidebar (or clicks the tab: "open"), then, ``--repeats`` times: clears the
server's caches the way a user can (the ``c`` key and the *Clear caches* dialog; the server is
started with ``--client.toolbarMode developer`` because the app's config hides that menu) and
moves one control to a value A and back to the screen's default B, twice (A-B-A-B). The first
A and B are **cold** (nothing of theirs cached), the second A and B **warm**.

**painted**, the headline, is measured in the page's own clock: from the key press (or pointer
press) event to the start of the first animation frame after the page's last change (a DOM
mutation or a long task), once the script run is over and the page has stayed unchanged
through an idle period and two frames. Beside it, from the same runs and the same clock (warm
medians): **sent**, until the page sent its rerun request; **server**, from that request to the
arrival of the server's ``script_finished`` message (Streamlit's public end-of-run signal: the
server's work plus the loopback); **draw**, from ``script_finished`` to painted; **busy**, the
page's long tasks (main-thread work over 50 ms, mostly drawing). **page cpu** and **srv cpu**
(warm means) are CPU time, which other work on a shared machine inflates far less than wall-clock
time: the page's main thread (Chromium's ``ThreadTime`` metric, over the DevTools protocol; it
includes this script's own observers, the same for every version of the app) and the server
process (``/proc/<pid>/stat``, in 10 ms ticks: hence means, not medians). Every wait is bounded;
new rounds stop after ``--max-seconds``.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import machine
from bench.browser import (CHROMIUM, CHROMIUM_ARGS, Page, fill_input, launch_server, need_browser,
                           stop_server, wait_healthy)


@dataclass(frozen=True)
class Case:
    """One row: a screen (and Train tab), and how to move its control to A and back to B."""

    name: str
    path: str     # the screen's sidebar link
    tab: str      # a Train tab to click open ('' for none)
    kind: str     # slider | key | button | box | select (or pills) | text_input | text_area
    key: str      # the widget's key ('' for kinds 'key' and 'button')
    a: str        # a key to press (slider, 'key'), a button's key (button), else the value A
    b: str        # the same for B
    label: str    # the control, for the table
    warm_ms: int  # target, warm
    cold_ms: int  # target, cold (0: none)


def _slider(name: str, path: str, key: str, label: str, tab: str = "", cold_ms: int = 0) -> Case:
    """A slider moved one step right (A) and back left (B) with the keyboard."""
    return Case(name, path, tab, "slider", key, "ArrowRight", "ArrowLeft", label, 100, cold_ms)


CASES = [
    Case("home", "/", "", "key", "", "r", "r", "R key (rerun)", 100, 0),
    _slider("lookup", "/lookup", "lookup_row", "row 1 -> 2 -> 1"),
    _slider("similarity", "/similarity", "sim_scale", "stretch 1.0 -> 1.25 -> 1.0"),
    *[_slider(f"train: {tab}", "/train", "train_d_model", "d_model 4 -> 5 -> 4", tab, 250)
      for tab in ("Result", "Replay training", "Compare runs", "Negative sampling", "Export")],
    Case("train: neighbour picker", "/train", "Result", "select", "train_word", "dog", "cat",
         "word cat -> dog -> cat", 60, 0),
    Case("train: cosine of two words", "/train", "Result", "select", "train_w2", "mat", "dog",
         "second word dog -> mat -> dog", 60, 0),
    Case("train: a chart's table", "/train", "Result", "box", "train_heatmap_table_box", "", "",
         "heatmap's box: open, then close", 100, 0),
    Case("one pair, step by step", "/pair", "", "button", "", "pair_next", "pair_prev",
         "Next pair, then Previous pair", 100, 0),
    _slider("gradients", "/gradients", "grad_lr", "learning rate 0.1 -> 0.5 -> 0.1"),
    Case("parameters", "/parameters", "", "select", "params_preset", "GPT-2 XL", "GPT-2 small",
         "model small -> XL -> small", 100, 0),
    Case("limits", "/limits", "", "text_input", "limits_b", "the cat sat on the mat",
         "the dog saw the cat", "sentence B + Enter", 100, 0),
    Case("tokens", "/tokens", "", "text_area", "tok_text", "He sat on the river bank by the loan office.",
         "He sat on the river bank.\nShe got a bank loan.", "text + Ctrl+Enter", 100, 0),
    Case("real model's table", "/real_table", "", "text_area", "rt_text", "She got a bank loan by the river.",
         "The cat sat on the", "text + Ctrl+Enter", 300, 0),
    _slider("projections", "/projections", "proj_rotation", "rotation 1 -> 2 -> 1"),
    _slider("analogies", "/analogies", "ana_d", "d_model: the next width and back"),
    _slider("your own vectors", "/own_vectors", "own_perplexity", "t-SNE perplexity 5 -> 10 -> 5"),
    _slider("position", "/position", "pos_width", "width 16 -> 32 -> 16"),
]


class CpuClock:
    """CPU seconds used so far by the page's main thread and by the server process."""

    def __init__(self, page, server_pid: int):
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.send("Performance.enable")
        self.stat = Path(f"/proc/{server_pid}/stat")
        self.tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def read(self) -> tuple[float, float]:
        metrics = {m["name"]: m["value"] for m in self.cdp.send("Performance.getMetrics")["metrics"]}
        try:
            fields = self.stat.read_text().rsplit(")", 1)[1].split()   # utime, stime: fields 14, 15
            server = (int(fields[11]) + int(fields[12])) / self.tick
        except (OSError, IndexError, ValueError):
            server = float("nan")
        return metrics.get("ThreadTime", float("nan")), server

    def timed(self, s: Page, action) -> dict:
        (page0, server0), run = self.read(), s.rerun(action)
        page1, server1 = self.read()
        return run | {"page_cpu": page1 - page0, "server_cpu": server1 - server0}


@contextlib.contextmanager
def timed_page(errors: list[str], extra: tuple[str, ...] = (), script: str = "app"):
    """The server (``streamlit run <script>``, with ``extra`` options) and one Chromium page on it
    at 1280 x 900, timing on, opened at "/": yields ``(page, CpuClock)``. Afterwards ``errors``
    holds the server log's lines that name a traceback or an error."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        proc, base = launch_server(log, extra=extra, script=script)
        try:
            wait_healthy(proc, base, log)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                s = Page(browser.new_context(viewport={"width": 1280, "height": 900}), base, timing=True)
                s.page.set_default_timeout(60_000)
                s.goto("/")
                yield s, CpuClock(s.page, proc.pid)
                browser.close()
        finally:
            stop_server(proc)
            errors += [ln for ln in log.read_text(errors="replace").splitlines()
                       if "Traceback" in ln or "Error" in ln]


def clear_caches(s: Page) -> None:
    """The user's way: the ``c`` key opens the Clear caches dialog; confirm it."""
    s.page.evaluate("() => document.activeElement && document.activeElement.blur()")
    s.page.keyboard.press("c")
    button = s.page.get_by_role("button", name="Clear caches")
    button.click(timeout=10_000)
    button.wait_for(state="detached", timeout=10_000)
    time.sleep(0.2)  # the server handles the clear before any later message on the socket


def prepare(s: Page, c: Case, value: str):
    """Bring the control into position (not timed); return the timed action."""
    page = s.page
    if c.kind == "key":
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        return lambda: page.keyboard.press(value)
    if c.kind == "button":
        return page.locator(f".st-key-{value} button").click
    if c.kind == "box":                    # an expander: its header opens it (A) and closes it (B)
        return page.locator(f".st-key-{c.key} summary").click
    box = page.locator(f".st-key-{c.key}")
    if c.kind == "slider":
        thumb = box.get_by_role("slider")
        thumb.focus()
        return lambda: thumb.press(value)
    if c.kind == "select":                # a dropdown, or a row of buttons (st.pills): one click
        box.locator("[role='combobox'], button").first.wait_for()   # the widget loads lazily
        if not box.get_by_role("combobox").count():
            return box.get_by_role("radio", name=value, exact=True).click
        option = page.get_by_role("option").filter(has_text=re.compile(f"^{re.escape(value)}$"))
        for attempt in range(3):  # right after the Clear caches dialog a first click can be lost
            box.get_by_role("button", name="Open").click()
            try:
                option.wait_for(timeout=3_000 * (attempt + 1))
                break
            except Exception:
                continue
        return option.click
    field = box.locator("input" if c.kind == "text_input" else "textarea")
    fill_input(box, field, value)
    return lambda: field.press("Enter" if c.kind == "text_input" else "Control+Enter")


def open_case(s: Page, c: Case) -> dict:
    """Click the screen's sidebar link (a page switch in the same session), then its tab."""
    if c.path == "/":
        return s.goto("/") | {"painted": float("nan")}
    opened = {"painted": float("nan")}
    if not s.page.url.split("?")[0].endswith(c.path):
        link = s.page.locator(f"[data-testid='stSidebarNav'] a[href$='{c.path}']")
        if not link.count() and s.page.locator("[data-testid='stSidebarNavViewButton']").count():
            s.page.locator("[data-testid='stSidebarNavViewButton']").click()
        opened = s.rerun(link.first.click)
    tab = s.page.get_by_role("tab", name=c.tab, exact=True)
    if c.tab and tab.get_attribute("aria-selected") != "true":
        opened = s.rerun(tab.click)
    return opened


def measure(s: Page, c: Case, repeats: int, deadline: float, cpu: CpuClock) -> dict:
    out = {"open": open_case(s, c), "cold": [], "warm": []}
    for _ in range(repeats):
        if time.monotonic() > deadline:
            break
        clear_caches(s)
        for kind, value in (("cold", c.a), ("cold", c.b), ("warm", c.a), ("warm", c.b)):
            out[kind].append(cpu.timed(s, prepare(s, c, value)))
    out["exceptions"] = s.exceptions()
    return out


def ms(x: float) -> str:
    return "-" if x != x else f"{1000 * x:,.0f}"


def med(runs: list[dict], field: str) -> float:
    return statistics.median(r[field] for r in runs) if runs else float("nan")


def mean(runs: list[dict], field: str) -> float:
    return statistics.fmean(r[field] for r in runs) if runs else float("nan")


def worst(runs: list[dict], field: str = "painted") -> float:
    return max((r[field] for r in runs), default=float("nan"))


def verdict(c: Case, r: dict) -> str:
    warm, cold = med(r["warm"], "painted"), med(r["cold"], "painted")
    if warm != warm:
        return "-"
    misses = [f"warm +{1000 * warm - c.warm_ms:.0f}"] if 1000 * warm >= c.warm_ms else []
    if c.cold_ms and 1000 * cold >= c.cold_ms:
        misses.append(f"cold +{1000 * cold - c.cold_ms:.0f}")
    return "met" if not misses else "MISSED " + ", ".join(misses)


def report(results: dict[str, dict]) -> list[str]:
    head = (f"{'screen / tab':<36} {'control (A, then back to B)':<32} {'open':>5} {'cold':>5} "
            f"{'worst':>5} {'warm':>5} {'worst':>5} {'sent':>5} {'server':>6} {'draw':>5} {'busy':>5} "
            f"{'page cpu':>8} {'srv cpu':>7}  "
            f"{'target':<9} verdict (median against target, ms)")
    lines = [head, "-" * len(head)]
    for c in CASES:
        if c.name not in results:
            continue
        r = results[c.name]
        w = r["warm"]
        server = [x["finished"] - x["sent"] for x in w if x["sent"] == x["sent"]]
        draw = [x["painted"] - x["finished"] for x in w]
        target = f"{c.warm_ms}/{c.cold_ms}" if c.cold_ms else f"{c.warm_ms} warm"
        lines.append(
            f"{c.name:<36} {c.label:<32} {ms(r['open'].get('painted', float('nan'))):>5} "
            f"{ms(med(r['cold'], 'painted')):>5} {ms(worst(r['cold'])):>5} "
            f"{ms(med(w, 'painted')):>5} {ms(worst(w)):>5} {ms(med(w, 'sent')):>5} "
            f"{ms(statistics.median(server) if server else float('nan')):>6} "
            f"{ms(statistics.median(draw) if draw else float('nan')):>5} {ms(med(w, 'busy')):>5} "
            f"{ms(mean(w, 'page_cpu')):>8} {ms(mean(w, 'server_cpu')):>7}  "
            f"{target:<9} {verdict(c, r)}"
            + (f"  [{r['exceptions']} exception(s) shown]" if r["exceptions"] else ""))
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="A-B-A-B rounds per case (5)")
    ap.add_argument("--cases", nargs="*", metavar="WORD",
                    help="only the cases whose name contains one of these words (e.g. train tokens)")
    ap.add_argument("--max-seconds", type=float, default=900,
                    help="stop starting new rounds after this long (900)")
    args = ap.parse_args(argv)
    need_browser()
    cases = [c for c in CASES if not args.cases or any(w in c.name for w in args.cases)]
    repeats = max(1, min(args.repeats, 20))
    print("\n".join(machine.describe()), flush=True)
    deadline = time.monotonic() + args.max_seconds
    results: dict[str, dict] = {}
    failed: dict[str, str] = {}
    errors: list[str] = []
    with timed_page(errors, extra=("--client.toolbarMode", "developer")) as (s, cpu):
        for c in cases:
            try:
                results[c.name] = measure(s, c, repeats, deadline, cpu)
            except Exception as err:  # report the others; say what went wrong here
                failed[c.name] = f"{type(err).__name__}: {str(err).splitlines()[0][:200]}"
                print(f"  {c.name}: FAILED, {failed[c.name]}", flush=True)
                s.goto("/")
                continue
            print(f"  measured {c.name:<36} ({len(results[c.name]['warm']) // 2} rounds, "
                  f"load {machine.load()})", flush=True)
    rounds = min((len(r["warm"]) // 2 for r in results.values()), default=0)
    print(f"\nKey press (or click) -> page painted, ms, through the real server (127.0.0.1, one "
          f"Chromium session at 1280x900); median and worst of {rounds}+ rounds, each A and B once "
          "cold (right after clearing the caches) and once warm. open: the sidebar link or tab, "
          "first time. sent / server / draw / busy: warm medians; page cpu / srv cpu: warm means of CPU "
          "time (see the script's docstring).\n")
    print("\n".join(report(results)))
    for name, why in failed.items():
        print(f"{name:<36} not measured: {why}")
    print(f"\nload at the end: {machine.load()}")
    if errors:
        print("\nThe server's log has errors:\n  " + "\n  ".join(errors[:10]))
    sys.exit(0 if not failed and all(not r["exceptions"] for r in results.values()) else 1)


if __name__ == "__main__":
    main()
