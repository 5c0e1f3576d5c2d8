"""Which of core's departures from gensim's word2vec loop cost neighbour agreement?

    .venv/bin/python -m bench.word2vec_recipe                     # d 50, window 2, 8 seeds a side
    .venv/bin/python -m bench.word2vec_recipe --d 100 --window 5 --seeds 8

core.word2vec is word2vec's recipe, but not gensim 4.3.3's loop line for line. gensim's
Cython kernel (``word2vec_inner.pyx``) takes one (context, centre) pair at a time and

* reads sigma(f) from a 1,000-entry table (``EXP_TABLE``, f in (-6, 6), index
  ``int((f + 6) * 83)``) and skips the update when ``|f| >= 6``;
* draws K fresh negatives for every pair (core: K per centre, shared by its window);
* keeps the learning rate fixed for each job of about 10,000 words (core: per word);
* updates every row as it goes (core: a block of centres from the same rows, with the
  in-window order kept for the input rows; core.sgns.window_updates).

To see which of these matter, this script compiles a per-pair loop in C (a reference
for measurement only, built at run time with the system's C compiler; core stays pure
NumPy), which follows gensim's kernel with each of the first three switches on or off,
and measures every variant's top-10 neighbour agreement with gensim's runs as
``bench.word2vec`` does (the variants' seeds 101.., gensim's 1..; the same random draws
for every variant of a seed, so differences between rows are paired). The reference
draws its random numbers with NumPy, not gensim's generator; the first row shows that
this alone leaves the agreement at gensim's own level. The last column is a variant's
agreement minus that of the row it names, seed by seed (standard error over the seeds):
two variants that draw the same random numbers follow nearly the same path, so this
difference is measured far more finely than the gap (fresh negatives per pair draw
other numbers than shared ones, so those rows are not paired with each other).
"""
from __future__ import annotations

import argparse
import ctypes
import subprocess
import tempfile
from pathlib import Path

import numpy as np

from bench.word2vec import (CORE_SEEDS, GENSIM_SEEDS, SETTINGS, agreement_matrix, gap_interval,
                            gensim_python, pair_values, run_gensim, top_neighbours)
from core.sgns import noise_table
from core.word2vec import (Word2VecConfig, build_vocab, keep_probabilities, text_ids,
                           train_word2vec)

C_SOURCE = r"""
#include <math.h>
#include <string.h>
#define MAX_EXP 6
#define TABLE 1000
static float EXP_TABLE[TABLE];
void init_table(void) {                       /* gensim's init_w2v_config: sigma at -6 + 0.012 i */
    for (int i = 0; i < TABLE; i++) {
        EXP_TABLE[i] = (float)exp((i / (float)TABLE * 2 - 1) * MAX_EXP);
        EXP_TABLE[i] = EXP_TABLE[i] / (EXP_TABLE[i] + 1);
    }
}
/* One epoch over the kept positions, pair by pair: input row E[context], output rows
   W[centre] (label 1) and W[negative] (label 0), as w2v_fast_sentence_sg_neg. */
void epoch(float *E, float *W, int d, const int *kid, const int *ksent, int m, const int *b,
           const int *negs, const float *lr, int K, int table, int shared, float *work) {
    long q = 0;
    for (int i = 0; i < m; i++) {
        for (int j = i - b[i]; j <= i + b[i]; j++) {
            if (j == i || j < 0 || j >= m || ksent[j] != ksent[i]) continue;
            float *x = E + (long)kid[j] * d;
            memset(work, 0, d * sizeof(float));
            for (int k = 0; k <= K; k++) {
                int t = kid[i];
                float label = 1.0f, f = 0.0f, s;
                if (k > 0) {
                    t = shared ? negs[(long)i * K + k - 1] : negs[q++];
                    if (t == kid[i]) continue;        /* a negative equal to the centre: skipped */
                    label = 0.0f;
                }
                float *u = W + (long)t * d;
                for (int a = 0; a < d; a++) f += x[a] * u[a];
                if (table) {
                    if (f <= -MAX_EXP || f >= MAX_EXP) continue;
                    s = EXP_TABLE[(int)((f + MAX_EXP) * (TABLE / MAX_EXP / 2))];
                } else s = 1.0f / (1.0f + expf(-f));
                float g = (label - s) * lr[i];
                for (int a = 0; a < d; a++) work[a] += g * u[a];
                for (int a = 0; a < d; a++) u[a] += g * x[a];
            }
            for (int a = 0; a < d; a++) x[a] += work[a];
        }
    }
}
"""

