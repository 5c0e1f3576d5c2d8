"""Screen latency through the real server: from a key press (or click) in Chromium to the end
of the script run it triggers, for every screen, with the caches cold and warm.

Run from the repository root:  .venv/bin/python -m bench.browser_latency [--repeats N]

Starts its own ``streamlit run app`` on 127.0.0.1 (as the README does), opens one browser
session and, screen by screen:

* opens the screen from the sidebar (the first time on this server: "first open");
* then, ``--repeats`` times: clears the server's caches the way a user can (the ``c`` key and
  the *Clear caches* dialog: ``st.cache_data`` and ``st.cache_resource``, so also the shared
  store of training runs), and moves one control to a value A and back to the screen's
  default B, twice: A-B-A-B. The first A is the **cold** run (nothing cached), the first B
  the cold run of the default (only what A cached is warm), the second A and B are **warm**.

A run's time is measured from just before the key press to the arrival of the server's
``script_finished`` message on the app's websocket (Playwright timestamps the frame when it
reaches this process). "sent" is the time until the page sent its ``rerun_script`` message
(the browser's own delay); "shown" waits further until the page is idle and has painted two
frames. On the Train screen B is the lesson's reference run (d_model 4), so its cold B and
warm B are the reference run's numbers. Every wait is bounded; the whole run is cut short
after ``--max-seconds``.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench import machine
from bench.browser import (CHROMIUM, CHROMIUM_ARGS, Session, fill_input, launch_server,
                           need_browser, stop_server, wait_healthy)


@dataclass(frozen=True)
class Control:
    """How to set one screen's control to value A and back to its default B."""

    kind: str     # slider | key | select | text_input | text_area
    key: str      # the widget's key ('' for kind 'key')
    a: str        # a key name for sliders and 'key', else the value A
    b: str        # the same for B
    label: str    # for the table


SCREENS: dict[str, tuple[str, Control]] = {
    "home": ("/", Control("key", "", "r", "r", "R key (rerun; no controls on this screen)")),
    "lookup": ("/lookup", Control("slider", "lookup_row", "ArrowRight", "ArrowLeft",
                                  "lookup_row slider 1 -> 2 -> 1")),
    "similarity": ("/similarity", Control("slider", "sim_scale", "ArrowRight", "ArrowLeft",
                                          "sim_scale slider 1.0 -> 1.25 -> 1.0")),
    "train": ("/train", Control("slider", "train_d_model", "ArrowRight", "ArrowLeft",
                                "train_d_model slider 4 -> 5 -> 4")),
    "gradients": ("/gradients", Control("slider", "grad_lr", "ArrowRight", "ArrowLeft",
                                        "grad_lr select_slider 0.1 -> 0.5 -> 0.1")),
    "parameters": ("/parameters", Control("select", "params_preset", "GPT-2 XL", "GPT-2 small",
                                          "params_preset selectbox small -> XL -> small")),
    "limits": ("/limits", Control("text_input", "limits_b", "the cat sat on the mat",
                                  "the dog saw the cat", "limits_b text input + Enter")),
    "tokens": ("/tokens", Control("text_area", "tok_text", "He sat on the river bank by the loan office.",
                                  "He sat on the river bank.\nShe got a bank loan.",
                                  "tok_text text area + Ctrl+Enter")),
    "projections": ("/projections", Control("slider", "proj_rotation", "ArrowRight", "ArrowLeft",
                                            "proj_rotation slider 1 -> 2 -> 1")),
}
TRAIN_WARM_TARGET, TRAIN_COLD_TARGET, WARM_TARGET = 0.150, 0.500, 0.300


def blur(s: Session) -> None:
    s.page.evaluate("() => document.activeElement && document.activeElement.blur()")


def clear_caches(s: Session) -> None:
    """The user's way: the ``c`` key opens the Clear caches dialog; confirm it."""
    blur(s)
    s.page.keyboard.press("c")
    button = s.page.get_by_role("button", name="Clear caches")
    button.click(timeout=10_000)
    button.wait_for(state="detached", timeout=10_000)
    time.sleep(0.2)  # the server handles the clear before any later message on the socket


