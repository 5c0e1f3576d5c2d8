"""One student's attack: five heavy tabs of big texts beside another student's ordinary work,
then the server's memory until well after every tab has closed.

Every tab is a websocket client speaking Streamlit's own protocol (``bench.classroom``'s way),
sending what a browser sends: the whole widget state with every rerun (the pasted text too,
cut to the box's 20,000 characters as the browser's box cuts it; the server closes a
connection whose message is over 2 MB, ``.streamlit/config.toml``), and the word2vec progress
fragment's rerun every half second once the server has asked for it (``auto_rerun``).

* **The attacker**: one browser (one ``_streamlit_xsrf`` cookie, as the tabs of one browser
  share it), five tabs, each uploading a different 5 MB text (``tests.bigtext_data.big_text``)
  as a .txt file, as the browser's uploader does (an HTTP PUT with the cookie's XSRF token,
  then the file named in the widget state), and pressing *Train word2vec*, and *Train again*
  whenever its result has come, until the attack ends; then every tab closes. ``--paste``
  pastes the texts instead: the Train screen's box keeps a paste's first 20,000 characters,
  as a browser's box does, so it trains on a short text.
* **The other student** (a browser of its own): an *ordinary run* every ~6 s, a pasted
  300-word text trained with a new seed (a long run: it goes through a slot of the server),
  and, in a second tab, a *light rerun* every ~1.5 s (the lesson's text, the d_model slider
  moved; the first time at a d_model it trains the lesson's run, in the server, and is
  reported on a row of its own). Each is timed from the message sent to the server's
  ``script_finished``, and every ordinary run's two loss figures are checked against the
  core's own training afterwards.
* **Phases**: ``--quiet`` seconds of the other student alone, then ``--seconds`` of attack,
  then ``--after`` seconds with every tab closed (Streamlit drops a closed tab's session
  after its ``server.disconnectedSessionTTL``, 120 s) while the memory is sampled.
* **Memory**: the resident memory of the server and its worker processes together, every 2 s;
  **CPU**: the seconds the server's own interpreter and its workers computed, per second of
  each phase (``bench.browser.tree_cpu``).

Run from the repository root (on a machine others share, with the load printed beside):
    .venv/bin/python -m bench.attack                  # 40 s quiet, 150 s attack, 300 s after
    .venv/bin/python -m bench.attack --quiet 20 --seconds 90 --after 240 --tabs 5
It prints one table; only 127.0.0.1 is contacted, every wait is bounded.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from threadpoolctl import threadpool_limits
from websockets.asyncio.client import connect

from bench.browser import forward, launch_server, stop_server, tree_cpu, tree_rss, wait_healthy
from bench.classroom import PASTE, expected, losses_shown
from bench.classroom_report import pct
from bench.machine import load
from lab_ui.screens.train.train_controls import PASTE_MAX_CHARS
from tests.bigtext_data import big_text

ACTION_TIMEOUT_S = 120.0
COUNT_TIMEOUT_S = 600.0
MIB = 2**20
SOURCE = "train_source=" + PASTE.replace(" ", "+")


def ordinary_text(seed: int = 7, n_words: int = 300, vocab: int = 150) -> str:
    """A student's own 300-word paragraph: 300 words drawn from 150 different ones."""
    rng = random.Random(seed)
    return " ".join(f"word{rng.randrange(vocab)}" for _ in range(n_words))


