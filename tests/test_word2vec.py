"""core.word2vec and core.sgns: gradients, a per-pair reference loop, the recipe's pieces."""
import numpy as np
import pytest

import core.word2vec as w2v
from core.generated import generate_corpus, group_recovery
from core.sgns import (block_loss_and_grads, negative_sets_asked, noise_from_counts, scatter_add,
                       window_updates)
from core.config_rules import ConfigTypeError
from core.skipgram import ConfigError
from core.word2vec import (Word2VecConfig, build_vocab, keep_probabilities, text_ids,
                           train_word2vec)
from core.vectors import Vectors
from tests.gradcheck import numerical_gradient


def _sigmoid(s):
    return 1.0 / (1.0 + np.exp(-s))


def _blocks(seed=0, G=3, J=4, K=3, d=5):
    rng = np.random.default_rng(seed)
    X, U = rng.normal(size=(G, J, d)), rng.normal(size=(G, K + 1, d))
    weight = (rng.random((G, J, K + 1)) < 0.8).astype(np.float64)   # some questions skipped
    return X, U, weight, rng.uniform(0.5, 2.0, size=G)


def test_block_loss_is_the_formula_question_by_question():
    X, U, weight, _ = _blocks()
    expected = 0.0
    for g, j, k in np.ndindex(weight.shape):
        s = U[g, k] @ X[g, j]
        p_right = _sigmoid(s) if k == 0 else _sigmoid(-s)     # true word yes, negatives no
        expected -= weight[g, j, k] * np.log(p_right)
    assert block_loss_and_grads(X, U, weight)[0] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", [0, 1])
def test_block_gradients_match_central_finite_differences(seed):
    X, U, weight, scale = _blocks(seed)
    _, dX, dU = block_loss_and_grads(X, U, weight, scale=scale)
    for P, dP in ((X, dX), (U, dU)):
        num = numerical_gradient(lambda: block_loss_and_grads(X, U, weight)[0], P)
        num *= scale.reshape((-1,) + (1,) * (P.ndim - 1))   # scale multiplies gradients only
        np.testing.assert_allclose(dP, num, rtol=1e-6, atol=1e-8)


def test_window_updates_move_each_input_row_along_the_rows_the_earlier_contexts_left():
    """Brute force: in each block, context j asks its K + 1 questions against the output
    rows as the block started; its input row then moves along the rows as contexts
    0..j-1 left them (word2vec's order for the input rows); X keeps its starting value."""
    X, U, weight, scale = _blocks(seed=2, J=5)
    loss, dX, dU = window_updates(X, U, weight, scale=scale)
    want_loss, want_dX, Uj = 0.0, np.zeros_like(X), U.copy()
    for g, j in np.ndindex(X.shape[:2]):
        s = U[g] @ X[g, j]                                         # (K+1,) scores at the start
        sign = np.where(np.arange(len(s)) == 0, 1.0, -1.0)
        want_loss -= (weight[g, j] * np.log(_sigmoid(sign * s))).sum()
        coef = scale[g] * weight[g, j] * (_sigmoid(s) - (sign > 0))   # (K+1,) d(-log R)/ds * scale
        want_dX[g, j] = coef @ Uj[g]                               # along the rows as moved so far
        Uj[g] -= np.outer(coef, X[g, j])
    assert loss == pytest.approx(want_loss, rel=1e-12)
    np.testing.assert_allclose(dX, want_dX, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dU, U - Uj, rtol=1e-10, atol=1e-12)
    plain = block_loss_and_grads(X, U, weight, scale=scale)[1]
    assert np.abs(dX - plain).max() > 1e-3                        # the order does change dX


def test_window_updates_of_one_row_are_the_gradient_step():
    X, U, weight, scale = _blocks(seed=3, J=1)
    loss, dX, dU = window_updates(X, U, weight, scale=scale)
    want = block_loss_and_grads(X, U, weight, scale=scale)
    assert loss == pytest.approx(want[0], rel=1e-12)
    np.testing.assert_allclose(dX, want[1], rtol=1e-12)
    np.testing.assert_allclose(dU, want[2], rtol=1e-12)


