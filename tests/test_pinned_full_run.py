"""Core behaviour pinned after this round's full mutation run of core/ (docs/quality.md, section 4).

Each test checks public behaviour that a plausible wrong version of the code would change;
the expected values are worked out here by hand or by a plain reference, never read back
from the function under test.
"""
import types

import pytest

import core.negsampling as negsampling
from core.corpus import GUIDE_TEXT, Corpus


@pytest.fixture(scope="module")
def guide():
    return Corpus.from_text(GUIDE_TEXT)


class _Clock:
    """A stand-in for time.perf_counter: each call jumps far ahead, and an epoch's
    stop reading is always exactly ``epoch`` seconds after its start reading."""

    def __init__(self):
        self.calls = 0

    def perf_counter(self):
        self.calls += 1
        epoch, stop = divmod(self.calls - 1, 2)       # calls 1, 2 are epoch 0's start, stop ...
        return 1000.0 * (epoch + 1) + stop * (epoch + 1)


def test_negative_sampling_time_is_the_sum_of_each_epochs_own_time(guide, monkeypatch):
    clock = _Clock()
    monkeypatch.setattr(negsampling, "time", types.SimpleNamespace(perf_counter=clock.perf_counter))
    r = negsampling.train_negsampling(guide, negsampling.NegSamplingConfig(epochs=3))
    assert clock.calls == 6                          # a start and a stop reading per epoch
    assert r.seconds == 1.0 + 2.0 + 3.0              # only the updates are timed, and every epoch is


# --- functions only the screens reached: the core's own tests now check them -----------------

def test_nice_floor_rounds_down_to_one_two_or_five_times_a_power_of_ten():
    from core.budget import nice_floor

    cases = {-3: 0, 0: 0, 1: 1, 4: 2, 9: 5, 10: 10, 19: 10, 20: 20, 49: 20, 50: 50, 99: 50,
             999: 500, 1000: 1000, 4999: 2000, 5000: 5000, 3400.9: 2000}
    assert {n: nice_floor(n) for n in cases} == cases


def test_sigmoid_values_dtype_and_no_overflow_warning():
    import math
    import warnings

    import numpy as np

    from core.sgns import sigmoid

    s = np.array([-2.0, 0.0, 1.0, 3.0])
    expected = [1 / (1 + math.exp(2.0)), 0.5, 1 / (1 + math.exp(-1.0)), 1 / (1 + math.exp(-3.0))]
    assert sigmoid(s).tolist() == pytest.approx(expected, rel=1e-15)
    assert sigmoid(s.astype(np.float32)).dtype == np.float32
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # exp(1000) overflows: no warning may escape
        assert sigmoid(np.array([-1000.0, 1000.0])).tolist() == [0.0, 1.0]


def test_variation_selectors_are_exactly_the_two_unicode_ranges():
    from core.corpus import _is_variation_selector, split_words

    inside = [0xFE00, 0xFE07, 0xFE0F, 0xE0100, 0xE0150, 0xE01EF]
    outside = [0xFDFF, 0xFE10, 0xE00FF, 0xE01F0, 0x0301, ord("a")]
    assert all(_is_variation_selector(c) for c in inside)
    assert not any(_is_variation_selector(c) for c in outside)
    # a mark stays in the word; an emoji-style selector after a word is not part of its spelling
    assert split_words("sx\u0301 sun\ufe0f") == ["sx\u0301", "sun"]


def test_row_signals_count_occurrences_pairs_and_shares_by_hand():
    from core.cbow import row_signals

    # "the cat saw the dog", window 1: contexts [cat] [the saw] [cat the] [saw dog] [the]
    c = Corpus.from_text("the cat saw the dog", window=1)
    at = {w: i for i, w in enumerate(c.vocab)}
    s = row_signals(c)
    want = {"the": (2, 3, 3, 2.0), "cat": (1, 2, 2, 1.5), "saw": (1, 2, 2, 1.0), "dog": (1, 1, 1, 0.5)}
    for w, (occ, pairs, uses, weight) in want.items():
        got = (s.occurrences[at[w]], s.skipgram_pairs[at[w]], s.cbow_uses[at[w]], s.cbow_weight[at[w]])
        assert got == (occ, pairs, uses, weight), w
    assert s.occurrences.dtype.kind == s.cbow_uses.dtype.kind == "i"       # counts, shown as whole numbers
    # a word twice in one context counts as one use, with its two shares of the mean
    c = Corpus.from_text("the cat the", window=1)                 # contexts [cat] [the the] [cat]
    s, at = row_signals(c), {w: i for i, w in enumerate(c.vocab)}
    assert (s.cbow_uses[at["the"]], s.cbow_weight[at["the"]]) == (1, 1.0)
    assert (s.cbow_uses[at["cat"]], s.cbow_weight[at["cat"]]) == (2, 2.0)


