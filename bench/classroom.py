"""A class on one server: N simulated students, each a light websocket client.

Each student speaks Streamlit's own websocket protocol (the protobuf BackMsg / ForwardMsg
that the browser sends and receives), so 40 of them fit on this 2-core machine beside
the server, where 40 Chromium instances would not. A student:

* arrives at a seeded moment within the first ``--arrival`` seconds (a class does not open
  the app in the same millisecond; ``--arrival 0`` is the worst case where it does) and
  opens the Train screen with settings of its own (its seed is its number, so no two
  students share a run), then every 5-15 s (seeded) moves the d_model or window slider,
  or visits another screen and comes back;
* times each action from the message it sends to the server's ``script_finished``;
* checks the two loss figures the Train screen shows against the core's own training
  for *its* settings (a wrong figure is cross-talk or a bug), and counts errors
  (exception or error elements, a run that did not finish, a dropped connection).

``--heavy K`` adds K students who paste a 300-word text of their own and retrain it with
a new seed every action (long runs: they queue for the server's long-run slots), and
half of whom close their tab in the middle of a run (that run must stop).

Run from the repository root:
    .venv/bin/python -m bench.classroom --students 40 --heavy 3 --seconds 180 --arrival 60
    .venv/bin/python -m bench.classroom --url http://127.0.0.1:8600   # an existing server
    .venv/bin/python -m bench.classroom --floor ...   # Streamlit's own floor first, then the ratio
It prints one table; only loopback addresses are contacted, every wait is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import re
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

from bench.browser import forward, launch_server, stop_server, tree_rss, wait_healthy
from bench.classroom_floor import SHAPE as FLOOR_SHAPE, ratio_table, run_floor, summary as floor_summary
from bench.classroom_report import WARMUP_S, report, warmup
from bench.machine import co_tenant, load
from deploy import serve as deploy_serve
from deploy.warm import first_visit
from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train

OTHER_SCREENS = ["lookup", "similarity", "gradients", "parameters", "limits", "tokens"]
ACTION_TIMEOUT_S = 60.0
MAX_STUDENTS = 80
PASTE = "Paste your own text"


@dataclass
class Student:
    index: int
    heavy: bool = False
    seed: int = -1                  # the training seed it uses; -1: its own number
    latencies: list[float] = field(default_factory=list)        # light actions on Train
    after_warmup: list[bool] = field(default_factory=list)      # was that action after warm-up?
    action_times: list[float] = field(default_factory=list)     # when each Train action was planned (s)
    other_latencies: list[float] = field(default_factory=list)  # other screens
    heavy_latencies: list[float] = field(default_factory=list)  # long runs
    checked: int = 0
    crosstalk: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    left_mid_run: int = 0
    replica: str = ""                                           # behind nginx: which process

    def __post_init__(self):
        if self.seed < 0:
            self.seed = self.index


def expected(d_model: int, window: int, seed: int, text: str = GUIDE_TEXT,
             max_vocab: int = 300) -> tuple[str, str]:
    """The two loss figures the Train screen must show for these settings."""
    r = train(Corpus.from_text(text, window=window, max_vocab=max_vocab),
              SkipGramConfig(d_model=d_model, seed=seed))
    return f"{r.losses[0]:.3f}", f"{r.final_loss:.3f}"


def plan(index: int, seconds: float, rng: random.Random, arrival: float = 20.0) -> list[tuple[float, str, int]]:
    """A light student's actions: (time, what, new value): it opens the app at a moment
    within the first ``arrival`` seconds, then acts every 5-15 s."""
    t, d, w, out = rng.uniform(0, arrival), 2 + index % 10, 1 + index % 4, []
    out.append((t, "open", 0))
    while True:
        t += rng.uniform(5, 15)
        if t > seconds:
            return out
        r = rng.random()
        if r < 0.6:
            d = max(1, min(16, d + rng.choice((-1, 1))))
            out.append((t, "d_model", d))
        elif r < 0.8:
            w = max(1, min(5, w + rng.choice((-1, 1))))
            out.append((t, "window", w))
        else:
            out.append((t, "visit", rng.randrange(len(OTHER_SCREENS))))


def heavy_text(index: int) -> str:
    """A 300-word text of a heavy student's own (3,000 words, window 2)."""
    rng = random.Random(1000 + index)
    return " ".join(f"w{rng.randrange(300)}" for _ in range(3000))


