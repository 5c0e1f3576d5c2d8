"""The core's argument contract (issue 19): bad calls raise TypeError or ValueError with a
plain message, never AttributeError, IndexError-only, LinAlgError, ZeroDivisionError or
MemoryError, and never return NaN; property tests over each public function's domain."""
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from core import budget
from core.context_mix import mixing_weights
from core.corpus import GUIDE_TEXT, Corpus, context_pairs, split_words
from core.embedding import init_table, lookup, lookup_backward, one_hot, one_hot_lookup, sgd_step
from core.generated import generate_corpus, group_recovery
from core.honesty import neighbour_overlap, random_orthogonal
from core.params import embedding_params
from core.projection import pca
from core.similarity import cosine, cosine_matrix, cosine_steps, mean_embedding, nearest, norm
from core.skipgram import SkipGramConfig, train
from core.tsne import tsne
from core.vectors import Vectors
from tests.conftest import ROOT

C = Corpus.from_text(GUIDE_TEXT)
E = np.random.default_rng(0).normal(size=(12, 4))
NAN, INF = float("nan"), float("inf")

HOSTILE = {
    "d_model=True": lambda: SkipGramConfig(d_model=True),
    "steps=3.0": lambda: SkipGramConfig(steps=3.0),
    "steps='3'": lambda: SkipGramConfig(steps="3"),
    "lr=nan": lambda: SkipGramConfig(lr=NAN),
    "lr='0.5'": lambda: SkipGramConfig(lr="0.5"),
    "init_std=1e300": lambda: SkipGramConfig(init_std=1e300),
    "init_std=-1": lambda: SkipGramConfig(init_std=-1.0),
    "seed=-1": lambda: SkipGramConfig(seed=-1),
    "seed=True": lambda: SkipGramConfig(seed=True),
    "snapshot_every=0": lambda: SkipGramConfig(snapshot_every=0),
    "train(text)": lambda: train(GUIDE_TEXT),
    "train(config=dict)": lambda: train(C, {"steps": 3}),
    "train(callback=3)": lambda: train(C, SkipGramConfig(steps=1), callback=3),
    "train(snapshots too big)": lambda: train(C, SkipGramConfig(d_model=256, steps=20_000, snapshot_every=1)),
    "from_text(None)": lambda: Corpus.from_text(None),
    "from_text(bytes)": lambda: Corpus.from_text(b"the cat sat"),
    "from_text(window=True)": lambda: Corpus.from_text(GUIDE_TEXT, window=True),
    "from_text(max_vocab=True)": lambda: Corpus.from_text(GUIDE_TEXT, max_vocab=True),
    "from_text(max_vocab=1.5)": lambda: Corpus.from_text(GUIDE_TEXT, max_vocab=1.5),
    "from_text(uncapped vocab)": lambda: Corpus.from_text(" ".join(f"w{i}" for i in range(6000))),
    "split_words(None)": lambda: split_words(None),
    "index(3)": lambda: C.index(3),
    "most_frequent(-1)": lambda: C.most_frequent(-1),
    "most_frequent(True)": lambda: C.most_frequent(True),
    "one_hot(50257 x 50257)": lambda: one_hot(np.arange(50_257), 50_257),
    "one_hot(-1)": lambda: one_hot([-1], 3),
    "one_hot(True)": lambda: one_hot([True], 3),
    "one_hot(1.5)": lambda: one_hot([1.5], 3),
    "one_hot(V=0)": lambda: one_hot([0], 0),
    "one_hot_lookup(-1)": lambda: one_hot_lookup(E, [-1]),
    "lookup(-1)": lambda: lookup(E, [-1]),
    "lookup(12)": lambda: lookup(E, [12]),
    "lookup(1-D table)": lambda: lookup(np.ones(3), [0]),
    "lookup(strings)": lambda: lookup(E, ["a"]),
    "lookup_backward(shape)": lambda: lookup_backward([[0, 1]], np.ones((1, 3, 2)), 4),
    "lookup_backward(huge V)": lambda: lookup_backward([[0]], np.ones((1, 1, 1000)), 10**6),
    "init_table(10**6 x 10**3)": lambda: init_table(10**6, 1000),
    "init_table(True, 2)": lambda: init_table(True, 2),
    "init_table(std=nan)": lambda: init_table(3, 2, std=NAN),
    "sgd_step(lr=inf)": lambda: sgd_step(E, E, INF),
    "sgd_step(shape)": lambda: sgd_step(E, E[:3], 0.1),
    "cosine(nan)": lambda: cosine([NAN, 1], [1, 1]),
    "cosine(inf)": lambda: cosine([INF, 1], [1, 1]),
    "cosine(lengths)": lambda: cosine([1, 2], [1, 2, 3]),
    "cosine(empty)": lambda: cosine([], []),
    "cosine(text)": lambda: cosine("ab", "cd"),
    "cosine(2-D)": lambda: cosine([[1, 2]], [[1, 2]]),
    "nearest(i=-1)": lambda: nearest(E, -1),
    "nearest(i=12)": lambda: nearest(E, 12),
    "nearest(k=-1)": lambda: nearest(E, 0, k=-1),
    "nearest(k=True)": lambda: nearest(E, 0, k=True),
    "nearest(i=1.0)": lambda: nearest(E, 1.0),
    "mean_embedding(-1)": lambda: mean_embedding(E, [-1]),
    "mean_embedding([])": lambda: mean_embedding(E, []),
    "cosine_matrix(nan)": lambda: cosine_matrix(np.full((3, 2), NAN)),
    "cosine_matrix(10,000 rows)": lambda: cosine_matrix(np.ones((10_000, 2))),
    "pca(k=0)": lambda: pca(E, k=0),
    "pca(k=True)": lambda: pca(E, k=True),
    "pca(nan)": lambda: pca(np.full((3, 2), NAN)),
    "pca(1-D)": lambda: pca(np.ones(3)),
    "pca(no rows)": lambda: pca(np.ones((0, 3))),
    "tsne(5,000 points)": lambda: tsne(np.ones((5_000, 2))),
    "tsne(n_iter=10**9)": lambda: tsne(E, n_iter=10**9),
    "tsne(perplexity=nan)": lambda: tsne(E, perplexity=NAN),
    "tsne(seed=-1)": lambda: tsne(E, seed=-1),
    "tsne(k=0)": lambda: tsne(E, k=0),
    "tsne(learning_rate=0)": lambda: tsne(E, learning_rate=0.0),
    "neighbour_overlap(k=0)": lambda: neighbour_overlap(E, E[:, :2], k=0),
    "neighbour_overlap(k=1.5)": lambda: neighbour_overlap(E, E[:, :2], k=1.5),
    "random_orthogonal(10**5)": lambda: random_orthogonal(10**5),
    "random_orthogonal(True)": lambda: random_orthogonal(True),
    "mixing_weights(T=10**6)": lambda: mixing_weights(10**6),
    "mixing_weights(self_weight=nan)": lambda: mixing_weights(3, self_weight=NAN),
    "generate_corpus(10**9)": lambda: generate_corpus(10**9),
    "generate_corpus(True)": lambda: generate_corpus(True),
    "group_recovery(k=True)": lambda: group_recovery(Vectors(list("abcd"), E[:4]), {"x": ["a", "b"], "y": ["c", "d"]}, k=True),
    "embedding_params(True, 2)": lambda: embedding_params(True, 2),
    "budget(steps=-1)": lambda: budget.skipgram_work(12, 4, -1),
    "context_pairs(window=True)": lambda: Corpus.from_text(GUIDE_TEXT, window=0),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_call_raises_a_plain_type_or_value_error(name):
    with pytest.raises((TypeError, ValueError)) as info:
        HOSTILE[name]()
    message = str(info.value)
    assert len(message) > 15, message                     # a sentence, not a bare value
    assert str(ROOT) not in message and "Traceback" not in message, message


# --- tiny and huge finite vectors -------------------------------------------------------------

@pytest.mark.parametrize("scale", [1e-300, 1e-200, 1e-160, 1.0, 1e150, 1e200, 1e300])
def test_cosine_and_norm_keep_working_at_any_finite_scale(scale):
    u, v = np.array([3.0, 4.0]) * scale, np.array([4.0, 3.0]) * scale
    assert cosine(u, v) == pytest.approx(0.96, abs=1e-12)
    assert norm(u) == pytest.approx(5 * scale, rel=1e-12)
    assert cosine_matrix(np.vstack([u, v]))[0, 1] == pytest.approx(0.96, abs=1e-12)
    assert nearest(np.vstack([u, v, -u]), 0, k=2)[0] == (1, pytest.approx(0.96, abs=1e-12))


def test_a_subnormal_vector_still_has_a_direction():
    s = cosine_steps([5e-324, 0.0], [1.0, 0.0])
    assert s.cosine == 1.0 and s.norm_u > 0


finite = st.floats(allow_nan=False, allow_infinity=False, width=64)
vectors = st.integers(1, 8).flatmap(lambda d: st.tuples(hnp.arrays(np.float64, d, elements=finite),
                                                        hnp.arrays(np.float64, d, elements=finite)))


@settings(max_examples=300, deadline=None)
@given(vectors)
def test_cosine_is_bounded_symmetric_and_scale_free(uv):
    u, v = uv
    c = cosine(u, v)
    assert -1.0 <= c <= 1.0 and not math.isnan(c)
    assert c == pytest.approx(cosine(v, u), abs=1e-12)
    if np.abs(u).max() > 0 and np.abs(v).max() > 0:
        if np.abs(u).max() > 2.0**-400:                  # scaled, u stays representable
            assert cosine(u * 2.0**-600, v) == pytest.approx(c, abs=1e-9)   # power of 2: exact
        if np.abs(v).max() < 2.0**400:
            assert cosine(u, v * 2.0**600) == pytest.approx(c, abs=1e-9)
    else:
        assert c == 0.0


@settings(max_examples=200, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 5)), elements=finite))
def test_norms_never_overflow_or_vanish_for_finite_rows(X):
    for row in X:
        n = norm(row)
        assert math.isfinite(n) or np.abs(row).max() > 1e307
        assert (n > 0) == bool(np.any(row != 0))


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 40), st.integers(1, 6),
       st.lists(st.integers(0, 39), min_size=1, max_size=20))