VARIANTS = [  # name, (EXP_TABLE, fresh negatives per pair, alpha per job) or core's block_words,
    #          the row it is paired with (the same random draws), if any
    ("gensim's loop in C: table, fresh negatives, alpha per job", (1, 1, 1), None),
    ("  exact sigmoid instead of the table", (0, 1, 1), 0),
    ("  alpha per word instead of per job", (1, 1, 0), 0),
    ("  K negatives per centre, shared by its window", (1, 0, 1), None),
    ("  all three of core's choices, one pair at a time", (0, 0, 0), 3),
    ("core.word2vec, blocks of at most 24 centres", 24, 4),
    ("core.word2vec as shipped (block_size: 386 centres on Lee)", 1024, 4),
]


def compile_reference(workdir: Path) -> ctypes.CDLL:
    """Build the C loop into ``workdir`` and load it."""
    src, lib = workdir / "w2v_reference.c", workdir / "w2v_reference.so"
    src.write_text(C_SOURCE)
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src), "-lm"], check=True)
    c = ctypes.CDLL(str(lib))
    c.init_table()
    p, i = ctypes.c_void_p, ctypes.c_int
    c.epoch.argtypes = [p, p, i, p, p, i, p, p, p, i, i, i, p]
    return c


def job_alphas(lengths, epochs: int, alpha: float = 0.025, min_alpha: float = 1e-4,
               batch_words: int = 10_000) -> np.ndarray:
    """gensim 4.3.3's learning rate for each sentence, shape (epochs, n_sentences).

    gensim packs whole sentences into jobs of at most ``batch_words`` words (a sentence
    that does not fit starts the next job) and gives a job the rate
    ``alpha - (alpha - min_alpha) * (epoch + words_before_job / words_per_epoch) / epochs``
    (``Word2Vec._job_producer``), words counted before min_count.

    >>> job_alphas([6, 6, 6], epochs=2, alpha=0.1, min_alpha=0.0, batch_words=12).round(3).tolist()
    [[0.1, 0.1, 0.067], [0.05, 0.05, 0.017]]
    """
    lengths = np.asarray(lengths)
    total, out = lengths.sum(), np.empty((epochs, len(lengths)))
    for e in range(epochs):
        done, size, rate = 0, 0, max(min_alpha, alpha - (alpha - min_alpha) * e / epochs)
        for i, n in enumerate(lengths):
            if size + n <= batch_words:
                size += n
            else:                                  # the job is full: the next one starts here
                done, size = done + size, n
                rate = max(min_alpha, alpha - (alpha - min_alpha) * (e + done / total) / epochs)
            out[e, i] = rate
    return out