def test_neighbours_of_marks_which_table_neighbours_the_picture_keeps():
    import numpy as np

    from core.honesty import neighbour_overlap

    X = np.array([[1.0, 0], [0.9, 0.1], [0, 1], [0.1, 0.9]])
    Y = np.array([[0.0], [5.0], [1.0], [6.0]])
    o = neighbour_overlap(X, Y, k=2)
    # row 0: by cosine 1 (0.994), then 3 (0.110); in the picture its nearest are 2 (1 away), 1 (5 away)
    assert o.neighbours_of(0) == [(1, True), (3, False)]
    # row 1: by cosine 0 (0.994), then 3 (0.220); in the picture 3 (1 away), 2 (4 away)
    assert o.neighbours_of(1) == [(0, False), (3, True)]
    assert o.neighbours_of(3) == [(2, True), (1, True)]
    with pytest.raises(ValueError, match=r"^i must be at least 0 \(and at most 3\); got -1\.$"):
        o.neighbours_of(-1)
    with pytest.raises(ValueError, match=r"^i must be at most 3 \(and at least 0\); got 4\.$"):
        o.neighbours_of(4)


def test_suggested_epochs_aim_at_1_2_million_words_between_5_and_20():
    """The choice nearest (by ratio) to 1.2 million words read: 10 and 20 meet where
    1.2e6 / n = sqrt(10 * 20), at n = 84,852.8; 5 and 10 at n = 169,705.6."""
    from core.bigtext import suggested_epochs

    cases = {0: 20, 1: 20, 60_000: 20, 63_158: 20, 84_852: 20, 84_853: 10, 96_000: 10, 169_705: 10,
             169_706: 5, 240_000: 5, 1_000_000: 5, 10**9: 5}
    assert {n: suggested_epochs(n) for n in cases} == cases


def test_estimate_scales_the_benchmark_speed_by_the_work_per_word():
    from core.bigtext import MAX_WORDS_TO_READ, WORDS_PER_SECOND, estimate
    from core.word2vec import Word2VecConfig

    assert (WORDS_PER_SECOND, MAX_WORDS_TO_READ) == (50_000, 12_000_000)
    # d 100, window 2, K 11: twice the width, half the context words, twice the scores = 2x
    e = estimate(250_000, Word2VecConfig(d_model=100, window=2, negative=11, epochs=4))
    assert (e.words_to_read, e.within_budget) == (1_000_000, True)
    assert e.seconds == pytest.approx(1_000_000 / 50_000 * 2.0, rel=1e-12)
    # a tiny model's work (1/30 of the benchmark's) is counted as a quarter at least
    e = estimate(100_000, Word2VecConfig(d_model=10, window=1, negative=2, epochs=3))
    assert e.seconds == pytest.approx(300_000 / 50_000 * 0.25, rel=1e-12)
    # d 50, window 5, K 5 is the benchmark itself; the budget includes its last word
    e = estimate(600_000, Word2VecConfig(d_model=50, window=5, negative=5, epochs=20))
    assert (e.words_to_read, e.seconds, e.within_budget) == (12_000_000, 240.0, True)
    assert not estimate(600_001, Word2VecConfig(epochs=20)).within_budget


