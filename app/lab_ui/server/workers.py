"""Long runs in worker processes, so the server's own interpreter stays free for light reruns.

Streamlit runs every session as a thread of one Python process. A long training run in such
a thread holds the interpreter lock between its NumPy calls, so three students training
300-word texts slowed every other student's rerun (docs/performance.md, "A class on one
server"). ``call(fn, *args)`` runs one core function in a worker process instead:

* a worker is a plain ``python -m lab_ui.server.workers`` process with NumPy and one BLAS thread,
  at a lower CPU priority than the server (``WORKER_NICE``), started on first use and kept
  for the next run (at most ``MAX_IDLE`` wait idle, and only while their memory stays under
  ``KEEP_BYTES``). *Background* work (word2vec on a big text and splitting one: minutes and
  hundreds of MiB) runs in a worker of its own at the lowest priority (``BACKGROUND_NICE``),
  so a run of a few seconds beside it gets nearly the whole core, and that worker ends with
  its job, handing its memory back to the machine. It is started with ``subprocess``
  (fork + exec at once), not forked from the server, so nothing
  of the server is copied: not Streamlit's threads and their locks, nor the objects the
  router moved out of the garbage collector's view. (``multiprocessing``'s spawn and
  forkserver methods would re-run Streamlit's ``__main__``, the app's router, in every worker.)
* the job goes to the worker as a pickle over a pipe; the worker answers over another pipe:
  progress ``(step, value)`` at most every ``REPORT_SECONDS``, then the result;
* ``call`` hands each report to the caller's ``callback(step, value)``, the core's own
  callback contract: True asks the run to stop, and the core's partial result comes back;
* a run that does not stop within ``grace`` seconds of being asked, and any run whose caller
  leaves ``call`` by an exception (Streamlit stopping the script, say), has its worker
  terminated: a cancelled run never keeps a core busy;
* an exception in the worker is raised here again (same type, same message) with the
  worker's traceback in the server's log; a worker that dies is a ``WorkerError``.

No Streamlit here: the workers import this module, and they are pure NumPy. How many runs
may use a worker at once is ``lab_ui.server.jobs``' business (its slots: all cores but one).
"""
from __future__ import annotations

import itertools
import logging
import os
import subprocess
import sys
import threading
import time
import traceback
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Callable

from lab_ui import ROOT   # workers start in the checkout

log = logging.getLogger(__name__)

