"""What the core says when it refuses an input, word for word, and where each bound lies.

Found by the full mutation run of core/ (docs/quality.md, section 4): a misspelt name in a
message, a bound moved by one, or a bound dropped went unnoticed. Each case states the call
and the exact message a user (or the screen showing it) gets; the bounds are checked on both
sides (the last allowed value passes, the first refused one does not).
"""
import numpy as np
import pytest

from core.vectors import Vectors


def refused(call, message, kind=ValueError):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


# --- core.pair_step ----------------------------------------------------------------------------

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


# --- core.position -----------------------------------------------------------------------------

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


# --- core.embedding ----------------------------------------------------------------------------

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


# --- core.budget: the cost model's edges, worked by hand ----------------------------------------

def test_budget_bounds_and_edges_by_hand():
    from core.budget import max_negsampling_epochs, max_tsne_points, negsampling_work, tsne_work

    # t-SNE: room = budget / iterations - 215,000 (half a step's overhead); points = sqrt(room / 20)
    assert max_tsne_points(1, budget=215_000 + 20 * 100) == 10
    assert max_tsne_points(0, budget=215_000 + 20 * 100) == 10              # 0 iterations priced as 1
    assert max_tsne_points(2, budget=2 * (215_000 + 20 * 100)) == 10
    assert max_tsne_points(1, budget=2 * (215_000 + 20 * 100)) == 104       # sqrt(219,000 / 20) = 104.6
    assert max_tsne_points(1, budget=215_000 + 10) == 0                     # room for less than one
    assert max_tsne_points(1, budget=100_000) == 0                          # no room at all
    refused(lambda: max_tsne_points(-1), "n_iter must be at least 0; got -1.")
    # negative sampling, V 10, d 4, 100 pairs, K 2: one softmax loss = 430,000 + 10^2 (4 + 40)
    # = 434,400; one epoch's scoring = 100 x 3 x (4 + 18) x 72 = 475,200
    assert negsampling_work(10, 100, 4, 2, 3) == 3 * (475_200 + 434_400) + 434_400
    assert negsampling_work(10, 0, 4, 2, 0) == 434_400
    refused(lambda: negsampling_work(10, -1, 4, 2, 1), "n_pairs must be at least 0; got -1.")
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 3 * 909_600) == 3
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 3 * 909_600 - 1) == 2
    assert max_negsampling_epochs(10, 100, 4, 2, budget=434_400 + 909_599) == 0
    assert max_negsampling_epochs(10, 100, 4, 2, budget=100_000) == 0
    assert tsne_work(1, 0) == 0 and tsne_work(3, 2) == 2 * (215_000 + 9 * 20)
    refused(lambda: tsne_work(0, 1), "n must be at least 1; got 0.")
    refused(lambda: tsne_work(2, -1), "n_iter must be at least 0; got -1.")


# --- core.vectors_io: a teacher's own files ------------------------------------------------------

