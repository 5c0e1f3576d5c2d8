"""Variants of core.word2vec, each paired seed by seed with the default, against gensim's seeds.

    .venv/bin/python -m bench.word2vec_variants --settings 100:2,100:5 --seeds 16 \\
        --variant block_passes=11 --variant negative_sets=2 --variant block_words=48

Measures neighbour agreement the way ``bench.word2vec`` does (top-10 neighbours of the
500 most frequent words; gensim seeds 1..N against each other, core seeds 101..100+N
against gensim's; the gap's 90% interval from resampling the seeds of both sides), for
the default ``Word2VecConfig`` and each ``--variant`` (``key=value[,key=value]`` of
Word2VecConfig's fields; ``2w`` and ``2w+1``: twice the window, plus one; ``true``/``false`` for
a flag such as ``expected_window``: bench.word2vec.parse_variant).
Every variant trains the same core seeds as the default row, so a seed draws the same
positions, windows and first negatives in every row (core.word2vec.generators): the
paired column (a row's agreement minus the default row's, seed by seed, with its
standard error) is measured far more finely than either gap (``--variant-seeds M``: each
variant on the first M core seeds only, paired with the default's same M). CPU: the mean of the
process's own CPU seconds per 20-epoch run, and its ratio to the default row's.

For scanning ideas, not for speed tables: nothing is timed under a lock, and runs are
cached under ``.venv-gensim/runs/`` (gensim's by setting and seed; core's by setting,
seed, configuration and the text of core's word2vec and sgns modules), so a rerun only
trains what changed.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy loads its BLAS
import numpy as np  # noqa: E402

from bench.machine import load  # noqa: E402
from bench.word2vec import (CORE_SEEDS, GENSIM_SEEDS, GENSIM_VENV, ROOT, SETTINGS,  # noqa: E402
                            agreement_matrix, gap_interval, gensim_python, paired_difference,
                            pair_values, parse_settings, parse_variant, run_gensim,
                            top_neighbours)
from core.word2vec import Word2VecConfig, train_word2vec  # noqa: E402

CACHE = GENSIM_VENV / "runs"


def source_hash() -> str:
    """What the core rows' results depend on besides the configuration."""
    text = b"".join((ROOT / "core" / name).read_bytes() for name in ("word2vec.py", "sgns.py"))
    return hashlib.sha1(text).hexdigest()[:12]


def gensim_runs(python, tmp: Path, d: int, window: int, seeds: int) -> list[dict]:
    runs = []
    for s in range(GENSIM_SEEDS, GENSIM_SEEDS + seeds):
        path = CACHE / f"gensim_d{d}_w{window}_s{s}.npz"
        if not path.exists():
            job = dict(what="train", sentences=str(tmp / "lee.json"), out=str(tmp / f"g{s}"),
                       d_model=d, window=window, epochs=20, seed=s, **SETTINGS)
            g = run_gensim(python, job, tmp)
            np.savez(path, E=g["E"], vocab=np.array(g["vocab"]))
        with np.load(path) as f:
            runs.append({"E": f["E"], "vocab": f["vocab"].tolist()})
    return runs


def core_run(sentences, ref, words, d: int, window: int, seed: int, extra: dict, code: str) -> dict:
    """One core seed: its agreement with each gensim seed and its CPU seconds (cached)."""
    key = json.dumps([d, window, seed, sorted(extra.items()), code])
    path = CACHE / f"core_{hashlib.sha1(key.encode()).hexdigest()[:16]}.json"
    if path.exists():
        return json.loads(path.read_text())
    cpu = time.process_time()
    r = train_word2vec(sentences, Word2VecConfig(d_model=d, window=window, seed=seed, **SETTINGS, **extra))
    cpu = time.process_time() - cpu
    mine = top_neighbours(r.E, r.vocab, words)
    out = {"agreement": agreement_matrix(ref, [mine])[:, 0].tolist(), "cpu": cpu, "load": load()}
    path.write_text(json.dumps(out))
    return out


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--settings", default="100:2,100:5", metavar="D:W,...")
    parser.add_argument("--seeds", type=int, default=16)
    parser.add_argument("--variant", action="append", default=[], metavar="KEY=VALUE[,KEY=VALUE]")
    parser.add_argument("--variant-seeds", type=int, default=None,
                        help="core seeds of each variant (default --seeds): its paired column "
                             "compares it with the default row's same seeds")
    args = parser.parse_args(argv)
    from threadpoolctl import threadpool_limits
    threadpool_limits(1)
    CACHE.mkdir(parents=True, exist_ok=True)
    python, code = gensim_python(), source_hash()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        sentences = run_gensim(python, {"what": "data", "out": str(tmp)}, tmp)["sentences"]
        for d, window in parse_settings(args.settings):
            ref_runs = gensim_runs(python, tmp, d, window, args.seeds)
            words = ref_runs[0]["vocab"][:500]
            ref = [top_neighbours(g["E"], g["vocab"], words) for g in ref_runs]
            gg = agreement_matrix(ref, ref)
            print(f"\nd {d} window {window}: gensim seeds {GENSIM_SEEDS}..{GENSIM_SEEDS + args.seeds - 1} "
                  f"against each other {pair_values(gg, True).mean():.4f}; core seeds "
                  f"{CORE_SEEDS}..{CORE_SEEDS + args.seeds - 1}; load now {load()}", flush=True)
            print(f"{'variant':44} {'agreement':>9} {'gap (90% interval)':>26} {'vs default (se)':>16} "
                  f"{'CPU s':>6} {'x default':>9}", flush=True)
            base = None
            for text in ["", *args.variant]:
                extra = parse_variant(text, window)
                n = args.seeds if base is None else min(args.seeds, args.variant_seeds or args.seeds)
                runs = [core_run(sentences, ref, words, d, window, CORE_SEEDS + i, extra, code)
                        for i in range(n)]
                cg = np.array([r["agreement"] for r in runs]).T       # (gensim seeds, core seeds)
                cpu = np.array([r["cpu"] for r in runs])
                gap, lo, hi = gap_interval(gg, cg)
                if base is None:
                    base, base_cpu, paired = cg, cpu, ""
                else:
                    mean, se = paired_difference(cg, base[:, :n])
                    paired = f"{mean:+.4f} ({se:.4f})"
                print(f"{text or 'default':44} {cg.mean():9.4f} {f'{gap:+.4f} ({lo:+.4f}, {hi:+.4f})':>26} "
                      f"{paired:>16} {cpu.mean():6.2f} {cpu.mean() / base_cpu[:n].mean():8.2f}x  {n} seeds",
                      flush=True)


if __name__ == "__main__":
    main()
