"""core.budget's cost model against the clock: estimated and measured seconds per run.

    python -m bench.budget

Runs each kind of work a screen can start (full-softmax steps, negative-sampling epochs,
t-SNE iterations) at a few sizes, on one BLAS thread as the app runs, and prints the
estimate of ``core.budget`` beside the measured time. ``core.budget.RATE`` was set from
this table; a ratio (measured / estimated) between about 0.3 and 2 is what the budget needs
(it only has to put the refusal in the right place). Record the machine load with it.
"""
from __future__ import annotations

import time

import numpy as np
from threadpoolctl import threadpool_limits

from bench.machine import describe
from core import budget
from core.corpus import Corpus
from core.negsampling import NegSamplingConfig, train_negsampling
from core.skipgram import SkipGramConfig, train
from core.tsne import tsne


def corpus(n_words: int, window: int) -> Corpus:
    words = [f"w{i}" for i in range(n_words)]
    rng = np.random.default_rng(0)
    return Corpus.from_text(" ".join(rng.permutation(words).tolist() * 2), window=window)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def rows():
    for V, d, steps in ((12, 4, 3000), (64, 12, 2000), (150, 32, 500), (300, 4, 500), (300, 32, 500)):
        c = corpus(V, 2)
        est = budget.seconds(budget.skipgram_work(c.V, d, steps))
        got = timed(lambda c=c, d=d, steps=steps: train(c, SkipGramConfig(d_model=d, steps=steps)))
        yield f"softmax V={c.V} d={d} steps={steps}", est, got
    for V, d, K, epochs in ((60, 4, 5, 20), (150, 32, 20, 5), (300, 32, 20, 3)):
        c = corpus(V, 5)
        est = budget.seconds(budget.negsampling_work(c.V, c.n_pairs, d, K, epochs))
        got = timed(lambda c=c, d=d, K=K, epochs=epochs: train_negsampling(c, NegSamplingConfig(
            d_model=d, negatives=K, epochs=epochs, batch_size=64)))
        yield f"neg. sampling V={c.V} pairs={c.n_pairs} d={d} K={K} epochs={epochs}", est, got
    for n in (63, 300, 1000):
        X = np.random.default_rng(0).normal(size=(n, 8))
        est = budget.seconds(budget.tsne_work(n, 1000))
        got = timed(lambda X=X: tsne(X, n_iter=1000))
        yield f"t-SNE n={n} iterations=1000", est, got


def main() -> None:
    print("\n".join(describe()))
    print(f"budget: {budget.BUDGET_SECONDS:g} s per run at RATE = {budget.RATE:.2g} units/s\n")
    print(f"{'run':58} {'estimated s':>12} {'measured s':>11} {'ratio':>6}")
    with threadpool_limits(1, "blas"):
        for name, est, got in rows():
            print(f"{name:58} {est:12.3f} {got:11.3f} {got / est:6.2f}")


if __name__ == "__main__":
    main()