def test_vector_files_limits_and_messages_word_for_word():
    from core.vectors_io import VectorsError, read_metadata, read_projector, read_vectors

    def no(call, message):
        refused(call, message, VectorsError)

    no(lambda: read_vectors(b"1\n" * 2_500_000 + b"2"), "vectors.tsv is 5,000,001 bytes; the limit is 5,000,000.")
    no(lambda: read_vectors("1\n" * 2_500_000 + "2"), "vectors.tsv is 5,000,001 characters; the limit is 5,000,000.")
    for exactly_the_limit in (b"1\n" * 2_500_000, "1\n" * 2_500_000):     # read, then refused for its rows
        no(lambda x=exactly_the_limit: read_vectors(x), "vectors.tsv has 2,500,000 rows; the limit is 5,000.")
    no(lambda: read_vectors("1\n" * 5001), "vectors.tsv has 5,001 rows; the limit is 5,000.")
    assert read_vectors("1\n" * 5000).shape == (5000, 1)
    no(lambda: read_vectors("\t".join(["1"] * 1025)), "vectors.tsv has 1,025 numbers per row; the limit is 1,024.")
    assert read_vectors("\t".join(["1"] * 1024)).shape == (1, 1024)
    no(lambda: read_vectors(" \n\n"), "vectors.tsv is empty.")
    no(lambda: read_vectors("1\t2\n3\n"),
       "vectors.tsv line 2 has 1 numbers, but line 1 has 2: every row needs the same count (ragged rows).")
    no(lambda: read_vectors("1 2\t3"), "vectors.tsv line 1, column 1: '1 2' is not a number.")
    no(lambda: read_vectors("1\t" + "x" * 20), "vectors.tsv line 1, column 2: 'xxxxxxxxxxxxxxxxxxxx' is not a number.")
    no(lambda: read_vectors("y" * 21), "vectors.tsv line 1, column 1: 'yyyyyyyyyyyyyyyyyyyy...' is not a number.")
    assert read_vectors("1\t2\r3\t4\r\n5\t6").tolist() == [[1, 2], [3, 4], [5, 6]]   # old Mac and Windows ends
    assert read_vectors("\ufeff1\t2".encode()).tolist() == [[1, 2]]                  # a byte-order mark
    no(lambda: read_metadata(b"cat\n\xff"), "metadata.tsv is not UTF-8 text (byte 4 cannot be read).")
    no(lambda: read_metadata("x" * 5_000_001), "metadata.tsv is 5,000,001 characters; the limit is 5,000,000.")
    no(lambda: read_metadata(""), "metadata.tsv is empty.")
    assert read_metadata("word\tcount\nnew york\t3\nparis\t1\n") == ["new york", "paris"]
    no(lambda: read_projector("1\n2\n", "cat\n"),
       "metadata.tsv has 1 labels but vectors.tsv has 2 rows: they must match one to one.")


# --- core.similarity ---------------------------------------------------------------------------

def test_neighbour_overlap_of_two_trainings_names_each_bad_table():
    from core.similarity import neighbour_overlap

    small = np.eye(3)
    huge = np.broadcast_to(np.ones(1), (2**25 + 1, 1))        # one number too many, as a view
    refused(lambda: neighbour_overlap(huge, small, 0),
            "The first table has 33,554,433 numbers; at most 33,554,432 are allowed.")
    refused(lambda: neighbour_overlap(small, huge, 0),
            "The second table has 33,554,433 numbers; at most 33,554,432 are allowed.")
    refused(lambda: neighbour_overlap(np.ones(3), small, 0), "The first table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(small, np.ones(3), 0), "The second table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(small, np.eye(4), 0), "The two tables need the same rows (words); got 3 and 4.")


def test_similarity_names_each_bad_vector_and_index():
    from core.similarity import cosine_steps, cosines_to, mean_embedding, nearest, norm

    refused(lambda: norm(np.ones((2, 2))), "u must be a vector (1 dimension); got 2 dimension(s).")
    refused(lambda: norm(np.broadcast_to(np.ones(1), (1_000_001,))), "u has 1,000,001 numbers; at most 1,000,000 are allowed.")
    assert norm(np.broadcast_to(np.ones(1), (1_000_000,))) == pytest.approx(1000.0, rel=1e-12)
    refused(lambda: cosines_to(np.eye(2), np.ones((1, 2))), "v must be a vector (1 dimension); got 2 dimension(s).")
    refused(lambda: cosine_steps([np.nan, 1.0], [1.0, 1.0]), "u contains NaN or infinite values.")
    refused(lambda: cosine_steps([1.0, 1.0], [1.0, np.inf]), "v contains NaN or infinite values.")
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    refused(lambda: nearest(np.ones(3), 0), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: nearest(X, 3), "i must be at most 2 (and at least 0); got 3.")
    refused(lambda: nearest(X, -1), "i must be at least 0 (and at most 2); got -1.")
    refused(lambda: nearest(X, 0, k=3), "k must be at most 2 (and at least 0); got 3.")
    refused(lambda: nearest(X, 0, k=-1), "k must be at least 0 (and at most 2); got -1.")
    assert nearest(X, 2, k=0) == [] and [j for j, _ in nearest(X, 2, k=2)] == [1, 0]
    refused(lambda: mean_embedding(np.ones(3), [0]), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: mean_embedding(X, [5]), "The ids: 5 is outside the vocabulary (0 to 2).")
    refused(lambda: mean_embedding(X, []), "A sentence needs at least one word to average.")