class Tab:
    """One browser tab: a websocket, a reader that keeps what the page shows, and reruns."""

    def __init__(self, ws, base: str, name: str):
        self.ws, self.base, self.name = ws, base, name
        self.cookie = ""
        self.ids: dict[str, tuple[str, str]] = {}        # widget key -> (id, kind)
        self.fragment = ""                               # the fragment the server asked to rerun
        self.page_hash = ""                              # the page's script hash, as the browser keeps it
        self.interval = 0.0
        self.finished = asyncio.Event()
        self.runs_done = 0
        self.shown: list[tuple[str, str]] = []           # (kind, text) since the last reset
        self.metrics: dict[str, str] = {}
        self.behind = False                              # told its run waits behind its own
        self.session_id = ""                             # the server's id for this tab (uploads name it)
        self.reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                fwd = forward(frame)
                kind = fwd.WhichOneof("type") if fwd is not None else None
                if kind == "delta" and fwd.delta.WhichOneof("type") == "new_element":
                    self._element(fwd.delta.new_element)
                elif kind == "new_session":
                    self.session_id = fwd.new_session.initialize.session_id
                elif kind == "navigation":               # the page this run is on
                    self.page_hash = fwd.navigation.page_script_hash
                elif kind == "auto_rerun":
                    self.fragment, self.interval = fwd.auto_rerun.fragment_id, fwd.auto_rerun.interval
                elif kind == "stop_auto_rerun":
                    self.fragment = ""
                elif kind == "script_finished":
                    self.runs_done += 1
                    self.finished.set()
        except Exception:  # noqa: BLE001 - a closed socket ends the reader
            pass

    def _element(self, el) -> None:
        kind = el.WhichOneof("type")
        if kind == "metric":
            self.metrics[el.metric.label] = el.metric.body
        elif kind == "markdown":
            self.shown.append(("markdown", el.markdown.body))
        elif kind == "alert":
            what = {Alert.ERROR: "error", Alert.WARNING: "warning"}.get(el.alert.format, "info")
            self.shown.append((what, el.alert.body))
        elif kind == "progress":
            self.behind |= "another run of yours" in el.progress.text
        elif kind == "exception":
            self.shown.append(("error", "exception: " + el.exception.message[:80]))
        if kind in ("slider", "number_input", "text_input", "text_area", "radio", "button",
                    "select_slider", "file_uploader"):
            wid = getattr(el, kind).id
            self.ids[wid.rsplit("-", 1)[-1]] = (wid, kind)

    def send(self, page: str, query: str = "", widgets: dict | None = None, click: str = "",
             fragment: str = "") -> asyncio.Future:
        msg = BackMsg()
        rs = msg.rerun_script
        rs.page_name, rs.query_string = page, query
        if self.page_hash:
            rs.page_script_hash = self.page_hash
        rs.context_info.url = f"{self.base}/{page}"
        if fragment:
            rs.fragment_id, rs.is_auto_rerun = fragment, True
        for key, value in (widgets or {}).items():
            if key not in self.ids:
                continue
            state = rs.widget_states.widgets.add()
            state.id, kind = self.ids[key]
            if kind in ("text_input", "text_area", "radio"):
                state.string_value = str(value)
            elif kind == "number_input":
                state.int_value = value
            elif kind == "file_uploader":                # value: (file id, name, size) of an upload
                file_id, name, size = value
                state.file_uploader_state_value.uploaded_file_info.add(file_id=file_id, name=name, size=size)
            else:
                state.double_array_value.data.append(value)
        if click in self.ids:
            state = rs.widget_states.widgets.add()
            state.id = self.ids[click][0]
            state.trigger_value = True
        self.finished.clear()
        return asyncio.ensure_future(self.ws.send(msg.SerializeToString()))

    async def run(self, page: str, query: str = "", widgets: dict | None = None, click: str = "",
                  timeout: float = ACTION_TIMEOUT_S) -> float:
        """One whole rerun: seconds from sending it to its ``script_finished``."""
        self.shown, self.metrics = [], {}
        t0 = time.perf_counter()
        await self.send(page, query, widgets, click)
        await asyncio.wait_for(self.finished.wait(), timeout)
        return time.perf_counter() - t0

    def says(self, kind: str, words: str) -> bool:
        return any(k == kind and words in text for k, text in self.shown)

    async def close(self) -> None:
        await self.ws.close()
        self.reader.cancel()


def browser_cookie(base: str) -> str:
    """Ask the server's health endpoint once, as the page does when it loads: the answer sets
    Streamlit's XSRF cookie, which the browser then sends from every tab."""
    with urllib.request.urlopen(base + "/_stcore/health", timeout=10) as r:
        cookies = [c.split(";", 1)[0] for c in r.headers.get_all("Set-Cookie") or []]
    return "; ".join(cookies)


def upload(base: str, cookie: str, session_id: str, name: str, data: bytes) -> tuple[str, str, int]:
    """PUT one file to the tab's session as the browser's uploader does (multipart, with the
    XSRF token of the browser's cookie); the (file id, name, size) its widget state names."""
    file_id = uuid.uuid4().hex
    boundary = uuid.uuid4().hex
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\n"
            f"Content-Type: text/plain\r\n\r\n").encode() + data + f"\r\n--{boundary}--\r\n".encode()
    token = dict(c.split("=", 1) for c in cookie.split("; ") if "=" in c).get("_streamlit_xsrf", "")
    request = urllib.request.Request(f"{base}/_stcore/upload_file/{session_id}/{file_id}", data=body, method="PUT",
                                     headers={"Content-Type": f"multipart/form-data; boundary={boundary}",
                                              "Cookie": cookie, "X-Xsrftoken": token})
    with urllib.request.urlopen(request, timeout=ACTION_TIMEOUT_S) as r:
        if r.status != 204:
            raise RuntimeError(f"upload answered {r.status}")
    return file_id, name, len(data)


