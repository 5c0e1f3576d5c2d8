"""Details the other tests left loose, found by mutation testing (docs/quality.md): each test
here kills mutants that changed a number or a bound and still passed the suite."""
import re

import numpy as np
import pytest

from core.corpus import Corpus
from core.embedding import example_upstream
from core.generated import generate_corpus
from lab_ui.presets import upstream_in_hundredths
from core.skipgram import softmax
from lab_ui.parse import MAX_TYPED_ENTRIES, MAX_IDS, InputError, parse_ids, parse_matrix, parse_vector


def test_softmax_is_the_normalised_exponential_and_stable():
    Z = np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
    want = np.exp(Z) / np.exp(Z).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(softmax(Z), want, rtol=1e-12)
    np.testing.assert_allclose(softmax(Z + 1000.0), want, rtol=1e-12)     # shift-invariant, no overflow
    np.testing.assert_allclose(softmax(np.array([2.0, 0.0])), np.exp([2.0, 0.0]) / np.exp([2.0, 0.0]).sum())
    np.testing.assert_array_equal(softmax(np.array([[0.0, 0.0], [1000.0, 0.0]])).round(3), [[0.5, 0.5], [1.0, 0.0]])


def test_example_upstream_is_the_seed_one_draw_shown_in_hundredths():
    np.testing.assert_array_equal(example_upstream(3, 4), np.random.default_rng(1).normal(0.0, 1.0, (1, 3, 4)))
    g = upstream_in_hundredths(3, 4)
    np.testing.assert_array_equal(g, np.random.default_rng(1).normal(0.0, 1.0, (1, 3, 4)).round(2))
    np.testing.assert_array_equal(g, np.round(g, 2))
    assert not np.array_equal(g, upstream_in_hundredths(3, 4, seed=2))


def test_generated_corpus_trains_on_a_window_of_two():
    g = generate_corpus()
    assert g.corpus().n_pairs == Corpus.from_text(g.text, window=2).n_pairs
    assert g.corpus(3).n_pairs == Corpus.from_text(g.text, window=3).n_pairs


def _message(call) -> str:
    with pytest.raises(InputError) as err:
        call()
    return str(err.value)


def test_id_messages_name_the_input_and_the_right_range():
    msg = _message(lambda: parse_ids("50257", 50_257, "The ids"))
    assert msg.startswith("The ids: 50257") and re.search(r"from 0 to 50,256\b", msg)
    msg = _message(lambda: parse_ids("7", 5, "Row ids"))
    assert msg.startswith("Row ids: 7") and re.search(r"from 0 to 4\b", msg)
    assert _message(lambda: parse_ids("", 5)).startswith("The ids are empty")
    long = "x" * 30
    assert repr(long[:20]) in _message(lambda: parse_ids(long, 5)) and repr(long[:21]) not in _message(
        lambda: parse_ids(long, 5))
    assert parse_ids(" ".join(["1"] * MAX_IDS), 5).shape == (MAX_IDS,)       # exactly the limit is fine
    msg = _message(lambda: parse_ids(" ".join(["1"] * (MAX_IDS + 1)), 5))
    assert f"{MAX_IDS + 1} given" in msg and f"at most {MAX_IDS}" in msg
    assert parse_ids("+3, 0", 5).tolist() == [3, 0]
    assert parse_ids("[4]", 5).tolist() == [4]


def test_vector_and_matrix_limits_are_inclusive_and_reported():
    assert parse_vector(",".join(["1"] * MAX_TYPED_ENTRIES)).shape == (MAX_TYPED_ENTRIES,)
    msg = _message(lambda: parse_vector(",".join(["1"] * (MAX_TYPED_ENTRIES + 1)), "Vector u"))
    assert msg.startswith("Vector u has 65 entries") and f"at most {MAX_TYPED_ENTRIES}" in msg
    assert parse_vector("1e6, -1e6").tolist() == [1e6, -1e6]                 # the bound itself is allowed
    assert "too large" in _message(lambda: parse_vector("1000001"))
    assert parse_matrix("\n".join(["1"] * 16)).shape == (16, 1)
    msg = _message(lambda: parse_matrix("\n".join(["1"] * 17), "The table"))
    assert msg.startswith("The table has 17 rows") and "at most 16" in msg
    msg = _message(lambda: parse_matrix("1, 2\n3", "The table"))
    assert "row 0: 2, row 1: 1" in msg
    long = "y" * 30
    assert repr(long[:20]) in _message(lambda: parse_vector(long)) and repr(long[:21]) not in _message(
        lambda: parse_vector(long))