def test_honesty_and_mixing_name_each_bad_input():
    from core.context_mix import mixing_weights
    from core.honesty import neighbour_overlap, random_orthogonal

    refused(lambda: mixing_weights(0), "T must be at least 1 (and at most 10,000); got 0.")
    refused(lambda: mixing_weights(10_001), "T must be at most 10,000 (and at least 1); got 10,001.")
    refused(lambda: mixing_weights(3, window=0), "window must be at least 1; got 0.")
    refused(lambda: mixing_weights(3, self_weight=1.5), "self_weight must be at most 1; got 1.5.")
    refused(lambda: mixing_weights(3, self_weight=-0.5), "self_weight must be at least 0; got -0.5.")
    assert mixing_weights(1).tolist() == [[1.0]]              # alone in its sentence: all itself
    X = np.eye(3)
    refused(lambda: neighbour_overlap(X, np.ones(3)), "The picture must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: neighbour_overlap(np.broadcast_to(np.ones(1), (2**24 + 1, 1)), X),
            "The table has 16,777,217 numbers; at most 16,777,216 are allowed.")
    refused(lambda: neighbour_overlap(X, np.broadcast_to(np.ones(1), (2**24 + 1, 1))),
            "The picture has 16,777,217 numbers; at most 16,777,216 are allowed.")
    refused(lambda: neighbour_overlap(X, X, k=0), "k must be at least 1; got 0.")
    refused(lambda: random_orthogonal(0), "d must be at least 1 (and at most 2,048); got 0.")
    refused(lambda: random_orthogonal(2049), "d must be at most 2,048 (and at least 1); got 2,049.")
    refused(lambda: random_orthogonal(2, seed=-1), "seed must be at least 0; got -1.")
    assert random_orthogonal(1).shape == (1, 1) and abs(random_orthogonal(1, seed=0)[0, 0]) == 1.0


def test_tsne_names_each_bad_setting():
    from core.tsne import tsne

    X = np.random.default_rng(0).normal(size=(6, 3))
    refused(lambda: tsne(X, k=4), "k must be at most 3 (and at least 1); got 4.")
    refused(lambda: tsne(X, k=0), "k must be at least 1 (and at most 3); got 0.")
    refused(lambda: tsne(X, seed=-1), "seed must be at least 0; got -1.")
    refused(lambda: tsne(X, n_iter=10_001), "n_iter must be at most 10,000 (and at least 0); got 10,001.")
    refused(lambda: tsne(X, exaggeration_iter=-1), "exaggeration_iter must be at least 0; got -1.")
    refused(lambda: tsne(X, report_every=0), "report_every must be at least 1; got 0.")
    refused(lambda: tsne(X, frame_every=-1), "frame_every must be at least 0 (and at most 10,000); got -1.")
    refused(lambda: tsne(X, frame_every=10_001), "frame_every must be at most 10,000 (and at least 0); got 10,001.")
    refused(lambda: tsne(X, early_exaggeration=0), "early_exaggeration must be above 0; got 0.")
    refused(lambda: tsne(X, early_exaggeration=1000.5), "early_exaggeration must be at most 1000; got 1000.5.")
    refused(lambda: tsne(X, learning_rate=0), "learning_rate must be above 0; got 0.")
    refused(lambda: tsne(X, learning_rate=1e6 + 1), "learning_rate must be at most 1e+06; got 1e+06.")
    refused(lambda: tsne(X, metric="manhattan"), "metric must be 'euclidean' or 'cosine', not 'manhattan'.")
    r = tsne(X, k=3, n_iter=2, exaggeration_iter=0, early_exaggeration=1000, learning_rate=1e6,
             report_every=1, frame_every=10_000)
    assert r.coords.shape == (6, 3)


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


