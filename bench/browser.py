"""The one harness that drives the real app, shared by the benchmarks, the browser tests
(``tests/browser``) and ``tools/classroom.py``.

* **Server**: ``launch_server`` starts ``streamlit run app`` as the README does (``python -P``,
  so the repository root is not importable and the router must find its own packages), on
  a free port of 127.0.0.1, its output in a log file; ``wait_healthy`` polls
  ``/_stcore/health`` with a deadline; ``tree_rss`` reads the resident memory of the server and
  its children from ``/proc``, ``tree_cpu`` their CPU seconds.
* **Protocol**: ``forward`` decodes a websocket frame into Streamlit's own ``ForwardMsg``;
  ``run_ended`` says whether it ends a script run (the ``script_finished`` message, a public
  signal every browser receives), ``is_rerun`` whether a sent frame asks for one.
* **Browser**: ``CHROMIUM`` and ``CHROMIUM_ARGS`` (Debian's Chromium, never one Playwright
  downloads), and ``Page``: one browser page on the app that timestamps its websocket traffic,
  waits for whole runs (``goto``, ``rerun``) and, with ``timing=True``, measures in the page's
  own clock from the key press (or click) to the first frame painted after the last change.

Only 127.0.0.1 is contacted, and every wait has a deadline.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from deploy.serve import free_port  # noqa: F401  (one free-port helper for deploy, benchmarks and tests)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
# A whole script run ended (not one cut short by a newer rerun); a fragment's run has its own.
RUN_ENDS = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
            ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
RUN_TIMEOUT_MS = 60_000
IDLE_JS = ("() => { const a = document.querySelector(\"[data-testid='stApp']\");"
           " return a && ['notRunning', 'compilationError'].includes("
           "a.getAttribute('data-test-script-state')); }")
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
# With timing=True, in the page's own clock (performance.now): the last key press or pointer
# press, the last change to the page (DOM mutations, and long tasks: drawing), the start of
# every animation frame, and every frame the app's websocket received and sent (the page's
# WebSocket is wrapped to timestamp them; Streamlit itself is untouched).
TIMING_INIT = """(() => {
  const b = window.__bench = {input: -1, change: 0, frames: [], long: [], recv: [], sent: []};
  for (const t of ['keydown', 'pointerdown']) addEventListener(t, e => { b.input = e.timeStamp; }, true);
  new MutationObserver(() => { b.change = performance.now(); }).observe(document,
      {subtree: true, childList: true, attributes: true, characterData: true});
  try { new PerformanceObserver(l => { for (const e of l.getEntries()) b.long.push([e.startTime, e.duration]); })
        .observe({type: 'longtask', buffered: true}); } catch (e) {}
  const tick = t => { b.frames.push(t); if (b.frames.length > 2000) b.frames.splice(0, 1000);
                      requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  const WS = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = new WS(url, protocols);
    if (String(url).includes('/_stcore/stream')) {
      b.recv = []; b.sent = [];
      ws.addEventListener('message', () => b.recv.push(performance.now()));
      const send = ws.send.bind(ws);
      ws.send = d => { b.sent.push(performance.now()); return send(d); };
    }
    return ws;
  };
  window.WebSocket.prototype = WS.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""
# Wait until the app is idle and nothing changed through an idle period and two frames; then
# "painted" is the start of the first frame after the last change. All in ms from the input
# event; ``sent`` and ``finished``: the page's rerun request and the run's script_finished
# (their indices among the socket's frames, counted by Playwright in the same order).
PAINTED_JS = """async ([sentAt, endAt]) => {
  const b = window.__bench, a = document.querySelector("[data-testid='stApp']");
  const idle = () => ['notRunning', 'compilationError'].includes(a.getAttribute('data-test-script-state'));
  const pause = () => new Promise(r => requestIdleCallback(
      () => requestAnimationFrame(() => requestAnimationFrame(r)), {timeout: 1000}));
  for (let i = 0; i < 200; i++) { const seen = b.change; await pause(); if (idle() && b.change === seen) break; }
  const mine = b.long.filter(([s, d]) => s + d > b.input);
  const last = Math.max(b.input, b.change, ...mine.map(([s, d]) => s + d));
  const frame = b.frames.find(t => t > last) ?? performance.now();
  const at = (xs, i) => (i >= 0 && i < xs.length ? xs[i] - b.input : NaN);
  return {painted: frame - b.input, busy: mine.reduce((x, [s, d]) => x + d, 0), input: b.input,
          sent: at(b.sent, sentAt), finished: at(b.recv, endAt)};
}"""


def need_browser() -> None:
    """Exit with a clear message when Chromium or Playwright is missing."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Debian's Chromium is needed ({CHROMIUM} is missing): apt-get install chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise SystemExit("Playwright for Python is needed: .venv/bin/pip install -r requirements-dev.txt") from None


def launch_server(log_path: Path, root: Path | None = None, extra: tuple[str, ...] = (),
                  script: str = "app") -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run <script>`` in ``root`` (default: ``$EMBEDDING_LAB_APP_ROOT`` or
    this checkout); returns at once (see ``wait_healthy``). ``extra``: more options."""
    root = Path(root or os.environ.get("EMBEDDING_LAB_APP_ROOT", ROOT))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    cmd = [sys.executable, "-P", "-m", "streamlit", "run", script, "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", *extra]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    return proc, f"http://127.0.0.1:{port}"


def wait_healthy(proc: subprocess.Popen, base: str, log_path: Path, timeout: float = 60) -> None:
    """Poll ``/_stcore/health`` every 20 ms (as ``streamlit run`` does) until it says ok."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"`streamlit run` exited with code {proc.returncode} before it was "
                               "ready. Its output:\n" + log_path.read_text(errors="replace")[-3000:])
        time.sleep(0.02)
    stop_server(proc)
    raise RuntimeError(f"`streamlit run` did not answer {base}/_stcore/health within {timeout:.0f} s. "
                       "Its output:\n" + log_path.read_text(errors="replace")[-3000:])


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) so far of ``pid`` itself and of its children: the live
    ones (``/proc/<child>/stat``) and the ones it has waited for (its ``cutime + cstime``).
    For the server: its own interpreter, and its worker processes."""
    tick = os.sysconf("SC_CLK_TCK")

    def times(p: int) -> list[int]:
        fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        return [int(f) for f in fields[11:15]]          # utime, stime, cutime, cstime

    own, children = 0.0, 0.0
    try:
        u, s, cu, cs = times(pid)
        own, children = (u + s) / tick, (cu + cs) / tick
    except (OSError, ValueError):
        return own, children
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            try:
                u, s, cu, cs = times(kid)
                children += (u + s + cu + cs) / tick
            except (OSError, ValueError):
                pass
    return own, children


def tree_rss(pid: int) -> tuple[int, int, int]:
    """(VmRSS, VmHWM (the peak), number of processes) of ``pid`` and its descendants, in bytes."""
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    kib = {"VmRSS": 0, "VmHWM": 0}
    for p in pids:
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.split(":")[0] in kib:
                    kib[line.split(":")[0]] += int(line.split()[1])
        except OSError:
            pass
    return kib["VmRSS"] * 1024, kib["VmHWM"] * 1024, len(pids)


def forward(payload) -> ForwardMsg | None:
    """A frame from the server as Streamlit's ``ForwardMsg`` (None if it is not one)."""
    if isinstance(payload, str):
        return None
    msg = ForwardMsg()
    try:
        msg.ParseFromString(payload)
    except Exception:  # not a ForwardMsg: not ours to judge
        return None
    return msg


def run_ended(msg: ForwardMsg | None) -> bool:
    return (msg is not None and msg.WhichOneof("type") == "script_finished"
            and msg.script_finished in RUN_ENDS)


def is_rerun(payload) -> bool:
    """Whether a frame the page sent is a ``BackMsg`` asking for a script run."""
    if isinstance(payload, str):
        return False
    msg = BackMsg()
    try:
        msg.ParseFromString(payload)
    except Exception:
        return False
    return msg.WhichOneof("type") == "rerun_script"


def fill_input(box, field, value: str) -> None:
    """Type ``value`` into a text field and wait (bounded) until the widget shows its
    "Press Enter to apply" hint: pressing Enter before React has taken the new value in would
    commit the old one, and no run would start."""
    field.fill(value)
    try:
        box.get_by_text(re.compile(r"Enter to apply")).wait_for(state="visible", timeout=10_000)
    except Exception:
        pass  # an unchanged value shows no hint; the caller's wait for the run decides


class Page:
    """One browser page (one Streamlit session) with timestamps of its websocket traffic.

    Waiting for a run: right after a click the page may still read ``notRunning`` before the
    rerun starts, and a fast run can start and end within one React render, so the page's
    state attribute is no safe signal. The server's own word is: each run ends with a
    ``script_finished`` message. ``rerun(action)`` waits for that, then for the page to be
    idle and two animation frames painted.
    """

    def __init__(self, context, base_url: str, timing: bool = False):
        self.base_url = base_url
        self.page = context.new_page()
        self.ws = None
        self.ends: list[float] = []      # perf_counter() at each run's script_finished
        self.reruns: list[float] = []    # perf_counter() at each rerun_script the page sent
        self.frames: list[float] = []    # perf_counter() at every ForwardMsg
        self.messages: list[str] = []    # the kinds of the recent ForwardMsgs, for error reports
        self.n_recv = self.n_sent = 0    # frames of the current socket, received and sent
        self.end_index: list[int] = []   # each run end's index among the socket's received frames
        self.rerun_index: list[int] = []  # each rerun request's index among its sent frames
        self.timing = timing
        if timing:
            self.page.add_init_script(TIMING_INIT)
        self.page.on("websocket", self._on_websocket)

    @property
    def runs_done(self) -> int:
        return len(self.ends)

    def _on_websocket(self, ws) -> None:
        if "/_stcore/stream" in ws.url:
            self.ws, self.n_recv, self.n_sent = ws, 0, 0
            ws.on("framereceived", self._on_frame)
            ws.on("framesent", self._on_sent)

    def _on_sent(self, payload) -> None:
        if is_rerun(payload):
            self.reruns.append(time.perf_counter())
            self.rerun_index.append(self.n_sent)
        self.n_sent += 1

    def _on_frame(self, payload) -> None:
        now, msg = time.perf_counter(), forward(payload)
        self.n_recv += 1
        if msg is None:
            return
        self.frames.append(now)
        kind = msg.WhichOneof("type")
        if kind == "script_finished":
            kind += ":" + ForwardMsg.ScriptFinishedStatus.Name(msg.script_finished)
            if run_ended(msg):
                self.ends.append(now)
                self.end_index.append(self.n_recv - 1)
        if kind != "delta":
            self.messages = (self.messages + [kind])[-12:]

    def wait_for_run(self, after: int, what: str, timeout_ms: int) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        while len(self.ends) <= after:
            left = int(1000 * (deadline - time.monotonic()))
            if left <= 0:
                state = self.page.locator("[data-testid='stApp']").get_attribute("data-test-script-state")
                raise TimeoutError(f"no script run finished within {timeout_ms / 1000:.0f} s of {what} "
                                   f"(state now {state!r}, url {self.page.url}); last messages from "
                                   f"the server: {self.messages}")
            try:  # frames are handed to _on_frame only while Playwright waits: no race here
                if self.ws is None:
                    self.page.wait_for_event("websocket", timeout=left)
                else:
                    self.ws.wait_for_event("framereceived", timeout=left,
                                           predicate=lambda p: run_ended(forward(p)))
            except Exception:
                continue  # a closed socket or a timeout: the deadline above decides

    def settle(self, timeout: int = RUN_TIMEOUT_MS) -> None:
        self.page.wait_for_function(IDLE_JS, timeout=timeout)
        self.page.evaluate(FRAMES_JS)

    def goto(self, path: str = "/", timeout: int = RUN_TIMEOUT_MS, t0: float | None = None) -> dict:
        """Open a URL of the app in this page and wait for its first run; seconds from ``t0``."""
        t0 = time.perf_counter() if t0 is None else t0
        self.ws, n = None, len(self.ends)
        self.page.goto(self.base_url + path, timeout=timeout)
        self.wait_for_run(n, f"opening {path}", timeout)
        finished = self.ends[n] - t0
        self.settle(timeout)
        return {"finished": finished, "shown": time.perf_counter() - t0}

    def rerun(self, action, timeout: int = RUN_TIMEOUT_MS) -> dict:
        """Do ``action`` (a click, a key press) and wait for the run it triggers. Returns seconds
        from the action to the rerun request leaving the page (``sent``) and to its
        ``script_finished`` (``finished``). With ``timing``, these are measured in the page's
        clock from the input event, and there are also the first frame painted after the last
        change (``painted``) and the page's long tasks (``busy``)."""
        n, m = len(self.ends), len(self.reruns)
        if self.timing:
            self.page.evaluate("() => { window.__bench.input = -1; }")
        t0 = time.perf_counter()
        action()
        self.wait_for_run(n, "the action", timeout)
        sent = len(self.reruns) > m
        # A fragment's timed run (Play) can end just after the action, before the run the action
        # asked for has even started: wait on until a run ends after the request left the page.
        while sent and self.ends[n] < self.reruns[m]:
            n += 1
            self.wait_for_run(n, "the action", timeout)
        if not self.timing:
            self.settle(timeout)
            return {"finished": self.ends[n] - t0, "sent": self.reruns[m] - t0 if sent else float("nan")}
        self.page.wait_for_function(IDLE_JS, timeout=timeout)
        p = self.page.evaluate(PAINTED_JS, [self.rerun_index[m] if sent else -1, self.end_index[n]])
        if p["input"] < 0:
            raise RuntimeError("the page saw no key press or click for this action")
        return {k: (p[k] if p[k] is not None else float("nan")) / 1000
                for k in ("painted", "busy", "sent", "finished")}

    def exceptions(self) -> int:
        return self.page.locator("[data-testid='stException']").count()
