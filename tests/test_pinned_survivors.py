"""Core behaviour the other tests left loose, found by the mutation run of this round
(docs/quality.md section 4): defaults, guards of the training loops, exact bounds, edge rows.

Each test checks public behaviour a plausible wrong version of the code would change:
a default that must equal its documented value, a stopping rule, a message, a row of zeros.
"""
import dataclasses

import numpy as np
import pytest

import core.skipgram as skipgram
from core.context_mix import ambiguous_in_context, mix_with_neighbours, mixing_weights
from core.corpus import GUIDE_TEXT, Corpus, context_pairs
from core.generated import generate_corpus
from core.honesty import neighbour_overlap, random_orthogonal, rotate, rotation_check
from lab_ui.readable import count_in_words as human
from core.projection import fix_signs, pca
from core.similarity import nearest, normalize_rows, similarity_order
from core.skipgram import (BLOWUP_FACTOR, SkipGramConfig, init_params, loss_and_grads,
                           loss_and_grads_pairs, loss_floor, train)
from core.tsne import conditional_probabilities, squared_distances, tsne
from core.vectors import Vectors


@pytest.fixture(scope="module")
def guide():
    return Corpus.from_text(GUIDE_TEXT)


# --- skip-gram training: the blow-up rule and the two finiteness guards -----------------

def _reference_blow_up(corpus, config):
    """Plain gradient descent, stopped at the first loss above BLOWUP_FACTOR x the first."""
    E, W = init_params(corpus.V, config)
    losses, params = [], [(E, W)]
    for _ in range(config.steps + 1):
        loss, dE, dW = loss_and_grads(E, W, corpus.cooccurrence)
        if losses and loss > BLOWUP_FACTOR * losses[0]:
            return losses, params[-2]
        losses.append(loss)
        E, W = E - config.lr * dE, W - config.lr * dW
        params.append((E, W))
    return losses, None


@pytest.mark.parametrize("lr", [15.0, 200.0])
def test_a_finite_blow_up_stops_the_run_at_the_first_loss_past_the_factor(guide, lr):
    config = SkipGramConfig(lr=lr, steps=300)
    losses, (E, W) = _reference_blow_up(guide, config)
    r = train(guide, config)
    assert r.diverged and r.diverged_step == len(losses) == {15.0: 25, 200.0: 2}[lr]
    np.testing.assert_array_equal(r.losses, losses)
    assert r.losses.max() <= BLOWUP_FACTOR * r.losses[0]          # nothing past the factor is kept
    np.testing.assert_array_equal(r.E, E)
    np.testing.assert_array_equal(r.W, W)


def _fake_gradients(monkeypatch, bad_step, dE_value, dW_value=0.0):
    """loss_and_grads returning a steady loss, and at call ``bad_step`` the given gradients."""
    calls = []

    def fake(E, W, C, n=None, block=128):
        calls.append(1)
        if len(calls) - 1 == bad_step:
            return 1.0, np.full_like(E, dE_value), np.full_like(W, dW_value)
        return 1.0, np.full_like(E, 1e-3), np.full_like(W, 1e-3)

    monkeypatch.setattr(skipgram, "loss_and_grads", fake)


def test_a_non_finite_gradient_alone_stops_the_run(guide, monkeypatch):
    _fake_gradients(monkeypatch, bad_step=3, dE_value=np.inf)
    r = train(guide, SkipGramConfig(lr=1.0, steps=10))
    assert r.diverged and r.diverged_step == 3 and len(r.losses) == 3
    E0, W0 = init_params(guide.V, SkipGramConfig())
    np.testing.assert_allclose(r.E, E0 - 2e-3)            # the parameters behind losses[-1]
    np.testing.assert_allclose(r.W, W0 - 2e-3)


def test_an_update_that_overflows_stops_the_run_with_the_last_finite_table(guide, monkeypatch):
    _fake_gradients(monkeypatch, bad_step=2, dE_value=-1e308)   # finite, but E - lr * dE is not
    r = train(guide, SkipGramConfig(lr=10.0, steps=10))
    assert r.diverged and r.diverged_step == 3 and len(r.losses) == 3
    E0, _ = init_params(guide.V, SkipGramConfig())
    np.testing.assert_allclose(r.E, E0 - 2e-2)
    assert np.isfinite(r.E).all() and r.snapshot_steps[-1] == 2