class Session:
    """One websocket session with the server, as one browser tab."""

    def __init__(self, ws, base: str):
        self.ws, self.base = ws, base
        self.widget_ids: dict[str, str] = {}
        self.widget_kinds: dict[str, str] = {}

    async def run(self, page: str, query: str = "", widgets: dict | None = None) -> dict:
        """Ask for a rerun and collect what it shows until ``script_finished``."""
        msg = BackMsg()
        rs = msg.rerun_script
        rs.page_name, rs.query_string = page, query
        rs.context_info.url = f"{self.base}/{page}"
        for key, value in (widgets or {}).items():
            ws_ = rs.widget_states.widgets.add()
            ws_.id, kind = self.widget_ids[key], self.widget_kinds[key]
            if kind in ("text_input", "text_area", "radio", "selectbox"):
                ws_.string_value = str(value)      # as the browser sends them
            elif kind == "number_input":
                ws_.int_value = value
            else:                                  # a slider: its value as a one-item list
                ws_.double_array_value.data.append(value)
        t0 = time.perf_counter()
        await self.ws.send(msg.SerializeToString())
        shown = {"metrics": {}, "errors": []}
        while True:
            fwd = forward(await asyncio.wait_for(self.ws.recv(), ACTION_TIMEOUT_S))
            kind = fwd.WhichOneof("type") if fwd is not None else None
            if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                self._read(fwd.delta.new_element, shown)
            elif kind == "script_finished":
                shown["seconds"] = time.perf_counter() - t0
                if fwd.script_finished != ForwardMsg.FINISHED_SUCCESSFULLY:
                    shown["errors"].append(f"run ended with status {fwd.script_finished}")
                return shown

    def _read(self, el, shown: dict) -> None:
        kind = el.WhichOneof("type")
        if kind == "metric":
            shown["metrics"][el.metric.label] = el.metric.body
        elif kind == "exception":
            shown["errors"].append(f"exception: {el.exception.message[:80]}")
        elif kind == "alert" and el.alert.format == Alert.ERROR:
            shown["errors"].append(f"error box: {el.alert.body[:80]}")
        elif kind in ("slider", "number_input", "text_input", "text_area", "radio"):
            wid = getattr(el, kind).id
            key = wid.rsplit("-", 1)[-1]
            self.widget_ids[key], self.widget_kinds[key] = wid, kind


def losses_shown(shown: dict) -> tuple[str, str] | None:
    m = shown["metrics"]
    final = [v for k, v in m.items() if re.fullmatch(r"loss, step [\d,]+", k) and k != "loss, step 0"]
    if "loss, step 0" not in m or len(final) != 1:
        return None
    return m["loss, step 0"], final[0]


async def open_session(base: str, s: Student):
    """Open the page first (as a browser does; behind nginx this sets the sticky cookie
    and names the replica that served it), then the session's websocket."""
    headers = {}
    with urllib.request.urlopen(base + "/", timeout=10) as r:
        cookie = r.headers.get("Set-Cookie")
        s.replica = r.headers.get("X-Replica", "")
    if cookie:
        headers["Cookie"] = cookie.split(";", 1)[0]
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    # No client keepalive pings (a browser sends none): on a server too busy to answer one
    # within 20 s, the websockets library would drop the session, where a tab keeps waiting.
    return await connect(url, subprotocols=["streamlit"], additional_headers=headers,
                         max_size=None, open_timeout=30, ping_interval=None)