def test_lookup_equals_one_hot_product_for_valid_ids(V, d, ids):
    ids = [i % V for i in ids]
    W = init_table(V, d, std=1.0, rng=V)
    np.testing.assert_array_equal(lookup(W, ids), one_hot_lookup(W, ids))
    assert (one_hot(ids, V).sum(axis=-1) == 1).all()


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(-5, 50), min_size=1, max_size=10))
def test_ids_outside_the_table_are_refused_not_wrapped(ids):
    if all(0 <= i < 12 for i in ids):
        np.testing.assert_array_equal(lookup(E, ids), E[ids])
        assert mean_embedding(E, ids).shape == (4,)
    else:
        with pytest.raises(ValueError):
            lookup(E, ids)
        with pytest.raises(ValueError):
            mean_embedding(E, ids)


@settings(max_examples=100, deadline=None)
@given(st.integers(-3, 15), st.integers(-3, 15))
def test_nearest_accepts_exactly_the_valid_i_and_k(i, k):
    if 0 <= i < 12 and 0 <= k < 12:
        out = nearest(E, i, k)
        assert len(out) == k and all(j != i for j, _ in out)
    else:
        with pytest.raises(ValueError):
            nearest(E, i, k)


@settings(max_examples=60, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 8), st.integers(1, 5)),
                  elements=st.floats(-1e6, 1e6)), st.integers(1, 4))