def test_the_loss_shifts_each_row_by_its_own_largest_score():
    # One centre's scores near 800, another's near 0: a shared shift would underflow the second.
    E = np.array([[40.0, 0.0], [0.01, 0.02], [0.0, -0.03]])
    W = np.array([[20.0, 19.0, 0.1], [0.5, -0.2, 0.3]])
    C = np.array([[0.0, 2, 1], [3, 0, 1], [1, 2, 0]])
    inputs = np.repeat(np.arange(3), C.sum(1).astype(int))
    targets = np.concatenate([np.repeat(np.arange(3), C[c].astype(int)) for c in range(3)])
    loss, dE, dW = loss_and_grads(E, W, C)
    loss_ref, dE_ref, dW_ref = loss_and_grads_pairs(E, W, inputs, targets)
    assert np.isfinite(loss) and loss == pytest.approx(loss_ref, rel=1e-12)
    np.testing.assert_allclose(dE, dE_ref, atol=1e-12)
    np.testing.assert_allclose(dW, dW_ref, atol=1e-12)


def test_the_loss_floor_divides_each_row_by_its_own_total(guide):
    # The floor is -(1/N) sum C[c,t] log(C[c,t] / n[c]) with n[c] the *row* total; a
    # corpus's counts are symmetric, so this uneven table tells rows from columns.
    C = np.array([[0.0, 3, 1], [1, 0, 0], [2, 2, 0]])
    odd = dataclasses.replace(guide, cooccurrence=C)
    nz = C > 0
    expected = -(C[nz] * np.log((C / C.sum(1, keepdims=True))[nz])).sum() / C.sum()
    assert loss_floor(odd) == pytest.approx(expected, rel=1e-15)
    assert loss_floor(odd) == pytest.approx(-(3 * np.log(0.75) + np.log(0.25) + 4 * np.log(0.5)) / 9, rel=1e-14)


# --- context mixing: defaults, bounds, the ambiguous word's figures -----------------------

def test_mixing_defaults_are_a_window_of_two_and_half_for_the_token_itself():
    A = mixing_weights(5)
    expected = np.array([[0.5, 0.25, 0.25, 0, 0],
                         [1 / 6, 0.5, 1 / 6, 1 / 6, 0],
                         [0.125, 0.125, 0.5, 0.125, 0.125],
                         [0, 1 / 6, 1 / 6, 0.5, 1 / 6],
                         [0, 0, 0.25, 0.25, 0.5]])
    np.testing.assert_allclose(A, expected, atol=1e-15)
    E = np.arange(10.0).reshape(5, 2)
    np.testing.assert_allclose(mix_with_neighbours(E, [0, 1, 2, 3, 4]), expected @ E, atol=1e-12)


def test_a_self_weight_of_exactly_zero_or_one_is_allowed_and_more_is_refused():
    np.testing.assert_array_equal(mixing_weights(3, 1, 0.0), [[0, 1, 0], [0.5, 0, 0.5], [0, 1, 0]])
    np.testing.assert_array_equal(mixing_weights(3, 1, 1.0), np.eye(3))
    with pytest.raises(ValueError, match=r"^self_weight must be at most 1; got 1\.5\.$"):
        mixing_weights(3, 1, 1.5)


@pytest.fixture(scope="module")
def bank():
    g = generate_corpus(60)
    vocab = sorted({w for s in g.sentences for w in s.split()})
    E = np.random.default_rng(0).normal(size=(len(vocab), 6))
    return g, vocab, E


def test_the_ambiguous_word_preview_counts_each_sense_and_uses_the_defaults(bank):
    g, vocab, E = bank
    # keep 3 river sentences and 1 money sentence, so the two counts differ
    keep = [i for i, s in enumerate(g.sentence_sense) if s == "river"][:3] + \
           [i for i, s in enumerate(g.sentence_sense) if s == "money"][:1]
    small = dataclasses.replace(g, sentences=[g.sentences[i] for i in keep],
                                sentence_sense=[g.sentence_sense[i] for i in keep])
    p = ambiguous_in_context(Vectors(vocab, E), small)
    assert p.word == "bank" and p.senses == ("river", "money")
    assert p.n_occurrences == {"river": 3, "money": 1}
    q = ambiguous_in_context(Vectors(vocab, E), small, window=2, self_weight=0.5)
    np.testing.assert_array_equal(p.occurrence_vectors, q.occurrence_vectors)
    assert p.sense_similarity == q.sense_similarity
    first = small.sentences[0].split()
    H = mix_with_neighbours(E, [vocab.index(w) for w in first], 2, 0.5)
    np.testing.assert_array_equal(p.occurrence_vectors[0], H[first.index("bank")])


def test_the_ambiguous_word_preview_explains_what_is_missing(bank):
    g, vocab, E = bank
    with pytest.raises(KeyError, match="'bank' is not in the vocabulary"):
        ambiguous_in_context(Vectors([w for w in vocab if w != "bank"] + ["zzz"], E), g)
    only_river = dataclasses.replace(g, sentence_sense=[s if s == "river" else None for s in g.sentence_sense])
    with pytest.raises(ValueError, match=r"^'bank' needs at least one sentence of each sense\.$"):
        ambiguous_in_context(Vectors(vocab, E), only_river)