async def light_student(s: Student, base: str, actions, truth: dict, t_start: float,
                        warmup: float = WARMUP_S) -> None:
    """Open the page and its websocket when the student arrives (its first action), then act."""
    d, w = 2 + s.index % 10, 1 + s.index % 4
    await asyncio.sleep(max(0.0, t_start + actions[0][0] - time.perf_counter()))
    try:
        ws = await asyncio.wait_for(open_session(base, s), ACTION_TIMEOUT_S)
    except (asyncio.TimeoutError, OSError, Exception) as err:  # noqa: BLE001 - counted, not raised
        s.errors.append(f"could not connect: {type(err).__name__}: {str(err)[:80]}")
        return
    sess = Session(ws, base)
    try:
        for at, what, value in actions:
            await asyncio.sleep(max(0.0, t_start + at - time.perf_counter()))
            if what == "visit":
                shown = await sess.run(OTHER_SCREENS[value])
                s.other_latencies.append(shown["seconds"])
                s.errors += shown["errors"]
                continue
            if what == "open":
                shown = await sess.run("train", f"train_d_model={d}&train_window={w}&train_seed={s.seed}")
            else:
                d, w = (value, w) if what == "d_model" else (d, value)
                shown = await sess.run("train", f"train_d_model={d}&train_window={w}&train_seed={s.seed}",
                                       {"train_d_model": d, "train_window": w, "train_seed": s.seed})
            s.latencies.append(shown["seconds"])
            s.after_warmup.append(at >= warmup)
            s.action_times.append(at)
            s.errors += shown["errors"]
            got, want = losses_shown(shown), truth[(d, w, s.seed)]
            s.checked += 1
            if got != want:
                s.crosstalk.append(f"d={d} w={w} seed={s.seed}: shown {got}, core {want}")
    except (asyncio.TimeoutError, OSError, Exception) as err:  # noqa: BLE001 - counted, not raised
        s.errors.append(f"{type(err).__name__}: {str(err)[:80]}")
    finally:
        await ws.close()


async def heavy_student(s: Student, base: str, seconds: float, t_start: float, leave: bool) -> None:
    """Paste a text of one's own; retrain it with a new seed until time is up. A leaving
    student closes the tab one second into its first run (a long run takes 2 s or more):
    that run must stop."""
    text, seed = heavy_text(s.index), 0
    await asyncio.sleep(5 + s.index % 5)
    try:
        ws = await open_session(base, s)
        sess = Session(ws, base)
        await sess.run("train", "train_source=" + PASTE.replace(" ", "+"))
        while time.perf_counter() - t_start < seconds - 10:
            seed += 1
            run = sess.run("train", "train_source=" + PASTE.replace(" ", "+"),
                           {"train_source": PASTE, "train_text": text, "train_seed": seed})
            if leave and seed == 1:
                task = asyncio.ensure_future(run)
                await asyncio.sleep(1)
                task.cancel()
                await ws.close()
                s.left_mid_run += 1
                return
            shown = await run
            s.heavy_latencies.append(shown["seconds"])
            s.errors += shown["errors"]
            await asyncio.sleep(2)
        await ws.close()
    except (asyncio.TimeoutError, OSError, Exception) as err:  # noqa: BLE001
        s.errors.append(f"{type(err).__name__}: {str(err)[:80]}")


async def sample_memory(pids: list[int], until: float, out: list) -> None:
    """The servers' resident memory (all replicas together), every 2 s."""
    while time.perf_counter() < until:
        if pids:
            out.append((time.perf_counter(), sum(tree_rss(p)[0] for p in pids)))
        await asyncio.sleep(2)