def test_sense_split_groups_the_neighbours_along_their_main_direction():
    import numpy as np

    from core.bigtext import sense_split

    vocab = ["bank", "coins", "money", "cash", "river", "x"]
    E = np.array([[1.0, 1.0], [1.0, 0.45], [0.5, 0.15], [10.0, 1.0], [0.2, 1.0], [-1.0, -1.0]])
    s = sense_split(E, vocab, "bank", k=4)
    # cosines to bank, by hand; "x" points the other way and is not among the 4 nearest
    cos = {"coins": 1.45 / np.sqrt(2 * 1.2025), "money": 0.65 / np.sqrt(2 * 0.2725),
           "river": 1.2 / np.sqrt(2 * 1.04), "cash": 11 / np.sqrt(2 * 101)}
    names = ["coins", "money", "river", "cash"]                  # 0.935, 0.880, 0.832, 0.774
    assert s.word == "bank" and [w for w, _ in s.neighbours] == names
    assert [c for _, c in s.neighbours] == pytest.approx([cos[n] for n in names], rel=1e-12)
    # the split: unit rows (cash's length of 10 must not pull the direction), centred, projected
    # on the covariance's top eigenvector with its largest entry made positive; group 1 is the
    # side at or above zero: three money words against one river word
    rows = E[[1, 2, 4, 3]]
    U = rows / np.linalg.norm(rows, axis=1, keepdims=True)
    Uc = U - U.mean(axis=0)
    v = np.linalg.eigh(Uc.T @ Uc)[1][:, -1]
    v = v * np.sign(v[np.argmax(np.abs(v))])
    up = Uc @ v >= 0
    assert s.groups == {"group 1": [n for n, u in zip(names, up) if u],
                        "group 2": [n for n, u in zip(names, up) if not u]}
    assert s.groups == {"group 1": ["coins", "money", "cash"], "group 2": ["river"]}
    # bank's cosine to each group's centroid (the mean of its members' unit rows)
    for g, key in (("group 1", "centroid_a"), ("group 2", "centroid_b")):
        c = U[[names.index(w) for w in s.groups[g]]].mean(axis=0)
        want = np.array([1.0, 1.0]) @ c / (np.sqrt(2) * np.linalg.norm(c))
        assert getattr(s.position, key) == pytest.approx(want, rel=1e-12)
    assert (s.position.word, s.position.group_a, s.position.group_b) == ("bank", "group 1", "group 2")
    # the map: bank then its neighbours, nearest first, at their true distances (2-D rows)
    pts = E[[0, 1, 2, 4, 3]]
    want_d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    got_d = np.linalg.norm(s.coords[:, None] - s.coords[None], axis=2)
    assert s.coords.shape == (5, 2) and got_d == pytest.approx(want_d, abs=1e-9)


