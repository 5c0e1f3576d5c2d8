"""core.projection: PCA's signs, shares and refusals, and the aligned frames, pinned exactly (details
mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.projection import fix_signs, pca
from tests.refusal import refused


def test_aligned_frames_keep_steps_shares_and_width():
    from core.projection import aligned_frames, pca
    snaps = np.random.default_rng(0).normal(size=(3, 6, 4))
    f = aligned_frames(snaps, [0, 5, 10])
    np.testing.assert_array_equal(f.steps, [0, 5, 10])
    np.testing.assert_allclose(f.kept, [pca(s).kept for s in snaps])
    assert aligned_frames(snaps, [0, 5, 10], k=3).coords.shape == (3, 6, 3)


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
        group_recovery(E, vocab, {"g": ["a", "z"]}, k=1)
    assert caught.value.args == ("group words not in the vocabulary: ['z']",)
    for k in (0, 3, True):
        refused(lambda k=k: group_recovery(E, vocab, {"g": ["a", "b"], "h": ["c"]}, k=k),
                "k must be from 1 to 2 (the number of other group words).")
    refused(lambda: neighbour_overlap(np.ones((5001, 1)), np.ones((5001, 1))),
            "Neighbours of 5,001 rows need an n x n matrix; at most 5,000 rows.")
    refused(lambda: neighbour_overlap(np.ones((1, 2)), np.ones((1, 2))), "Neighbours need at least 2 rows.")
    refused(lambda: neighbour_overlap(np.eye(3), np.eye(2)), "The table and the picture need the same rows; got 3 and 2.")


def test_fix_signs_leaves_a_row_of_zeros_as_zeros():
    out = fix_signs(np.array([[0.0, 0.0], [-0.6, 0.8], [0.0, -1.0]]))
    np.testing.assert_array_equal(out, [[0.0, 0.0], [-0.6, 0.8], [0.0, 1.0]])


def test_pca_of_a_small_spread_still_reports_its_shares_and_mean():
    X = np.array([[1.0, 2.0], [1.1, 2.0], [1.2, 2.0]])     # total spread 0.02, below 1
    p = pca(X)
    np.testing.assert_allclose(p.explained, [1.0, 0.0])
    np.testing.assert_allclose(p.mean, [1.1, 2.0])
    np.testing.assert_allclose(p.coords[:, 0], [-0.1, 0.0, 0.1], atol=1e-15)