async def classroom(base: str, n: int, heavy: int, seconds: float, pids: list[int], seed: int,
                    shared_seed: bool = False, arrival: float = 20.0):
    """``shared_seed``: every student trains with the lesson's seed 0 (a class following the
    lesson: students with the same settings share a cached run); otherwise each student's
    seed is its own number, so every action is a run nobody has trained yet (worst case)."""
    rng = random.Random(seed)
    students = [Student(i, seed=0 if shared_seed else -1) for i in range(n)]
    plans = [plan(i, seconds, random.Random(rng.random()), arrival) for i in range(n)]
    truth = {}
    for s, actions in zip(students, plans):   # every figure checked, computed before the class starts
        d, w = 2 + s.index % 10, 1 + s.index % 4
        for _, what, value in actions:
            if what == "d_model":
                d = value
            elif what == "window":
                w = value
            if (d, w, s.seed) not in truth:
                truth[(d, w, s.seed)] = expected(d, w, s.seed)
    heavies = [Student(n + j, heavy=True) for j in range(heavy)]
    t0 = time.perf_counter()
    memory: list = []
    await asyncio.gather(
        sample_memory(pids, t0 + seconds, memory),
        *(light_student(s, base, a, truth, t0, warmup(arrival)) for s, a in zip(students, plans)),
        *(heavy_student(h, base, seconds, t0, leave=(j % 2 == 1)) for j, h in enumerate(heavies)))
    return students, heavies, memory, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--students", type=int, default=40)
    ap.add_argument("--heavy", type=int, default=0, help="students training long runs of their own")
    ap.add_argument("--seconds", type=float, default=180)
    ap.add_argument("--seed", type=int, default=0, help="seed of the students' plans")
    ap.add_argument("--shared-seed", action="store_true",
                    help="every student trains with the lesson's seed 0 (runs shared through the "
                         "cache); default: each its own seed, every action a new run (worst case)")
    ap.add_argument("--arrival", type=float, default=20.0,
                    help="the light students open the app at seeded moments spread over this many "
                         "seconds (0: all at the same moment, the worst case)")
    ap.add_argument("--url", help="an already running server (loopback only); default: start one")
    ap.add_argument("--replicas", type=int, default=0,
                    help="start this many app processes behind nginx (deploy/serve.py) instead of one")
    ap.add_argument("--warm", action="store_true",
                    help="one server: visit it once before the class (deploy.warm), as deploy.serve "
                         "does for its replicas (which are always warmed)")
    ap.add_argument("--floor", action="store_true",
                    help="first run Streamlit's floor for the same class (bench.classroom_floor: a page "
                         "of Train's shape, none of the app's code), then the app; print both and their ratio")
    ap.add_argument("--co-tenant", action="store_true",
                    help="a second process keeps one core busy (nice 0) for the whole run, the floor "
                         "included, as other work on a school's shared machine would")
    args = ap.parse_args()
    if not 0 <= args.arrival < args.seconds:
        ap.error("--arrival must be at least 0 and shorter than --seconds")
    if not 1 <= args.students + args.heavy <= MAX_STUDENTS:
        ap.error(f"between 1 and {MAX_STUDENTS} students in all")
    if args.url and not re.match(r"http://(127\.\d+\.\d+\.\d+|localhost)(:\d+)?$", args.url):
        ap.error("only loopback addresses (127.x.x.x or localhost) may be load-tested")
    with co_tenant(args.co_tenant):
        if args.co_tenant:
            print("co-tenant: one process keeping one core busy (nice 0) throughout", flush=True)
        run(args)


def run(args: argparse.Namespace) -> None:
    """The class (and first its floor, with ``--floor``), as the options say; prints the tables."""
    floor = None
    if args.floor:
        print(f"machine load before the floor: {load()}", flush=True)
        f_students, f_memory, f_wall = run_floor(args.students, args.seconds, args.seed, args.arrival)
        print("Streamlit's floor (bench/floor_app.py, " + FLOOR_SHAPE + "), the same class:\n"
              + report(f_students, [], f_memory, f_wall, args.seconds, args.arrival) + "\n", flush=True)
        floor = floor_summary(f_students, args.arrival)
    proc, cluster, logs, pids, base = None, None, [], [], args.url
    if args.replicas:
        t_up = time.perf_counter()
        cluster = deploy_serve.start(args.replicas)
        print(f"{args.replicas} replicas behind nginx, each warm (deploy.serve): ready after "
              f"{time.perf_counter() - t_up:.1f} s (load {load()})", flush=True)
        base, logs, pids = cluster.url, cluster.logs, [p.pid for p in cluster.replicas]
    elif base is None:
        logs = [Path(tempfile.mkdtemp()) / "server.log"]
        proc, base = launch_server(logs[0])
        wait_healthy(proc, base, logs[0])
        pids = [proc.pid]
        if args.warm:
            print(f"warmed by a first visit (deploy.warm) in {first_visit(base):.1f} s", flush=True)
    print(f"machine load before: {load()}")
    try:
        students, heavies, memory, wall = asyncio.run(classroom(
            base, args.students, args.heavy, args.seconds, pids, args.seed, args.shared_seed, args.arrival))
    finally:
        if proc is not None:
            stop_server(proc)
        if cluster is not None:
            cluster.stop()
    print(report(students, heavies, memory, wall, args.seconds, args.arrival))
    if floor is not None:
        print("\n" + ratio_table(floor_summary(students, args.arrival), floor))
    if logs:
        stopped = sum(p.read_text(errors="replace").count("its session has gone away") for p in logs)
        print(f"long runs stopped because their tab closed (server log): {stopped}")
    print(f"machine load after: {load()}")


if __name__ == "__main__":
    main()
