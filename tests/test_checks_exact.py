"""core.checks: whole, number, array and indices, every bound on both sides and every message, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np

from core.checks import IdError, array, indices, number, whole
from tests.refusal import refused


def test_whole_keeps_every_whole_number_in_range_as_an_int():
    assert whole(3, "k", 1, 5) == 3 and type(whole(np.int8(3), "k")) is int
    assert whole(1, "k", 1, 5) == 1 and whole(5, "k", 1, 5) == 5          # both ends are allowed
    assert whole(-10**20, "k") == -10**20 and whole(10**20, "k", None, None) == 10**20
    assert whole(7, "k", None, 7) == 7 and whole(7, "k", 7) == 7


def test_whole_refuses_bools_floats_and_strings_by_name():
    refused(lambda: whole(True, "k"), "k must be a whole number, not bool.", TypeError)
    refused(lambda: whole(np.bool_(False), "the count"), "the count must be a whole number, not bool.", TypeError)
    refused(lambda: whole(3.0, "k"), "k must be a whole number, not float.", TypeError)
    refused(lambda: whole("3", "k"), "k must be a whole number, not str.", TypeError)


def test_whole_names_the_bound_it_missed_and_the_other_one():
    refused(lambda: whole(0, "k", 1, 5), "k must be at least 1 (and at most 5); got 0.")
    refused(lambda: whole(6, "k", 1, 5), "k must be at most 5 (and at least 1); got 6.")
    refused(lambda: whole(-1, "n", 0), "n must be at least 0; got -1.")
    refused(lambda: whole(12_346, "n", None, 12_345), "n must be at most 12,345; got 12,346.")
    refused(lambda: whole(-5_000, "n", -4_999, 5_000), "n must be at least -4,999 (and at most 5,000); got -5,000.")


def test_number_keeps_finite_reals_as_floats():
    assert number(0.5, "lr", 0, low_open=True) == 0.5 and type(number(np.float32(0.5), "lr")) is float
    assert number(2, "lr") == 2.0 and type(number(2, "lr")) is float
    assert number(0.0, "lr", 0) == 0.0 and number(1.0, "lr", 0, 1) == 1.0                  # closed ends
    assert number(-1e300, "x") == -1e300 and number(1e-300, "x", 0, low_open=True) == 1e-300


def test_number_refuses_non_numbers_and_non_finite_values():
    refused(lambda: number(True, "lr"), "lr must be a number, not bool.", TypeError)
    refused(lambda: number(np.bool_(True), "lr"), "lr must be a number, not bool.", TypeError)
    refused(lambda: number("0.5", "lr"), "lr must be a number, not str.", TypeError)
    refused(lambda: number(1j, "lr"), "lr must be a number, not complex.", TypeError)
    refused(lambda: number(float("nan"), "lr"), "lr must be a finite number; got nan.")
    refused(lambda: number(float("-inf"), "lr"), "lr must be a finite number; got -inf.")


def test_number_names_open_and_closed_bounds():
    refused(lambda: number(0, "lr", 0, low_open=True), "lr must be above 0; got 0.")
    refused(lambda: number(-0.25, "lr", 0), "lr must be at least 0; got -0.25.")
    refused(lambda: number(1.5, "p", 0, 1), "p must be at most 1; got 1.5.")
    refused(lambda: number(2e6, "p", None, 1e6), "p must be at most 1e+06; got 2e+06.")


def test_array_returns_a_finite_float64_copy_of_the_right_shape():
    A = array([[1, 2], [3, 4]], "X", 2)
    assert A.dtype == np.float64 and A.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert array(np.ones(4, dtype=np.float32), "u", 1, max_size=4).dtype == np.float64
    assert array(np.ones((2, 3)), "X", 2, max_size=6, min_rows=2).shape == (2, 3)   # both limits exactly met
    assert array([], "u", 1).shape == (0,)                      # no rows needed unless asked


def test_array_names_each_problem():
    refused(lambda: array([["a", "b"]], "X", 2), "X must be an array of numbers.", TypeError)
    refused(lambda: array([1, 2], "X", 2), "X must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: array([[1, 2]], "u", 1), "u must be a vector (1 dimension); got 2 dimension(s).")
    refused(lambda: array(np.ones((2, 2, 2)), "T", 3, max_size=7), "T has 8 numbers; at most 7 are allowed.")
    refused(lambda: array(np.ones(1_001), "u", 1, max_size=1_000), "u has 1,001 numbers; at most 1,000 are allowed.")
    refused(lambda: array(np.ones((1, 2)), "X", 2, min_rows=2), "X needs at least 2 rows; got 1.")
    refused(lambda: array([1.0, np.nan], "u", 1), "u contains NaN or infinite values.")
    refused(lambda: array([1.0, -np.inf], "u", 1), "u contains NaN or infinite values.")


def test_indices_returns_int64_ids_in_range():
    ids = indices(np.array([0, 2], dtype=np.int8), "ids", 3)
    assert ids.dtype == np.int64 and ids.tolist() == [0, 2]
    assert indices([], "ids", 3).tolist() == [] and indices([], "ids", 3).dtype == np.int64
    assert indices([1, 2, 0], "ids", 3, max_size=3).tolist() == [1, 2, 0]           # exactly max_size ids


def test_indices_are_refused_as_both_value_and_index_errors():
    for bad in ([0.5], [True, False], ["a"], [[0], [1, 2]]):
        error = refused(lambda bad=bad: indices(bad, "ids", 3), "ids must be whole numbers.", IdError)
        assert isinstance(error, ValueError) and isinstance(error, IndexError)
    refused(lambda: indices([0, 1, 2, 0], "ids", 3, max_size=3), "ids: 4 given; at most 3 are allowed.", IdError)
    refused(lambda: indices(np.zeros(1_001, int), "ids", 3, max_size=1_000),
            "ids: 1,001 given; at most 1,000 are allowed.", IdError)


def test_indices_name_the_id_outside_the_vocabulary():
    refused(lambda: indices([0, 3], "ids", 3), "ids: 3 is outside the vocabulary (0 to 2).", IdError)
    refused(lambda: indices([0, -1], "ids", 3), "ids: -1 is outside the vocabulary (0 to 2).", IdError)
    refused(lambda: indices([-2, 7], "ids", 3), "ids: -2 is outside the vocabulary (0 to 2).", IdError)  # the low one first
    refused(lambda: indices([1, 9], "ids", 3), "ids: 9 is outside the vocabulary (0 to 2).", IdError)
    refused(lambda: indices([0, 5], "ids", 5), "ids: 5 is outside the vocabulary (0 to 4).", IdError)   # min 0 is fine
