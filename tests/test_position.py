"""core.position: the sinusoidal table, a learned table's start, and the order test."""
import numpy as np
import pytest

from core.position import (LEARNED_INIT_STD, SINUSOID_BASE, learned_start, order_test, sinusoidal,
                           with_positions)


def test_sinusoidal_follows_the_formula_entry_by_entry():
    n, d = 7, 6
    P = sinusoidal(n, d)
    assert P.shape == (n, d)
    for t in range(n):
        for i in range(0, d, 2):
            angle = t / SINUSOID_BASE ** (i / d)
            assert P[t, i] == pytest.approx(np.sin(angle), abs=1e-15)
            assert P[t, i + 1] == pytest.approx(np.cos(angle), abs=1e-15)


def test_an_odd_width_keeps_the_last_sine_column():
    P = sinusoidal(4, 5)
    assert P.shape == (4, 5)
    np.testing.assert_allclose(P[:, 4], np.sin(np.arange(4) / SINUSOID_BASE ** (4 / 5)))


def test_sinusoidal_cosine_depends_only_on_the_distance():
    """|P[t]|^2 = d/2 for every t, and P[s].P[t] = sum_i cos((s - t) w_i): a stripe per distance."""
    d = 16
    P = sinusoidal(30, d)
    np.testing.assert_allclose((P * P).sum(axis=1), d / 2)
    w = 1.0 / SINUSOID_BASE ** (np.arange(0, d, 2) / d)
    for s, t in [(0, 5), (10, 15), (3, 27), (27, 3)]:
        assert P[s] @ P[t] == pytest.approx(np.cos((s - t) * w).sum(), abs=1e-12)


def test_learned_start_is_seeded_noise_of_the_given_spread():
    a, b = learned_start(400, 50, seed=3), learned_start(400, 50, seed=3)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, learned_start(400, 50, seed=4))
    assert a.std() == pytest.approx(LEARNED_INIT_STD, rel=0.02)
    assert abs(a.mean()) < 0.001


def test_with_positions_adds_place_t_to_the_row_of_token_t():
    E = np.arange(12.0).reshape(4, 3)
    P = np.array([[100.0, 0, 0], [0, 100, 0], [0, 0, 100], [1, 1, 1]])
    X = with_positions(E, [2, 0, 2], P)
    np.testing.assert_array_equal(X, [[106, 7, 8], [0, 101, 2], [6, 7, 108]])


@pytest.mark.parametrize("P, message", [(np.zeros((2, 3)), "only 2 rows"), (np.zeros((5, 2)), "same width")])
def test_with_positions_refuses_tables_that_do_not_fit(P, message):
    with pytest.raises(ValueError, match=message):
        with_positions(np.zeros((4, 3)), [0, 1, 2], P)


def test_order_test_plain_mean_stays_blind_and_tanh_sees_the_order():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(6, 8))
    a, b = [0, 1, 2, 0, 3], [0, 3, 2, 0, 1]            # the same words, two orders
    blind = order_test(E, a, b, None)
    assert blind.same_mean and blind.same_squashed
    sin = order_test(E, a, b, sinusoidal(5, 8))
    assert sin.same_mean                                  # mean(E + P) = mean(E) + mean(P)
    np.testing.assert_allclose(sin.mean_a, E[a].mean(axis=0) + sinusoidal(5, 8).mean(axis=0))
    assert not sin.same_squashed
    np.testing.assert_allclose(sin.squashed_a, np.tanh(E[a] + sinusoidal(5, 8)).mean(axis=0))
    np.testing.assert_allclose(sin.squashed_b, np.tanh(E[b] + sinusoidal(5, 8)).mean(axis=0))


def test_order_test_sees_sentences_of_different_lengths_even_in_the_plain_mean():
    E = np.eye(4)
    t = order_test(E, [0, 1], [0, 1, 0, 1], sinusoidal(4, 4))
    assert not t.same_mean                               # 2 vs 4 position vectors averaged
    assert order_test(E, [0, 1], [0, 1, 0, 1], None).same_mean


def test_order_test_needs_words():
    with pytest.raises(ValueError, match="at least one word"):
        order_test(np.eye(3), [], [0], None)
