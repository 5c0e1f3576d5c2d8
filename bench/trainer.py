"""Benchmark: the core's skip-gram trainer against what a user would write instead.

Run from the repository root::

    .venv/bin/python -m bench.trainer            # the full run, a few minutes
    .venv/bin/python -m bench.trainer --quick    # a smoke run, well under a minute

For each corpus of ``bench.corpora.SPECS`` it trains with the core
(``core.skipgram.train``), the literal per-pair Python loop, the vectorised per-pair
version and PyTorch (when installed), all from the same initialisation with the same
settings; checks that each ends with the same ``E`` and ``W`` as the core after the same
number of steps; and prints one table: the median time per step and the core's speed-up.
PyTorch runs last, in its own phase, so its thread pool cannot slow the NumPy timings.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

from bench import machine
from bench.corpora import SPECS, describe, make_corpus
from bench.trainers import (TORCH_INSTALL, available_memory, memory_bytes, torch_or_none,
                            train_loop, train_pairs, train_torch)
from core.skipgram import SkipGramConfig, train

TRAINERS = {
    "core": lambda corpus, cfg: train(corpus, cfg),
    "loop": train_loop,
    "pairs": train_pairs,
    "torch": train_torch,
}
LABELS = {
    "core": "core (counts, V x V)",
    "loop": "per-pair Python loop",
    "pairs": "per-pair vectorised",
    "torch": "PyTorch CPU",
}
# Steps timed per run: {corpus name: {trainer: (full, quick)}}. The core's train() makes
# one more loss evaluation than updates, counted against it (a conservative time per step).
STEPS = {
    "reference": {"core": (3000, 300), "loop": (3000, 100), "pairs": (3000, 300),
                  "torch": (3000, 300)},
    "5k tokens": {"core": (50, 5), "loop": (2, 1), "pairs": (5, 1), "torch": (5, 1)},
    "20k tokens": {"core": (30, 5), "loop": (2, 1), "pairs": (2, 1), "torch": (3, 1)},
}
ATOL = 1e-8
CORE_REPEATS = 3
"""The core is cheap to run: time it this many times more often, for a steadier median."""


def config_for(name: str, steps: int, d_model: int) -> SkipGramConfig:
    """The reference run's settings, with ``d_model`` for the synthetic corpora."""
    return SkipGramConfig(steps=steps, d_model=4 if name == "reference" else d_model)


def run_one(corpus, cfg, trainer: str, repeats: int, core_cache: dict) -> dict:
    """Train ``repeats`` times, time it, and compare the result to the core's."""
    fn = TRAINERS[trainer]
    budget = available_memory() // 2
    need = memory_bytes(trainer, corpus.V, cfg.d_model, corpus.n_pairs)
    row = {"trainer": trainer, "steps": cfg.steps, "mem": need}
    if need > budget:
        row["skip"] = f"does not fit: needs ~{need / 2**30:.1f} GiB of {budget / 2**30:.1f}"
        return row
    fn(corpus, SkipGramConfig(steps=1, d_model=cfg.d_model))  # warm-up: lazy init, first faults
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(corpus, cfg)
        times.append(time.perf_counter() - t0)
    E, W = (out.E, out.W) if trainer == "core" else out[:2]
    if cfg.steps not in core_cache:
        core_cache[cfg.steps] = train(corpus, cfg)
    ref = core_cache[cfg.steps]
    row["diff"] = max(np.abs(E - ref.E).max(), np.abs(W - ref.W).max())
    row["same"] = bool(np.allclose(E, ref.E, rtol=0, atol=ATOL)
                       and np.allclose(W, ref.W, rtol=0, atol=ATOL))
    row["ms"] = statistics.median(times) / cfg.steps * 1e3
    row["ms_min"] = min(times) / cfg.steps * 1e3
    return row


def fmt_bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024


