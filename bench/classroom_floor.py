"""Streamlit's own floor for a class: forty websocket sessions on a page of the Train screen's
shape with none of the app's code (``bench/floor_app.py``: a slider, 80 plain elements, three
small charts), timed as ``bench.classroom`` times the app.

The server is visited once before the class (its imports done, as ``deploy.serve`` warms the
app's replicas). Each floor student arrives at a seeded moment within ``--arrival`` s (0: all in the same
second), opens the page, then every 5-15 s (seeded: 10 s on average, the app's students' pace)
moves the slider one step and waits for ``script_finished``. Every rerun changes every element,
as moving d_model changes every figure on Train. What is left is Streamlit's own cost: a new
session, a script run of that many elements, their messages over the websocket.

Run from the repository root:
    .venv/bin/python -m bench.classroom_floor --students 40 --seconds 180 --arrival 0
    .venv/bin/python -m bench.classroom --floor ...   # the floor, then the app, and their ratio
"""
from __future__ import annotations

import argparse
import asyncio
import math
import random
import tempfile
import time
from pathlib import Path

from bench.browser import launch_server, stop_server, wait_healthy
from bench.classroom_report import WARMUP_S, pct, report, warmup
from bench.machine import load

SHAPE = "n=80&charts=3&change=1"
"""Train's Result tab: about 80 elements and three charts (docs/performance.md)."""


def floor_plan(seconds: float, rng: random.Random, arrival: float) -> list[float]:
    """When a floor student acts: it arrives within ``arrival`` s, then every 5-15 s."""
    t, out = rng.uniform(0, arrival), []
    while t <= seconds:
        out.append(t)
        t += rng.uniform(5, 15)
    return out


async def floor_student(s, base: str, times: list[float], t_start: float, warm: float) -> None:
    from bench.classroom import ACTION_TIMEOUT_S, Session, open_session
    await asyncio.sleep(max(0.0, t_start + times[0] - time.perf_counter()))
    try:
        ws = await asyncio.wait_for(open_session(base, s), ACTION_TIMEOUT_S)
    except Exception as err:  # noqa: BLE001 - counted, not raised
        s.errors.append(f"could not connect: {type(err).__name__}: {str(err)[:80]}")
        return
    sess, value = Session(ws, base), 4
    try:
        for i, at in enumerate(times):
            await asyncio.sleep(max(0.0, t_start + at - time.perf_counter()))
            if i == 0:
                shown = await sess.run("", SHAPE)
            else:
                value = 5 if value == 4 else 4
                shown = await sess.run("", SHAPE, {"floor_value": value})
            s.latencies.append(shown["seconds"])
            s.after_warmup.append(at >= warm)
            s.action_times.append(at)
            s.errors += shown["errors"]
    except Exception as err:  # noqa: BLE001 - counted, not raised
        s.errors.append(f"{type(err).__name__}: {str(err)[:80]}")
    finally:
        await ws.close()


async def floor_class(base: str, n: int, seconds: float, seed: int, arrival: float, pids: list[int]):
    from bench.classroom import Student, sample_memory
    rng = random.Random(seed)
    students = [Student(i) for i in range(n)]
    plans = [floor_plan(seconds, random.Random(rng.random()), arrival) for _ in range(n)]
    t0, memory = time.perf_counter(), []
    await asyncio.gather(sample_memory(pids, t0 + seconds, memory),
                         *(floor_student(s, base, p, t0, warmup(arrival)) for s, p in zip(students, plans)))
    return students, memory, time.perf_counter() - t0


def run_floor(n: int, seconds: float, seed: int, arrival: float):
    """Start ``streamlit run bench/floor_app.py``, visit it once (its imports done before the
    class, as ``deploy.serve`` does for the app), run the floor class on it, stop it."""
    from deploy.warm import first_visit
    log = Path(tempfile.mkdtemp()) / "floor.log"
    proc, base = launch_server(log, script="bench/floor_app.py")
    try:
        wait_healthy(proc, base, log)
        first_visit(base, page="")
        return asyncio.run(floor_class(base, n, seconds, seed, arrival, [proc.pid]))
    finally:
        stop_server(proc)


def summary(students, arrival: float) -> dict[str, float]:
    """p95 over the whole class, in its first 30 s, and after warm-up (s)."""
    lat = [(x, t, w) for s in students for x, t, w in zip(s.latencies, s.action_times, s.after_warmup)]
    return {"whole class": pct([x for x, _, _ in lat], 95),
            f"first {WARMUP_S:g} s": pct([x for x, t, _ in lat if t < WARMUP_S], 95),
            f"after warm-up ({warmup(arrival):g} s on)": pct([x for x, _, w in lat if w], 95)}


def ratio_table(app: dict[str, float], floor: dict[str, float]) -> str:
    """The app's Train p95 beside the floor's, per part of the class; "-" where a part had no
    action timed (a class shorter than the warm-up has no "after warm-up" part)."""
    lines = [f"{'Train p95':<28} {'app':>8} {'floor':>8} {'app / floor':>12}"]
    for k in app:
        a, f = app[k], floor.get(k, math.nan)
        if math.isnan(a) or math.isnan(f):
            lines.append(f"{k:<28} {'-' if math.isnan(a) else f'{a:.2f}s':>8} {'-' if math.isnan(f) else f'{f:.2f}s':>8} "
                         f"{'-':>12}")
        else:
            lines.append(f"{k:<28} {a:>7.2f}s {f:>7.2f}s {a / f:>11.1f}x")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--arrival", type=float, default=0.0)
    args = ap.parse_args()
    if not 0 <= args.arrival < args.seconds or not 1 <= args.students <= 80:
        ap.error("--arrival must be within --seconds; 1 to 80 students")
    print(f"machine load before: {load()}")
    students, memory, wall = run_floor(args.students, args.seconds, args.seed, args.arrival)
    print(report(students, [], memory, wall, args.seconds, args.arrival))
    print(f"machine load after: {load()}")


if __name__ == "__main__":
    main()
