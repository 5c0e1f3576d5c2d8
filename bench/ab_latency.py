"""The Train screen's controls, key press to painted page, for this tree and (optionally) another
copy of the app, the two measured in alternating rounds so that both see the same load.

Run from the repository root:
    .venv/bin/python -m bench.ab_latency --repeats 5
    .venv/bin/python -m bench.ab_latency --repeats 5 --base /tmp/app-before
(``--base``: another checkout of the app, e.g. ``git archive <commit> | tar -x -C /tmp/app-before``.)

Each tree runs in its own ``streamlit run app`` under ``bench/timed_server.py``; one Chromium
page per tree. A round opens the Train screen, clears the server's caches (the ``c`` key, as
``bench.browser_latency`` does) and then, in order: d_model 4 -> 5 (cold: nothing cached), back
to 4 (the reference run, cold), 5 and 4 again (warm), two picks in the neighbour list, two picks
of the second word of "cosine of any two words", and d_model 32 (cold). Rounds alternate
between the trees (A B, B A, ...).

Per control, medians over the rounds (ms):

* ``painted``: key press or click -> the page is idle and has painted two frames (what the
  student sees), with the worst round beside it; ``finished``: -> the server's
  ``script_finished`` (or fragment-finished) message;
* ``srv cpu``: the script thread's CPU time on the server; ``page cpu``: the CPU time of the
  page's main thread (Chromium's ``ThreadTime`` metric, over the same span as ``painted``).
  Both count work, not waiting, so they stay comparable when other work loads the machine;
  the wall-clock times do not.
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
from pathlib import Path

from bench import machine
from bench.browser import (CHROMIUM, CHROMIUM_ARGS, ROOT, Session, launch_server, need_browser,
                           stop_server, wait_healthy)
from bench.browser_latency import blur, clear_caches

# (name, widget key, key to press or option to pick)
STEPS = [("d_model 4 -> 5, cold", "train_d_model", "ArrowRight"),
         ("d_model 5 -> 4, cold (reference)", "train_d_model", "ArrowLeft"),
         ("d_model 4 -> 5, warm", "train_d_model", "ArrowRight"),
         ("d_model 5 -> 4, warm (reference)", "train_d_model", "ArrowLeft"),
         ("neighbours of: dog", "train_word", "dog"),
         ("neighbours of: cat", "train_word", "cat"),
         ("cosine, second word: mat", "train_w2", "mat"),
         ("cosine, second word: dog", "train_w2", "dog"),
         ("d_model 4 -> 32, cold", "train_d_model", "End")]


def prepare(s: Session, key: str, value: str):
    """Bring the control into position (not timed); return the timed action."""
    box = s.page.locator(f".st-key-{key}")
    if key == "train_d_model":
        thumb = box.locator("input[type=range]")
        thumb.focus()
        return lambda: thumb.press(value)
    box.get_by_role("combobox").wait_for()
    blur(s)
    option = s.page.locator("[role=option]").filter(has_text=re.compile(f"^{re.escape(value)}$"))
    for _ in range(5):                  # the list can close again while the page settles
        box.get_by_role("button", name="Open").click()
        try:
            option.wait_for(timeout=4_000)
            break
        except Exception:
            time.sleep(0.5)
    option.wait_for(timeout=1_000)
    return option.click


def page_cpu(cdp) -> float:
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics.get("ThreadTime", float("nan"))


def one_round(s: Session, cdp, out: dict) -> None:
    s.goto("/train")
    clear_caches(s)
    for name, key, value in STEPS:
        action = prepare(s, key, value)
        c0 = page_cpu(cdp)
        run = s.act(action)
        run["page_cpu"] = page_cpu(cdp) - c0
        out.setdefault(name, []).append(run)


def report(label: str, runs: dict, server_rows: list[dict]) -> list[str]:
    def med(xs):
        return statistics.median(xs) if xs else float("nan")

    head = (f"{label:<34} {'painted':>8} {'worst':>6} {'finished':>8} {'srv cpu':>8} "
            f"{'page cpu':>8}")
    lines = [head, "-" * len(head)]
    for name, rs in runs.items():
        srv = [server_rows[r["run"]]["cpu_ms"] for r in rs if r["run"] < len(server_rows)]
        lines.append(f"{name:<34} {med([1000 * r['shown'] for r in rs]):>8,.0f} "
                     f"{max(1000 * r['shown'] for r in rs):>6,.0f} "
                     f"{med([1000 * r['finished'] for r in rs]):>8,.0f} {med(srv):>8,.0f} "
                     f"{med([1000 * r['page_cpu'] for r in rs]):>8,.0f}")
    return lines


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5, help="rounds per tree (5)")
    ap.add_argument("--base", type=Path, help="another copy of the app to measure alongside")
    ap.add_argument("--max-seconds", type=float, default=900,
                    help="start no new round after this long (900)")
    args = ap.parse_args(argv)
    need_browser()
    from playwright.sync_api import sync_playwright

    trees = {"this tree": ROOT}
    if args.base:
        trees = {"base": args.base.resolve(), **trees}
    print("\n".join(machine.describe()), flush=True)
    deadline = time.monotonic() + args.max_seconds
    results = {name: {} for name in trees}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        try:
            for i, (name, root) in enumerate(trees.items()):
                log, run_log = Path(tmp) / f"server{i}.log", Path(tmp) / f"runs{i}.jsonl"
                proc, url = launch_server(log, root=root, run_log=run_log,
                                          extra=("--client.toolbarMode", "developer"))
                servers[name] = (proc, url, log, run_log)
            for proc, url, log, _ in servers.values():
                wait_healthy(proc, url, log)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
                pages = {}
                for name, (_, url, _, _) in servers.items():
                    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
                    s = Session(ctx, url)
                    s.goto("/")
                    cdp = ctx.new_cdp_session(s.page)
                    cdp.send("Performance.enable")
                    pages[name] = (s, cdp)
                order = list(trees)
                for r in range(max(1, args.repeats)):
                    if time.monotonic() > deadline:
                        break
                    for name in (order if r % 2 == 0 else order[::-1]):
                        one_round(*pages[name], results[name])
                    print(f"  round {r + 1} done", flush=True)
                browser.close()
        finally:
            for proc, *_ in servers.values():
                stop_server(proc)
        print(f"\nThe Train screen, median of {args.repeats} rounds per tree, ms (see the module "
              "docstring). The wall-clock columns grow with the machine's load; the cpu columns "
              "much less.\n")
        for name, (_, _, log, run_log) in servers.items():
            rows = [json.loads(x) for x in run_log.read_text().splitlines() if x.strip()]
            where = "" if trees[name] == ROOT else f": {trees[name]}"
            print("\n".join(report(f"{name}{where}", results[name], rows)) + "\n")
            errors = [x for x in log.read_text(errors="replace").splitlines() if "Traceback" in x]
            if errors:
                print(f"  the {name} server's log has {len(errors)} traceback(s)")
    print(f"load at the end: {machine.load()}")


if __name__ == "__main__":
    main()
