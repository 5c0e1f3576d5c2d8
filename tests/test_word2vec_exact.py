"""core.word2vec: a run's bookkeeping (learning rate, losses, counts, speed, random streams) and its
refusals, pinned exactly (details mutation testing found loose: docs/quality.md)."""

import math
import types

import numpy as np
import pytest

from core.word2vec import MAX_TOUCHES, Word2VecConfig, keep_probabilities, train_word2vec
from tests.test_word2vec import _reference_epoch
import core.word2vec as w2v


class _TwoReadings:
    """time.perf_counter for one word2vec call: the start, then 2.5 s later."""

    def __init__(self):
        self.readings = iter([10.0, 12.5])

    def perf_counter(self):
        return next(self.readings)


def _w2v_text():
    return [["the", "cat", "sat"], ["the", "dog", "sat"]] * 20 + [["zebra"]]   # zebra: below min_count


def recording(monkeypatch):
    """Wrap _update_block: every block's (lr array, returned loss, returned pairs)."""
    calls = []
    real = w2v._update_block

    def update(E, W, kid, ksent, b, negs, lr, w, buf):
        loss, pairs = real(E, W, kid, ksent, b, negs, lr, w, buf)
        calls.append((lr.copy(), loss, pairs))
        return loss, pairs

    monkeypatch.setattr(w2v, "_update_block", update)
    return calls


SENTENCES = [["the", "cat", "sat", "on", "the", "mat"], ["a", "dog", "sat", "on", "a", "log"]] * 6


