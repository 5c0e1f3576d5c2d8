"""bench.word2vec_recipe: gensim's per-job learning rate, and the C per-pair loop it measures with.

The C loop is a measuring instrument for docs/performance.md (which of core's departures
from gensim's loop cost agreement); these tests pin that it computes what it claims.
"""
import shutil
import tempfile
from pathlib import Path

import numpy as np
import pytest

from bench.word2vec_recipe import compile_reference, job_alphas, reference_train
from core.word2vec import Word2VecConfig


def test_job_alphas_follow_gensims_job_producer():
    # jobs of at most 10 words: [4, 4] | [5, 3] | [9]; 25 words an epoch, 2 epochs
    rates = job_alphas([4, 4, 5, 3, 9], epochs=2, alpha=0.1, min_alpha=0.0, batch_words=10)
    first = [0.1, 0.1, 0.1 - 0.1 * (8 / 25) / 2, 0.1 - 0.1 * (8 / 25) / 2, 0.1 - 0.1 * (16 / 25) / 2]
    np.testing.assert_allclose(rates[0], first)                       # 0.1, 0.1, 0.084, 0.084, 0.068
    np.testing.assert_allclose(rates[1], np.array(first) - 0.05)      # epoch 1 starts at half way


def test_job_alphas_never_go_below_min_alpha():
    rates = job_alphas([3] * 10, epochs=3, alpha=0.025, min_alpha=0.02, batch_words=3)
    assert rates.min() >= 0.02 and rates[0, 0] == 0.025
    assert np.all(np.diff(rates.ravel()) <= 0)                        # it only decays


needs_cc = pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")


@pytest.fixture(scope="module")
def reference():
    with tempfile.TemporaryDirectory() as tmp:
        yield compile_reference(Path(tmp))


def _distinct_word_sentences():
    rng = np.random.default_rng(0)
    words = [f"w{i}" for i in range(15)]
    return [list(rng.choice(words, size=8, replace=False)) for _ in range(80)]


def _per_pair_epoch(E, W, kid, ksent, b, negs, lr, K, table, shared):
    """gensim's w2v_fast_sentence_sg_neg loop in Python, pair by pair (float32 rows)."""
    exp_table = np.exp((np.arange(1000, dtype=np.float32) / 1000 * 2 - 1) * 6)
    exp_table = (exp_table / (exp_table + 1)).astype(np.float32)
    q = 0
    for i in range(len(kid)):
        for j in range(i - b[i], i + b[i] + 1):
            if j == i or not 0 <= j < len(kid) or ksent[j] != ksent[i]:
                continue
            x, work = E[kid[j]], np.zeros(E.shape[1], np.float32)
            for k in range(K + 1):
                t, label = kid[i], 1.0
                if k > 0:
                    t, label = (negs[i * K + k - 1] if shared else negs[q]), 0.0
                    q += not shared
                    if t == kid[i]:
                        continue                        # a negative equal to the centre: skipped
                u = W[t]
                f = float(x @ u)
                if table and abs(f) >= 6:
                    continue                            # outside the table: no update at all
                s = exp_table[int((f + 6) * 83)] if table else 1 / (1 + np.exp(-f))
                g = np.float32((label - s) * lr[i])
                work += g * u
                u += g * x                              # the row moves before the next question
            x += work


@needs_cc
@pytest.mark.parametrize("table,shared", [(1, 0), (0, 1), (1, 1)])
def test_the_c_loop_is_gensims_pair_by_pair_update(reference, table, shared):
    rng = np.random.default_rng(table + 2 * shared)
    V, d, K, m = 12, 5, 3, 40
    E0 = rng.normal(0, 1.5, (V, d)).astype(np.float32)          # big enough for |f| >= 6 to occur
    W0 = rng.normal(0, 1.5, (V, d)).astype(np.float32)
    kid, ksent = rng.integers(0, V, m).astype(np.int32), np.repeat(np.arange(4), 10).astype(np.int32)
    b, lr = rng.integers(1, 4, m).astype(np.int32), np.full(m, 0.05, np.float32)
    negs = rng.integers(0, V, m * 6 * K).astype(np.int32)
    E, W = E0.copy(), W0.copy()
    _per_pair_epoch(E, W, kid, ksent, b, negs, lr, K, table, shared)
    Ec, Wc, work = E0.copy(), W0.copy(), np.zeros(d, np.float32)
    ptr = [a.ctypes.data for a in (Ec, Wc, kid, ksent, b, negs, lr, work)]
    reference.epoch(ptr[0], ptr[1], d, ptr[2], ptr[3], m, ptr[4], ptr[5], ptr[6], K, table, shared, ptr[7])
    assert np.abs(E - E0).max() > 0.05                           # it did train
    np.testing.assert_allclose(Ec, E, atol=1e-4)
    np.testing.assert_allclose(Wc, W, atol=1e-4)


@needs_cc
def test_the_c_loops_switches_change_the_result(reference):
    sentences = _distinct_word_sentences()
    config = Word2VecConfig(d_model=6, window=3, negative=2, min_count=1, sample=0.02, epochs=2, seed=5,
                            alpha=0.1)
    base = reference_train(reference, sentences, config, table=0, fresh=0, per_job=0)[1]
    for switches in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        other = reference_train(reference, sentences, config, *switches)[1]
        assert np.abs(other - base).max() > 1e-4, switches
