"""core.vectors: the table type, checked against brute-force loops over the rows."""
import numpy as np
import pytest

from core.vectors import UnknownLabel, Vectors


def brute_cosine(u, v):
    nu, nv = np.sqrt(sum(x * x for x in u)), np.sqrt(sum(x * x for x in v))
    return 0.0 if nu == 0 or nv == 0 else sum(x * y for x, y in zip(u, v)) / (nu * nv)


@pytest.fixture(params=[np.float64, np.float32], ids=["float64", "float32"])
def table(request):
    rng = np.random.default_rng(7)
    E = rng.normal(size=(40, 6)).astype(request.param)
    E[5] = 0.0                                           # a zero row: cosine 0 with everything
    return Vectors([f"w{i}" for i in range(40)], E)


def test_index_cosine_and_nearest_match_a_loop(table):
    tol = 1e-12 if table.E.dtype == np.float64 else 1e-6
    assert table.index["w17"] == 17 and table.row("w17") == 17 and len(table) == 40 and table.shape == (40, 6)
    assert table.cosine("w1", "w2") == pytest.approx(brute_cosine(table.E[1], table.E[2]), abs=tol)
    assert table.cosine("w5", "w2") == 0.0
    sims = [brute_cosine(table.E[3], table.E[j]) for j in range(40)]
    want = sorted((j for j in range(40) if j != 3), key=lambda j: -sims[j])[:7]
    got = table.nearest("w3", 7)
    assert [w for w, _ in got] == [f"w{j}" for j in want]
    assert [c for _, c in got] == pytest.approx([sims[j] for j in want], abs=tol)


def test_analogy_is_the_nearest_to_the_offset_of_unit_rows_without_the_three(table):
    U = table.E.astype(np.float64) / np.maximum(np.linalg.norm(table.E.astype(np.float64), axis=1, keepdims=True),
                                                1e-300)
    target = U[2] - U[1] + U[4]
    sims = [brute_cosine(target, table.E[j]) for j in range(40)]
    want = sorted((j for j in range(40) if j not in (1, 2, 4)), key=lambda j: -sims[j])[:3]
    assert [w for w, _ in table.analogy("w1", "w2", "w4", 3)] == [f"w{j}" for j in want]


def test_ties_go_to_the_lower_row_and_k_is_capped():
    t = Vectors(list("abcde"), np.array([[1.0, 0], [1, 0], [2, 0], [0, 1], [1, 0]]))
    assert [w for w, _ in t.nearest("a", 10)] == ["b", "c", "e", "d"]
    assert t.nearest("a", 0) == []


def test_unknown_labels_name_the_nearest_spellings():
    t = Vectors(["cat", "cats", "dog", "catalogue"], np.eye(4))
    with pytest.raises(UnknownLabel) as caught:
        t.nearest("kat", 2)
    assert caught.value.suggestions[0] == "cat" and "catalogue" not in caught.value.suggestions
    assert str(caught.value).startswith("'kat' is not in the vocabulary. Nearest spellings: 'cat'")
    assert isinstance(caught.value, KeyError)
    with pytest.raises(UnknownLabel, match="'zzzz' is not in the vocabulary.$"):
        t.cosine("zzzz", "cat")
    with pytest.raises(TypeError):
        t.row(3)


def test_subset_and_first_keep_rows_and_labels(table):
    sub = table.subset(["w9", "w2"])
    assert sub.labels == ["w9", "w2"] and np.array_equal(sub.E, table.E[[9, 2]])
    head = table.first(10)
    assert head.labels == table.labels[:10] and np.shares_memory(head.E, table.E)
    assert table.first(1000).shape == (40, 6)


def test_a_table_refuses_mismatched_or_repeated_labels():
    with pytest.raises(ValueError, match="2 labels for 3 rows"):
        Vectors(["a", "b"], np.zeros((3, 2)))
    with pytest.raises(ValueError, match="distinct"):
        Vectors(["a", "a"], np.zeros((2, 2)))
    with pytest.raises(ValueError, match="2 dimensions"):
        Vectors(["a"], np.zeros(3))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nearest_to_many_equals_one_at_a_time(dtype):
    rng = np.random.default_rng(3)
    t = Vectors([f"w{i}" for i in range(400)], rng.normal(size=(400, 16)).astype(dtype))
    M = rng.normal(size=(7, 16))
    excludes = [[f"w{i}"] for i in range(7)]
    many = t.nearest_to_many(M, 5, excludes)
    for v, ex, got in zip(M, excludes, many):
        one = t.nearest_to(v, 5, exclude=ex)
        assert [w for w, _ in got] == [w for w, _ in one]
        np.testing.assert_allclose([c for _, c in got], [c for _, c in one], atol=1e-6)
    assert t.nearest_to_many(np.zeros((0, 16)), 5) == []