def prepare_and_action(s: Session, c: Control, which: str):
    """Bring the control into position (not timed); return the timed action for A or B."""
    page, value = s.page, (c.a if which == "a" else c.b)
    if c.kind == "key":
        blur(s)
        return lambda: page.keyboard.press(value)
    box = page.locator(f".st-key-{c.key}")
    if c.kind == "slider":
        thumb = box.get_by_role("slider")
        thumb.focus()
        return lambda: thumb.press(value)
    if c.kind == "select":
        box.get_by_role("combobox").wait_for()        # the widget loads lazily
        box.get_by_role("button", name="Open").click()
        option = page.get_by_role("option", name=value, exact=True)
        option.wait_for()
        return option.click
    if c.kind == "text_input":
        field = box.locator("input")
        fill_input(box, field, value)
        return lambda: field.press("Enter")
    if c.kind == "text_area":
        field = box.locator("textarea")
        fill_input(box, field, value)
        return lambda: field.press("Control+Enter")
    raise ValueError(c.kind)


def open_screen(s: Session, path: str) -> dict:
    """Click the sidebar link of the screen (a page switch in the same session)."""
    if path == "/":
        return s.goto("/")
    link = s.page.locator(f"[data-testid='stSidebarNav'] a[href$='{path}']")
    if not link.count():
        more = s.page.locator("[data-testid='stSidebarNavViewButton']")
        if more.count():
            more.click()
    return s.act(link.first.click)


def measure_screen(s: Session, name: str, repeats: int, deadline: float) -> dict:
    path, control = SCREENS[name]
    out = {"open": open_screen(s, path), "A1": [], "B1": [], "A2": [], "B2": []}
    for _ in range(repeats):
        if time.monotonic() > deadline:
            break
        clear_caches(s)
        for step in ("A1", "B1", "A2", "B2"):
            action = prepare_and_action(s, control, step[0].lower())
            out[step].append(s.act(action))
    out["exceptions"] = s.exceptions()
    return out


def med(runs: list[dict], field: str = "finished") -> float:
    return statistics.median(r[field] for r in runs) if runs else float("nan")


def ms(x: float) -> str:
    return "-" if x != x else f"{1000 * x:,.0f}"


def attach_server_times(results: dict, run_log: Path, n_runs: int) -> str:
    """Give every measured run its server-side script and gc times (``bench.timed_server``)."""
    rows = [json.loads(line) for line in run_log.read_text().splitlines() if line.strip()]
    if len(rows) != n_runs:
        return (f"server timing not shown: the server logged {len(rows)} runs, the page saw "
                f"{n_runs}")
    for r in results.values():
        for run in [r["open"]] + r["A1"] + r["B1"] + r["A2"] + r["B2"]:
            run["script"] = rows[run["run"]]["script_ms"] / 1000
            run["gc"] = rows[run["run"]]["gc_ms"] / 1000
            run["objects"] = rows[run["run"]]["objects"]
    return ""


