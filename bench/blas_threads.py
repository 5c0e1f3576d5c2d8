"""One training step, with BLAS's own threads and with one thread, idle and beside a busy
co-tenant (a second process that keeps one core busy, as another student's run would).

Why: every Streamlit session runs in a thread of its own, so the app sets BLAS to one
thread per product (the router, with threadpoolctl). This script shows what that buys.

    .venv/bin/python -m bench.blas_threads            # about a minute
Prints one table: ms per step (median of rounds) for each case.
"""
from __future__ import annotations

import argparse
import statistics
import time

from threadpoolctl import threadpool_info, threadpool_limits

from bench.corpora import synthetic_text
from bench.machine import co_tenant, describe
from core.corpus import Corpus
from core.skipgram import SkipGramConfig, init_params, loss_and_grads


def ms_per_step(corpus: Corpus, d_model: int, steps: int, rounds: int) -> float:
    E, W = init_params(corpus.V, SkipGramConfig(d_model=d_model))
    C = corpus.cooccurrence.astype(float)
    n = C.sum(axis=1)
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(steps):
            loss_and_grads(E, W, C, n)
        times.append((time.perf_counter() - t) / steps * 1000)
    return statistics.median(times)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args(argv)
    print("\n".join(describe()))
    default_threads = max(p["num_threads"] for p in threadpool_info()) if threadpool_info() else 1
    corpora = [(v, Corpus.from_text(synthetic_text(n_tokens, v, seed=1), window=2))
               for v, n_tokens in ((300, 6_000), (1000, 20_000))]
    rows = []
    for busy in (False, True):
        with co_tenant(busy):
            for V, corpus in corpora:
                for threads in (default_threads, 1):
                    with threadpool_limits(limits=threads):
                        rows.append((V, "busy" if busy else "idle", threads,
                                     ms_per_step(corpus, 16, args.steps, args.rounds)))
    print(f"\n{'V':>5}  {'co-tenant':<9}  {'BLAS threads':>12}  {'ms/step':>8}  {'vs 1 thread':>11}")
    for V, busy, threads, ms in rows:
        one = next(r[3] for r in rows if r[0] == V and r[1] == busy and r[2] == 1)
        print(f"{V:>5}  {busy:<9}  {threads:>12}  {ms:>8.2f}  {ms / one:>10.1f}x")


if __name__ == "__main__":
    main()
