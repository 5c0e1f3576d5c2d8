"""The machine a benchmark ran on: CPU, cores, Python, NumPy and its BLAS, and the load."""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import platform
import time
from collections.abc import Iterator

import numpy as np


def cpu_model() -> str:
    """The CPU's model name from /proc/cpuinfo (the platform's guess elsewhere)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def blas_name() -> str:
    """The BLAS numpy calls, with its threads when threadpoolctl can tell."""
    try:
        from threadpoolctl import threadpool_info
        pools = [p for p in threadpool_info() if p.get("user_api") == "blas"]
        if pools:
            p = pools[0]
            return f"{p['internal_api']} {p['version']} ({p['num_threads']} threads)"
    except ImportError:
        pass
    try:
        blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
        return f"{blas['name']} {blas.get('version', '')}".strip()
    except Exception:  # show_config's layout is not a stable API
        return "unknown"


def describe() -> list[str]:
    """Lines naming the CPU, cores, Python, NumPy and BLAS."""
    return [
        f"CPU      {cpu_model()}",
        f"cores    {os.cpu_count()} (as seen by the OS)",
        f"python   {platform.python_version()}",
        f"numpy    {np.__version__}, BLAS: {blas_name()}",
        f"load     {load()} (1, 5, 15-minute load averages; other work slows the timings)",
    ]


def load() -> str:
    """The load averages, as ``os.getloadavg`` gives them."""
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def _burn(stop) -> None:
    while not stop.is_set():
        sum(i * i for i in range(10_000))


@contextlib.contextmanager
def co_tenant(busy: bool = True) -> Iterator[mp.Process | None]:
    """While the block runs, a second process (nice 0, as the caller) keeps one core busy with
    pure Python, as other work on a school's shared machine would; yields that process
    (``busy=False``: no process, None)."""
    if not busy:
        yield None
        return
    stop = mp.Event()
    proc = mp.Process(target=_burn, args=(stop,), daemon=True)
    proc.start()
    time.sleep(0.5)
    try:
        yield proc
    finally:
        stop.set()
        proc.join(5)
        if proc.is_alive():
            proc.kill()