async def open_tab(base: str, cookie: str, name: str) -> Tab:
    url = base.replace("http://", "ws://") + "/_stcore/stream"
    ws = await connect(url, subprotocols=["streamlit"], additional_headers={"Cookie": cookie} if cookie else {},
                       max_size=None, open_timeout=30, ping_interval=None)
    tab = Tab(ws, base, name)
    tab.cookie = cookie
    return tab


@dataclass
class Results:
    ordinary: list[tuple[float, float, int]] = field(default_factory=list)   # (when, seconds, seed)
    ordinary_shown: dict[int, tuple[str, str] | None] = field(default_factory=dict)
    light: list[tuple[float, float, bool]] = field(default_factory=list)      # (when, seconds, trained it)
    errors: list[str] = field(default_factory=list)
    uploaded: list[float] = field(default_factory=list)  # seconds to upload a text
    counted: list[float] = field(default_factory=list)   # seconds from paste/upload to word2vec's settings
    job_seconds: list[float] = field(default_factory=list)   # start pressed to result or reason shown
    jobs_started: int = 0
    results_shown: int = 0
    reasons_shown: int = 0
    behind_own: int = 0                  # attacker tabs told they wait behind their own run
    lost: int = 0
    memory: list[tuple[float, int, int]] = field(default_factory=list)       # (when, bytes, processes)
    cpu: list[tuple[float, float, float]] = field(default_factory=list)       # (when, server's own, workers')
    phases: dict[str, float] = field(default_factory=dict)


async def ordinary_student(base: str, res: Results, t0: float, until: float) -> None:
    cookie = browser_cookie(base)
    runs, light = await open_tab(base, cookie, "ordinary"), await open_tab(base, cookie, "light")
    text = ordinary_text()
    try:
        await runs.run("train", SOURCE)
        await light.run("train", "train_d_model=4")

        async def light_loop():
            d, trained = 4, {4}
            while time.perf_counter() < until:
                d = 1 + d % 16
                s = await light.run("train", f"train_d_model={d}", {"train_d_model": d})
                res.light.append((time.perf_counter() - t0, s, d not in trained))   # first time: it trains
                trained.add(d)
                if any(k == "error" for k, _ in light.shown):
                    res.errors += [f"light: {t[:80]}" for k, t in light.shown if k == "error"]
                await asyncio.sleep(1.5)

        async def run_loop():
            seed = 100
            while time.perf_counter() < until:
                seed += 1
                s = await runs.run("train", SOURCE, {"train_source": PASTE, "train_text": text, "train_seed": seed})
                res.ordinary.append((time.perf_counter() - t0, s, seed))
                res.ordinary_shown[seed] = losses_shown({"metrics": runs.metrics})
                await asyncio.sleep(6)

        await asyncio.gather(light_loop(), run_loop())
    except Exception as err:  # noqa: BLE001 - counted, not raised
        res.errors.append(f"ordinary student: {type(err).__name__}: {str(err)[:80]}")
    finally:
        await runs.close()
        await light.close()


async def attacker_tab(tab: Tab, text: str, res: Results, until: float, grace: float, paste: bool = False) -> None:
    """Upload the text as a .txt file (or paste it: the box keeps its first 20,000 characters),
    train, and train again whenever the result has come; at ``until`` start nothing more, wait
    up to ``grace`` s for the running job's result or reason, then close."""
    try:
        await tab.run("train", SOURCE)
        if paste:
            widgets = {"train_source": PASTE, "train_text": text[:PASTE_MAX_CHARS]}   # the box takes no more
        else:
            t0 = time.perf_counter()
            file = await asyncio.to_thread(upload, tab.base, tab.cookie, tab.session_id, f"{tab.name}.txt",
                                           text.encode("utf-8"))
            res.uploaded.append(time.perf_counter() - t0)
            widgets = {"train_source": PASTE, "train_upload": file}
        # counted (a 5 MB text in a worker at the lowest priority: over 120 s at a load of 20), then
        # word2vec's settings; a browser waits as long as that takes
        res.counted.append(await tab.run("train", SOURCE, widgets, timeout=COUNT_TIMEOUT_S))
        if "train_w2v_start" not in tab.ids:
            res.errors.append(f"{tab.name}: no Train word2vec button: {tab.shown[-3:]}")
            return
        while time.perf_counter() < until:
            t0 = time.perf_counter()
            await tab.run("train", SOURCE, widgets, click="train_w2v_start")
            res.jobs_started += 1
            ended = await watch_job(tab, widgets, deadline=max(until, time.perf_counter()) + grace)
            res.job_seconds.append(time.perf_counter() - t0)
            if ended == "result":
                res.results_shown += 1
            elif ended == "reason":
                res.reasons_shown += 1
            else:
                res.lost += 1
                return
    except Exception as err:  # noqa: BLE001 - counted, not raised
        res.errors.append(f"{tab.name}: {type(err).__name__}: {str(err)[:80]}")
    finally:
        res.behind_own += tab.behind


