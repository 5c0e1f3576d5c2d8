"""core.pair_step: one pair's forward and backward pass, checked against finite differences."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.pair_step import combined_scores, pair_step, rows_moved, walk
from core.skipgram import SkipGramConfig, init_params, loss_and_grads_pairs
from tests.gradcheck import numerical_gradient
from tests.refusal import refused


def pair_loss(E, W, c, t):
    z = E[c] @ W
    return float(np.log(np.exp(z - z.max()).sum()) + z.max() - z[t])


@pytest.fixture
def tables():
    rng = np.random.default_rng(5)
    return rng.normal(0, 0.5, (7, 3)), rng.normal(0, 0.5, (3, 7))


def test_forward_numbers(tables):
    E, W = tables
    s = pair_step(E, W, 2, 5, lr=0.3)
    np.testing.assert_array_equal(s.x, E[2])
    np.testing.assert_allclose(s.z, E[2] @ W)
    np.testing.assert_allclose(s.p, np.exp(s.z) / np.exp(s.z).sum())
    assert s.loss == pytest.approx(-np.log(s.p[5]))
    assert s.loss == pytest.approx(pair_loss(E, W, 2, 5))


def test_gradients_match_finite_differences(tables):
    E, W = tables
    c, t, h = 4, 1, 1e-6
    s = pair_step(E, W, c, t, lr=0.1)
    np.testing.assert_allclose(s.dW, numerical_gradient(lambda: pair_loss(E, W, c, t), W, h), rtol=0, atol=1e-8)
    x = E[c]                                            # a view: moving x moves row c of E
    np.testing.assert_allclose(s.dx, numerical_gradient(lambda: pair_loss(E, W, c, t), x, h), rtol=0, atol=1e-8)
    np.testing.assert_allclose(s.dz, s.p - np.eye(7)[t])


def test_the_update_moves_one_row_of_E_and_every_column_of_W(tables):
    E, W = tables
    s = pair_step(E, W, 3, 0, lr=0.5)
    np.testing.assert_array_equal(rows_moved(E, s.E_after), [3])
    np.testing.assert_allclose(s.E_after[3], E[3] - 0.5 * s.dx)
    np.testing.assert_allclose(s.W_after, W - 0.5 * s.dW)
    assert (s.column_moves > 0).all() and len(s.column_moves) == 7
    np.testing.assert_allclose(s.column_moves, 0.5 * np.linalg.norm(s.dW, axis=0))
    assert s.row_move == pytest.approx(0.5 * np.linalg.norm(s.dx))
    assert s.most_moved_column == int(np.argmax(s.column_moves))
    assert pair_loss(s.E_after, s.W_after, 3, 0) < s.loss        # a small step lowers this pair's loss
    np.testing.assert_array_equal(E, tables[0])                   # the inputs are not changed


def test_the_same_pair_as_centre_and_context():
    E, W = np.eye(3), np.eye(3)
    s = pair_step(E, W, 1, 1, lr=1.0)
    assert s.dz[1] == pytest.approx(s.p[1] - 1)


def test_walk_is_one_step_per_pair_in_order():
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E0, W0 = init_params(corpus.V, SkipGramConfig())
    E, W = E0, W0
    for c, t in zip(corpus.inputs[:5], corpus.targets[:5]):
        s = pair_step(E, W, int(c), int(t), 0.5)
        E, W = s.E_after, s.W_after
    E5, W5 = walk(E0, W0, corpus.inputs, corpus.targets, 0.5, 5)
    np.testing.assert_array_equal(E5, E)
    np.testing.assert_array_equal(W5, W)
    E_all, _ = walk(E0, W0, corpus.inputs, corpus.targets, 0.5, 0)
    np.testing.assert_array_equal(E_all, E0)


def test_a_pair_step_is_the_training_gradient_of_one_pair():
    """The full-batch trainer's gradient on a batch of one pair is this pair's gradient."""
    rng = np.random.default_rng(1)
    E, W = rng.normal(size=(6, 2)), rng.normal(size=(2, 6))
    loss, dE, dW = loss_and_grads_pairs(E, W, np.array([2]), np.array([4]))
    s = pair_step(E, W, 2, 4, lr=1.0)
    assert loss == pytest.approx(s.loss)
    np.testing.assert_allclose(dW, s.dW)
    np.testing.assert_allclose(dE[2], s.dx)


@pytest.mark.parametrize("V, d", [(12, 4), (12, 1), (5, 8)])
def test_the_two_tables_make_one_table_of_rank_at_most_d(V, d):
    rng = np.random.default_rng(0)
    S, rank = combined_scores(rng.normal(size=(V, d)), rng.normal(size=(d, V)))
    assert S.shape == (V, V)
    assert rank == min(V, d)


def test_mismatched_tables_are_refused():
    with pytest.raises(ValueError, match="W must be 2 x 3"):
        pair_step(np.zeros((3, 2)), np.zeros((3, 2)), 0, 1, 0.1)


def test_pair_step_names_each_bad_input():
    from core.pair_step import combined_scores, pair_step

    E, W = np.ones((3, 2)), np.ones((2, 3))
    for f in (lambda e, w: pair_step(e, w, 0, 1, 0.1), combined_scores):
        refused(lambda f=f: f(np.ones(3), W), "E must be a table (2 dimensions); got 1 dimension(s).")
        refused(lambda f=f: f(E, np.ones(3)), "W must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: pair_step(E, np.ones((2, 4)), 0, 1, 0.1),
            "W must be 2 x 3 to go with a 3 x 2 table E, not 2 x 4.")
    refused(lambda: pair_step(E, W, -1, 1, 0.1), "The centre id must be at least 0 (and at most 2); got -1.")
    refused(lambda: pair_step(E, W, 3, 1, 0.1), "The centre id must be at most 2 (and at least 0); got 3.")
    refused(lambda: pair_step(E, W, 0, -1, 0.1), "The context id must be at least 0 (and at most 2); got -1.")
    refused(lambda: pair_step(E, W, 0, 3, 0.1), "The context id must be at most 2 (and at least 0); got 3.")
    refused(lambda: pair_step(E, W, 0, 1, -0.5), "The learning rate must be at least 0; got -0.5.")
    refused(lambda: pair_step(E, W, 0, 1, 1_000_000.5), "The learning rate must be at most 1e+06; got 1e+06.")
    s = pair_step(E, W, 2, 0, 1_000_000.0)             # the last id and the largest rate are allowed
    assert (s.centre, s.context, s.lr) == (2, 0, 1e6)
    s = pair_step(E, W, 0, 2, 0.0)
    assert (s.centre, s.context, s.lr) == (0, 2, 0.0)


def test_walk_takes_from_none_to_every_pair():
    from core.pair_step import pair_step, walk

    rng = np.random.default_rng(0)
    E, W = rng.normal(size=(4, 2)), rng.normal(size=(2, 4))
    centres, contexts = np.array([0, 1, 2]), np.array([1, 2, 3])
    refused(lambda: walk(E, W, centres, contexts, 0.1, -1),
            "The number of steps must be at least 0 (and at most 3); got -1.")
    refused(lambda: walk(E, W, centres, contexts, 0.1, 4),
            "The number of steps must be at most 3 (and at least 0); got 4.")
    E0, W0 = walk(E, W, centres, contexts, 0.1, 0)
    assert np.array_equal(E0, E) and np.array_equal(W0, W)
    E3, W3 = walk(E, W, centres, contexts, 0.1, 3)
    e, w = E, W
    for c, t in zip(centres, contexts):
        s = pair_step(e, w, int(c), int(t), 0.1)
        e, w = s.E_after, s.W_after
    assert np.array_equal(E3, e) and np.array_equal(W3, w)
