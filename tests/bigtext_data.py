"""A generated multi-megabyte text for the big-text tests (no outside corpus in the tests).

Lines of core.generated's sentences (known word groups: "cat" shares its contexts with
"dog", "horse", "cow") alternate with lines of Zipf-distributed filler words, so the
text has well over 300 distinct words and word2vec, not the full softmax, trains it.
"""
import numpy as np

from core.generated import generate_corpus


def big_text(n_chars: int = 3_000_000, seed: int = 0, n_filler: int = 2_000) -> str:
    rng = np.random.default_rng(seed)
    sentences = generate_corpus(max(46, n_chars // 60), seed=seed).sentences
    p = 1.0 / np.arange(1, n_filler + 1)
    filler = rng.choice(n_filler, size=(len(sentences), 8), p=p / p.sum())
    lines, total = [], 0
    for s, f in zip(sentences, filler):
        lines += [s, " ".join(f"filler{j}" for j in f)]
        total += len(lines[-2]) + len(lines[-1]) + 2
        if total > n_chars:
            break
    return "\n".join(lines)[:n_chars]