@pytest.mark.parametrize("d,dtype", [(3, np.float64), (4, np.float64), (4, np.float32), (5, np.float32)])
def test_scatter_add_adds_repeats_like_add_at(d, dtype):
    rng = np.random.default_rng(0)
    ids, rows = rng.integers(0, 6, size=40), rng.normal(size=(40, d)).astype(dtype)
    expected = np.ones((6, d), dtype)
    np.add.at(expected, ids, rows)
    got = np.ones((6, d), dtype)
    scatter_add(got, ids, rows)
    np.testing.assert_array_equal(got, expected)                  # same additions, same order
    scatter_add(got, ids, rows, subtract=True, work=np.empty((40, d), np.intp))
    np.testing.assert_allclose(got, np.ones((6, d)), atol=1e-5)
    with pytest.raises(ValueError, match="contiguous"):
        scatter_add(np.ones((3, 6)).T, ids, rows)


def test_vocabulary_sub_sampling_and_noise_follow_word2vec():
    vocab, counts = build_vocab([["a", "b", "b", "c"], ["c", "c", "d"]], min_count=2)
    assert vocab == ["c", "b"] and counts.tolist() == [3, 2]           # "a", "d" below min_count
    ids, sent = text_ids([["a", "b", "b", "c"], ["c", "c", "d"]], vocab)
    assert ids.tolist() == [1, 1, 0, 0, 0] and sent.tolist() == [0, 0, 0, 1, 1]
    c = np.array([4000, 400, 40, 4])                                    # T = 4444, t = 4.444
    t = 1e-3 * c.sum()
    np.testing.assert_allclose(keep_probabilities(c, 1e-3),
                               np.minimum(1, (np.sqrt(c / t) + 1) * t / c))
    assert keep_probabilities(c, 0.0).tolist() == [1, 1, 1, 1]
    np.testing.assert_allclose(noise_from_counts(c), c ** 0.75 / (c ** 0.75).sum())


def test_one_epochs_draws_have_the_right_distributions():
    counts = np.array([5000, 1000, 200, 50])
    ids = np.repeat(np.arange(4), counts).astype(np.int32)
    config = Word2VecConfig(window=4, negative=5, sample=1e-2, min_count=1)
    keep = keep_probabilities(counts, config.sample)
    table = w2v.noise_table(counts)
    pos, b, negs = w2v._epoch_plan(ids, np.zeros_like(ids), keep, table, config, np.random.default_rng(0))
    kept = np.bincount(ids[pos], minlength=4) / counts
    np.testing.assert_allclose(kept, keep, atol=0.03)                   # sub-sampling rates
    assert set(np.unique(b)) == {1, 2, 3, 4}                            # shrunk windows 1..window
    drawn = np.bincount(negs.ravel(), minlength=4) / negs.size
    np.testing.assert_allclose(drawn, noise_from_counts(counts), atol=0.01)


