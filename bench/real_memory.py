"""The server's memory with every real model loaded and a class of sessions on the real screens.

    .venv/bin/python -m bench.real_memory [--sessions 40] [--parallel 4]

Target (issue 27): the server and its workers under 1 GB resident with every real model loaded
and 40 sessions. One server is started as the README does (``bench.browser.launch_server``);
then ``--sessions`` websocket sessions (``bench.classroom.Session``: Streamlit's own protocol, as
a browser tab speaks it) each open every screen that reads a real model: 7b (SmolLM2's table),
7c (the tokenizers), 7d (MiniLM), 8c (GloVe), Projections' map of GloVe and of SmolLM2 (and GloVe's plain chart), and
Similarity, Analogies and Your own vectors on GloVe and on SmolLM2. Every session stays
connected until all have opened every screen, so the server holds all their session states at
once. Printed: the resident memory (VmRSS, summed over the server and its child processes, from
/proc) idle, after the first session (every model loaded once), after all sessions, and the
peak (VmHWM); the run times of the screens, and any exception or error box a screen showed.
Only 127.0.0.1 is contacted; every wait is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

from bench.browser import launch_server, stop_server, tree_rss, wait_healthy
from bench.classroom import Session, Student, open_session
from bench.machine import load

GLOVE = "GloVe 6B 50d (real words)"
SMOLLM2 = "SmolLM2-135M's token table"
# (page, query string): every screen that reads a real model, with each real table it offers
VISITS = [("real_table", ""), ("real_tokenizers", ""), ("real_context", ""), ("real_words", ""),
          ("projections", urlencode({"proj_source": GLOVE})),
          ("projections", urlencode({"proj_source": SMOLLM2})),
          ("projections", urlencode({"proj_source": GLOVE, "proj_real_draw": "Plain chart (no WebGL)"})),
          ("similarity", urlencode({"sim_table": GLOVE})), ("similarity", urlencode({"sim_table": SMOLLM2})),
          ("analogies", urlencode({"ana_table": GLOVE})), ("analogies", urlencode({"ana_table": SMOLLM2})),
          ("own_vectors", urlencode({"own_table": GLOVE})), ("own_vectors", urlencode({"own_table": SMOLLM2}))]
TARGET = 10**9          # 1 GB
VISIT_TIMEOUT_S = 300   # the first visit of a screen loads its model (once per server)


def mb(n: float) -> str:
    return f"{n / 1e6:,.0f} MB"


async def visit_all(i: int, base: str, errors: list, times: list, sockets: list) -> None:
    """Session i opens every real screen in turn and stays connected (its socket is kept)."""
    ws = await asyncio.wait_for(open_session(base, Student(i)), 60)
    sockets.append(ws)
    sess = Session(ws, base)
    for page, query in VISITS:
        shown = await asyncio.wait_for(sess.run(page, query), VISIT_TIMEOUT_S)
        times.append(shown["seconds"])
        errors += [f"session {i}, {page}?{query}: {e}" for e in shown["errors"]]


async def measure(base: str, pid: int, n: int, parallel: int) -> tuple[list, list, list]:
    rows, errors, times, sockets = [], [], [], []
    rows.append(("idle, no session", *tree_rss(pid)))
    t0 = time.perf_counter()
    await visit_all(0, base, errors, times, sockets)
    rows.append((f"1 session, every real screen ({time.perf_counter() - t0:.0f} s)", *tree_rss(pid)))
    first_times = list(times)
    times.clear()
    gate = asyncio.Semaphore(parallel)

    async def one(i: int) -> None:
        async with gate:
            try:
                await visit_all(i, base, errors, times, sockets)
            except (asyncio.TimeoutError, OSError, Exception) as err:  # noqa: BLE001 - counted
                errors.append(f"session {i}: {type(err).__name__}: {str(err)[:80]}")
    t0 = time.perf_counter()
    await asyncio.gather(*(one(i) for i in range(1, n)))
    rows.append((f"{n} sessions connected, each has opened every real screen "
                 f"({time.perf_counter() - t0:.0f} s)", *tree_rss(pid)))
    for ws in sockets:
        await ws.close()
    await asyncio.sleep(5)
    rows.append(("after the sessions closed (+5 s)", *tree_rss(pid)))
    return rows, errors, [first_times, times]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sessions", type=int, default=40)
    ap.add_argument("--parallel", type=int, default=4, help="sessions opening screens at once (4)")
    args = ap.parse_args(argv)
    log = Path(tempfile.mkdtemp(prefix="real_memory_")) / "server.txt"
    load_before = load()
    proc, base = launch_server(log)
    try:
        wait_healthy(proc, base, log, timeout=180)
        time.sleep(2)
        rows, errors, (first, rest) = asyncio.run(measure(base, proc.pid, args.sessions, args.parallel))
    finally:
        stop_server(proc)
    print(f"{len(VISITS)} real-screen visits per session; load average {load_before} at the start, "
          f"{load()} at the end")
    print(f"{'moment':<78} {'RSS':>9} {'peak':>9} procs")
    for label, rss, hwm, procs in rows:
        print(f"{label:<78} {mb(rss):>9} {mb(hwm):>9} {procs:>5}")
    peak = max(r[2] for r in rows)
    print(f"peak resident memory {mb(peak)}: {'met' if peak < TARGET else 'NOT met'} (target < {mb(TARGET)})")
    if first:
        print(f"first session's visits (models loaded): {sum(first):.1f} s in all, slowest {max(first):.1f} s")
    if rest:
        print(f"other sessions' visits: median {statistics.median(rest):.2f} s, slowest {max(rest):.1f} s, "
              f"{len(rest)} visits")
    print(f"errors: {len(errors)}")
    for e in errors[:20]:
        print("  " + e)


if __name__ == "__main__":
    main()