def test_analogies_name_what_is_missing_and_list_k_answers():
    from core.relations import accuracy, analogy, axis_positions

    vocab = ["man", "king", "woman", "queen", "x", "y", "z"]
    E = np.array([[1.0, 0, 0], [1, 1, 0], [0, 0, 1], [0, 1, 1], [1, 0.2, 0.1], [0.3, 0.3, 0.3], [0, 0.1, 1]])
    with pytest.raises(KeyError) as caught:
        analogy(Vectors(vocab, E), "man", "prince", "aunt")
    assert caught.value.args == ("not in the vocabulary: prince, aunt",)
    refused(lambda: analogy(Vectors(vocab, E), "man", "king", "woman", method="sum"),
            "method must be one of b - a + c, nearest to b, nearest to c.")
    r = analogy(Vectors(vocab, E), "man", "king", "woman", expected="queen")
    assert (r.a, r.b, r.c, r.expected, r.method) == ("man", "king", "woman", "queen", "b - a + c")
    assert [w for w, _ in r.answers] == ["queen", "z", "y", "x"] and r.correct    # k = 5, but 4 are left
    assert len(analogy(Vectors(vocab, E), "man", "king", "woman", k=2).answers) == 2
    # the question's four words are the whole vocabulary: it is still asked (and the one word
    # left after the question's own three is the answer, whatever the method)
    assert accuracy(Vectors(vocab[:4], E[:4]), [("man", "king", "woman", "queen")]) == {
        "b - a + c": (1, 1), "nearest to b": (1, 1), "nearest to c": (1, 1)}
    with pytest.raises(KeyError) as caught:
        axis_positions(Vectors(vocab, E), "man", "girl")
    assert caught.value.args == ("not in the vocabulary: girl",)


def test_odd_one_out_rounds_take_three_words_of_one_relation_and_one_of_another():
    from core.relations import RELATIONS, odd_one_out_round

    relation_of = {w: name for name, (_, _, pairs) in RELATIONS.items() for f, s, _ in pairs for w in (f, s)}
    for seed in range(40):
        words, odd = odd_one_out_round(seed)
        others = [w for w in words if w != odd]
        assert len(set(words)) == 4 and odd in words
        assert len({relation_of[w] for w in others}) == 1 and relation_of[odd] != relation_of[others[0]]


def test_budget_verdicts_carry_their_figures_and_name_each_bad_count():
    from core.budget import RATE, check, negsampling_work

    v = check(5.0, "This run", budget=5.0)                     # exactly the budget fits
    assert (v.fits, v.work, v.budget, v.message) == (True, 5.0, 5.0, "")
    v = check(3 * RATE, "This run", "at most 300 steps", budget=2 * RATE)
    assert (v.fits, v.work, v.budget) == (False, 3 * RATE, 2 * RATE) and v.seconds == 3.0
    assert v.message == ("This run would take about 3 seconds here, and each run gets at most 2 seconds so "
                         "that a whole class can share the machine. What fits: at most 300 steps.")
    refused(lambda: negsampling_work(10, 1, 0, 2, 1), "d_model must be at least 1; got 0.")
    refused(lambda: negsampling_work(10, 1, 4, 0, 1), "negatives must be at least 1; got 0.")
    refused(lambda: negsampling_work(10, 1, 4, 2, -1), "epochs must be at least 0; got -1.")
    # one pair, K 1, d 1: 1 x 2 x (1 + 18) x 72 = 2,736 per epoch, plus 430,000 + 10^2 x 41 per loss
    assert negsampling_work(10, 1, 1, 1, 1) == 2_736 + 2 * 434_100


# --- core.corpus, core.projection, core.generated, core.honesty: the remaining refusals ---------

