"""CBOW (core.cbow): gradients, the loop reference, training, the floor, determinism, stop, divergence."""
import numpy as np
import pytest

from core.cbow import (bags, contexts, loss_and_grads_cbow, loss_and_grads_positions, loss_floor,
                       train_cbow, uniform)
from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, init_params
from tests.gradcheck import numerical_gradient


@pytest.fixture(scope="module")
def corpus():
    return Corpus.from_text(GUIDE_TEXT, window=2)


@pytest.fixture(scope="module")
def reference(corpus):
    return train_cbow(corpus, SkipGramConfig())


def test_contexts_are_the_window_around_each_position(corpus):
    ctx = contexts(corpus)
    assert len(ctx) == len(corpus.words) == 33
    v = corpus.vocab
    assert [v[k] for k in ctx[0]] == ["cat", "sat"]               # "the" at the start
    assert [v[k] for k in ctx[2]] == ["the", "cat", "on", "the"]  # "sat": two on each side
    assert sum(len(c) for c in ctx) == corpus.n_pairs             # every pair, seen from its context


def test_bags_group_positions_and_average(corpus):
    b = bags(corpus)
    assert b.K.sum() == len(corpus.words)
    np.testing.assert_allclose(b.A.sum(axis=1), 1.0)
    # every position's bag is one row of A: its centre is counted in that row of K
    for centre, c in zip(corpus.ids, contexts(corpus)):
        row = np.bincount(c, minlength=corpus.V) / len(c)
        hits = np.flatnonzero(np.all(np.isclose(b.A, row), axis=1))
        assert len(hits) == 1 and b.K[hits[0], centre] >= 1


def test_gradients_match_finite_differences():
    rng = np.random.default_rng(3)
    c = Corpus.from_text("a b c a d b a c e b a", window=2)
    b = bags(c)
    E, W = rng.normal(size=(c.V, 3)), rng.normal(size=(3, c.V))
    _, dE, dW = loss_and_grads_cbow(E, W, b)
    for P, dP in ((E, dE), (W, dW)):
        num = numerical_gradient(lambda: loss_and_grads_cbow(E, W, b)[0], P)
        np.testing.assert_allclose(dP, num, atol=1e-7)


@pytest.mark.parametrize("window", [1, 2, 4])
def test_vectorised_equals_the_loop_over_positions(window):
    rng = np.random.default_rng(window)
    c = Corpus.from_text(" ".join(rng.choice(list("abcdefgh"), 120)), window=window)
    E, W = rng.normal(size=(c.V, 5)), rng.normal(size=(5, c.V))
    l1, dE1, dW1 = loss_and_grads_cbow(E, W, bags(c))
    l2, dE2, dW2 = loss_and_grads_positions(E, W, c)
    assert l1 == pytest.approx(l2, abs=1e-12)
    np.testing.assert_allclose(dE1, dE2, atol=1e-12)
    np.testing.assert_allclose(dW1, dW2, atol=1e-12)


def test_training_matches_a_loop_trained_independently(corpus):
    cfg = SkipGramConfig(steps=100)
    E, W = init_params(corpus.V, cfg)
    for _ in range(cfg.steps):
        _, dE, dW = loss_and_grads_positions(E, W, corpus)
        E, W = E - cfg.lr * dE, W - cfg.lr * dW
    fast = train_cbow(corpus, cfg)
    np.testing.assert_allclose(fast.E, E, atol=1e-12)
    np.testing.assert_allclose(fast.W, W, atol=1e-12)


def test_training_lowers_the_loss_and_stays_above_the_floor(corpus, reference):
    floor = loss_floor(corpus)
    assert len(reference.losses) == 3001 and not reference.diverged
    assert reference.losses[0] == pytest.approx(uniform(corpus), abs=0.01)
    assert reference.losses[-1] < 0.5 * reference.losses[0]
    assert np.all(np.diff(reference.losses) <= 1e-12)          # gradient descent at lr 0.5: never up
    assert (reference.losses >= floor - 1e-12).all()
    assert round(float(reference.losses[-1]), 3) == 0.097 and round(floor, 3) == 0.084


def test_floor_by_hand():
    # "a b a b", window 1: bags {b} (centre a, twice) and {a} (centre b, twice): each bag has one centre
    assert loss_floor(Corpus.from_text("a b a b", window=1)) == 0.0
    # "a b a c a", window 1: bag {a} has centre b once and c once -> 2 of 5 positions cost ln 2
    assert loss_floor(Corpus.from_text("a b a c a", window=1)) == pytest.approx(2 * np.log(2) / 5)
    assert uniform(Corpus.from_text("a b a c a")) == pytest.approx(np.log(3))


def test_the_floor_is_reachable_in_principle():
    """A bag that always has the same centre can be predicted almost surely: a long run on a
    tiny text comes close to the floor from above."""
    c = Corpus.from_text("a b a c a", window=1)
    r = train_cbow(c, SkipGramConfig(d_model=4, lr=2.0, steps=5000))
    assert loss_floor(c) < r.final_loss < loss_floor(c) + 0.02


def test_seeded_runs_repeat_and_seeds_differ(corpus):
    cfg = SkipGramConfig(steps=50, seed=7)
    a, b = train_cbow(corpus, cfg), train_cbow(corpus, cfg)
    np.testing.assert_array_equal(a.E, b.E)
    np.testing.assert_array_equal(a.losses, b.losses)
    other = train_cbow(corpus, SkipGramConfig(steps=50, seed=8))
    assert not np.allclose(a.E, other.E)


def test_the_callback_stops_the_run(corpus):
    seen = []

    def stop_at_10(step, loss):
        seen.append((step, loss))
        return step == 10

    r = train_cbow(corpus, SkipGramConfig(steps=100), callback=stop_at_10)
    assert r.stopped and len(r.losses) == 11 and [s for s, _ in seen] == list(range(11))
    assert r.losses[-1] == seen[-1][1]
    np.testing.assert_array_equal(r.E, train_cbow(corpus, SkipGramConfig(steps=10)).E)


def test_a_huge_learning_rate_diverges(corpus):
    r = train_cbow(corpus, SkipGramConfig(lr=1e5, steps=200))
    assert r.diverged and r.diverged_step is not None and r.diverged_step <= 200
    assert np.isfinite(r.losses).all() and np.isfinite(r.E).all()
    assert len(r.losses) <= r.diverged_step + 1


def test_wrong_arguments_are_refused(corpus):
    with pytest.raises(TypeError):
        train_cbow("the cat", SkipGramConfig())
    with pytest.raises(TypeError):
        train_cbow(corpus, {"steps": 3})
    with pytest.raises(TypeError):
        train_cbow(corpus, SkipGramConfig(), callback=3)


def test_neighbour_overlap_against_a_brute_force_count(corpus, reference):
    from core.similarity import cosine_matrix, neighbour_overlap
    from core.skipgram import train
    sg = train(corpus, SkipGramConfig())
    for k in (1, 3, 5, 11):
        for i in range(corpus.V):
            tops = []
            for E in (sg.E, reference.E):
                s = cosine_matrix(E)[i].copy()
                s[i] = -np.inf
                tops.append(list(np.argsort(-s, kind="stable")[:k]))
            assert neighbour_overlap(sg.E, reference.E, i, k) == [j for j in tops[0] if j in tops[1]]
    assert len(neighbour_overlap(sg.E, reference.E, 0, 11)) == 11      # all other words: all shared
    with pytest.raises(ValueError):
        neighbour_overlap(sg.E, reference.E[:5], 0, 2)