async def watch_job(tab: Tab, widgets: dict, deadline: float) -> str:
    """Rerun the progress fragment when the server asks (as the browser's timer does) until a
    page run shows the job's result ("result") or why there is none ("reason")."""
    while time.perf_counter() < deadline:
        if tab.says("markdown", "words have a vector"):
            return "result"
        if any(k in ("error", "warning") for k, _ in tab.shown):
            return "reason"
        if tab.fragment:
            await tab.send("train", SOURCE, widgets, fragment=tab.fragment)
        await asyncio.sleep(tab.interval or 0.5)
    return "lost"


async def attacker(base: str, texts: list[str], res: Results, until: float, grace: float,
                   paste: bool = False) -> None:
    cookie = browser_cookie(base)
    tabs = [await open_tab(base, cookie, f"attacker tab {i + 1}") for i in range(len(texts))]
    try:
        await asyncio.gather(*(attacker_tab(t, x, res, until, grace, paste) for t, x in zip(tabs, texts)))
    finally:
        for t in tabs:
            await t.close()


async def sample_memory(pid: int, res: Results, t0: float, until: float) -> None:
    while time.perf_counter() < until:
        rss, _, n = tree_rss(pid)
        res.memory.append((time.perf_counter() - t0, rss, n))
        res.cpu.append((time.perf_counter() - t0, *tree_cpu(pid)))
        await asyncio.sleep(2)


async def attack(base: str, pid: int, quiet: float, seconds: float, after: float, texts: list[str],
                 grace: float, paste: bool = False) -> Results:
    res = Results()
    t0 = time.perf_counter()
    stop = t0 + quiet + seconds
    res.phases = {"attack": quiet, "closed": None}
    memory = asyncio.ensure_future(sample_memory(pid, res, t0, stop + grace + after))
    student = asyncio.ensure_future(ordinary_student(base, res, t0, stop))
    await asyncio.sleep(quiet)
    await attacker(base, texts, res, stop, grace, paste)
    await student
    res.phases["closed"] = time.perf_counter() - t0
    await asyncio.sleep(max(0.0, res.phases["closed"] + after - (time.perf_counter() - t0)))
    res.phases["end"] = time.perf_counter() - t0
    await memory
    return res


def row(name: str, xs: list[float]) -> str:
    if not xs:
        return f"{name:<60} {0:>4}"
    return (f"{name:<60} {len(xs):>4} {statistics.median(xs):>8.2f} {pct(xs, 95):>8.2f} {max(xs):>8.2f}")


def cpu_rows(cpu: list[tuple[float, float, float]], attack_start: float, closed: float) -> list[str]:
    """CPU seconds per second of each phase: the server's own interpreter, and its workers."""
    if len(cpu) < 2:
        return []

    def at(t: float) -> tuple[float, float, float]:
        return min(cpu, key=lambda c: abs(c[0] - t))
    out = ["CPU seconds per second (server's own interpreter; its worker processes)"]
    for name, a, b in (("alone", cpu[0][0], attack_start), ("during the attack", attack_start, closed)):
        (t0, own0, kids0), (t1, own1, kids1) = at(a), at(b)
        if t1 > t0:
            out.append(f"  {name:<58} {(own1 - own0) / (t1 - t0):>5.2f}  {(kids1 - kids0) / (t1 - t0):>5.2f}")
    return out


