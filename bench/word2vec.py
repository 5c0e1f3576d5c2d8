"""core.word2vec against gensim's Word2Vec, side by side in one run, on gensim's Lee corpus.

    .venv/bin/python -m bench.word2vec            # the full table (10 to 20 minutes): gensim, core, core expected window
    .venv/bin/python -m bench.word2vec --quick    # a smoke run: d 50, window 5, 2 epochs
    .venv/bin/python -m bench.word2vec --block-words 24   # plus a row for core with blocks of 24 words
    .venv/bin/python -m bench.word2vec --context-negatives   # plus a row with word2vec's own negatives
    .venv/bin/python -m bench.word2vec --variant block_passes=2w+1   # plus a row with any settings

gensim 4.3.3 needs numpy < 2, so it lives in its own virtual environment, ``.venv-gensim/``
at the repository root (git-ignored), which this script creates on first use
(``pip install`` of the pins in ``GENSIM_PINS``). The Lee corpus (300 news documents,
about 58,000 words) and wordsim353.tsv come from that install's test data; nothing of
gensim's is copied into the repository.

Both sides train skip-gram with negative sampling, one thread (BLAS held to one thread on
both sides), the same settings (negative 5, min_count 5, sample 1e-3, 20 epochs), and are
timed from token lists to vectors (vocabulary included). gensim runs seeds 1..N, core seeds
101..100+N (``--seeds N``): never the same seed on both sides, because gensim 4 draws its
starting vectors from ``default_rng(seed)`` exactly as core does, and the most frequent
words (which both sides put in the same order) would start from the same rows; such a
pair agrees more than two independent runs do (measured: 0.563 against 0.549 at
d 50 window 2), which flattered the old three-seed figures. Columns:

* words/s: the corpus's words times the epochs, divided by the seconds; seconds are the best
  (shortest) of all the runs of that side (``--repeats`` times each seed, the two sides
  alternating), the usual way to read timings on a machine shared with other work.
  words/CPU-s: the same with the process's own CPU time, which other work disturbs less.
* agreement: mean overlap of the top-10 cosine neighbours (among the whole vocabulary) of
  the 500 most frequent words, over pairs of runs. gensim's row: its N seeds against each
  other (N(N-1)/2 pairs), the level two equally good runs reach; core's row: each core seed
  against each gensim seed (N x N pairs). sd and range: over those pairs. own: core's
  seeds against each other (gensim's row: the same as its agreement).
* gap: core's agreement minus gensim's, with a 90% interval from resampling the seeds of
  both sides (:func:`gap_interval`): the measurement's own noise.
* WordSim-353: Spearman correlation between human similarity ratings and cosines, on the
  pairs whose two words are both in the vocabulary (mean over the seeds).

Every run has two core rows: ``core`` (the default ``Word2VecConfig``, word2vec's randomly
shrunk window) and ``core, expected window`` (``Word2VecConfig(expected_window=True)``:
each context word weighted by the chance that a shrunk window reaches it, the same update
on average without the draw's noise); ``--no-expected-window`` leaves the second out.

``--block-words N`` (repeatable) adds a core row trained with ``Word2VecConfig(block_words=N)``
(at most N centre words updated from the same rows; core's default is larger, see
core.word2vec.block_size), on the same seeds as the default core row and timed in the same
alternation; below the table, each such row's agreement minus the default row's, seed by
seed (:func:`paired_difference`): both rows draw the same random numbers for a seed, so
this difference is measured far more finely than either gap.

``--context-negatives`` adds a core row trained with ``Word2VecConfig(negative_sets=2 * window)``:
K negatives of its own for every context word, as word2vec.c and gensim draw them, instead
of K per centre shared by its window. ``--variant FIELD=VALUE[,...]`` (repeatable) adds a
core row with any ``Word2VecConfig`` settings (``2w`` standing for twice the window), e.g.
``--variant block_passes=2w+1``. Every extra row gets a paired line: a seed draws the same
positions, windows and first set of negatives in every core row (core.word2vec.generators).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads its BLAS
import numpy as np  # noqa: E402

from bench.machine import describe, load  # noqa: E402
from core.similarity import normalize_rows  # noqa: E402
from core.word2vec import Word2VecConfig, train_word2vec  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GENSIM_VENV = ROOT / ".venv-gensim"
GENSIM_PINS = ["gensim==4.3.3", "numpy==1.26.4", "scipy==1.13.1"]
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
SETTINGS: dict[str, Any] = dict(negative=5, min_count=5, sample=1e-3)
GENSIM_SEEDS, CORE_SEEDS = 1, 101
"""First seed of each side: disjoint ranges (see the module docstring)."""


def gensim_python() -> Path:
    """The gensim venv's Python, creating the venv and installing the pins if needed."""
    python = GENSIM_VENV / "bin" / "python"
    if not python.exists():
        print(f"creating {GENSIM_VENV} with {' '.join(GENSIM_PINS)} (first run only) ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(GENSIM_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *GENSIM_PINS], check=True)
    return python


def run_gensim(python: Path, job: dict, tmp: Path) -> dict:
    path = tmp / "job.json"
    path.write_text(json.dumps(job))
    worker = ROOT / "bench" / "gensim_worker.py"
    subprocess.run([str(python), str(worker), str(path)], check=True, env={**os.environ, **ONE_THREAD})
    if job["what"] == "data":
        return json.loads((tmp / "lee.json").read_text())
    out = json.loads(Path(job["out"] + ".json").read_text())
    return {"vocab": out["vocab"], "E": np.load(job["out"] + ".npy"), "seconds": out["seconds"],
            "cpu": out["cpu"]}


def top_neighbours(E: np.ndarray, vocab: list[str], words: list[str], k: int = 10) -> dict:
    """Each word's k nearest words by cosine among the whole vocabulary (itself excluded)."""
    index = {w: i for i, w in enumerate(vocab)}
    U = normalize_rows(E.astype(np.float64))                  # (V, d)
    ids = np.array([index[w] for w in words])
    S = U[ids] @ U.T                                          # (n, V)
    S[np.arange(len(ids)), ids] = -np.inf
    top = np.argsort(-S, axis=1, kind="stable")[:, :k]        # (n, k)
    return {w: {vocab[j] for j in row} for w, row in zip(words, top)}


def agreement(a: dict, b: dict, k: int = 10) -> float:
    """Mean share of common neighbours, |A & B| / k, over the words of ``a``."""
    return float(np.mean([len(a[w] & b[w]) / k for w in a]))


def agreement_matrix(rows: list[dict], cols: list[dict]) -> np.ndarray:
    """``M[i, j] = agreement(rows[i], cols[j])``: every run of one side against every run of the other."""
    return np.array([[agreement(a, b) for b in cols] for a in rows])


def pair_values(M: np.ndarray, same_side: bool) -> np.ndarray:
    """The pairs' agreements: above the diagonal when ``M`` is a side against itself, else all."""
    return M[np.triu_indices(len(M), k=1)] if same_side else M.ravel()


def gap_interval(gg: np.ndarray, cg: np.ndarray, draws: int = 2000, level: float = 0.9,
                 seed: int = 0) -> tuple[float, float, float]:
    """core's mean agreement with gensim minus gensim's with itself, and a bootstrap interval.

    ``gg`` (N, N): gensim seeds against each other; ``cg`` (N, M): gensim seeds (rows)
    against core seeds (columns). Each draw resamples the N gensim seeds and the M core
    seeds with replacement (a pair's two runs share a seed's luck, so the seeds, not the
    pairs, are the independent units) and recomputes both means; gensim pairs that drew
    the same seed twice are left out (a run against itself is 1).
    """
    rng = np.random.default_rng(seed)
    N, M = cg.shape
    gap = pair_values(cg, False).mean() - pair_values(gg, True).mean()
    out = []
    for _ in range(draws):
        a: np.ndarray = rng.integers(0, N, size=(N,))           # (N,) gensim seeds drawn
        b: np.ndarray = rng.integers(0, M, size=(M,))           # (M,) core seeds drawn
        sub = gg[np.ix_(a, a)][np.triu_indices(N, k=1)]
        distinct = a[np.triu_indices(N, k=1)[0]] != a[np.triu_indices(N, k=1)[1]]
        if not distinct.any():
            continue
        out.append(cg[np.ix_(a, b)].mean() - sub[distinct].mean())
    lo, hi = np.quantile(out, [(1 - level) / 2, (1 + level) / 2])
    return float(gap), float(lo), float(hi)


def core_variants(block_words: list[int] | None, context_negatives: bool = False,
                  variants: list[str] | None = None, expected_window: bool = True) -> list[tuple[str, str]]:
    """The core rows of the table: ``(label, settings)``, the default first (settings "").

    ``settings`` is what :func:`parse_variant` reads: ``Word2VecConfig`` fields, ``2w``
    standing for twice the window. ``expected_window`` (on unless ``--no-expected-window``):
    the row of ``Word2VecConfig(expected_window=True)``, second.

    >>> for row in core_variants([24], context_negatives=True, variants=["block_passes=2w+1"]):
    ...     print(row)
    ('core', '')
    ('core, expected window', 'expected_window=true')
    ('core, blocks of 24 words', 'block_words=24')
    ('core, negatives per context word', 'negative_sets=2w')
    ('core, block_passes=2w+1', 'block_passes=2w+1')
    """
    extra = [("core, expected window", "expected_window=true")] if expected_window else []
    extra += [(f"core, blocks of {n} words", f"block_words={n}") for n in dict.fromkeys(block_words or [])]
    if context_negatives:
        extra.append(("core, negatives per context word", "negative_sets=2w"))
    extra += [(f"core, {text}", text) for text in dict.fromkeys(variants or [])]
    return [("core", ""), *extra]


def parse_variant(text: str, window: int) -> dict[str, Any]:
    """``"block_passes=2w+1,negative_sets=2"`` at window 5 -> ``{"block_passes": 11, "negative_sets": 2}``.

    Each item is a ``Word2VecConfig`` field and a number, or ``true`` / ``false`` for a
    flag; ``2w`` and ``2w+N`` stand for twice the window (plus N). Raises ValueError,
    with the reason, on anything else.

    >>> parse_variant("block_passes=2w+1,negative_sets=2w,sample=0.001,expected_window=true", 2)
    {'block_passes': 5, 'negative_sets': 4, 'sample': 0.001, 'expected_window': True}
    >>> parse_variant("", 5)
    {}
    """
    out: dict[str, Any] = {}   # Word2VecConfig field -> int, float or bool
    for item in filter(None, text.split(",")):
        key, sep, value = (part.strip() for part in item.partition("="))
        try:
            if not sep or not key.isidentifier():
                raise ValueError
            if value.lower() in ("true", "false"):
                out[key] = value.lower() == "true"
            elif value.startswith("2w"):
                out[key] = 2 * window + int(value[2:] or 0)
            else:
                out[key] = float(value) if any(c in value for c in ".e") else int(value)
        except ValueError:
            raise ValueError(f"{item!r} is not field=number or field=true/false (e.g. block_passes=2w+1)") from None
    return out


def parse_settings(text: str) -> list[tuple[int, int]]:
    """``"50:5,100:2"`` -> ``[(50, 5), (100, 2)]``: the (d, window) settings to run.

    Raises ValueError, with the reason, on anything else (each number at least 1).
    """
    grid = []
    for item in text.strip().split(","):
        parts = item.strip().split(":")
        if len(parts) != 2 or not all(part.strip().isdigit() for part in parts):
            raise ValueError(f"{item!r} is not d:window (two whole numbers, e.g. 50:5)")
        d, window = int(parts[0]), int(parts[1])
        if d < 1 or window < 1:
            raise ValueError(f"{item!r}: d and window must be at least 1")
        grid.append((d, window))
    return grid


def paired_difference(cg: np.ndarray, base: np.ndarray) -> tuple[float, float]:
    """Mean and standard error of one core row's agreement minus another's, seed by seed.

    ``cg`` and ``base`` (N, M): gensim seeds (rows) against the M core seeds (columns)
    that both core rows share; each core seed's mean over gensim's seeds is one paired
    difference (M of them), so the standard error is their sd / sqrt(M).
    """
    diff = cg.mean(axis=0) - base.mean(axis=0)                # (M,)
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(len(diff)))


