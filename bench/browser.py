"""Shared pieces of the real-server benchmarks (``bench.browser_latency``, ``bench.startup_memory``).

* ``launch_server``: ``streamlit run app`` as the README runs it (``python -P``, so the
  repository root is not on ``sys.path``), on a free port of 127.0.0.1, its output kept in
  a log file; ``wait_healthy`` polls ``/_stcore/health`` with a deadline.
* ``tree_rss``: the resident memory of a process and all its descendants, from
  ``/proc/<pid>/status`` (VmRSS, and VmHWM, the peak).
* ``Session``: one browser page on the app (Playwright's sync API, Debian's Chromium) that
  timestamps, as they arrive, the frames of the app's websocket: every ``rerun_script``
  back-message the page sends and every ``script_finished`` message the server sends at the
  end of a whole script run. A run's latency is measured from just before the key press (or
  click) to the arrival of its ``script_finished``; "shown" adds the wait until the page is
  idle and two animation frames have been painted.

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

from deploy.serve import free_port  # noqa: F401  (one free-port helper: deploy, benchmarks and browser tests)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
RUN_ENDS = (ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_WITH_COMPILE_ERROR,
            ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY)
RUN_TIMEOUT_MS = 60_000
START_TIMEOUT_S = 60
APP = "[data-testid='stApp']"
IDLE_JS = ("() => { const a = document.querySelector(\"[data-testid='stApp']\");"
           " return a && ['notRunning', 'compilationError'].includes("
           "a.getAttribute('data-test-script-state')); }")
# Long tasks (over 50 ms) of the page's main thread: the browser's own work (React, Vega-Lite).
LONG_TASKS_INIT = ("window.__benchLongTasks = []; try { new PerformanceObserver(l => { for (const e "
                   "of l.getEntries()) window.__benchLongTasks.push(e.duration); }).observe("
                   "{type: 'longtask', buffered: true}); } catch (e) {}")
FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def need_browser() -> None:
    """Exit with a clear message when Chromium or Playwright is missing."""
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"Debian's Chromium is needed ({CHROMIUM} is missing): apt-get install chromium")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise SystemExit("Playwright for Python is needed: .venv/bin/pip install -r requirements-dev.txt") from None


def launch_server(log_path: Path, root: Path | None = None, extra: tuple[str, ...] = (),
                  run_log: Path | None = None, gc_freeze: bool = False) -> tuple[subprocess.Popen, str]:
    """Start ``streamlit run app`` (returns at once; see ``wait_healthy``); ``extra``: more
    command-line options. With ``run_log``, the server runs under ``bench/timed_server.py``,
    which writes the time of every script run (and of Streamlit's garbage collection after it)
    to that file (and with ``gc_freeze`` freezes the imports first, see there)."""
    root = Path(root or os.environ.get("EMBEDDING_LAB_APP_ROOT", ROOT))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    launcher = ["-m", "streamlit"]
    if run_log is not None:
        env["BENCH_RUN_LOG"] = str(run_log)
        env["BENCH_GC_FREEZE"] = "1" if gc_freeze else "0"
        launcher = [str(Path(__file__).with_name("timed_server.py"))]
    cmd = [sys.executable, "-P", *launcher, "run", "app", "--server.headless", "true",
           "--server.port", str(port), "--server.address", "127.0.0.1",
           "--browser.gatherUsageStats", "false", *extra]
    log = open(log_path, "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    log.close()
    return proc, f"http://127.0.0.1:{port}"


def wait_healthy(proc: subprocess.Popen, base: str, log_path: Path,
                 timeout: float = START_TIMEOUT_S) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            pass
        if proc.poll() is not None:
            raise RuntimeError(f"the server exited with code {proc.returncode}:\n"
                               + log_path.read_text(errors="replace")[-3000:])
        time.sleep(0.02)
    stop_server(proc)
    raise RuntimeError(f"the server did not answer /_stcore/health within {timeout:.0f} s")


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from /proc/<pid>/task/*/children)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                pass
    return out


def _status_kib(pid: int, field: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def tree_rss(pid: int) -> tuple[int, int, int]:
    """(VmRSS, VmHWM, number of processes) of ``pid`` and its descendants, in bytes."""
    pids = descendants(pid)
    rss = sum(_status_kib(p, "VmRSS") for p in pids) * 1024
    hwm = sum(_status_kib(p, "VmHWM") for p in pids) * 1024
    return rss, hwm, len(pids)


def mib(n: float) -> str:
    return f"{n / 2**20:,.0f} MiB"


def _decode_forward(payload) -> ForwardMsg | None:
    if isinstance(payload, str):
        return None
    msg = ForwardMsg()
    try:
        msg.ParseFromString(payload)
    except Exception:
        return None
    return msg


def _is_run_end(payload) -> bool:
    msg = _decode_forward(payload)
    return (msg is not None and msg.WhichOneof("type") == "script_finished"
            and msg.script_finished in RUN_ENDS)


def _is_rerun(payload) -> bool:
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


class Session:
    """One page (one Streamlit session) with timestamps of its websocket traffic."""

    def __init__(self, context, base: str):
        self.base = base
        self.page = context.new_page()
        self.page.set_default_timeout(RUN_TIMEOUT_MS)
        self.ws = None
        self.ends: list[float] = []      # perf_counter() at each whole run's script_finished
        self.reruns: list[float] = []    # perf_counter() at each rerun_script sent
        self.frames: list[float] = []    # perf_counter() at every message from the server
        self.errors: list[str] = []
        self.page.add_init_script(LONG_TASKS_INIT)
        self.page.on("websocket", self._on_ws)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def _on_ws(self, ws) -> None:
        if "/_stcore/stream" in ws.url:
            self.ws = ws
            ws.on("framereceived", self._on_frame)
            ws.on("framesent", lambda p: _is_rerun(p) and self.reruns.append(time.perf_counter()))

    def _on_frame(self, payload) -> None:
        now = time.perf_counter()
        msg = _decode_forward(payload)
        if msg is None:
            return
        self.frames.append(now)
        if msg.WhichOneof("type") == "script_finished" and msg.script_finished in RUN_ENDS:
            self.ends.append(now)

    def _wait_end(self, after: int, timeout_ms: int) -> None:
        deadline = time.monotonic() + timeout_ms / 1000
        while len(self.ends) <= after:
            if time.monotonic() > deadline:
                raise TimeoutError(f"no script run finished within {timeout_ms / 1000:.0f} s "
                                   f"({self.page.url})")
            if self.ws is None:
                self.page.wait_for_event("websocket", timeout=timeout_ms)
                continue
            try:
                self.ws.wait_for_event("framereceived", predicate=_is_run_end, timeout=timeout_ms)
            except Exception:
                continue  # the deadline above decides

    def settle(self) -> None:
        self.page.wait_for_function(IDLE_JS, timeout=RUN_TIMEOUT_MS)
        self.page.evaluate(FRAMES_JS)

    def goto(self, path: str = "/", t0: float | None = None) -> dict:
        """Open a URL and wait for its first run; seconds from ``t0`` (default: now)."""
        t0 = time.perf_counter() if t0 is None else t0
        n = len(self.ends)
        self.page.goto(self.base + path, timeout=RUN_TIMEOUT_MS)
        self._wait_end(n, RUN_TIMEOUT_MS)
        finished = self.ends[n] - t0
        self.settle()
        return {"finished": finished, "shown": time.perf_counter() - t0, "run": n}

    def act(self, action) -> dict:
        """Do ``action`` and wait for the whole run it triggers: seconds from the action to
        the rerun request leaving the page, to the first message back, to ``script_finished``,
        and to the page painted; ``busy``: the page's long tasks (main-thread work over 50 ms,
        mostly drawing) in that time."""
        n, m, k = len(self.ends), len(self.reruns), len(self.frames)
        self.page.evaluate("() => { window.__benchLongTasks = []; }")
        t0 = time.perf_counter()
        action()
        self._wait_end(n, RUN_TIMEOUT_MS)
        finished = self.ends[n] - t0
        sent = self.reruns[m] - t0 if len(self.reruns) > m else float("nan")
        first = self.frames[k] - t0 if len(self.frames) > k else float("nan")
        self.settle()
        shown = time.perf_counter() - t0
        busy = self.page.evaluate("() => (window.__benchLongTasks || []).reduce((a, b) => a + b, 0)")
        return {"sent": sent, "first": first, "finished": finished, "shown": shown,
                "busy": busy / 1000, "run": n}

    def exceptions(self) -> int:
        return self.page.locator("[data-testid='stException']").count()