def test_corpus_refusals_word_for_word():
    from core.corpus import Corpus, CorpusError, whole_count

    def no(call, message, kind=CorpusError):
        refused(call, message, kind)

    for w in (0, 11, True, 2.0):
        no(lambda w=w: Corpus.from_text("a b", window=w), "The window must be a whole number from 1 to 10.")
    assert Corpus.from_text("a b", window=1).window == 1 and Corpus.from_text("a b", window=10).window == 10
    no(lambda: Corpus.from_text("a b", max_vocab=2.0), "max_vocab must be a whole number or None, not float.",
       TypeError)
    no(lambda: Corpus.from_text("a b", max_vocab=1), "The vocabulary cap must be at least 2.")
    no(lambda: Corpus.from_text("a b", max_vocab=5001), "The vocabulary cap must be at most 5,000.")
    assert Corpus.from_text("a b c", max_vocab=2).V == 2 and Corpus.from_text("a b", max_vocab=5000).V == 2
    no(lambda: Corpus.from_text(b"a b"), "The text must be a string, not bytes.", TypeError)
    no(lambda: Corpus.from_text("a" * 20_000_001), "The text has 20,000,001 characters; at most 20,000,000.")
    no(lambda: Corpus.from_text("cat"),
       "The text needs at least two words (letters or digits) to make a single (centre, context) pair; it has 1.")
    no(lambda: Corpus.from_text("cat cat"), "The text uses only one distinct word ('cat'); with a single word "
       "there is nothing to tell apart. Add at least one other word.")
    no(lambda: Corpus.from_text(" ".join(f"w{i}" for i in range(5001))),
       "The text has 5,001 distinct words; at most 5,000 fit (pass max_vocab to keep only the most frequent).")
    assert Corpus.from_text(" ".join(f"w{i}" for i in range(5000))).V == 5000
    no(lambda: whole_count(1.0), "n must be a whole number, not float.", TypeError)
    no(lambda: whole_count(-1), "n must be at least 0; got -1.", ValueError)
    assert whole_count(0) == 0 and type(whole_count(np.int64(3))) is int


def test_pca_generated_and_overlap_refusals_word_for_word():
    from core.generated import MIN_SENTENCES, generate_corpus, group_recovery
    from core.honesty import neighbour_overlap
    from core.projection import pca

    refused(lambda: pca(np.ones(3)), "The table must be a table (2 dimensions); got 1 dimension(s).")
    refused(lambda: pca(np.ones((0, 2))), "The table needs at least 1 rows; got 0.")
    refused(lambda: pca(np.broadcast_to(np.ones(1), (2**24 + 1, 1))),
            "The table has 16,777,217 numbers; at most 16,777,216 are allowed.")
    refused(lambda: pca(np.eye(3), k=0), "k must be at least 1 (and at most 64); got 0.")
    refused(lambda: pca(np.eye(3), k=65), "k must be at most 64 (and at least 1); got 65.")
    assert pca(np.eye(3), k=64).coords.shape == (3, 64) and pca(np.ones((1, 2)), k=1).coords.shape == (1, 1)
    refused(lambda: generate_corpus(MIN_SENTENCES - 1),
            f"n_sentences must be at least {MIN_SENTENCES:,} (and at most 1,000,000); got {MIN_SENTENCES - 1:,}.")
    refused(lambda: generate_corpus(1_000_001),
            f"n_sentences must be at most 1,000,000 (and at least {MIN_SENTENCES:,}); got 1,000,001.")
    refused(lambda: generate_corpus(MIN_SENTENCES, seed=-1), "seed must be at least 0; got -1.")
    assert len(generate_corpus(MIN_SENTENCES).sentences) == MIN_SENTENCES
    E, vocab = np.eye(3), ["a", "b", "c"]
    with pytest.raises(KeyError) as caught:
        group_recovery(Vectors(vocab, E), {"g": ["a", "z"]}, k=1)
    assert caught.value.args == ("group words not in the vocabulary: ['z']",)
    for k in (0, 3, True):
        refused(lambda k=k: group_recovery(Vectors(vocab, E), {"g": ["a", "b"], "h": ["c"]}, k=k),
                "k must be from 1 to 2 (the number of other group words).")
    refused(lambda: neighbour_overlap(np.ones((5001, 1)), np.ones((5001, 1))),
            "Neighbours of 5,001 rows need an n x n matrix; at most 5,000 rows.")
    refused(lambda: neighbour_overlap(np.ones((1, 2)), np.ones((1, 2))), "Neighbours need at least 2 rows.")
    refused(lambda: neighbour_overlap(np.eye(3), np.eye(2)), "The table and the picture need the same rows; got 3 and 2.")
