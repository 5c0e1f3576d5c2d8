"""core.embedding: lookup, its gradient, table initialisation and their messages, pinned exactly
(details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core import embedding
from core.embedding import example_upstream, init_table, lookup, lookup_backward, one_hot, rows_touched
from lab_ui.widgets.presets import upstream_in_hundredths
from tests.refusal import refused


def test_lookup_messages_name_the_bad_id_and_the_range():
    W = np.zeros((5, 2))
    with pytest.raises(IndexError, match=r"^Token id 5 is outside the vocabulary \(0 to 4\)\.$"):
        lookup(W, [1, 5])
    with pytest.raises(IndexError, match=r"^Token id -1 is outside the vocabulary \(0 to 4\)\.$"):
        lookup(W, [-1, 9])
    with pytest.raises(IndexError, match=r"^Token id 0 is|^Token ids must be whole numbers\.$"):
        lookup(W, [0.5])
    assert lookup(W, [0, 4]).shape == (2, 2)


def test_lookup_backward_on_a_batch_of_two_sentences():
    ids = np.array([[1, 0], [1, 3]])
    g = np.arange(2 * 2 * 3, dtype=float).reshape(2, 2, 3)          # (B, T, d)
    grad = lookup_backward(ids, g, 5)
    np.testing.assert_array_equal(grad[1], g[0, 0] + g[1, 0])
    np.testing.assert_array_equal(grad[0], g[0, 1])
    np.testing.assert_array_equal(grad[3], g[1, 1])
    np.testing.assert_array_equal(grad[[2, 4]], 0)
    assert grad.dtype == np.float64
    np.testing.assert_array_equal(rows_touched(grad), [0, 1, 3])
    np.testing.assert_array_equal(rows_touched(np.zeros((3, 2))), [])


def test_example_upstream_is_the_seed_one_draw_shown_in_hundredths():
    np.testing.assert_array_equal(example_upstream(3, 4), np.random.default_rng(1).normal(0.0, 1.0, (1, 3, 4)))
    g = upstream_in_hundredths(3, 4)
    np.testing.assert_array_equal(g, np.random.default_rng(1).normal(0.0, 1.0, (1, 3, 4)).round(2))
    np.testing.assert_array_equal(g, np.round(g, 2))
    assert not np.array_equal(g, upstream_in_hundredths(3, 4, seed=2))


def test_the_bad_id_named_is_the_one_outside_even_next_to_id_0():
    W = np.zeros((5, 2))
    refused(lambda: lookup(W, [0, 5]), "Token id 5 is outside the vocabulary (0 to 4).", IndexError)
    refused(lambda: one_hot([0, 3], 3), "Token id 3 is outside the vocabulary (0 to 2).", IndexError)
    refused(lambda: lookup(W, [0, -2]), "Token id -2 is outside the vocabulary (0 to 4).", IndexError)
    refused(lambda: lookup(W, [0.5]), "Token ids must be whole numbers.", IndexError)


def test_a_table_of_exactly_the_entry_limit_is_built(monkeypatch):
    monkeypatch.setattr(embedding, "MAX_TABLE", 6)
    assert init_table(2, 3).shape == (2, 3)
    refused(lambda: init_table(7, 1), "A 7 x 1 table would hold 7 numbers; at most 6 are allowed here.")


def test_init_table_is_seed_zero_noise_around_zero():
    np.testing.assert_array_equal(init_table(4, 3), np.random.default_rng(0).normal(0.0, 0.02, (4, 3)))
    big = init_table(400, 50, std=1.0)
    assert abs(big.mean()) < 0.01 and abs(big.std() - 1.0) < 0.01


def test_embedding_gradients_name_each_bad_input():
    from core.embedding import example_upstream, lookup_backward, sgd_step

    refused(lambda: lookup_backward([0], np.ones((1, 2)), 0), "vocab_size must be at least 1; got 0.")
    assert np.array_equal(lookup_backward([0, 0], np.ones((2, 2)), 1), [[2.0, 2.0]])
    refused(lambda: lookup_backward([0], np.ones(2), 3), "grad_out must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: lookup_backward([0], np.ones((1, 2)), 2**24 + 1),
            "A 16,777,217 x 2 gradient would hold 33,554,434 numbers; at most 33,554,432 are allowed here.")
    refused(lambda: sgd_step(np.ones((2, 2)), np.ones((2, 2)), -1), "The learning rate must be at least 0; got -1.")
    assert sgd_step(np.ones((2, 2)), np.ones((2, 2)), 0).changed_rows.tolist() == []
    refused(lambda: example_upstream(0, 2), "T must be at least 1 (and at most 100,000); got 0.")
    refused(lambda: example_upstream(100_001, 2), "T must be at most 100,000 (and at least 1); got 100,001.")
    refused(lambda: example_upstream(2, 0), "d_model must be at least 1 (and at most 4,096); got 0.")
    refused(lambda: example_upstream(2, 4097), "d_model must be at most 4,096 (and at least 1); got 4,097.")
    refused(lambda: example_upstream(8193, 4096),
            "The upstream gradient would hold 33,558,528 numbers; at most 33,554,432 are allowed here.")
    refused(lambda: example_upstream(2, 2, seed=-1), "seed must be at least 0; got -1.")
    assert example_upstream(100_000, 1).shape == (1, 100_000, 1) and example_upstream(1, 4096).shape == (1, 1, 4096)
    assert np.array_equal(example_upstream(1, 2, seed=0), np.random.default_rng(0).normal(0.0, 1.0, (1, 1, 2)))


def test_embedding_tables_name_each_bad_input():
    from core.embedding import init_table, lookup, one_hot

    refused(lambda: init_table(0, 2), "vocab_size must be at least 1; got 0.")
    refused(lambda: init_table(2, 0), "d_model must be at least 1; got 0.")
    refused(lambda: init_table(2, 2, std=-1), "std must be at least 0; got -1.")
    refused(lambda: init_table(2**24 + 1, 2),
            "A 16,777,217 x 2 table would hold 33,554,434 numbers; at most 33,554,432 are allowed here.")
    for bad in ("x", True, 1.5):
        refused(lambda bad=bad: init_table(2, 2, rng=bad),
                "rng must be a seed (a whole number), a numpy Generator or None.", TypeError)
    assert np.array_equal(init_table(1, 1, std=0.0), [[0.0]]) and init_table(2, 3, rng=None).shape == (2, 3)
    assert np.array_equal(init_table(2, 3, std=2.0, rng=np.random.default_rng(5)),
                          np.random.default_rng(5).normal(0.0, 2.0, (2, 3)))
    refused(lambda: lookup(np.ones(3), [0]), "The table must have two dimensions (one row per token).")
    wide = np.broadcast_to(np.zeros(1), (1, 2**24 + 1))
    refused(lambda: lookup(wide, [0, 0]),
            "The looked-up vectors would hold 33,554,434 numbers; at most 33,554,432 are allowed here.")
    refused(lambda: one_hot([0], 0), "vocab_size must be at least 1; got 0.")
    refused(lambda: one_hot([0, 0], 2**24 + 1),
            "2 one-hot rows of width 16,777,217 would hold 33,554,434 numbers; at most 33,554,432 are allowed here.")
    assert one_hot([0], 1).tolist() == [[1.0]]
