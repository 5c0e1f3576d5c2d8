"""The real models: cold load, nearest neighbours over GloVe, one MiniLM forward pass, memory.

    .venv/bin/python -m bench.real_models            # about a minute on a quiet machine

Targets (issue 27): each model's cold load < 3 s; nearest neighbours over the whole GloVe
vocabulary (400,000 words) < 100 ms; one MiniLM forward pass of a 30-token sentence < 200 ms
on 2 cores. Every cold figure is taken in a fresh Python process (nothing imported or cached
yet, the files possibly in the OS page cache: run it twice to see both); warm figures are the
median of several runs in one process. Memory is the resident size of one process with every
model loaded (the three tables, MiniLM's weights and the four tokenizers).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from bench.machine import describe

# Each runs in its own process; prints {"wall": s, "cpu": s, "rss_mib": MiB} as JSON.
COLD = {
    "table smollm2-135m": "from core.pretrained import load_table; load_table('smollm2-135m')",
    "table glove-6b-50d": "from core.pretrained import load_table; load_table('glove-6b-50d')",
    "table minilm-l6": "from core.pretrained import load_table; load_table('minilm-l6')",
    "MiniLM model (forward pass ready)": "from core.contextual import model; model()",
    "tokenizer smollm2-135m": "from core.tokenizer import encoding; encoding('smollm2-135m')",
    "tokenizer cl100k_base": "from core.tokenizer import encoding; encoding('cl100k_base')",
    "tokenizer o200k_base": "from core.tokenizer import encoding; encoding('o200k_base')",
    "everything above, one process": (
        "from core.pretrained import load_table, NAMES; from core.contextual import model; "
        "from core.tokenizer import encoding, ENCODINGS; [load_table(n) for n in NAMES]; model(); "
        "[encoding(n) for n in ENCODINGS]"),
}
TIMED = """
import json, resource, sys, time
w, c = time.perf_counter(), time.process_time()
{code}
w, c = time.perf_counter() - w, time.process_time() - c
rss = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmRSS"))
print(json.dumps({{"wall": w, "cpu": c, "rss_mib": rss / 1024,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""
SENTENCE_30 = ("The teacher moved the slider and the whole class watched the vectors of cat, dog and car "
               "drift slowly apart on the big projector screen")      # 30 MiniLM tokens with [CLS] and [SEP]


def cold(code: str) -> dict:
    """Run ``code`` timed in a fresh interpreter (one BLAS thread, as the server runs)."""
    env = {"OPENBLAS_NUM_THREADS": "1", "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", TIMED.format(code=code)], capture_output=True, text=True,
                         check=True, env=env, cwd=".")
    return json.loads(out.stdout.strip().splitlines()[-1])


def warm(call, rounds: int) -> tuple[float, float]:
    """The median wall time and the median CPU time of ``call()``, in ms, after one untimed call
    (on a busy machine the CPU time is what the call itself costs)."""
    call()
    walls, cpus = [], []
    for _ in range(rounds):
        w, c = time.perf_counter(), time.process_time()
        call()
        walls.append((time.perf_counter() - w) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    return statistics.median(walls), statistics.median(cpus)


def main(argv=None) -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    del args
    from threadpoolctl import threadpool_limits

    print("\n".join(describe()), flush=True)
    print(f"\n{'cold, fresh process':<36} {'wall s':>7} {'CPU s':>6} {'RSS MiB':>8} {'peak MiB':>9}  target")
    for label, code in COLD.items():
        r = cold(code)
        target = "< 3 s" if label.startswith("table") else ""
        print(f"{label:<36} {r['wall']:>7.2f} {r['cpu']:>6.2f} {r['rss_mib']:>8.0f} {r['peak_mib']:>9.0f}  {target}",
              flush=True)

    from core.contextual import contextual_vectors, model
    from core.pretrained import load_table

    with threadpool_limits(1):
        glove = load_table("glove-6b-50d")
        words = glove.labels[100:20_100:1000]                          # 20 words of varied frequency
        it = iter(words * 10)
        nn = warm(lambda: glove.nearest(next(it), 10), rounds=len(words))
        model()
        tokens, _ = contextual_vectors(SENTENCE_30)
        fwd = warm(lambda: contextual_vectors(SENTENCE_30), rounds=10)
    print(f"\n{'warm, one thread (medians)':<48} {'wall ms':>8} {'CPU ms':>7}  target")
    print(f"{'nearest 10 of 400,000 GloVe words (20 words)':<48} {nn[0]:>8.1f} {nn[1]:>7.1f}  < 100 ms")
    print(f"{f'MiniLM forward pass, {len(tokens)} tokens (10 runs)':<48} {fwd[0]:>8.1f} {fwd[1]:>7.1f}  < 200 ms")


if __name__ == "__main__":
    main()