def test_sense_split_of_neighbours_all_one_way_still_makes_two_groups():
    import warnings

    import numpy as np

    from core.bigtext import sense_split

    vocab = ["w", "a", "b", "c", "d", "zero"]
    E = np.array([[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [3.0, 0.0], [4.0, 0.0], [0.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # no mean of an empty group, no 0 / 0
        s = sense_split(E[:5], vocab[:5], "w", k=4)
        # every neighbour has cosine 0 to w: ties keep the vocabulary's order; one direction,
        # no spread to split along: the nearer half, then the rest
        assert [n for n, _ in s.neighbours] == ["a", "b", "c", "d"]
        assert s.groups == {"group 1": ["a", "b"], "group 2": ["c", "d"]}
        assert (s.position.centroid_a, s.position.centroid_b) == (0.0, 0.0)
        # a zero row is a neighbour too (cosine 0) and stays a zero "unit" row: centred, the
        # four (1, 0) rows sit at +0.2 and the zero row at -0.8 along (1, 0)
        s = sense_split(E, vocab, "w", k=5)
    assert s.groups == {"group 1": ["a", "b", "c", "d"], "group 2": ["zero"]}


def test_sense_split_default_k_clamp_and_refusals():
    import numpy as np

    from core.bigtext import sense_split

    rng = np.random.default_rng(0)
    vocab = [f"w{i}" for i in range(20)]
    E = rng.normal(size=(20, 3))
    assert len(sense_split(E, vocab, "w0").neighbours) == 12                # k = 12 by default
    assert len(sense_split(E[:5], vocab[:5], "w0", k=12).neighbours) == 4   # at most V - 1
    assert len(sense_split(E[:3], vocab[:3], "w0", k=12).neighbours) == 2
    with pytest.raises(ValueError, match="^Splitting neighbours needs at least 3 words in the vocabulary.$"):
        sense_split(E[:2], vocab[:2], "w0")
    with pytest.raises(ValueError, match="^Splitting neighbours needs at least 3 words"):
        sense_split(E, vocab, "w0", k=1)
    with pytest.raises(KeyError, match="'nope' is not in the vocabulary"):
        sense_split(E, vocab, "nope")


@pytest.mark.parametrize("which", ["E", "W"])
def test_negative_sampling_stops_when_either_table_overflows(guide, monkeypatch, which):
    import numpy as np

    calls = []

    def fake(E, W, centres, contexts, negatives):
        calls.append(1)
        dE, dW = np.full_like(E, 1e-3), np.full_like(W, 1e-3)
        if len(calls) == 2:                            # finite, but the update overflows
            (dE if which == "E" else dW)[...] = -1e308
        return 1.0, dE, dW

    monkeypatch.setattr(negsampling, "ns_loss_and_grads", fake)
    config = negsampling.NegSamplingConfig(lr=10.0, epochs=3)
    r = negsampling.train_negsampling(guide, config)
    assert r.diverged and r.diverged_step == 2 and r.steps == 2 and len(calls) == 2
    E0, W0 = negsampling.init_params(guide.V, config, np.random.default_rng(config.seed))
    np.testing.assert_allclose(r.E, E0 - 1e-2)         # the tables after the one good update
    np.testing.assert_allclose(r.W, W0 - 1e-2)


def test_negative_sampling_gradients_keep_float32_tables_in_float32():
    import numpy as np

    rng = np.random.default_rng(0)
    E, W = rng.normal(size=(5, 3)).astype(np.float32), rng.normal(size=(3, 5)).astype(np.float32)
    loss, dE, dW = negsampling.ns_loss_and_grads(E, W, np.array([0, 1]), np.array([2, 3]),
                                                 np.array([[4, 2], [3, 0]]))
    assert dE.dtype == dW.dtype == np.float32


def test_odd_one_out_scores_are_mean_cosines_with_the_others():
    import numpy as np

    from core.relations import odd_one_out

    E = np.array([[1.0, 0.0], [0.8, 0.6], [0.0, 1.0], [5.0, 5.0]])
    odd, scores = odd_one_out(E, ["a", "b", "c", "d"], ["a", "b", "c"])
    # cosines: a.b 0.8, a.c 0, b.c 0.6; each word's mean over the two others
    assert odd == "c"
    assert scores == pytest.approx({"a": 0.4, "b": 0.7, "c": 0.3}, abs=1e-12)


def test_the_snippet_leaves_out_replay_only_settings():
    from core.corpus import GUIDE_TEXT
    from core.export import snippet
    from core.skipgram import SkipGramConfig

    text = snippet(SkipGramConfig(snapshot_every=10), 2, GUIDE_TEXT)
    assert "snapshot_every" not in text and "seed=" in text


def test_noise_distribution_has_a_share_for_every_word_even_unseen_last_ones():
    import numpy as np

    from core.sgns import noise_distribution

    q = noise_distribution(np.array([0, 0, 0, 0, 1]), 4, power=0.5)      # words 2 and 3 never occur
    assert q.tolist() == pytest.approx([2 / 3, 1 / 3, 0.0, 0.0], abs=1e-15) and len(q) == 4


def test_block_loss_uses_the_given_buffers_and_survives_overflow_in_each_precision():
    import warnings

    import numpy as np

    from core.sgns import BlockBuffers, block_loss_and_grads

    rng = np.random.default_rng(0)
    X, U, w = rng.normal(size=(2, 1, 3)), rng.normal(size=(2, 3, 3)), np.ones((2, 1, 3))
    want = block_loss_and_grads(X, U, w)
    buffers = BlockBuffers(5, 1, 3, 3, np.float64)              # room for more blocks than given
    loss, dX, dU = block_loss_and_grads(X, U, w, buffers=buffers)
    assert loss == pytest.approx(want[0], rel=1e-12) and dX.shape == (2, 1, 3) and dU.shape == (2, 3, 3)
    assert np.shares_memory(dX, buffers.dX) and np.shares_memory(dU, buffers.dU)
    # the true word scored -1000: sigma(-1000) underflows to 0 and its log is clamped at the
    # smallest normal number of the precision: -log(tiny) = 708.40 (float64) or 87.34 (float32)
    X = np.array([[[10.0, 0.0]]])
    U = np.array([[[-100.0, 0.0]]])
    for dtype, floor in ((np.float64, 708.3964185322641), (np.float32, 87.33654475055310)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss, dX, dU = block_loss_and_grads(X.astype(dtype), U.astype(dtype), np.ones((1, 1, 1), dtype))
        assert loss == pytest.approx(floor, rel=1e-6) and dX.dtype == dU.dtype == dtype


def test_a_file_error_without_a_description_is_named_by_its_kind(tmp_path, monkeypatch):
    from pathlib import Path

    from core.tokenizer import TokenizerUnavailable, gpt2

    def fail(self):
        raise PermissionError()                        # no strerror: the message names the kind

    monkeypatch.setattr(Path, "read_bytes", fail)
    with pytest.raises(TokenizerUnavailable) as caught:
        gpt2(tmp_path / "gpt2.tiktoken")
    assert str(caught.value) == "The GPT-2 vocabulary file gpt2.tiktoken could not be read (PermissionError)."


def test_a_cbow_floor_of_zero_is_printed_as_0_not_minus_0():
    import math

    from core.cbow import loss_floor

    floor = loss_floor(Corpus.from_text("a b", window=1))      # each bag has one centre: no loss left
    assert floor == 0.0 and math.copysign(1.0, floor) == 1.0 and f"{floor:.3f}" == "0.000"


# --- word2vec: what a run reports --------------------------------------------------------------

class _TwoReadings:
    """time.perf_counter for one word2vec call: the start, then 2.5 s later."""

    def __init__(self):
        self.readings = iter([10.0, 12.5])

    def perf_counter(self):
        return next(self.readings)


def _w2v_text():
    return [["the", "cat", "sat"], ["the", "dog", "sat"]] * 20 + [["zebra"]]   # zebra: below min_count


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


def test_noise_table_entries_by_hand():
    import numpy as np

    from core.sgns import noise_table

    assert noise_table(np.array([1, 1]), size=4).tolist() == [0, 0, 1, 1]      # entries at 1/8, 3/8, ...
    assert noise_table(np.array([1, 1]), size=3).tolist() == [0, 1, 1]         # 1/2 sits on the boundary
    assert noise_table(np.array([0, 5]), size=4).tolist() == [1, 1, 1, 1]      # never a word never seen
    # q ~ count ** power: 1 : 9 is 1/4 : 3/4 at power 0.5 but 0.16 : 0.84 at the default 0.75
    assert noise_table(np.array([1, 9]), power=0.5, size=8).tolist() == [0, 0, 1, 1, 1, 1, 1, 1]
    assert noise_table(np.array([1, 9]), size=8).tolist() == [0, 1, 1, 1, 1, 1, 1, 1]
    assert len(noise_table(np.array([1, 1]))) == 1_000_000                     # at least a million
    assert len(noise_table(np.ones(20_000))) == 2_000_000                      # or 100 per word


def test_window_updates_clamp_a_hopeless_question_and_keep_quiet_on_overflow():
    import math
    import warnings

    import numpy as np

    from core.sgns import window_updates

    # one context, the true word scored -1000 and a negative scored 0: sigma(-1000) underflows
    # to 0 and its log is clamped at the smallest normal number, -log(tiny) = 708.40 (float64)
    # or 87.34 (float32); the negative costs ln 2
    X, U = np.array([[[10.0]]]), np.array([[[-100.0], [0.0]]])
    for dtype, floor in ((np.float64, 708.3964185322641), (np.float32, 87.33654475055310)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss, dX, dU = window_updates(X.astype(dtype), U.astype(dtype), np.ones((1, 1, 2), dtype),
                                          scale=np.array([1.0], dtype))
        assert loss == pytest.approx(floor + math.log(2), rel=1e-6)


def test_tsne_takes_a_list_and_leaves_the_callers_table_alone():
    import numpy as np

    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    before = X.copy()
    a = tsne(X.tolist(), n_iter=20, seed=1)
    b = tsne(X, n_iter=20, seed=1)
    assert np.array_equal(X, before) and np.array_equal(a.coords, b.coords)


def test_tsne_stops_only_before_its_last_step_and_keeps_every_frame():
    import numpy as np

    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    r = tsne(X, n_iter=4, report_every=2, callback=lambda step, kl: step == 4)   # "stop" at the end
    assert (r.stopped, r.n_iter) == (False, 4)
    r = tsne(X, n_iter=4, report_every=1, callback=lambda step, kl: step == 3)
    assert (r.stopped, r.n_iter) == (True, 3)
    r = tsne(X, n_iter=5, frame_every=2)
    assert r.frame_steps.tolist() == [0, 2, 4, 5] and len(r.frames) == len(r.frame_kl) == 4
    with pytest.raises(ValueError, match="^Perplexity is an effective number of neighbours: it must be at least 1.$"):
        tsne(X, perplexity=True)


def test_text_changes_of_plain_and_unusual_text():
    from core.corpus import text_changes

    c = text_changes("the cat sat.")                     # plain ASCII: nothing to report
    assert (c.normalised, c.n_normalised, c.dropped, c.n_dropped, bool(c)) == ([], 0, [], 0, False)
    # upper case alone is not a change; the full-width A is (to "a"); the two cats are dropped;
    # DEL (127) and "!" are ASCII and not counted
    c = text_changes("CAT \uff21 dog \U0001f431\U0001f431 x\x7f!")
    assert c.normalised == [("\uff21", "a")] and c.n_normalised == 1
    assert c.dropped == ["\U0001f431"] and c.n_dropped == 2 and bool(c)


def test_a_corpus_lookup_names_what_is_not_a_word():
    with pytest.raises(TypeError, match="^A word must be a string, not int.$"):
        Corpus.from_text("a b").index(3)