def spearman(x, y) -> float:
    """Spearman's rank correlation (ties get their mean rank)."""
    def ranks(v):
        v = np.asarray(v, dtype=np.float64)
        order = np.argsort(v, kind="stable")
        r = np.empty(len(v))
        r[order] = np.arange(len(v))
        for value in np.unique(v):                            # average the ranks of ties
            same = v == value
            r[same] = r[same].mean()
        return r
    return float(np.corrcoef(ranks(x), ranks(y))[0, 1])


def read_wordsim(path: str) -> list[tuple[str, str, float]]:
    pairs = []
    for line in Path(path).read_text(encoding="utf8").splitlines():
        parts = line.split("\t")
        if line.startswith("#") or len(parts) < 3:
            continue
        try:
            pairs.append((parts[0].lower(), parts[1].lower(), float(parts[2])))
        except ValueError:
            continue
    return pairs


def wordsim(E: np.ndarray, vocab: list[str], pairs) -> tuple[float, int]:
    """Spearman of human ratings against cosines on the covered pairs, and how many."""
    index = {w: i for i, w in enumerate(vocab)}
    U = normalize_rows(E.astype(np.float64))
    covered = [(a, b, s) for a, b, s in pairs if a in index and b in index]
    cos = [float(U[index[a]] @ U[index[b]]) for a, b, _ in covered]
    return spearman([s for _, _, s in covered], cos), len(covered)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="d 50, window 5, 2 epochs only")
    parser.add_argument("--repeats", type=int, default=1, help="timed runs per seed and side")
    parser.add_argument("--seeds", type=int, default=None,
                        help="seeds per side (default 8; 2 with --quick)")
    parser.add_argument("--block-words", type=int, action="append", metavar="N",
                        help="also a core row with Word2VecConfig(block_words=N) (repeatable)")
    parser.add_argument("--context-negatives", action="store_true",
                        help="also a core row with Word2VecConfig(negative_sets=2 * window): "
                             "K negatives of its own for every context word, as gensim")
    parser.add_argument("--variant", action="append", metavar="FIELD=VALUE[,FIELD=VALUE]",
                        help="also a core row with these Word2VecConfig settings (2w: twice the "
                             "window), e.g. block_passes=2w+1 (repeatable)")
    parser.add_argument("--no-expected-window", action="store_true",
                        help="leave out the row of Word2VecConfig(expected_window=True)")
    parser.add_argument("--settings", default=None, metavar="D:W,...",
                        help="only these (d, window) settings, e.g. 50:5,100:2")
    args = parser.parse_args(argv)
    args.seeds = args.seeds or (2 if args.quick else 8)
    if args.seeds < 2:
        parser.error("--seeds must be at least 2 (gensim's row is its seeds against each other)")
    if any(n < 1 for n in args.block_words or []):
        parser.error("--block-words must be at least 1")
    variants = core_variants(args.block_words, args.context_negatives, args.variant,
                             expected_window=not args.no_expected_window)
    try:
        [parse_variant(text, 1) for _, text in variants]
    except ValueError as error:
        parser.error(f"--variant: {error}")
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    grid = [(50, 5)] if args.quick else [(50, 2), (50, 5), (100, 2), (100, 5)]
    if args.settings:
        try:
            grid = parse_settings(args.settings)
        except ValueError as error:
            parser.error(f"--settings: {error}")
    epochs = 2 if args.quick else 20
    python = gensim_python()
    print("\n".join(describe()), flush=True)
    rows, paired = [], []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = run_gensim(python, {"what": "data", "out": str(tmp)}, tmp)
        sentences, pairs_ws = data["sentences"], read_wordsim(data["wordsim"])
        n_words = sum(len(s) for s in sentences)
        print(f"corpus   Lee background: {len(sentences)} documents, {n_words:,} words; "
              f"WordSim-353: {len(pairs_ws)} pairs", flush=True)
        names = ["gensim"] + [name for name, _ in variants]
        for d, window in grid:
            runs: dict[str, list] = {name: [] for name in names}
            times: dict[str, list] = {name: [] for name in names}
            for rep in range(args.repeats):
                for i in range(args.seeds):                   # alternate the sides
                    g_seed, c_seed = GENSIM_SEEDS + i, CORE_SEEDS + i
                    job = dict(what="train", sentences=str(tmp / "lee.json"), out=str(tmp / f"g{g_seed}"),
                               d_model=d, window=window, epochs=epochs, seed=g_seed, **SETTINGS)
                    g = run_gensim(python, job, tmp)
                    times["gensim"].append((g["seconds"], g["cpu"]))
                    done = [f"gensim seed {g_seed} {g['seconds']:.2f} s (CPU {g['cpu']:.2f})"]
                    if rep == 0:
                        runs["gensim"].append(g)
                    for name, text in variants:
                        extra = parse_variant(text, window)
                        cpu = time.process_time()
                        r = train_word2vec(sentences, Word2VecConfig(d_model=d, window=window, epochs=epochs,
                                                                     seed=c_seed, **SETTINGS, **extra))
                        cpu = time.process_time() - cpu
                        times[name].append((r.seconds, cpu))
                        if rep == 0:
                            runs[name].append({"vocab": r.vocab, "E": r.E})
                        done.append(f"{name} seed {c_seed} {r.seconds:.2f} s (CPU {cpu:.2f})")
                    print(f"  d {d:3d}  window {window}  run {rep + 1}: {', '.join(done)}  load {load()}",
                          flush=True)
            g1 = runs["gensim"][0]
            words = [w for w in g1["vocab"] if w in set(runs["core"][0]["vocab"])][:500]
            ref = [top_neighbours(g["E"], g["vocab"], words) for g in runs["gensim"]]
            gg = agreement_matrix(ref, ref)
            cgs = {}
            for name in names:
                if name == "gensim":
                    values, own, gap = pair_values(gg, True), pair_values(gg, True).mean(), None
                else:
                    mine = [top_neighbours(c["E"], c["vocab"], words) for c in runs[name]]
                    cgs[name] = agreement_matrix(ref, mine)
                    values, gap = pair_values(cgs[name], False), gap_interval(gg, cgs[name])
                    own = pair_values(agreement_matrix(mine, mine), True).mean()
                sims = [wordsim(o["E"], o["vocab"], pairs_ws) for o in runs[name]]
                wall, cpu = min(t for t, _ in times[name]), min(c for _, c in times[name])
                rows.append((name, d, window, n_words * epochs / wall, wall, n_words * epochs / cpu,
                             values, own, gap, float(np.mean([s for s, _ in sims])), sims[0][1]))
            for name, _ in variants[1:]:     # the same seeds draw the same numbers (core.word2vec.generators)
                paired.append((name, d, window, *paired_difference(cgs[name], cgs["core"])))
    g_seeds = f"{GENSIM_SEEDS}..{GENSIM_SEEDS + args.seeds - 1}"
    c_seeds = f"{CORE_SEEDS}..{CORE_SEEDS + args.seeds - 1}"
    print(f"\nword2vec skip-gram, negative 5, min_count 5, sample 1e-3, {epochs} epochs, one thread; "
          f"gensim seeds {g_seeds}, core seeds {c_seeds} (every core row), {args.repeats} timed run(s) each")
    print("words/s: best wall-clock run; words/CPU-s: best run by the process's own CPU time (steadier "
          "when other work shares the machine)")
    print("agreement: top-10 neighbours of the 500 most frequent words, mean over pairs of runs (gensim: its "
          "seeds against each other; core: core seeds against gensim seeds); sd and range over those pairs; "
          "own: a side's seeds against each other; gap: core minus gensim, 90% interval from resampling seeds\n")
    width = max(len(name) for name in ["trainer", *names])
    header = f"{'trainer':{width}} {'d':>4} {'window':>6} {'words/s':>9} {'seconds':>8} {'words/CPU-s':>11} " \
             f"{'agreement':>9} {'sd':>6} {'range':>12} {'own':>6} {'gap (90% interval)':>26} " \
             f"{'WordSim-353':>11} {'pairs':>5} {'vs gensim (wall, CPU)':>22}"
    print(header + "\n" + "-" * len(header))
    for name, d, window, wps, seconds, cps, agree, own_, gap, ws, n_pairs in rows:
        base = next(r for r in rows if r[0] == "gensim" and r[1:3] == (d, window))
        gap_text = "" if gap is None else f"{gap[0]:+.4f} ({gap[1]:+.4f}, {gap[2]:+.4f})"
        print(f"{name:{width}} {d:4d} {window:6d} {wps:9,.0f} {seconds:8.2f} {cps:11,.0f} {agree.mean():9.4f} "
              f"{agree.std():6.4f} {agree.min():5.3f}-{agree.max():5.3f} {own_:6.4f} {gap_text:>26} "
              f"{ws:11.3f} {n_pairs:5d} {wps / base[3]:13.2f}x {cps / base[5]:6.2f}x")
    if paired:
        print("\npaired: a row's agreement with gensim minus the default core row's, core seed by core seed "
              "(the same seeds and random draws), mean (standard error over the seeds)")
        for name, d, window, mean, se in paired:
            print(f"  {name:{width}} d {d:3d} window {window}: {mean:+.4f} ({se:.4f})")
    print(f"\nload at the end: {load()}")


if __name__ == "__main__":
    main()