def reference_train(lib, sentences, config: Word2VecConfig, table: int, fresh: int, per_job: int):
    """Train with the C loop; vocabulary, sub-sampling, windows and noise as core.word2vec."""
    vocab, counts = build_vocab(sentences, config.min_count)
    ids, sent = text_ids(sentences, vocab)
    V, d, n, K, w = len(vocab), config.d_model, len(ids), config.negative, config.window
    rng = np.random.default_rng(config.seed)
    E = (rng.random((V, d), dtype=np.float32) * 2 - 1) / d          # as core and gensim 4
    W = np.zeros((V, d), np.float32)
    keep, noise = keep_probabilities(counts, config.sample), noise_table(counts, config.power)
    rates = job_alphas([len(s) for s in sentences], config.epochs, config.alpha, config.min_alpha)
    work = np.zeros(d, np.float32)
    for e in range(config.epochs):
        pos = np.flatnonzero(rng.random(n) < keep[ids])
        b = rng.integers(1, w + 1, size=len(pos)).astype(np.int32)
        negs = noise[rng.integers(0, len(noise), size=len(pos) * K * (2 * w if fresh else 1))]
        if per_job:
            lr = rates[e, sent[pos]].astype(np.float32)
        else:
            lr = (config.alpha - (config.alpha - config.min_alpha) * (e * n + pos) / (n * config.epochs))
        arrays = [np.ascontiguousarray(a, dt) for a, dt in
                  ((ids[pos], np.int32), (sent[pos], np.int32), (b, np.int32), (negs, np.int32), (lr, np.float32))]
        kid, ksent, b, negs, lr = arrays
        ptr = [a.ctypes.data_as(ctypes.c_void_p) for a in (E, W, kid, ksent, b, negs, lr, work)]
        lib.epoch(ptr[0], ptr[1], d, ptr[2], ptr[3], len(pos), ptr[4], ptr[5], ptr[6], K, table,
                  1 - fresh, ptr[7])
    return vocab, E


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--d", type=int, default=50)
    parser.add_argument("--window", type=int, default=2)
    parser.add_argument("--seeds", type=int, default=8)
    args = parser.parse_args(argv)
    python = gensim_python()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        lib = compile_reference(tmp)
        data = run_gensim(python, {"what": "data", "out": str(tmp)}, tmp)
        sentences = data["sentences"]
        gensim = []
        for s in range(GENSIM_SEEDS, GENSIM_SEEDS + args.seeds):
            job = dict(what="train", sentences=str(tmp / "lee.json"), out=str(tmp / f"g{s}"),
                       d_model=args.d, window=args.window, epochs=20, seed=s, **SETTINGS)
            gensim.append(run_gensim(python, job, tmp))
        words = gensim[0]["vocab"][:500]
        ref = [top_neighbours(g["E"], g["vocab"], words) for g in gensim]
        gg = agreement_matrix(ref, ref)
        print(f"gensim 4.3.3, Lee corpus, d {args.d}, window {args.window}, negative 5, min_count 5, "
              f"sample 1e-3, 20 epochs; gensim seeds {GENSIM_SEEDS}..{GENSIM_SEEDS + args.seeds - 1}, "
              f"every variant seeds {CORE_SEEDS}..{CORE_SEEDS + args.seeds - 1}")
        print(f"gensim against itself: {pair_values(gg, True).mean():.4f} (sd {pair_values(gg, True).std():.4f}, "
              f"{len(pair_values(gg, True))} pairs)\n")
        header = f"{'variant':58} {'agreement':>9} {'sd':>6} {'own':>6} {'gap (90% interval)':>26} " \
                 f"{'paired difference (se)':>26}"
        print(header + "\n" + "-" * len(header))
        per_seed = []
        for name, how, paired_with in VARIANTS:
            runs = []
            for s in range(CORE_SEEDS, CORE_SEEDS + args.seeds):
                if isinstance(how, int):
                    config = Word2VecConfig(d_model=args.d, window=args.window, seed=s, block_words=how, **SETTINGS)
                    r = train_word2vec(sentences, config)
                    runs.append(top_neighbours(r.E, r.vocab, words))
                else:
                    config = Word2VecConfig(d_model=args.d, window=args.window, seed=s, **SETTINGS)
                    vocab, E = reference_train(lib, sentences, config, *how)
                    runs.append(top_neighbours(E, vocab, words))
            cg, own = agreement_matrix(ref, runs), pair_values(agreement_matrix(runs, runs), True).mean()
            gap, lo, hi = gap_interval(gg, cg)
            per_seed.append(cg.mean(axis=0))                  # (seeds,) each seed against all of gensim's
            paired = ""
            if paired_with is not None:                       # the same seeds, the same draws
                diff = per_seed[-1] - per_seed[paired_with]
                paired = f"{diff.mean():+.4f} ({diff.std(ddof=1) / np.sqrt(len(diff)):.4f}) vs row {paired_with + 1}"
            print(f"{name:58} {cg.mean():9.4f} {cg.std():6.4f} {own:6.4f} "
                  f"{f'{gap:+.4f} ({lo:+.4f}, {hi:+.4f})':>26} {paired:>26}", flush=True)


if __name__ == "__main__":
    main()