MAX_IDLE = max(1, (os.cpu_count() or 2) - 1)
"""Workers kept waiting for the next long run (as many as long runs may compute at once)."""
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""One BLAS thread in a worker, set before NumPy loads its BLAS: with a thread per core for
every product, a 300-word run took 40 s beside a busy class instead of 2 s."""
WORKER_NICE = 10
"""A long run is background work: its worker runs this much nicer (lower CPU priority) than
the server, so that on a busy machine a student's light rerun gets a core before someone's
long run does, and the long run takes the cores nobody else needs. (With two replicas on two
cores, each replica's worker otherwise took a core from the class: docs/performance.md.)"""
BACKGROUND_NICE = 19
"""Background work (minutes of word2vec) is nicer still: Linux gives a nice-10 process about
seven times the CPU share of a nice-19 one, so a student's run of a few seconds is hardly
slowed by someone's word2vec on the same core."""
KEEP_BYTES = 160 * 2**20
"""An idle worker is kept for the next run only while its resident memory is under this
(a fresh worker: about 40 MiB); a bigger one is ended, so its memory goes back to the machine."""
ANSWER_POLL_SECONDS = 0.1
REPORT_SECONDS = 0.1
STOP_GRACE_SECONDS = 2.0
"""How long a run asked to stop may take to hand its partial result over (the core answers
within one step: milliseconds)."""


class Cancelled(Exception):
    """The run was abandoned before it finished: its session went away, or it did not
    answer a request to stop."""


class WorkerError(RuntimeError):
    """The worker process ended without an answer, or its error could not be sent back."""


class Worker:
    """One worker process and its two pipes: jobs (and stop requests) in, answers out."""

    def __init__(self, nice: int = WORKER_NICE):
        job_r, job_w = os.pipe()
        ans_r, ans_w = os.pipe()
        env = {**os.environ, **{name: "1" for name in BLAS_THREAD_VARIABLES}}
        self.proc = subprocess.Popen([sys.executable, "-m", "lab_ui.server.workers", str(job_r), str(ans_w), str(nice)],
                                     pass_fds=(job_r, ans_w), stdin=subprocess.DEVNULL, env=env, cwd=ROOT)
        os.close(job_r)
        os.close(ans_w)
        self.jobs, self.answers = Connection(job_w, readable=False), Connection(ans_r, writable=False)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc.poll() is None

    def rss(self) -> int:
        """Resident memory of the process in bytes (0 where /proc cannot tell)."""
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            pass
        return 0

    def run(self, job: int, fn, args, kwargs, callback, stoppable: bool, grace: float):
        """Send one job and wait for its answer: ("done", value, "") or ("error", exception,
        traceback). Raises Cancelled or WorkerError (the worker must then be ended)."""
        self.jobs.send(("run", job, fn, args, kwargs, stoppable))
        step, value, asked = 0, float("nan"), None
        while True:
            if self.answers.poll(ANSWER_POLL_SECONDS):
                try:
                    kind, *rest = self.answers.recv()
                except EOFError:
                    raise WorkerError(f"The run's worker process ended without an answer "
                                      f"(exit code {self.proc.wait(1)}).") from None
                if kind != "progress":
                    return kind, *rest
                step, value = rest
            elif not self.alive():
                raise WorkerError(f"The run's worker process ended without an answer "
                                  f"(exit code {self.proc.returncode}).")
            if asked is None:
                if callback is not None and callback(step, value) is True:
                    if not stoppable:
                        raise Cancelled("the run was stopped")
                    self.jobs.send(("stop", job))
                    asked = time.monotonic()
            elif time.monotonic() - asked > grace:
                raise Cancelled(f"the run did not stop within {grace:g} s of being asked")

    def end(self) -> None:
        """Terminate the process (kill it if it must) and close the pipes."""
        for conn in (self.jobs, self.answers):
            conn.close()
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(1.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(1.0)


class Pool:
    """Idle workers, reused run after run; a worker that was cancelled or failed is ended."""

    def __init__(self, max_idle: int = MAX_IDLE, nice: int = WORKER_NICE, keep_bytes: int = KEEP_BYTES):
        self.max_idle, self.nice, self.keep_bytes = max_idle, nice, keep_bytes
        self._idle: list[Worker] = []
        self._lock = threading.Lock()
        self._jobs = itertools.count(1)

    def take(self) -> Worker:
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    return worker
                worker.end()
        return Worker(self.nice)

    def give_back(self, worker: Worker) -> None:
        with self._lock:
            if len(self._idle) < self.max_idle and worker.alive() and worker.rss() < self.keep_bytes:
                self._idle.append(worker)
                return
        worker.end()

    def call(self, fn: Callable[..., Any], *args, callback=None, stoppable: bool = True,
             grace: float = STOP_GRACE_SECONDS, **kwargs) -> Any:
        """See the module function ``call``."""
        worker, healthy = self.take(), False
        try:
            kind, value, details = worker.run(next(self._jobs), fn, args, kwargs, callback, stoppable, grace)
            healthy = True
        finally:
            if healthy:
                self.give_back(worker)
            else:
                worker.end()
        if kind == "error":
            log.error("a run failed in its worker process:\n%s", details)
            raise value
        return value

    def close(self) -> None:
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.end()


POOL = Pool()
"""The server process's workers (each server process has its own)."""
BACKGROUND = Pool(max_idle=0, nice=BACKGROUND_NICE)
"""Workers for background work: one per job, ended when it is done."""


def call(fn: Callable[..., Any], *args, callback: Callable[[int, float], bool | None] | None = None,
         stoppable: bool = True, grace: float = STOP_GRACE_SECONDS, background: bool = False,
         **kwargs) -> Any:
    """``fn(*args, **kwargs)`` computed in a worker process; its return value.

    ``fn`` must be importable by name (a core function). ``stoppable``: ``fn`` takes the
    core's ``callback=`` argument (it reports progress and returns a partial result when
    asked to stop). ``callback(step, value)`` is called here, in the caller's thread, about
    every ANSWER_POLL_SECONDS with the run's latest report; returning True asks the run to stop (a
    run that cannot stop has its worker terminated at once and ``Cancelled`` raised).
    ``background``: compute it in a worker of ``BACKGROUND`` (lowest priority, ended after).
    Whatever way ``call`` is left, the run is over afterwards."""
    pool = BACKGROUND if background else POOL
    return pool.call(fn, *args, callback=callback, stoppable=stoppable, grace=grace, **kwargs)


def serve(jobs: Connection, answers: Connection, nice: int = WORKER_NICE) -> None:
    """The worker's loop: one job at a time until the server closes the pipe."""
    import numpy  # noqa: F401 - load the BLAS library now, so that the limit below reaches it
    from threadpoolctl import threadpool_limits
    threadpool_limits(limits=1)              # the server's other cores belong to the class
    os.nice(nice)                            # and its light reruns come first
    while True:
        try:
            message = jobs.recv()
        except EOFError:
            return
        if message[0] != "run":              # a stop request for a run already answered
            continue
        _, job, fn, args, kwargs, stoppable = message
        answer = _one(job, fn, args, kwargs, stoppable, jobs, answers)
        try:
            answers.send(answer)             # pickled whole before anything is written
        except OSError:                      # the server has gone: so does the worker
            return
        except Exception as err:  # noqa: BLE001 - an answer that cannot be pickled
            what = "result" if answer[0] == "done" else f"error ({type(answer[1]).__name__}: {answer[1]})"
            answers.send(("error", WorkerError(f"The run's {what} could not be sent back from its "
                                               f"worker process: {err}"), answer[2]))


def _one(job: int, fn, args, kwargs, stoppable: bool, jobs: Connection, answers: Connection) -> tuple:
    """Run one job; its answer, ("done", value, "") or ("error", exception, traceback)."""
    last, stop = 0.0, False

    def report(step: int, value: float) -> bool:
        """The core's callback: progress out at most every REPORT_SECONDS, and stop requests in."""
        nonlocal last, stop
        now = time.monotonic()
        if now - last >= REPORT_SECONDS:
            last = now
            try:
                answers.send(("progress", int(step), float(value)))
                while not stop and jobs.poll():
                    stop = jobs.recv() == ("stop", job)
            except (OSError, EOFError):      # the server has gone: stop at once
                stop = True
        return stop

    try:
        return "done", fn(*args, **({**kwargs, "callback": report} if stoppable else kwargs)), ""
    except Exception as err:  # noqa: BLE001 - every error goes back to the caller
        return "error", err, traceback.format_exc()


if __name__ == "__main__":       # python -m lab_ui.server.workers JOB_FD ANSWER_FD NICE (started by Worker)
    from lab_ui.server.workers import serve as _serve   # by its own name, so its classes unpickle as lab_ui.server.workers.*
    _serve(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False),
           int(sys.argv[3]) if len(sys.argv) > 3 else WORKER_NICE)
