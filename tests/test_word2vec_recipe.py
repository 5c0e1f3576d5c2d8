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
from core.word2vec import Word2VecConfig, train_word2vec


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


@needs_cc
def test_the_c_loop_with_cores_choices_equals_core_one_centre_at_a_time(reference):
    """Exact sigmoid, shared negatives, alpha per word: core with one centre per block is the
    same pair-by-pair SGD. (No word twice in a sentence and K = 1, so no row is read twice
    in one step, where the two orders would differ by lr^2 terms.)"""
    sentences = _distinct_word_sentences()
    config = Word2VecConfig(d_model=6, window=3, negative=1, min_count=1, sample=0.02, epochs=3, seed=5,
                            alpha=0.2, block_words=1)
    vocab, E = reference_train(reference, sentences, config, table=0, fresh=0, per_job=0)
    r = train_word2vec(sentences, config)
    assert vocab == r.vocab
    start = (np.random.default_rng(5).random(E.shape, dtype=np.float32) * 2 - 1) / 6
    assert np.abs(r.E - start).max() > 0.3                            # it trained
    np.testing.assert_allclose(E, r.E, atol=1e-5)


@needs_cc
def test_the_c_loops_switches_change_the_result(reference):
    sentences = _distinct_word_sentences()
    config = Word2VecConfig(d_model=6, window=3, negative=2, min_count=1, sample=0.02, epochs=2, seed=5,
                            alpha=0.1)
    base = reference_train(reference, sentences, config, table=0, fresh=0, per_job=0)[1]
    for switches in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
        other = reference_train(reference, sentences, config, *switches)[1]
        assert np.abs(other - base).max() > 1e-4, switches