def print_table(title: str, header: list[str], rows: list[list[str]]) -> None:
    """An aligned text table; the first column left-aligned, the others right-aligned."""
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]

    def line(r):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    print(f"\n{title}\n{line(header)}\n{'  '.join('-' * w for w in widths)}")
    for r in rows:
        print(line(r))


def timing_rows(results: dict) -> list[list[str]]:
    rows = []
    for name, runs in results.items():
        core_ms = runs["core"]["ms"]
        for t, r in runs.items():
            if "skip" in r:
                rows.append([f"{name:<11} {LABELS[t]}", str(r["steps"]), "-", "-", "-", "-", "-",
                             r["skip"], fmt_bytes(r["mem"])])
                continue
            ratio = f"{r['ms'] / core_ms:,.1f}"
            ratio_best = f"{r['ms_min'] / runs['core']['ms_min']:,.1f}"
            rows.append([f"{name:<11} {LABELS[t]}", str(r["steps"]), f"{r['ms']:,.4f}",
                         f"{r['ms_min']:,.4f}", ratio, ratio_best, f"{r['diff']:.1e}",
                         "yes" if r["same"] else "NO", fmt_bytes(r["mem"])])
    return rows


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="few steps, one repeat: a smoke run")
    ap.add_argument("--repeats", type=int, default=None, help="timed runs per trainer (5)")
    ap.add_argument("--d-model", type=int, default=16,
                    help="vector width for the synthetic corpora (the reference run uses 4)")
    ap.add_argument("--no-torch", action="store_true", help="skip PyTorch even if installed")
    args = ap.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    which = 1 if args.quick else 0

    print("Machine\n" + "\n".join(machine.describe()))
    corpora = {s.name: make_corpus(s) for s in SPECS}
    print("\nCorpora (synthetic ones: Zipf-distributed made-up words, seed 0)")
    for name, c in corpora.items():
        print(f"  {name:<11} {describe(c)}  d_model {config_for(name, 1, args.d_model).d_model}")

    results = {name: {} for name in corpora}
    caches = {name: {} for name in corpora}
    for name, corpus in corpora.items():            # NumPy trainers first
        for t in ("core", "loop", "pairs"):
            cfg = config_for(name, STEPS[name][t][which], args.d_model)
            reps = CORE_REPEATS * repeats if t == "core" else repeats
            results[name][t] = run_one(corpus, cfg, t, reps, caches[name])
            print(f"  timed {name:<11} {t:<5} ({cfg.steps} steps x {reps})", flush=True)

    torch = None if args.no_torch else torch_or_none()
    if torch is None:
        print(f"\nPyTorch: not run. To include it: {TORCH_INSTALL}\n"
              "(a CPU build; a plain `pip install torch` may pull a multi-GB CUDA build)")
    else:
        print(f"\nPyTorch {torch.__version__}, {os.cpu_count()} threads, float64", flush=True)
        for name, corpus in corpora.items():
            cfg = config_for(name, STEPS[name]["torch"][which], args.d_model)
            results[name]["torch"] = run_one(corpus, cfg, "torch", repeats, caches[name])
            print(f"  timed {name:<11} torch ({cfg.steps} steps x {repeats})", flush=True)

    print_table(
        f"Time per training step: median and best of {repeats} runs ({CORE_REPEATS * repeats} "
        f"for the core); how many times faster the "
        f"core is (median / median, best / best); the check against the core: max |diff| of E "
        f"and W after the same steps, same = allclose with atol {ATOL:g}",
        ["corpus / trainer", "steps", "ms/step", "best", "core x faster", "(best)", "max |diff|",
         "same", "est. memory"],
        timing_rows(results))
    print(f"\nload at the end: {machine.load()}")
    failed = [f"{n}/{t}" for n, runs in results.items() for t, r in runs.items()
              if "skip" not in r and not r["same"]]
    if failed:
        raise SystemExit(f"\nMISMATCH with the core: {', '.join(failed)}")


if __name__ == "__main__":
    main()