@pytest.mark.parametrize("stop_at_once", [False, True])
def test_word2vec_reports_its_counts_time_speed_and_block_losses(monkeypatch, stop_at_once):
    import math

    import numpy as np

    import core.word2vec as word2vec

    monkeypatch.setattr(word2vec, "time", types.SimpleNamespace(perf_counter=_TwoReadings().perf_counter))
    config = word2vec.Word2VecConfig(d_model=4, window=2, negative=1, min_count=2, sample=0.0, epochs=2,
                                     alpha=1e-9, min_alpha=1e-9, block_words=16)
    seen = []
    r = word2vec.train_word2vec(_w2v_text(), config, callback=lambda done, loss: seen.append((done, loss))
                                or stop_at_once)
    # the block size by the docstring's rule: every word kept (sample 0), f = 1/3 1/3 1/6 1/6,
    # q = counts^0.75 normalised; touches = max((window + 1) f, f + K q); G = min(16, MAX_TOUCHES // touches)
    counts = np.array([40.0, 40.0, 20.0, 20.0])
    f, q = counts / 120, counts ** 0.75 / (counts ** 0.75).sum()
    G = int(max(1, min(16, word2vec.MAX_TOUCHES // max(3 * f.max(), (f + q).max()))))
    assert r.block_size == G < 120
    assert r.vocab == ["the", "sat", "cat", "dog"] and r.counts.tolist() == [40, 40, 20, 20]
    assert (r.n_tokens, r.seconds, r.diverged, r.stopped) == (121, 2.5, False, stop_at_once)
    # W starts at zero and the learning rate is 1e-9: every question is a coin flip, ln 2 each;
    # a pair asks K + 1 = 2 of them, or 1 when its negative happens to be its own context word
    for _, loss in seen:
        assert math.log(2) - 1e-6 <= loss <= 2 * math.log(2) + 1e-6
    if stop_at_once:                                   # stopped after the first block of G centres
        assert [d for d, _ in seen] == [G] and (r.words_done, r.epochs_done) == (G, 0)
        assert r.words_per_second == pytest.approx(121 * (G / 120) / 2.5, rel=1e-12) and len(r.losses) == 0
    else:                                              # every block, then the epoch's end at n = 120
        per_epoch = list(range(G, 120, G)) + [120]
        assert [d for d, _ in seen] == per_epoch + [120 + d for d in per_epoch]
        assert (r.words_done, r.epochs_done) == (240, 2)
        assert r.words_per_second == pytest.approx(121 * 2 / 2.5, rel=1e-12)
        for e in range(2):                             # an epoch's loss: a mean of its blocks' losses
            block = [loss for _, loss in seen[e * len(per_epoch):(e + 1) * len(per_epoch)]]
            assert min(block) - 1e-9 <= r.losses[e] <= max(block) + 1e-9


def test_the_learning_rate_falls_linearly_over_every_word_of_every_epoch(monkeypatch):
    calls = recording(monkeypatch)
    config = Word2VecConfig(d_model=4, window=2, min_count=1, sample=0.0, epochs=3, alpha=0.05,
                            min_alpha=0.001, block_words=5)
    train_word2vec(SENTENCES, config)
    lrs = np.concatenate([lr for lr, _, _ in calls])          # sample 0: every word is a centre, in order
    n = sum(len(s) for s in SENTENCES)
    assert len(lrs) == 3 * n
    progress = np.arange(3 * n) / (3 * n)                       # word i of epoch e: (e * n + i) / (3n)
    np.testing.assert_allclose(lrs, 0.05 - (0.05 - 0.001) * progress, rtol=1e-6)


def test_each_epochs_loss_is_its_summed_block_losses_per_pair(monkeypatch):
    calls = recording(monkeypatch)
    config = Word2VecConfig(d_model=4, window=2, min_count=1, sample=0.0, epochs=2, block_words=7)
    r = train_word2vec(SENTENCES, config)
    per_epoch = len(calls) // 2
    for e in range(2):
        block = calls[e * per_epoch:(e + 1) * per_epoch]
        assert r.losses[e] == pytest.approx(sum(loss for _, loss, _ in block) / sum(p for _, _, p in block),
                                            rel=1e-12)


def test_the_callback_gets_each_blocks_loss_per_pair_even_for_one_pair(monkeypatch):
    calls = recording(monkeypatch)
    seen = []
    config = Word2VecConfig(d_model=4, window=1, min_count=1, sample=0.0, epochs=1, block_words=1)
    train_word2vec([["a", "b"]], config, callback=lambda done, loss: seen.append((done, loss)))
    assert [p for _, _, p in calls] == [1, 1]                 # each centre has one context word
    assert seen == [(1, calls[0][1]), (2, calls[1][1])]


@pytest.mark.parametrize("block_words, negative, window", [(4, 2, 3), (1, 1, 3)])
def test_a_two_sentence_text_with_its_own_noise_power_equals_the_reference_loop(block_words, negative, window):
    # The text ends inside the second sentence: padding past its end belongs to no sentence.
    # One centre with one negative and a wide window: the block's work arrays at their other size.
    sentences = [["x", "y", "z", "x", "y"], ["z", "y", "x", "z", "x", "y"]]
    config = Word2VecConfig(d_model=5, window=window, negative=negative, min_count=1, sample=0.0, epochs=1,
                            seed=2, alpha=0.3, power=0.25, block_words=block_words)
    vocab, E, W = _reference_epoch(sentences, config)
    r = train_word2vec(sentences, config)
    assert r.vocab == vocab
    np.testing.assert_allclose(r.E, E, atol=2e-6)
    np.testing.assert_allclose(r.W, W, atol=2e-6)


def test_negatives_are_drawn_from_every_entry_of_the_table():
    ids = np.zeros(200, np.int32)
    config = Word2VecConfig(window=1, negative=5, min_count=1, sample=0.0)
    _, _, negs = w2v._epoch_plan(ids, ids, np.ones(1), np.array([7, 9]), config, np.random.default_rng(0))
    assert set(np.unique(negs)) == {7, 9}


def test_block_size_with_sub_sampling_and_its_own_power_by_the_formula():
    counts = np.array([900, 300, 60, 20, 5])
    for config in (Word2VecConfig(window=5, negative=5, sample=1e-2, power=0.5),
                   Word2VecConfig(window=1, negative=20, sample=0.05, power=1.5),
                   Word2VecConfig(window=8, negative=1, sample=0.0, power=0.75)):
        kept = counts * keep_probabilities(counts, config.sample)
        f = kept / kept.sum()
        q = counts ** config.power / (counts ** config.power).sum()
        touches = max(((config.window + 1) * f).max(), (f + config.negative * q).max())
        assert w2v.block_size(counts, config) == max(1, min(config.block_words, math.floor(MAX_TOUCHES / touches)))
    assert w2v.block_size(counts, Word2VecConfig(window=5, sample=1e-2, power=0.5)) != \
        w2v.block_size(counts, Word2VecConfig(window=5, sample=0.0, power=0.5))          # sub-sampling counts


def test_zero_epochs_have_done_no_words():
    r = train_word2vec([["a", "b", "a"]], Word2VecConfig(d_model=4, epochs=0, min_count=1))
    assert (r.words_done, r.epochs_done, len(r.losses), r.words_per_second) == (0, 0, 0, 0.0)


@pytest.mark.parametrize("seconds", [2.0, 0.5, 0.0])
def test_a_one_word_text_counts_its_epochs_and_speed(monkeypatch, seconds):
    readings = iter([10.0, 10.0 + seconds])
    monkeypatch.setattr(w2v, "time", types.SimpleNamespace(perf_counter=lambda: next(readings)))
    r = train_word2vec([["a"]], Word2VecConfig(d_model=4, epochs=3, min_count=1))
    assert (r.words_done, r.epochs_done, r.seconds) == (3, 3, seconds)
    assert r.words_per_second == (1 * 3 / seconds if seconds else 0.0)   # one token, three epochs; no time: 0


def test_a_run_whose_loss_stops_being_finite_stops_there(monkeypatch):
    real = w2v.window_updates
    blocks = []

    def overflowing(X, U, weight, scale, buffers=None):
        loss, dX, dU = real(X, U, weight, scale, buffers)
        blocks.append(loss)
        return (math.inf if len(blocks) == 3 else loss), dX, dU

    monkeypatch.setattr(w2v, "window_updates", overflowing)
    config = Word2VecConfig(d_model=4, window=2, min_count=1, sample=0.0, epochs=2, block_words=5)
    r = train_word2vec(SENTENCES, config)
    assert r.diverged and not r.stopped and len(blocks) == 3
    assert r.words_done == 15 and r.epochs_done == 0 and len(r.losses) == 0     # three blocks of 5 words


def test_a_run_s_two_random_streams_are_the_seed_and_the_seed_with_1():
    rng, more = w2v.generators(7)
    assert rng.random(3).tolist() == np.random.default_rng(7).random(3).tolist()
    assert more.random(3).tolist() == np.random.default_rng([7, 1]).random(3).tolist()


def test_the_extra_negative_sets_come_from_the_second_stream_over_the_whole_table():
    counts = np.array([50, 30, 20, 10])
    ids = np.repeat(np.arange(4), counts).astype(np.int32)
    config = Word2VecConfig(window=2, negative=3, negative_sets=3, sample=0.0, min_count=1)
    table = np.arange(1000) % 4                   # a stand-in table: entry i is word i mod 4
    pos, b, negs = w2v._epoch_plan(ids, np.zeros_like(ids), np.ones(4), table, config,
                                   np.random.default_rng(2), np.random.default_rng([2, 1]))
    main = np.random.default_rng(2)               # the same draws, in the order the recipe makes them
    assert pos.tolist() == np.flatnonzero(main.random(len(ids)) < 1.0).tolist()
    assert b.tolist() == main.integers(1, 3, size=len(pos)).tolist()
    first = main.integers(0, 1000, size=(len(pos), 3))
    extra = np.random.default_rng([2, 1]).integers(0, 1000, size=(len(pos), 6))
    assert negs.tolist() == np.concatenate([first, extra], axis=1).__mod__(4).tolist()


def test_a_block_of_one_centre_reports_the_same_loss_in_passes():
    # With one centre per block, p passes make one pass of one centre: the same update
    # (to rounding: passes move rows in place and add the difference back), so the same
    # losses and rows as a run without passes.
    one = dict(d_model=4, window=2, min_count=1, sample=0.0, epochs=2, block_words=1, seed=3)
    plain, passes = (train_word2vec(SENTENCES, Word2VecConfig(**one, block_passes=p)) for p in (1, 3))
    assert len(plain.losses) == 2
    np.testing.assert_allclose(passes.losses, plain.losses, rtol=1e-5)
    np.testing.assert_allclose(passes.E, plain.E, atol=1e-6)


@pytest.mark.parametrize("setting,message", [
    (dict(window=2, negative_sets=5), "negative_sets must be a whole number from 1 to 2 x window."),
    (dict(window=2, block_passes=6), "block_passes must be a whole number from 1 to 2 x window + 1.")])
def test_settings_past_the_window_s_bound_are_refused_in_words(setting, message):
    with pytest.raises(w2v.ConfigError) as e:
        Word2VecConfig(**setting)
    assert str(e.value) == message