def test_pca_shares_are_a_partition_of_at_most_one(X, k):
    p = pca(X, k=k)
    assert p.coords.shape == (len(X), k)
    assert (p.explained >= 0).all() and p.explained.sum() <= 1 + 1e-9
    assert np.isfinite(p.coords).all()


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 32), st.floats(1e-6, 10.0), st.integers(0, 30), st.integers(0, 2**32))
def test_any_valid_config_trains_to_a_finite_result(d, init_std, steps, seed):
    r = train(C, SkipGramConfig(d_model=d, init_std=init_std, steps=steps, seed=seed))
    assert np.isfinite(r.losses).all() and len(r.losses) >= 1
    assert np.isfinite(r.E).all() and np.isfinite(r.W).all()


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 400), st.integers(1, 64), st.integers(0, 5000))
def test_budget_grows_with_every_knob(V, d, steps):
    w = budget.skipgram_work(V, d, steps)
    assert w < budget.skipgram_work(V + 1, d, steps)
    assert w < budget.skipgram_work(V, d + 1, steps)
    assert w < budget.skipgram_work(V, d, steps + 1)
    most = budget.max_skipgram_steps(V, d)
    assert budget.skipgram_work(V, d, most) <= budget.BUDGET or most == 0


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=0, max_size=30), st.integers(1, 10))
def test_context_pairs_match_a_brute_force_loop(ids, window):
    ids = np.array(ids, dtype=np.int64)
    a, b = context_pairs(ids, window)
    ref = [(ids[i], ids[j]) for i in range(len(ids)) for j in range(len(ids))
           if 0 < abs(i - j) <= window]
    assert list(zip(a.tolist(), b.tolist())) == [(int(x), int(y)) for x, y in ref]
