"""Start-up time and the server's memory, measured on the real app in Chromium.

Run from the repository root:  .venv/bin/python -m bench.startup_memory [--launches 3] [--sessions 20]

Start-up: Chromium is started first; then the clock starts as ``streamlit run app`` is launched
(``python -P -m streamlit run app``, as the README does, on 127.0.0.1), and stops when the Home
page's first script run has finished in the browser (its ``script_finished`` message reached the
page) and again when the page is idle and painted. The page is opened as soon as
``/_stcore/health`` answers (polled every 20 ms), as ``streamlit run`` does when it opens a
browser. Repeated ``--launches`` times with a fresh server each time; the first launch also
warms the operating system's file cache, so it is shown on its own.

Memory: on the last server, the resident memory (VmRSS from /proc/<pid>/status, summed over
the server and any child processes; VmHWM is the peak) when idle, after the Home page, after
one session has opened every screen once, with ``--sessions`` more sessions connected that
have each trained a different configuration on the Train screen (half on the lesson's text,
half on the generated word groups; d_model, window, seed and steps all differ; each session on
the lesson's text must show the losses ``core.skipgram.train`` computes for *its* settings: no
cross-talk through the shared caches), after those
sessions have closed, and after one more session has pasted ``--pasted`` different texts of the
maximum 20,000 characters, each of at most 300 distinct words (``core.bigtext.MAX_SOFTMAX_VOCAB``:
more words go to word2vec instead), and trained each with the full softmax at d_model 32,
window 5, 3,000 steps (or as many as the compute budget allows): the worst case for the caches
shared by all sessions (training runs: at most 64 or 96 MiB, see
``app/lab_ui/server/runs.py``). Every wait is bounded.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

from bench import machine
from bench.browser import (CHROMIUM, CHROMIUM_ARGS, RUN_TIMEOUT_MS, Page, fill_input, launch_server,
                           need_browser, stop_server, tree_rss, wait_healthy)
from bench.corpora import pasted_text
from core.bigtext import MAX_SOFTMAX_VOCAB
from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train

SCREENS = ["/lookup", "/similarity", "/train", "/gradients", "/parameters", "/limits", "/tokens",
           "/projections"]
STEPS = [500, 1000, 2000, 3000, 5000]
FIRST_SCREEN_TARGET_S = 4.0
MEMORY_TARGET = 400 * 10**6   # 400 MB = 381 MiB
GENERATED = "Word groups (generated)"
MAX_CHARS = 20_000  # the Train screen's cap on pasted text


def session_settings(i: int) -> dict:
    """A different Train configuration for session i (d_model, window, seed, steps, text)."""
    return {"train_d_model": 1 + (7 * i) % 32, "train_window": 1 + i % 5, "train_seed": 100 + i,
            "train_steps": STEPS[i % len(STEPS)],
            "train_source": GENERATED if i % 2 else "The lesson's 33 words"}


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def expected_losses(settings: dict) -> tuple[str, str] | None:
    """The two loss figures the Train screen must show (for the lesson's text)."""
    if settings["train_source"] == GENERATED:
        return None
    r = train(Corpus.from_text(GUIDE_TEXT, window=settings["train_window"]),
              SkipGramConfig(d_model=settings["train_d_model"], seed=settings["train_seed"],
                             steps=settings["train_steps"]))
    return f"{r.losses[0]:.3f}", f"{r.losses[-1]:.3f}"


def train_url(settings: dict) -> str:
    return "/train?" + "&".join(f"{k}={quote(str(v))}" for k, v in settings.items())


def launch_to_first_screen(browser, log: Path) -> tuple[dict, object, str]:
    """Launch a server and open Home; (times in s, the server process, its URL)."""
    t0 = time.perf_counter()
    proc, base = launch_server(log)
    wait_healthy(proc, base, log)
    healthy = time.perf_counter() - t0
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    s = Page(ctx, base)
    times = s.goto("/", t0=t0)
    if s.exceptions():
        raise RuntimeError("the Home page shows an exception")
    ctx.close()
    return {"healthy": healthy, **times}, proc, base


def open_all_screens(browser, base: str) -> tuple[object, list[str]]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    s = Page(ctx, base)
    s.goto("/")
    problems = []
    for path in SCREENS:
        link = s.page.locator(f"[data-testid='stSidebarNav'] a[href$='{path}']").first
        s.rerun(link.click)
        if s.exceptions():
            problems.append(f"{path}: exception shown")
    return ctx, problems


def train_sessions(browser, base: str, n: int, deadline: float) -> tuple[list, list[str], float]:
    """Open n sessions at once, each on its own Train configuration; wait for all runs."""
    contexts, sessions, problems = [], [], []
    t0 = time.perf_counter()
    for i in range(n):
        ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        s = Page(ctx, base)
        s.page.goto(base + train_url(session_settings(i)), wait_until="commit", timeout=RUN_TIMEOUT_MS)
        contexts.append(ctx)
        sessions.append(s)
    for i, s in enumerate(sessions):
        left_ms = max(1_000, int(1000 * (deadline - time.monotonic())))
        try:
            s.wait_for_run(0, "opening the Train screen", min(RUN_TIMEOUT_MS * 2, left_ms))
            s.page.wait_for_selector("[data-testid='stMetric']", timeout=left_ms)
            s.settle()
        except Exception as err:
            problems.append(f"session {i}: {type(err).__name__}: {str(err).splitlines()[0][:150]}")
            continue
        if s.exceptions():
            problems.append(f"session {i}: exception shown")
        want, losses = f"loss, step {session_settings(i)['train_steps']:,}", expected_losses(session_settings(i))
        try:
            s.page.locator("[data-testid='stMetricLabel']", has_text=want).first.wait_for(timeout=15_000)
            shown = tuple(s.page.locator("[data-testid='stMetric']").filter(has=s.page.locator(
                "[data-testid='stMetricLabel']", has_text=label)).first.locator(
                "[data-testid='stMetricValue']").inner_text().strip() for label in ("loss, step 0", want))
            if losses is not None and shown != losses:
                problems.append(f"session {i}: shows losses {shown}, the core computes {losses}")
        except Exception:
            problems.append(f"session {i}: no metric {want!r} shown")
    return contexts, problems, time.perf_counter() - t0


def paste_texts(browser, base: str, n: int, deadline: float,
                every=None) -> tuple[list[str], float, int]:
    """One session pastes ``n`` different texts of the maximum length and trains each at the
    screen's largest d_model and window: the worst case for the shared caches."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    s = Page(ctx, base)
    s.goto(train_url({"train_d_model": 32, "train_window": 5, "train_steps": 3000,
                      "train_source": "Paste your own text"}))
    problems, done, t0 = [], 0, time.perf_counter()
    box = s.page.locator(".st-key-train_text")
    area = box.locator("textarea")
    for i in range(n):
        if time.monotonic() > deadline:
            problems.append(f"pasted texts: stopped after {done} of {n} (time limit)")
            break
        fill_input(box, area, pasted_text(MAX_CHARS, seed=1000 + i, n_words=MAX_SOFTMAX_VOCAB))
        s.rerun(lambda: area.press("Control+Enter"))
        if s.exceptions():
            problems.append(f"pasted text {i}: exception shown")
        elif not s.page.locator("[data-testid='stMetricLabel']", has_text="loss, step 0").count():
            problems.append(f"pasted text {i}: no full-softmax run shown")
        done += 1
        if every is not None and done % 10 == 0 and done < n:
            every(done, time.perf_counter() - t0)
    ctx.close()
    return problems, time.perf_counter() - t0, done


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--launches", type=int, default=3, help="server launches for start-up (3)")
    ap.add_argument("--sessions", type=int, default=20, help="training sessions (20, at most 40)")
    ap.add_argument("--pasted", type=int, default=20,
                    help="then paste this many different 20,000-character texts, d_model 32, "
                         "window 5 (20, at most 60; 0 to skip)")
    ap.add_argument("--max-seconds", type=float, default=300, help="overall time limit (300)")
    args = ap.parse_args(argv)
    need_browser()
    from playwright.sync_api import sync_playwright

    launches, n_sessions = max(1, min(args.launches, 10)), max(0, min(args.sessions, 40))
    deadline = time.monotonic() + args.max_seconds
    print("\n".join(machine.describe()), flush=True)
    starts, memory, problems = [], [], []
    proc = None
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        log = Path(tmp) / "server.log"
        try:
            for k in range(launches):
                times, proc, base = launch_to_first_screen(browser, log)
                stop_server(proc)
                starts.append(times)
                print(f"  launch {k + 1}: first screen after {times['finished']:.2f} s", flush=True)

            def snap(label: str) -> None:
                rss, hwm, nproc = tree_rss(pid)
                memory.append((label, rss, hwm, nproc))
                print(f"  {label}: {mib(rss)}", flush=True)

            # A fresh server for the memory, measured before any page has been opened.
            proc, base = launch_server(log)
            pid = proc.pid
            wait_healthy(proc, base, log)
            time.sleep(1.0)
            snap("idle, no session yet")
            ctx = browser.new_context(viewport={"width": 1280, "height": 900})
            Page(ctx, base).goto("/")
            snap("Home page open (1 session)")
            ctx.close()
            ctx, bad = open_all_screens(browser, base)
            problems += bad
            snap("every screen opened once (1 session)")
            contexts = []
            if n_sessions:
                contexts, bad, secs = train_sessions(browser, base, n_sessions, deadline)
                problems += bad
                snap(f"+ {n_sessions} sessions connected, each trained its own configuration "
                     f"({secs:.0f} s for all)")
            for c in contexts + [ctx]:
                c.close()
            if n_sessions:
                time.sleep(3.0)
                snap("all sessions closed (kept up to 120 s for reconnection)")
            if args.pasted > 0:
                bad, secs, done = paste_texts(
                    browser, base, min(args.pasted, 60), deadline,
                    every=lambda k, t: snap(f"+ 1 session pasted {k} different {MAX_CHARS:,}-char "
                                            f"texts, d_model 32, window 5 ({t:.0f} s)"))
                problems += bad
                snap(f"+ 1 session pasted {done} different {MAX_CHARS:,}-char texts, "
                     f"d_model 32, window 5 ({secs:.0f} s)")
        finally:
            browser.close()
            if proc is not None:
                stop_server(proc)

    first = [t["finished"] for t in starts]
    peak = max(h for _, _, h, _ in memory)
    rows = [(f"launch {k + 1}: first screen (health ok after {t['healthy']:.2f} s, painted "
             f"{t['shown']:.2f} s)", f"{t['finished']:.2f} s", "", "") for k, t in enumerate(starts)]
    rows.append((f"first screen, median / slowest of {launches} launches",
                 f"{statistics.median(first):.2f} s", f"{max(first):.2f} s",
                 f"{FIRST_SCREEN_TARGET_S:.0f} s " + ("met" if max(first) < FIRST_SCREEN_TARGET_S else "MISSED")))
    rows += [(f"memory: {label}", mib(rss), mib(hwm), "") for label, rss, hwm, _ in memory]
    rows.append(("memory: peak of the server (all processes: "
                 f"{max(n for *_, n in memory)})", mib(peak), "",
                 f"{mib(MEMORY_TARGET)} " + ("met" if peak < MEMORY_TARGET else "MISSED")))
    print("\nStart-up: launch of `streamlit run app` -> the Home page's first run finished in Chromium."
          "\nMemory: the server process and its children, VmRSS (peak: VmHWM) from /proc.\n")
    head = f"{'measurement':<94} {'value':>9} {'peak':>9}  target"
    print(head + "\n" + "-" * len(head))
    for label, value, peak_, target in rows:
        print(f"{label:<94} {value:>9} {peak_:>9}  {target}")
    print(f"load at the end: {machine.load()}")
    if problems:
        print("\nProblems:\n  " + "\n  ".join(problems))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