# --- corpus, params ---------------------------------------------------------------------

def test_context_pairs_list_each_centre_left_to_right():
    inputs, targets = context_pairs(np.array([10, 11, 12, 13]), 2)
    assert inputs.tolist() == [10, 10, 11, 11, 11, 12, 12, 12, 13, 13]
    assert targets.tolist() == [11, 12, 10, 12, 13, 10, 11, 13, 11, 12]


@pytest.mark.parametrize("n,text", [(1e12, "1 trillion"), (1e9, "1 billion"), (1e6, "1 million"),
                                    (1e3, "1 thousand"), (999, "999"), (999_999, "1 million"),
                                    (999_499, "999 thousand"), (-2.5e9, "-2.5 billion")])
def test_human_counts_switch_unit_exactly_at_the_power_of_a_thousand(n, text):
    assert human(n) == text


# --- projection, similarity, honesty ----------------------------------------------------

def test_fix_signs_leaves_a_row_of_zeros_as_zeros():
    out = fix_signs(np.array([[0.0, 0.0], [-0.6, 0.8], [0.0, -1.0]]))
    np.testing.assert_array_equal(out, [[0.0, 0.0], [-0.6, 0.8], [0.0, 1.0]])


def test_pca_of_a_small_spread_still_reports_its_shares_and_mean():
    X = np.array([[1.0, 2.0], [1.1, 2.0], [1.2, 2.0]])     # total spread 0.02, below 1
    p = pca(X)
    np.testing.assert_allclose(p.explained, [1.0, 0.0])
    np.testing.assert_allclose(p.mean, [1.1, 2.0])
    np.testing.assert_allclose(p.coords[:, 0], [-0.1, 0.0, 0.1], atol=1e-15)


def test_nearest_gives_five_by_default():
    X = np.random.default_rng(3).normal(size=(9, 3))
    assert nearest(X, 4) == nearest(X, 4, k=5) and len(nearest(X, 4)) == 5


def test_normalize_rows_keeps_zero_rows_zero():
    X = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 4.0], [0.0, 0.0, 0.0]])
    np.testing.assert_array_equal(normalize_rows(X), [[0, 0, 0], [0.6, 0, 0.8], [0, 0, 0]])



def test_similarity_order_of_zero_one_and_more_rows():
    assert similarity_order(np.zeros((0, 0))).tolist() == []
    assert similarity_order(np.ones((1, 1))).tolist() == [0]
    S = np.array([[1.0, 0.1, 0.2, 0.9],
                  [0.1, 1.0, 0.8, 0.0],
                  [0.2, 0.8, 1.0, 0.3],
                  [0.9, 0.0, 0.3, 1.0]])
    # start at the largest row total (row 2: 2.3), then always the most similar unplaced row
    assert similarity_order(S).tolist() == [2, 1, 0, 3]


def test_neighbour_overlap_compares_three_neighbours_by_default():
    X = np.random.default_rng(1).normal(size=(8, 4))
    Y = np.random.default_rng(2).normal(size=(8, 2))
    r = neighbour_overlap(X, Y)
    assert r.k == 3 and r.table_neighbours.shape == (8, 3)
    assert r.mean == neighbour_overlap(X, Y, k=3).mean


def test_neighbour_overlap_refuses_rows_that_do_not_match():
    with pytest.raises(ValueError, match=r"^The table and the picture need the same rows; got 4 and 3\.$"):
        neighbour_overlap(np.ones((4, 2)), np.ones((3, 2)))
    with pytest.raises(ValueError, match=r"^Neighbours need at least 2 rows\.$"):
        neighbour_overlap(np.ones((1, 2)), np.ones((1, 2)))


def test_random_rotations_use_seed_zero_by_default():
    np.testing.assert_array_equal(random_orthogonal(4), random_orthogonal(4, seed=0))
    assert not np.allclose(random_orthogonal(4), random_orthogonal(4, seed=1))
    X = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(rotate(X), X @ random_orthogonal(4, seed=0))


def test_the_rotation_check_counts_only_entries_that_moved():
    # A rotation that happens to keep some entries: a 1-D table turned by +-1 keeps every
    # entry or flips it; entries equal to 0 never move.
    X = np.array([[0.0], [2.0], [0.0], [-1.0]])
    r = rotation_check(X, seed=0)
    q = float(random_orthogonal(1, seed=0)[0, 0])
    assert q in (1.0, -1.0)
    assert r.share_entries_changed == (0.0 if q == 1.0 else 0.5)


# --- t-SNE ------------------------------------------------------------------------------