def _reference_epoch(sentences, config):
    """word2vec's first epoch with per-pair Python loops. Core's batch rule: a block's
    centres are taken in ``block_passes`` passes (pass o: centres o, o + p, ...; one pass
    by default). A pass reads each text position's input row as the earlier passes of the
    block left that position (at the block's start, E0, in the first pass; a word at two
    positions has two copies, whose changes add up into E at the block's end) and the
    output rows as the earlier passes left them (W0). Each centre's output rows (its own
    and its negatives': ``negative_sets`` sets of K, context c of the window's 2w asking
    about set c * S // 2w) start from W0, every question is scored against them, and they
    move after each context word, left to right, as in word2vec.c, so a context word's
    input row moves along the rows as the earlier context words left them; the net
    changes add up into W. With ``expected_window`` every word up to ``window`` places
    away is a context, its step times (window - k + 1) / window (k places away)."""
    vocab, counts = build_vocab(sentences, config.min_count)
    ids, sent = text_ids(sentences, vocab)
    V, d, n = len(vocab), config.d_model, len(ids)
    rng, more = w2v.generators(config.seed)
    E = ((rng.random((V, d), dtype=np.float32) * 2 - 1) / d).astype(np.float64)
    W = np.zeros((V, d))
    keep = keep_probabilities(counts, config.sample)
    table = w2v.noise_table(counts, config.power)
    pos, b, negs = w2v._epoch_plan(ids, sent, keep, table, config, rng, more)
    kid, ksent = ids[pos], sent[pos]
    K, S, w, p = config.negative, config.negative_sets, config.window, config.block_passes
    for a in range(0, len(pos), config.block_words):
        z = min(a + config.block_words, len(pos))
        E0 = E.copy()
        moved = {j: E0[kid[j]].copy() for j in range(max(0, a - w), min(len(pos), z + w))}   # per position
        for o in range(p):
            W0, start = W.copy(), {j: row.copy() for j, row in moved.items()}   # as the earlier passes left them
            for g in range(a + o, z, p):
                lr = config.alpha - (config.alpha - config.min_alpha) * pos[g] / (n * config.epochs)
                out = [(kid[g], 1.0, None)] + [(m, 0.0, i // K) for i, m in enumerate(negs[g]) if m != kid[g]]
                rows = [W0[t].copy() for t, _, _ in out]            # this centre's output rows
                reach = w if config.expected_window else b[g]
                for j in range(g - reach, g + reach + 1):
                    if j == g or not 0 <= j < len(pos) or ksent[j] != ksent[g]:
                        continue                                    # the centre, outside, other sentence
                    c = j - g + w - (j > g)                         # context 0..2w-1, left to right
                    asked = [q for q, (_, _, s) in enumerate(out) if s is None or s == c * S // (2 * w)]
                    x = start[j]
                    step = lr * ((w - abs(j - g) + 1) / w if config.expected_window else 1.0)
                    coefs = {q: step * (_sigmoid(W0[out[q][0]] @ x) - out[q][1]) for q in asked}   # scored at the start
                    moved[j] -= sum(coefs[q] * rows[q] for q in asked)    # d(-log sigma(+-s))/ds * lr
                    for q in asked:
                        rows[q] -= coefs[q] * x                     # the row moves before the next context
                for (t, _, _), u in zip(out, rows):
                    W[t] += u - W0[t]
        for j, row in moved.items():
            E[kid[j]] += row - E0[kid[j]]
    return vocab, E, W


@pytest.mark.parametrize("block_words,negative_sets,passes,expected", [
    (1, 1, 1, False), (7, 1, 1, False), (1, 2, 1, False), (7, 6, 1, False), (7, 1, 7, False),
    (9, 2, 3, False), (9, 1, 2, False), (1, 1, 1, True), (7, 1, 1, True), (9, 2, 3, True)])
def test_training_equals_the_per_pair_reference_loop(block_words, negative_sets, passes, expected):
    g = generate_corpus(60, seed=3)
    sentences = [s.split() for s in g.sentences]
    config = Word2VecConfig(d_model=6, window=3, negative=3, min_count=2, sample=0.02, epochs=1,
                            seed=5, alpha=0.2, block_words=block_words, negative_sets=negative_sets,
                            block_passes=passes, expected_window=expected)
    vocab, E, W = _reference_epoch(sentences, config)
    r = train_word2vec(sentences, config)
    assert r.vocab == vocab
    np.testing.assert_allclose(r.E, E, atol=2e-6)
    np.testing.assert_allclose(r.W, W, atol=2e-6)
    assert np.abs(r.W).max() > 0.01                                 # it did train


def test_recovers_the_groups_of_a_generated_corpus():
    g = generate_corpus(800, seed=0)
    sentences = [s.split() for s in g.sentences]
    r = train_word2vec(sentences, Word2VecConfig(d_model=20, window=3, min_count=1, sample=0.0,
                                                 epochs=10, seed=1))
    rec = group_recovery(Vectors(r.vocab, r.E), g.groups, k=3)
    assert rec.overall >= 0.8 > 3 * rec.chance
    assert r.losses[-1] < 0.8 * r.losses[0]
    assert r.E.dtype == np.float32 and r.E.shape == (len(r.vocab), 20)
    assert r.counts.tolist() == sorted(r.counts.tolist(), reverse=True)   # most frequent first


@pytest.mark.parametrize("extra", [dict(block_passes=7), dict(block_passes=7, negative_sets=6),
                                   dict(block_passes=7, negative_sets=6, careful_epochs=3),
                                   dict(expected_window=True)])
def test_passes_and_negative_sets_recover_the_groups_too(extra):
    g = generate_corpus(800, seed=0)
    sentences = [s.split() for s in g.sentences]
    r = train_word2vec(sentences, Word2VecConfig(d_model=20, window=3, min_count=1, sample=0.0,
                                                 epochs=10, seed=1, **extra))
    rec = group_recovery(Vectors(r.vocab, r.E), g.groups, k=3)
    assert rec.overall >= 0.8 > 3 * rec.chance
    assert r.losses[-1] < 0.8 * r.losses[0]


def test_deterministic_for_a_seed():
    sentences = [s.split() for s in generate_corpus(100).sentences]
    config = Word2VecConfig(d_model=8, epochs=2, min_count=1)
    a, b = train_word2vec(sentences, config), train_word2vec(sentences, config)
    np.testing.assert_array_equal(a.E, b.E)
    c = train_word2vec(sentences, Word2VecConfig(d_model=8, epochs=2, min_count=1, seed=2))
    assert not np.array_equal(a.E, c.E)


def test_callback_reports_progress_and_true_stops():
    sentences = [s.split() for s in generate_corpus(400).sentences]
    n = sum(len(s) for s in sentences)
    seen = []
    full = train_word2vec(sentences, Word2VecConfig(d_model=8, epochs=3, min_count=1, block_words=64),
                          callback=lambda done, loss: seen.append((done, loss)))
    assert not full.stopped and full.words_done == 3 * n and full.epochs_done == 3
    done = [s for s, _ in seen]
    assert done == sorted(done) and done[-1] == 3 * n and all(np.isfinite(v) for _, v in seen)
    calls = []
    r = train_word2vec(sentences, Word2VecConfig(d_model=8, epochs=3, min_count=1, block_words=64),
                       callback=lambda done, loss: calls.append(done) or len(calls) == 5)
    assert r.stopped and len(calls) == 5 and r.words_done == calls[-1] < n
    assert r.epochs_done == 0 and len(r.losses) == 0
    assert not np.array_equal(r.E, full.E)


def test_zero_epochs_give_word2vecs_initialisation():
    sentences = [["a", "b", "a"]]
    r = train_word2vec(sentences, Word2VecConfig(d_model=4, epochs=0, min_count=1, seed=3))
    rng = np.random.default_rng(3)
    np.testing.assert_array_equal(r.E, (rng.random((2, 4), dtype=np.float32) * 2 - 1) / 4)
    assert not r.W.any() and not r.stopped


def test_text_without_frequent_words_is_refused():
    with pytest.raises(ConfigError, match="5 times"):
        train_word2vec([["a", "b"]], Word2VecConfig())


@pytest.mark.parametrize("kwargs", [dict(d_model=0), dict(window=0), dict(negative=0),
                                    dict(min_count=0), dict(sample=-0.1), dict(sample=1.0),
                                    dict(epochs=-1), dict(seed=-1), dict(alpha=0.0),
                                    dict(alpha=float("nan")), dict(min_alpha=0.5),
                                    dict(power=-1.0), dict(block_words=0), dict(d_model=2.5),
                                    dict(window=True), dict(negative_sets=0),
                                    dict(window=2, negative_sets=5), dict(block_passes=0),
                                    dict(window=2, block_passes=6), dict(careful_epochs=-1),
                                    dict(careful_epochs=201), dict(expected_window=1),
                                    dict(expected_window="yes")])
def test_bad_settings_are_refused(kwargs):
    with pytest.raises(ConfigError):
        Word2VecConfig(**kwargs)


@pytest.mark.parametrize("value", [1, 0, "yes", None])
def test_expected_window_is_a_flag_of_its_own_type(value):
    with pytest.raises(ConfigTypeError, match=r"^expected_window must be True or False\.$"):
        Word2VecConfig(expected_window=value)
    assert Word2VecConfig(expected_window=True).expected_window is True


def test_negative_sets_give_the_window_one_set_or_each_context_word_its_own():
    one = negative_sets_asked(w=2, K=3, S=1)              # (5, 4): slots x (centre + 3 negatives)
    assert one[:, 0].all() and not one[2, 1:].any()           # every slot asks about the centre; slot 2 is it
    assert one[[0, 1, 3, 4], 1:].all()                        # the whole window shares the 3 negatives
    own = negative_sets_asked(w=2, K=3, S=4)              # (5, 13)
    contexts = own[[0, 1, 3, 4], 1:]                          # (4, 12)
    assert (contexts.sum(axis=1) == 3).all() and (contexts.sum(axis=0) == 1).all()   # 3 each, none shared
    halves = negative_sets_asked(w=2, K=1, S=2)[:, 1:].astype(int).tolist()
    assert halves == [[1, 0], [1, 0], [0, 0], [0, 1], [0, 1]]   # left and right each their own set
    r = train_word2vec([s.split() for s in generate_corpus(60).sentences],
                       Word2VecConfig(d_model=4, window=2, min_count=1, epochs=1, negative_sets=4))
    assert np.isfinite(r.losses).all() and r.E.shape == (len(r.vocab), 4)


def test_careful_epochs_take_the_first_epochs_in_passes_with_more_negative_sets(monkeypatch):
    """careful_epochs=1 of 3: the first epoch's blocks go in block_passes passes with
    negative_sets sets of negatives, the later ones in one pass with one set."""
    seen = []
    real = w2v._update_block

    def update(E, W, kid, ksent, b, negs, lr, w, buf):
        seen.append((buf.passes, negs.shape[1]))
        return real(E, W, kid, ksent, b, negs, lr, w, buf)

    monkeypatch.setattr(w2v, "_update_block", update)
    sentences = [s.split() for s in generate_corpus(60, seed=1).sentences]
    base = dict(d_model=6, window=2, negative=3, min_count=1, sample=0.0, epochs=3, block_words=16)
    r = train_word2vec(sentences, Word2VecConfig(**base, negative_sets=2, block_passes=5, careful_epochs=1))
    blocks = len(seen) // 3                                  # sample 0: every epoch has the same blocks
    assert len(seen) == 3 * blocks and set(seen[:blocks]) == {(5, 6)} and set(seen[blocks:]) == {(1, 3)}
    seen.clear()
    plain = train_word2vec(sentences, Word2VecConfig(**base))
    assert set(seen) == {(1, 3)} and len(seen) == 3 * blocks
    assert not np.array_equal(r.E, plain.E) and np.isfinite(r.E).all()


def test_more_negative_sets_keep_the_main_streams_draws():
    """The extra sets come from their own stream: with S = 2 a seed draws the same kept
    positions, windows and first set as with S = 1, epoch after epoch, so two variants'
    runs differ only where the variants do (the benchmark pairs them seed by seed)."""
    counts = np.array([500, 100, 20, 5])
    ids = np.repeat(np.arange(4), counts).astype(np.int32)
    sent, keep, table = np.zeros_like(ids), keep_probabilities(counts, 1e-2), w2v.noise_table(counts)
    one, two = w2v.generators(7), w2v.generators(7)
    for _ in range(2):
        p1, b1, n1 = w2v._epoch_plan(ids, sent, keep, table, Word2VecConfig(negative=3, min_count=1), *one)
        p2, b2, n2 = w2v._epoch_plan(ids, sent, keep, table,
                                     Word2VecConfig(negative=3, min_count=1, negative_sets=2), *two)
        np.testing.assert_array_equal(p1, p2)
        np.testing.assert_array_equal(b1, b2)
        np.testing.assert_array_equal(n1, n2[:, :3])             # the first set: the same draws
        assert n2.shape == (len(p1), 6) and not np.array_equal(n2[:, 3:], n2[:, :3])


def test_expected_window_weights_are_how_often_a_drawn_window_reaches_each_slot():
    """word2vec draws b from 1..w per centre; slot k places away is a context when b >= k.
    The expected-window weights are those frequencies, averaged over the draws."""
    w = 4
    counts = np.array([5000])
    ids = np.zeros(5000, np.int32)
    plan = w2v._epoch_plan(ids, ids, np.ones(1), w2v.noise_table(counts), Word2VecConfig(window=w, min_count=1),
                           *w2v.generators(2))
    k = np.abs(np.arange(2 * w + 1) - w)                                   # (2w+1,) places from the centre
    reached = ((k <= plan[1][:, None]) & (k > 0)).mean(axis=0)               # share of centres reaching slot j
    np.testing.assert_allclose(w2v.expected_window_weights(w), reached, atol=0.02)
    assert w2v.expected_window_weights(w).tolist() == [0.25, 0.5, 0.75, 1.0, 0.0, 1.0, 0.75, 0.5, 0.25]
    assert w2v.expected_window_weights(1).tolist() == [1.0, 0.0, 1.0]      # window 1: no draw to average


def test_expected_window_reports_the_loss_per_unit_of_pair_weight():
    """Output rows start at 0, so the first block asks every question at probability 1/2:
    ln 2 each, (K + 1) ln 2 per pair (less only where a negative is the centre itself).
    With expected_window the pairs count by their weights, so the mean stays per pair;
    a text with no pairs at all (one-word sentences) reports 0."""
    sentences = [[f"w{i % 60}" for i in range(j, j + 12)] for j in range(0, 600, 12)]
    for expected in (False, True):
        seen: list[float] = []
        r = train_word2vec(sentences, Word2VecConfig(d_model=4, window=3, negative=5, min_count=1, sample=0.0,
                                                     epochs=1, expected_window=expected),
                           callback=lambda done, loss, seen=seen: seen.append(loss))
        assert seen[0] == pytest.approx(6 * np.log(2), rel=0.03)
        assert len(seen) == 1 and r.losses.tolist() == pytest.approx(seen)   # one block: the epoch's mean
    calls: list[float] = []
    lonely = train_word2vec([["a"], ["b"]] * 10, Word2VecConfig(d_model=4, min_count=1, epochs=2,
                                                                   expected_window=True),
                            callback=lambda done, loss: calls.append(loss))
    assert lonely.losses.tolist() == [0.0, 0.0] and calls == [0.0, 0.0] and not lonely.W.any()


def test_expected_window_keeps_the_seeds_other_draws():
    """expected_window still draws each centre's b (and ignores it), so a seed keeps its
    positions and negatives: the two rows of the benchmark are paired seed by seed. On a
    text of sentences of two words every context is 1 place away, weight 1 either way."""
    pairs = [["a", "b"], ["c", "d"], ["b", "c"], ["d", "a"]] * 30
    base = dict(d_model=6, window=3, min_count=1, sample=0.0, epochs=3, seed=4)
    drawn = train_word2vec(pairs, Word2VecConfig(**base, expected_window=False))
    expected = train_word2vec(pairs, Word2VecConfig(**base, expected_window=True))
    np.testing.assert_allclose(expected.E, drawn.E, atol=1e-7)
    np.testing.assert_allclose(expected.W, drawn.W, atol=1e-7)
    assert np.abs(drawn.W).max() > 0.05                                      # it did train
    longer = [s * 2 for s in pairs]                                          # now far contexts exist
    far = train_word2vec(longer, Word2VecConfig(**base, expected_window=True)).E
    near = train_word2vec(longer, Word2VecConfig(**base, expected_window=False)).E
    assert np.abs(far - near).max() > 1e-2 and np.abs(far).max() < 10        # trained apart, not blown up