def report(res: Results, quiet: float) -> str:
    attack_start, closed = res.phases["attack"], res.phases["closed"]
    out = [f"{'':<60} {'n':>4} {'median':>8} {'p95':>8} {'max':>8}   (seconds)"]
    light = [(when, s) for when, s, trains in res.light if not trains]
    first = [(when, s) for when, s, trains in res.light if trains]
    for name, series in (("ordinary run (300 words, new seed)", res.ordinary),
                         ("light rerun (lesson text, trained before)", light),
                         ("light rerun, first at its d_model (trains)", first)):
        before = [s for when, s, *_ in series if when < attack_start]
        during = [s for when, s, *_ in series if when >= attack_start]
        out += [row(f"{name}, alone", before), row(f"{name}, during the attack", during)]
    wrong = [seed for seed, shown in res.ordinary_shown.items()
             if shown != expected(4, 2, seed, ordinary_text())]
    out += [row("attacker: uploading its text", res.uploaded),
            row("attacker: its text until word2vec's settings show", res.counted),
            row("attacker: a word2vec job, start to its result", res.job_seconds)]
    out += ["",
            f"ordinary runs checked against the core: {len(res.ordinary_shown)}, wrong: {len(wrong)}",
            f"attacker's word2vec jobs started: {res.jobs_started}; result shown: {res.results_shown}; "
            f"reason shown: {res.reasons_shown}; neither before the tab closed (still waiting or training "
            f"after --grace; the server log below counts those it stopped): {res.lost}",
            f"attacker's tabs told they wait behind their own run: {res.behind_own}",
            f"errors: {len(res.errors)}" + "".join(f"\n  {e}" for e in res.errors[:10]), ""]
    out += cpu_rows(res.cpu, attack_start, closed) + [""]
    mem = res.memory

    def at(t: float) -> str:
        near = min(mem, key=lambda m: abs(m[0] - t))
        return f"{near[1] / MIB:>8.0f} MiB  ({near[2]} processes)"
    warm = [m for m in mem if m[0] < attack_start]
    during = [m for m in mem if attack_start <= m[0] <= closed]
    out += ["server memory (RSS, server + worker processes)",
            f"  warm (end of the quiet phase)        {at(attack_start - 1)}"]
    if during:
        peak = max(during, key=lambda m: m[1])
        out.append(f"  peak during the attack               {peak[1] / MIB:>8.0f} MiB  ({peak[2]} processes)")
    out.append(f"  when every tab had closed            {at(closed)}")
    for minutes in range(1, int((res.phases["end"] - closed) // 60) + 1):
        out.append(f"  {minutes} min after the last tab closed    {at(closed + 60 * minutes)}")
    if warm:
        last = mem[-1][1]
        out.append(f"  last sample minus warm: {(last - warm[-1][1]) / MIB:+.0f} MiB (target: within 50 MiB)")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quiet", type=float, default=40, help="seconds of the other student alone first")
    ap.add_argument("--seconds", type=float, default=150, help="seconds of attack")
    ap.add_argument("--after", type=float, default=300, help="seconds of memory samples after the tabs closed")
    ap.add_argument("--tabs", type=int, default=5, help="the attacker's tabs")
    ap.add_argument("--mb", type=float, default=5.0, help="size of each attacker tab's text, in MB")
    ap.add_argument("--grace", type=float, default=90, help="how long a running job may take to end after the attack")
    ap.add_argument("--paste", action="store_true", help="paste the texts instead of uploading them (the Train "
                    "screen's box keeps the first 20,000 characters of a paste, so this attack is lighter)")
    args = ap.parse_args()
    texts = [big_text(int(args.mb * 1e6), seed=11 + i) for i in range(args.tabs)]   # before the clock starts
    log = Path(tempfile.mkdtemp()) / "server.log"
    proc, base = launch_server(log)
    wait_healthy(proc, base, log)
    print(f"server log: {log}")
    print(f"machine load before: {load()} (1, 5, 15 min; other engineers' work shares this machine)")
    try:
        res = asyncio.run(attack(base, proc.pid, args.quiet, args.seconds, args.after, texts, args.grace,
                                 args.paste))
    finally:
        stop_server(proc)
    with threadpool_limits(limits=1):    # the core's check of each ordinary run: one BLAS thread,
        print(report(res, args.quiet))   # or on a busy machine it takes minutes per run
    text = log.read_text(errors="replace")
    print(f"server log: {text.count('its session has gone away')} runs stopped because their tab closed, "
          f"{text.count('Traceback')} tracebacks")
    print(f"machine load after: {load()}")


if __name__ == "__main__":
    main()