def test_squared_distances_have_an_exact_zero_diagonal():
    X = np.array([[1e8 + 0.1, 3.3], [0.7, 1e-3], [2.2, 5.5]])
    D2 = squared_distances(X)
    assert (np.diag(D2) == 0.0).all()
    assert D2[0, 1] == pytest.approx(((X[0] - X[1]) ** 2).sum(), rel=1e-12)


def test_the_perplexity_cap_never_goes_below_one():
    X = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]])
    r = tsne(X, perplexity=5.0, n_iter=0)          # cap (3 - 1) / 3 < 1: raised to 1, not 2
    assert r.perplexity_used == 1.0


def test_calibrated_betas_are_the_precisions_of_the_returned_rows():
    X = np.random.default_rng(4).normal(size=(12, 3))
    D2 = squared_distances(X)
    cal = conditional_probabilities(D2, perplexity=4.0)
    for i in range(12):
        j, m = [a for a in range(12) if a != i][:2]
        ratio = cal.P_cond[i, j] / cal.P_cond[i, m]
        assert ratio == pytest.approx(np.exp(-cal.beta[i] * (D2[i, j] - D2[i, m])), rel=1e-9)
    np.testing.assert_allclose(cal.perplexities, 4.0, rtol=1e-4)


# --- tokenizer: pasted text --------------------------------------------------------------------

def test_clean_text_replaces_only_surrogates_and_cuts_only_past_the_limit():
    from core.tokenizer import clean_text

    fixed, notes = clean_text("a\ud800\ue000b", limit=100)  # U+E000 (private use) is a real character
    assert fixed == "a\ufffd\ue000b" and len(notes) == 1
    assert clean_text("abc", limit=3) == ("abc", [])        # exactly at the limit: nothing cut
    assert clean_text("abcd", limit=3) == ("abc", ["The text was cut to its first 3 characters (it had 4)."])


# --- ties broken by index, seeds by default -----------------------------------------------------

def test_tied_neighbours_come_in_index_order_even_among_many():
    from core.generated import group_recovery
    from core.honesty import nearest_indices

    S = np.tile(np.array([1.0, 0.5] * 20), (40, 1))          # 20 tied best columns per row
    np.testing.assert_array_equal(nearest_indices(S, 6)[1], [0, 2, 4, 6, 8, 10])
    vocab = [f"w{i}" for i in range(40)]
    E = np.array([[1.0, 0.0]] * 20 + [[0.0, 1.0]] * 20)       # two groups of 20 identical rows
    r = group_recovery(Vectors(vocab, E), {"a": vocab[:20], "b": vocab[20:]}, k=5)
    assert r.neighbours["w0"] == ["w1", "w2", "w3", "w4", "w5"]
    assert r.neighbours["w20"] == ["w21", "w22", "w23", "w24", "w25"]


def test_the_generated_text_uses_seed_zero_by_default():
    assert generate_corpus(60).text == generate_corpus(60, seed=0).text != generate_corpus(60, seed=1).text


# --- negative sampling: a finite blow-up and the final loss ---------------------------------------

def test_negative_sampling_blow_up_keeps_the_last_good_table_and_its_own_loss(guide):
    from core.negsampling import NegSamplingConfig, train_negsampling

    r = train_negsampling(guide, NegSamplingConfig(lr=20.0, epochs=30))
    assert r.diverged and r.diverged_step == 5 and r.steps == 4 and len(r.losses) == 2
    assert r.step_losses.max() <= BLOWUP_FACTOR * r.step_losses[0]
    # the reported loss is that of the table it returns, not of the last finished epoch
    assert r.softmax_loss == loss_and_grads(r.E, r.W, guide.cooccurrence)[0]
    assert r.softmax_loss == pytest.approx(3.1649374278301443, rel=1e-9)
    assert r.softmax_losses[-1] > 90
    calm = train_negsampling(guide, NegSamplingConfig(epochs=3))
    assert not calm.diverged and calm.softmax_loss == calm.softmax_losses[-1]


# --- the GPT-2 vocabulary file and partial tokens -----------------------------------------------

def test_a_crlf_copy_of_the_ranks_file_loads_the_same_tokenizer(tmp_path):
    from core.tokenizer import RANKS_PATH, gpt2

    crlf = tmp_path / "gpt2.tiktoken"
    crlf.write_bytes(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    enc = gpt2(crlf)
    assert enc.n_vocab == 50_257 and enc.encode(" bank") == [3331]


def test_a_token_that_is_part_of_a_character_reads_as_the_replacement_mark():
    from core.tokenizer import gpt2, id_to_text

    enc = gpt2()
    assert enc.decode_single_token_bytes(94) == b"\xa1"        # one byte of a two-byte character
    assert id_to_text(enc, 94) == "\ufffd"
