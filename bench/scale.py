"""Corpus scale: how long the Train screen's training takes on pasted texts up to its cap.

Run from the repository root:  .venv/bin/python -m bench.scale [--quick]

The Train screen accepts pasted text up to ``MAX_CORPUS_CHARS`` (20,000) characters (longer
text is cut) and keeps the ``MAX_VOCAB`` (300) most frequent words, the rest becoming <unk>
(``app/lab_ui/train_controls.py``, ``core/corpus.py``). This script makes pasted-like texts of
1,000 to 20,000 characters (made-up words drawn with Zipf (1/rank) frequencies from a large
vocabulary, so the number of distinct words grows with the text as in real prose; sentences of
6 to 16 words, capitalised and ended by a full stop; seeded) and, for each, times
``core.skipgram.train`` as the screen calls it (``snapshot_every = steps // 60``, a progress
callback) at the screen's default 3,000 steps and its maximum 5,000 steps, for d_model 4,
16 and the maximum 32, learning rate 0.5 (the default). It prints V, the pairs for the
default window (2) and the maximum (5), ms per step and total seconds.

Training works from the (V, V) co-occurrence counts, so its time depends on V and d_model,
not on the window or the number of pairs; the last table checks that at the largest size.
Finally it times the Train screen itself (``AppTest``, the server's work for one run) with the
largest accepted text, cold and warm. Bounded: a few minutes on a 2-core machine.
"""
from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
for p in (ROOT, ROOT / "app"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from bench import machine  # noqa: E402
from bench.corpora import MAX_WORDS, made_up_words  # noqa: E402
from core.corpus import Corpus  # noqa: E402
from core.skipgram import SkipGramConfig, train  # noqa: E402

MAX_CORPUS_CHARS, MAX_VOCAB = 20_000, 300      # the Train screen's caps (app/lab_ui/train_controls.py)
SIZES = [1_000, 2_000, 5_000, 10_000, 20_000]
D_MODELS = [4, 16, 32]
STEPS = [3000, 5000]
WINDOWS = [2, 5]


def screen_caps() -> tuple[int, int]:
    """The caps as the app defines them (falls back to the copies above without Streamlit)."""
    try:
        from lab_ui.train_controls import MAX_CORPUS_CHARS as chars, TRAIN_VOCAB_CAP as vocab
        return chars, vocab
    except Exception:
        return MAX_CORPUS_CHARS, MAX_VOCAB


def pasted_text(n_chars: int, seed: int = 0, zipf_s: float = 1.0) -> str:
    """A text of exactly ``n_chars`` characters that reads like pasted prose to the tokenizer.

    >>> len(pasted_text(1234)), pasted_text(300) == pasted_text(300)
    (1234, True)
    """
    rng = np.random.default_rng(seed)
    words = made_up_words(MAX_WORDS, seed)                           # rank order
    prob = 1.0 / np.arange(1, MAX_WORDS + 1) ** zipf_s
    prob /= prob.sum()
    sentences, length = [], 0
    while length < n_chars:
        ids = rng.choice(MAX_WORDS, size=int(rng.integers(6, 17)), p=prob)
        s = " ".join(words[i] for i in ids)
        s = s[0].upper() + s[1:] + "."
        sentences.append(s)
        length += len(s) + 1
    return " ".join(sentences)[:n_chars]


def time_train(corpus: Corpus, d_model: int, steps: int) -> dict:
    """One training run as the screen makes it (``lab_ui.runs.train_run``)."""
    cfg = SkipGramConfig(d_model=d_model, steps=steps, snapshot_every=max(1, steps // 60))
    every = max(1, steps // 20)
    calls = []
    t0 = time.perf_counter()
    r = train(corpus, cfg, callback=lambda step, loss: step % every == 0 and calls.append(step))
    secs = time.perf_counter() - t0
    done = len(r.losses) - 1
    return {"secs": secs, "done": done, "ms": 1000 * secs / max(done, 1), "diverged": r.diverged,
            "final": r.final_loss}


class _Captured(logging.Filter):
    """Keeps (and keeps off the console) the exceptions Streamlit logs while the screen runs;
    the screen itself shows a redacted message. A filter on the logger, because Streamlit
    replaces its loggers' handlers when it loads its configuration."""

    def __init__(self):
        super().__init__()
        self.errors: list[str] = []

    def filter(self, record) -> bool:
        if record.exc_info and record.exc_info[1] is not None:
            e = record.exc_info[1]
            self.errors.append(f"{type(e).__name__}: {str(e).splitlines()[0][:160]}")
            return False
        return True


def screen_run(text: str, d_model: int, window: int, steps: int) -> list[str]:
    """Time the Train screen (AppTest) with a pasted text: cold (caches cleared), then warm."""
    import streamlit.runtime.scriptrunner.exec_code  # noqa: F401  (creates its logger)
    import streamlit.testing.v1  # noqa: F401

    captured = _Captured()
    loggers = [logging.getLogger(n) for n in list(logging.root.manager.loggerDict)
               if n.startswith("streamlit")]
    for lg in loggers:
        lg.addFilter(captured)
    try:
        return _screen_run(text, d_model, window, steps, captured)
    finally:
        for lg in loggers:
            lg.removeFilter(captured)


def _screen_run(text: str, d_model: int, window: int, steps: int, captured) -> list[str]:
    import streamlit as st
    from streamlit.testing.v1 import AppTest
    from lab_ui.runs import run_cache

    st.cache_data.clear()
    run_cache().clear()
    at = AppTest.from_file(str(ROOT / "app" / "streamlit_app.py"), default_timeout=300)
    at.run()
    at.switch_page("app_pages/train.py").run()
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.slider(key="train_d_model").set_value(d_model)
    at.slider(key="train_window").set_value(window)
    at.select_slider(key="train_steps").set_value(steps)
    t0 = time.perf_counter()
    at.text_area(key="train_text").input(text).run()
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    at.run()
    warm = time.perf_counter() - t0
    errors = list(dict.fromkeys(captured.errors)) or [str(e.value).splitlines()[0][:160]
                                                       for e in at.exception]
    metrics = {m.label: m.value for m in at.metric}
    return [f"{len(text):,} chars, d_model {d_model}, window {window}, {steps:,} steps: "
            f"cold run {cold:.2f} s, warm rerun {1000 * warm:.0f} ms; vocabulary "
            f"{metrics.get('vocabulary', '?')}, pairs {metrics.get('pairs', '?')}"
            + (f"; EXCEPTION: {'; '.join(errors)}" if errors else "")]


def table(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]

    def fmt(r):
        return "  ".join(c.rjust(w) for c, w in zip(r, widths))
    return "\n".join([fmt(header), "  ".join("-" * w for w in widths)] + [fmt(r) for r in rows])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="two sizes, 300 steps: a smoke run")
    ap.add_argument("--no-screen", action="store_true", help="skip the AppTest screen timing")
    args = ap.parse_args(argv)
    chars_cap, vocab_cap = screen_caps()
    sizes = [1_000, chars_cap] if args.quick else [s for s in SIZES if s < chars_cap] + [chars_cap]
    steps_list = [300] if args.quick else STEPS
    print("\n".join(machine.describe()))
    print(f"\nThe Train screen's caps: {chars_cap:,} characters of pasted text, {vocab_cap} words "
          f"(the most frequent {vocab_cap - 1} + <unk>)\n")

    rows, corpora = [], {}
    for n in sizes:
        text = pasted_text(n)
        t0 = time.perf_counter()
        c2 = Corpus.from_text(text, window=2, max_vocab=vocab_cap)
        build_ms = 1000 * (time.perf_counter() - t0)
        c5 = Corpus.from_text(text, window=5, max_vocab=vocab_cap)
        corpora[n] = c2
        distinct = len(set(w for w in c2.words if w != "<unk>")) + c2.n_dropped_words
        rows.append([f"{n:,}", f"{len(c2.words):,}", f"{distinct:,}", f"{c2.V:,}",
                     f"{c2.n_dropped_words:,}", f"{c2.n_pairs:,}", f"{c5.n_pairs:,}", f"{build_ms:.1f}"])
    print("Corpora (pasted-like text, seed 0)")
    print(table(["chars", "tokens", "distinct words", "V (capped)", "words -> <unk>",
                 "pairs, window 2", "pairs, window 5", "build ms"], rows))

    results = {}
    for n in sizes:
        for d in D_MODELS:
            for steps in steps_list:
                time_train(corpora[n], d, 5)                      # warm-up: first-touch pages
                results[n, d, steps] = time_train(corpora[n], d, steps)
        print(f"  timed {n:,} chars", flush=True)

    header = ["chars", "V"]
    for d in D_MODELS:
        header += [f"d={d} ms/step"] + [f"d={d} {s:,} steps s" for s in steps_list]
    rows = []
    for n in sizes:
        row = [f"{n:,}", f"{corpora[n].V}"]
        for d in D_MODELS:
            ms = statistics.median(results[n, d, s]["ms"] for s in steps_list)
            row.append(f"{ms:.3f}")
            for s in steps_list:
                r = results[n, d, s]
                row.append(f"{r['secs']:.2f}" + ("" if r["done"] == s else f" (stopped at {r['done']})"))
        rows.append(row)
    print(f"\nTraining time (core.skipgram.train as the screen calls it, lr 0.5, window 2); "
          f"ms/step: median over the {' and '.join(f'{s:,}' for s in steps_list)}-step runs")
    print(table(header, rows))
    diverged = [k for k, r in results.items() if r["diverged"]]
    if diverged:
        print("diverged (stopped early): " + ", ".join(f"{n} chars d={d} {s} steps" for n, d, s in diverged))

    big = sizes[-1]
    text = pasted_text(big)
    steps = steps_list[-1]
    rows = []
    for w in WINDOWS:
        c = Corpus.from_text(text, window=w, max_vocab=vocab_cap)
        r = time_train(c, 32, steps)
        rows.append([str(w), f"{c.n_pairs:,}", f"{c.V}", f"{r['ms']:.3f}", f"{r['secs']:.2f}"])
    print(f"\nWindow check at {big:,} chars, d_model 32, {steps:,} steps: the time does not "
          "depend on the pairs")
    print(table(["window", "pairs", "V", "ms/step", "seconds"], rows))

    worst = max(r["secs"] for r in results.values())
    print(f"\nLargest accepted corpus: {chars_cap:,} characters (longer text is cut there), "
          f"{len(corpora[big].words):,} tokens, V = {corpora[big].V}. Training it takes "
          f"{results[big, 4, steps_list[0]]['secs']:.2f} s at the defaults (d_model 4, "
          f"{steps_list[0]:,} steps) and {results[big, 32, steps_list[-1]]['secs']:.2f} s at the "
          f"screen's maxima (d_model 32, {steps_list[-1]:,} steps); slowest run here {worst:.2f} s.")

    if not args.no_screen:
        print("\nThe Train screen itself (AppTest: the server's work for one run, without the browser)")
        for d, w, s in ([(4, 2, 300)] if args.quick else [(4, 2, 3000), (32, 5, 3000), (32, 5, 5000)]):
            try:
                print("  " + screen_run(text, d, w, s)[0], flush=True)
            except Exception as err:  # report, do not hide the rest
                print(f"  d_model {d}, window {w}, {s} steps: FAILED {type(err).__name__}: {err}")
    print(f"\nload at the end: {machine.load()}")


if __name__ == "__main__":
    main()