def report(results: dict, repeats: int) -> list[str]:
    timed = all("script" in r["open"] for r in results.values()) and bool(results)
    extra = f" {'srv script':>10} {'srv gc':>6}" if timed else ""
    head = (f"{'screen':<12} {'first open':>10} {'cold A':>7} {'cold B':>7} {'warm':>6} "
            f"{'warm sent':>9} {'warm shown':>10} {'busy':>5}{extra}  {'target':<12} {'':<6}  "
            "control (A, then back to B)")
    lines = [head, "-" * len(head)]
    for name, r in results.items():
        warm_runs = r["A2"] + r["B2"]
        warm, cold = med(warm_runs), med(r["A1"])
        server = (f" {ms(med(warm_runs, 'script')):>10} {ms(med(warm_runs, 'gc')):>6}"
                  if timed else "")
        if name == "train":
            ok = med(r["B2"]) < TRAIN_WARM_TARGET and med(r["B1"]) < TRAIN_COLD_TARGET and warm < WARM_TARGET
            target = "150/500 ref"
        else:
            ok = warm < WARM_TARGET
            target = "300 warm"
        lines.append(f"{name:<12} {ms(r['open']['finished']):>10} {ms(cold):>7} {ms(med(r['B1'])):>7} "
                     f"{ms(warm):>6} {ms(med(warm_runs, 'sent')):>9} {ms(med(warm_runs, 'shown')):>10} "
                     f"{ms(med(warm_runs, 'busy')):>5}"
                     f"{server}  "
                     f"{target:<12} {'met' if ok else 'MISSED':<6}  {SCREENS[name][1].label}"
                     + (f"  [{r['exceptions']} exception(s) shown]" if r["exceptions"] else ""))
    if "train" in results:
        t = results["train"]
        lines += ["", "Train, the reference run (B: d_model 4, lr 0.5, window 2, 3,000 steps): "
                  f"cold {ms(med(t['B1']))} ms (target 500), warm {ms(med(t['B2']))} ms (target 150); "
                  f"a new d_model, everything cold (A1): {ms(med(t['A1']))} ms. "
                  f"All runs: A1 {[ms(x['finished']) for x in t['A1']]}, B1 "
                  f"{[ms(x['finished']) for x in t['B1']]}, A2 {[ms(x['finished']) for x in t['A2']]}, "
                  f"B2 {[ms(x['finished']) for x in t['B2']]} ms"]
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3, help="A-B-A-B rounds per screen (3)")
    ap.add_argument("--screens", nargs="*", default=list(SCREENS), choices=list(SCREENS))
    ap.add_argument("--max-seconds", type=float, default=300,
                    help="stop starting new rounds after this long (300)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a Streamlit option for the server, e.g. runner.postScriptGC=false "
                         "(to measure a proposed setting; repeatable)")
    ap.add_argument("--server-timing", action="store_true",
                    help="run the server under bench/timed_server.py and add the server's own "
                         "time per warm run: the page's code (srv script) and Streamlit's "
                         "garbage collection after it (srv gc)")
    ap.add_argument("--gc-freeze", action="store_true",
                    help="with --server-timing: import Altair, NumPy, pandas and PyArrow and call "
                         "gc.freeze() before the server starts (measures a proposed fix)")
    args = ap.parse_args(argv)
    if args.gc_freeze and not args.server_timing:
        ap.error("--gc-freeze needs --server-timing")
    need_browser()
    options = [("--" + o.split("=", 1)[0], o.split("=", 1)[1]) for o in args.option if "=" in o]
    repeats = max(1, min(args.repeats, 20))
    from playwright.sync_api import sync_playwright

    print("\n".join(machine.describe()), flush=True)
    deadline = time.monotonic() + args.max_seconds
    results: dict[str, dict] = {}
    failed: dict[str, str] = {}
    n_runs = 0
    with tempfile.TemporaryDirectory() as tmp:
        log, run_log = Path(tmp) / "server.log", Path(tmp) / "runs.jsonl"
        # The developer toolbar offers "Clear caches" (the c key) as it does on localhost;
        # nothing else about the server changes.
        proc, base = launch_server(log, extra=("--client.toolbarMode", "developer",
                                               *[x for o in options for x in o]),
                                  run_log=run_log if args.server_timing else None,
                                  gc_freeze=args.gc_freeze)
        try:
            wait_healthy(proc, base, log)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                s = Session(ctx, base)
                if "home" not in args.screens:
                    s.goto("/")
                for name in ["home"] + [n for n in args.screens if n != "home"]:
                    if name not in args.screens:
                        continue
                    try:
                        results[name] = measure_screen(s, name, repeats, deadline)
                    except Exception as err:  # report the others; say what went wrong here
                        failed[name] = f"{type(err).__name__}: {str(err).splitlines()[0][:200]}"
                        print(f"  {name}: FAILED, {failed[name]}", flush=True)
                        s.goto("/")
                        continue
                    print(f"  measured {name:<12} ({len(results[name]['A1'])} rounds)", flush=True)
                n_runs = len(s.ends)
                browser.close()
        finally:
            stop_server(proc)
            errors = [ln for ln in log.read_text(errors="replace").splitlines()
                      if "Traceback" in ln or "Error" in ln]
        timing_note = attach_server_times(results, run_log, n_runs) if args.server_timing else ""
    if options:
        print("\nServer options: " + " ".join(f"{k} {v}" for k, v in options))
    if args.gc_freeze:
        print("\nServer started with the imports frozen (gc.freeze(), bench/timed_server.py)")
    print(f"\nScreen latency through the real server (127.0.0.1, one Chromium session), ms from the "
          f"key press or click to the run's script_finished message; median of {repeats} rounds.\n"
          "first open: sidebar click, first time on this server. cold A: control to A right after "
          "clearing the caches. cold B: back to the default B. warm: A and B again (both cached).\n"
          "warm sent: until the page sent its rerun request; warm shown: until idle and painted; "
          "busy: the page's long tasks (main-thread work over 50 ms: drawing) in a warm run."
          + ("\nsrv script / srv gc: the server's own time for the warm runs: the page's code, and "
             "the gc.collect(2) Streamlit makes after each run (bench/timed_server.py)."
             if args.server_timing else "") + "\n")
    print("\n".join(report(results, repeats)))
    if timing_note:
        print(timing_note)
    for name, why in failed.items():
        print(f"{name:<12} not measured: {why}")
    print(f"\nload at the end: {machine.load()}")
    if errors:
        print("\nThe server's log has errors:\n  " + "\n  ".join(errors[:10]))
    sys.exit(0 if not failed and all(not r["exceptions"] for r in results.values()) else 1)


if __name__ == "__main__":
    main()
