"""Benchmark: what N sessions opening the link in the same second cost the server, the app
against Streamlit's floor (``bench/floor_app.py`` at Train's shape).

    .venv/bin/python -m bench.arrival                      # 40 sessions, app and floor, ~1 minute
    .venv/bin/python -m bench.arrival --sessions 20 --targets app --settings class

Each target is started as ``bench.classroom`` starts it (``streamlit run``, then one first
visit, as ``deploy.warm`` does), then:

* **one first view**: one new session opens the page; what the server sends until its run
  has finished: frames, bytes, and the five kinds of element with the most bytes;
* **N at once**: N new sessions (websocket clients speaking Streamlit's protocol, as in
  ``bench.classroom``) open the page in the same moment; the server's CPU time over that
  (its interpreter, and separately its worker processes, from ``/proc``) per session, the
  client's own CPU time per session (it shares the machine's cores with the server), the
  wall time until the last run finished, the bytes sent per session, and the server's
  resident memory after the round (its worker processes included).

``--settings lesson``: every app session opens Train at its starting settings (the lesson's
run, trained by the server's warm-up); ``--settings class``: student i opens it at
``bench.classroom``'s settings for it (d_model 2 + i % 10, window 1 + i % 4, seed 0), so the
class asks for 20 runs, some of them new to the server. ``--rounds R`` repeats the N-at-once
part R times on the same server (later rounds find those runs cached). ``--option
server.fileWatcherType=auto``: a Streamlit option for both servers (as ``streamlit run --server.X``),
e.g. to measure Streamlit's per-session source watcher that ``.streamlit/config.toml`` turns off.
Only 127.0.0.1 is contacted; every wait is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg
from websockets.asyncio.client import connect

from bench.browser import forward, launch_server, stop_server, tree_cpu, tree_rss, wait_healthy
from bench.classroom_floor import SHAPE as FLOOR_SHAPE
from bench.machine import load
from deploy.warm import first_visit

TIMEOUT_S = 120.0
SCRIPTS = {"app": "app", "floor": "bench/floor_app.py"}


def page_of(target: str, settings: str, i: int) -> tuple[str, str]:
    """The page name and query string session ``i`` opens."""
    if target == "floor":
        return "", FLOOR_SHAPE
    if settings == "class":
        return "train", f"train_d_model={2 + i % 10}&train_window={1 + i % 4}&train_seed=0"
    return "train", ""


async def first_view(base: str, page: str, query: str) -> dict:
    """Open one new session on ``page`` and read what the server sends until its run ends."""
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    out = {"frames": 0, "bytes": 0, "kinds": Counter(), "seconds": 0.0, "ok": False}
    async with connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=TIMEOUT_S,
                       ping_interval=None) as ws:
        msg = BackMsg()
        msg.rerun_script.page_name, msg.rerun_script.query_string = page, query
        msg.rerun_script.context_info.url = f"{base}/{page}"
        t0 = time.perf_counter()
        await ws.send(msg.SerializeToString())
        while True:
            frame = await asyncio.wait_for(ws.recv(), TIMEOUT_S)
            out["frames"] += 1
            out["bytes"] += len(frame)
            fwd = forward(frame)
            kind = fwd.WhichOneof("type") if fwd is not None else None
            if kind == "delta":
                d = fwd.delta
                what = d.WhichOneof("type")
                if what == "new_element":
                    what = d.new_element.WhichOneof("type")
                elif what == "add_block":
                    what = "block"
                out["kinds"][what] += len(frame)
            elif kind is not None:
                out["kinds"][kind] += len(frame)
            if kind == "script_finished":
                out["seconds"] = time.perf_counter() - t0
                out["ok"] = fwd.script_finished == fwd.FINISHED_SUCCESSFULLY
                return out


async def at_once(base: str, target: str, settings: str, n: int) -> list[dict]:
    return list(await asyncio.gather(*(first_view(base, *page_of(target, settings, i)) for i in range(n))))


def measure(target: str, n: int, settings: str, rounds: int, options: tuple[str, ...] = ()) -> dict:
    """Start the target's server (``options``: more ``streamlit run`` options), warm it, one
    first view, then ``rounds`` of ``n`` at once."""
    log = Path(tempfile.mkdtemp()) / f"{target}.log"
    proc, base = launch_server(log, script=SCRIPTS[target], extra=options)
    try:
        wait_healthy(proc, base, log)
        first_visit(base, page=page_of(target, settings, 0)[0])
        one = asyncio.run(first_view(base, *page_of(target, "lesson", 0)))
        out = {"one": one, "rounds": []}
        for _ in range(rounds):
            time.sleep(1.0)                       # let the server settle (its reaper, GC)
            own0, kids0 = tree_cpu(proc.pid)
            me0, t0 = time.process_time(), time.perf_counter()
            views = asyncio.run(at_once(base, target, settings, n))
            wall, me = time.perf_counter() - t0, time.process_time() - me0
            own1, kids1 = tree_cpu(proc.pid)
            out["rounds"].append({"server": own1 - own0, "workers": kids1 - kids0, "client": me,
                                  "wall": wall, "bytes": statistics.mean(v["bytes"] for v in views),
                                  "last": max(v["seconds"] for v in views),
                                  "failed": sum(not v["ok"] for v in views),
                                  "rss": tree_rss(proc.pid)[0]})
        return out
    finally:
        stop_server(proc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--targets", default="app,floor", help="comma-separated: app, floor")
    ap.add_argument("--settings", choices=("lesson", "class"), default="lesson")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a Streamlit option for both servers, e.g. server.fileWatcherType=auto")
    args = ap.parse_args()
    if not 1 <= args.sessions <= 80 or not 1 <= args.rounds <= 5:
        ap.error("1 to 80 sessions, 1 to 5 rounds")
    if not all(re.fullmatch(r"[a-zA-Z]+\.[a-zA-Z]+=[\w.-]+", o) for o in args.option):
        ap.error("--option takes NAME=VALUE, e.g. server.fileWatcherType=auto")
    options = tuple(x for o in args.option for x in (f"--{o.split('=')[0]}", o.split("=", 1)[1]))
    print(f"machine load before: {load()}" + (f"; options: {' '.join(args.option)}" if args.option else ""))
    results = {t: measure(t, args.sessions, args.settings, args.rounds, options) for t in args.targets.split(",")}
    print(f"\none first view (the app: Train at its starting settings; the floor: {FLOOR_SHAPE})")
    print(f"{'target':<8} {'frames':>7} {'KiB':>8} {'seconds':>8}  largest parts (KiB)")
    for t, r in results.items():
        one = r["one"]
        top = ", ".join(f"{k} {v / 1024:.1f}" for k, v in one["kinds"].most_common(5))
        print(f"{t:<8} {one['frames']:>7} {one['bytes'] / 1024:>8.1f} {one['seconds']:>8.2f}  {top}")
    print(f"\n{args.sessions} sessions at once (settings: {args.settings}); CPU ms per session")
    print(f"{'target':<8} {'round':>5} {'server':>8} {'workers':>8} {'client':>8} {'KiB/session':>12} "
          f"{'last done':>10} {'failed':>7} {'RSS MiB':>8}")
    for t, r in results.items():
        for i, x in enumerate(r["rounds"], 1):
            print(f"{t:<8} {i:>5} {1000 * x['server'] / args.sessions:>8.1f} "
                  f"{1000 * x['workers'] / args.sessions:>8.1f} {1000 * x['client'] / args.sessions:>8.1f} "
                  f"{x['bytes'] / 1024:>12.1f} {x['last']:>9.2f}s {x['failed']:>7} {x['rss'] / 2**20:>8.0f}")
    print(f"machine load after: {load()}")


if __name__ == "__main__":
    main()
