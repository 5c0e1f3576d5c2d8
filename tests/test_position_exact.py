"""core.position: the position tables' bounds, defaults and refusals, pinned exactly (details mutation
testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.position import LEARNED_INIT_STD, learned_start
from tests.refusal import refused


def test_a_learned_position_table_starts_from_seed_0():
    start = learned_start(3, 4)
    np.testing.assert_array_equal(start, np.random.default_rng(0).normal(0.0, LEARNED_INIT_STD, (3, 4)))
    assert not np.array_equal(start, learned_start(3, 4, seed=1))


def test_the_largest_position_base_is_1e12_exactly():
    from core.position import sinusoidal

    assert sinusoidal(2, 2, base=1e12).shape == (2, 2)
    with pytest.raises(ValueError, match=r"^The base must be at most 1e\+12; got 1e\+12\.$"):
        sinusoidal(2, 2, base=1e12 + 0.5)                    # the next representable halves past it


def test_position_tables_name_each_bound():
    from core.position import learned_start, sinusoidal

    for make in (sinusoidal, learned_start):
        refused(lambda make=make: make(0, 4), "The number of positions must be at least 1 (and at most 4,096); got 0.")
        refused(lambda make=make: make(4097, 4), "The number of positions must be at most 4,096 (and at least 1); got 4,097.")
        refused(lambda make=make: make(4, 0), "d_model must be at least 1 (and at most 4,096); got 0.")
        refused(lambda make=make: make(4, 4097), "d_model must be at most 4,096 (and at least 1); got 4,097.")
        assert make(1, 1).shape == (1, 1) and make(4096, 1).shape == (4096, 1) and make(1, 4096).shape == (1, 4096)
    refused(lambda: sinusoidal(4, 4, base=0.5), "The base must be at least 1; got 0.5.")
    refused(lambda: sinusoidal(4, 4, base=1e12 + 500.0), "The base must be at most 1e+12; got 1e+12.")
    assert np.array_equal(sinusoidal(3, 2, base=1.0), [[0.0, 1.0], [np.sin(1.0), np.cos(1.0)],
                                                       [np.sin(2.0), np.cos(2.0)]])
    assert sinusoidal(3, 4, base=1e12)[2, 2] == pytest.approx(np.sin(2 / 1e6), rel=1e-12)   # 1e12 ** (2/4)
    refused(lambda: learned_start(2, 2, std=-1.0), "The standard deviation must be at least 0; got -1.")
    refused(lambda: learned_start(2, 2, std=1e6 + 0.5), "The standard deviation must be at most 1e+06; got 1e+06.")
    assert np.array_equal(learned_start(2, 3, seed=4, std=1e6), np.random.default_rng(4).normal(0.0, 1e6, (2, 3)))
    assert np.array_equal(learned_start(2, 3, std=0.0), np.zeros((2, 3)))


def test_adding_positions_names_each_bad_input():
    from core.position import order_test, with_positions

    E, P = np.arange(6.0).reshape(3, 2), np.arange(4.0).reshape(2, 2) / 10
    refused(lambda: with_positions(np.ones(3), [0], P), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: with_positions(E, [0], np.ones(2)),
            "The position table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: with_positions(E, [3], P), "The ids: 3 is outside the vocabulary (0 to 2).")
    refused(lambda: with_positions(E, [0, 1, 2], P), "The sentence has 3 tokens but the position table only 2 rows.")
    refused(lambda: with_positions(E, [0], np.ones((2, 3))),
            "Position vectors have 3 numbers, token rows 2: they must be the same width to be added.")
    # ids given as a row of a batch are one sentence: x_t = E[ids[t]] + P[t]
    assert np.array_equal(with_positions(E, [[2, 0]], P), [[4.0, 5.1], [0.2, 1.3]])
    refused(lambda: order_test(np.ones(3), [0], [0], None), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: order_test(E, [0], [5], None), "The ids: 5 is outside the vocabulary (0 to 2).")
    refused(lambda: order_test(E, [], [0], None), "A sentence needs at least one word.")
    t = order_test(E, [[2]], [[1, 0]], None)                # one word is a sentence; a batch row too
    assert np.array_equal(t.mean_a, [4.0, 5.0]) and np.array_equal(t.mean_b, [1.0, 2.0])
    assert np.array_equal(t.squashed_b, (np.tanh([2.0, 3.0]) + np.tanh([0.0, 1.0])) / 2)


def test_same_up_to_rounding_means_within_1e_12_of_the_size_and_at_least_of_one():
    from core.position import OrderTest

    def same(u, v):
        return OrderTest(np.array(u), np.array(v), np.array(u), np.array(v)).same_mean

    assert same([0.0], [1e-12])                              # exactly on the tolerance: the same
    assert not same([0.0], [1.5e-12])
    assert same([1e-3], [1e-3 + 5e-13])                      # small vectors: measured against 1
    assert not same([1.0], [1.0 + 1.5e-12])
    assert same([1e6, 0.0], [1e6 + 1e-7, 0.0]) and not same([1e6], [1e6 + 1e-5])
