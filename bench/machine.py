"""The machine a benchmark ran on, and its measured matrix-multiply (GEMM) throughput."""
from __future__ import annotations

import os
import platform
import time

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


def best_seconds(fn, repeats: int) -> float:
    """Shortest wall time of ``fn()`` over ``repeats`` calls, after one warm-up call.

    The best time, not the median: this measures a limit, and other work on the
    machine only ever makes a run slower.
    """
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def gemm_rates(V: int, d: int, repeats: int = 20, seed: int = 0) -> list[tuple[str, float, float]]:
    """Best time of the three float64 matrix products of one skip-gram step at size (V, d).

    The products write into preallocated arrays, so this is the best the BLAS does on
    these shapes: the physical limit for the core's matmuls.

    Returns
    -------
    list of (label, flops, seconds)
        One entry per product; each costs ``2 * V * d * V`` flops.
    """
    rng = np.random.default_rng(seed)
    E = rng.normal(size=(V, d))          # (V, d)
    W = rng.normal(size=(d, V))          # (d, V)
    dZ = rng.normal(size=(V, V))         # (V, V)
    Z, dW, dE = np.empty((V, V)), np.empty((d, V)), np.empty((V, d))
    flops = 2.0 * V * d * V
    products = [
        (f"Z  = E @ W     ({V}x{d} @ {d}x{V})", lambda: np.matmul(E, W, out=Z)),
        (f"dW = E.T @ dZ  ({d}x{V} @ {V}x{V})", lambda: np.matmul(E.T, dZ, out=dW)),
        (f"dE = dZ @ W.T  ({V}x{V} @ {V}x{d})", lambda: np.matmul(dZ, W.T, out=dE)),
    ]
    return [(label, flops, best_seconds(fn, repeats)) for label, fn in products]


def square_gemm_rate(n: int = 1024, repeats: int = 5) -> float:
    """GFLOP/s of an (n, n) @ (n, n) float64 product: the machine's compute-bound rate."""
    rng = np.random.default_rng(0)
    A, B, C = rng.normal(size=(n, n)), rng.normal(size=(n, n)), np.empty((n, n))
    return 2.0 * n**3 / best_seconds(lambda: np.matmul(A, B, out=C), repeats) / 1e9
