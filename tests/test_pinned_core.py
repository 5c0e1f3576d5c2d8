"""Core details the other tests left loose, found by mutation testing (docs/quality.md): exact
messages, bounds, formats and the small helpers that were only checked through doctests."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.embedding import lookup_backward, rows_touched
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.generated import ambiguous_position
from core.params import (CALCULATOR_MAX_D_MODEL, CALCULATOR_MAX_VOCAB, crossover_d_model, embedding_params,
                         layer_params, memory_bytes, preset, share)
from core.similarity import mean_embedding
from core.skipgram import SkipGramConfig, log_softmax
from core.tokenizer import clean_text, gpt2, id_to_text
from core.vectors import Vectors


def test_encode_gives_int64_ids_even_when_empty():
    c = Corpus.from_text(GUIDE_TEXT)
    assert c.encode("").dtype == np.int64 and c.encode("the dog").dtype == np.int64


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


def test_csv_files_are_exact():
    E = np.array([[1.0, -0.25], [3.5, 2e-12]])
    assert coords_csv(E, ["cat", "x,y"]) == 'word,x,y\ncat,1,-0.25\n"x,y",3.5,2e-12\n'
    assert coords_csv(E[:, :1], ["Xa", 'say "hi"'], names=("a", "b")) == 'word,a\nXa,1\n"say ""hi""",3.5\n'
    assert table_csv(E, ["X", "b\nc"]) == 'word,dim_0,dim_1\nX,1,-0.25\n"b\nc",3.5,2e-12\n'
    vectors, meta = projector_tsv(E, ["a\tb", "c\nd"])
    assert vectors == "1\t-0.25\n3.5\t2e-12\n" and meta == "a b\nc d\n"


def test_snippet_for_another_text_and_a_capped_vocabulary():
    code = snippet(SkipGramConfig(d_model=3, lr=0.2, steps=10, seed=5), 4, "a b a c", max_vocab=300)
    assert "text = 'a b a c'\n" in code and "GUIDE_TEXT  #" not in code
    assert "Corpus.from_text(text, window=4, max_vocab=300)" in code
    assert "SkipGramConfig(\n    d_model=3, lr=0.2, steps=10,\n    seed=5, init_std=0.1,\n)\n" in code
    code = snippet(SkipGramConfig(), 2, GUIDE_TEXT)
    assert "text = GUIDE_TEXT  # the lesson's 33 words\n" in code
    assert "Corpus.from_text(text, window=2)\n" in code


def test_ambiguous_position_values_fields_and_messages():
    E = np.array([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0], [0.0, 0.0], [-1.0, 2.0]])
    vocab = ["a", "b", "w", "z", "q"]
    groups = {"x": ["a", "q"], "y": ["b"], "empty": ["z"]}
    p = ambiguous_position(Vectors(vocab, E), groups, "w", "x", "y")
    u = E[2] / np.linalg.norm(E[2])
    cx = (E[0] / 2 + E[4] / np.sqrt(5)) / 2                 # centroid of the unit rows of group x
    assert p.word == "w" and p.group_a == "x" and p.group_b == "y"
    assert p.centroid_a == pytest.approx(u @ cx / np.linalg.norm(cx), abs=1e-12)
    assert p.centroid_b == pytest.approx(u @ np.array([0.0, 1.0]), abs=1e-12)
    assert p.to_centroid["empty"] == 0.0                  # a zero centroid has no direction
    assert p.members_a == pytest.approx(np.mean([u @ [1, 0], u @ (E[4] / np.sqrt(5))]), abs=1e-12)
    assert p.members_b == pytest.approx(u @ [0, 1], abs=1e-12)
    assert set(p.to_members) == {"x", "y", "empty"}
    with pytest.raises(KeyError, match="'nope' is not in the vocabulary"):
        ambiguous_position(Vectors(vocab, E), groups, "nope", "x", "y")
    with pytest.raises(KeyError, match="'g' is not a group"):
        ambiguous_position(Vectors(vocab, E), groups, "w", "x", "g")


def test_parameter_helpers_bounds_and_messages():
    V, d = CALCULATOR_MAX_VOCAB, CALCULATOR_MAX_D_MODEL
    assert embedding_params(1, 1) == 1 and embedding_params(V, d) == V * d
    with pytest.raises(ValueError, match=r"^Vocabulary size must be a whole number from 1 to 10,000,000\.$"):
        embedding_params(0, 4)
    with pytest.raises(ValueError, match=r"^d_model must be a whole number from 1 to 1,000,000\.$"):
        embedding_params(5, CALCULATOR_MAX_D_MODEL + 1)
    assert memory_bytes(10) == 40                          # fp32 by default
    assert share(3, 1) == 3.0
    with pytest.raises(ValueError, match=r"^The model's total must be positive\.$"):
        share(1, 0)
    with pytest.raises(KeyError, match="No preset called 'GPT-5'."):
        preset("GPT-5")
    assert layer_params(768) == 12 * 768 * 768 and layer_params(1) == 12
    assert crossover_d_model(50_257) == 50_257 / 12


def test_mean_embedding_of_a_batch_and_its_message():
    X = np.array([[0.0, 2.0], [4.0, 0.0], [1.0, 1.0]])
    np.testing.assert_array_equal(mean_embedding(X, [[0, 1], [2, 2]]), (X[0] + X[1] + 2 * X[2]) / 4)
    np.testing.assert_array_equal(mean_embedding(X, [2]), X[2])
    with pytest.raises(ValueError, match=r"^A sentence needs at least one word to average\.$"):
        mean_embedding(X, [])


def test_log_softmax_rows_of_a_matrix():
    Z = np.array([[1.0, 2.0, 3.0], [-5.0, 0.0, 50.0]])
    want = Z - np.log(np.exp(Z - Z.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)) - Z.max(axis=1, keepdims=True)
    np.testing.assert_allclose(log_softmax(Z), want, rtol=1e-12)
    np.testing.assert_allclose(np.exp(log_softmax(Z)).sum(axis=1), 1.0)
    np.testing.assert_allclose(log_softmax(np.array([1000.0, 0.0])), [0.0, -1000.0], atol=1e-12)


def test_clean_text_surrogates_and_cut_messages():
    text, notes = clean_text("a\ud800b\udfffc", limit=100)
    assert text == "a\ufffdb\ufffdc"
    assert notes == ["Replaced 2 broken character(s) (lone surrogates, left by a bad copy-paste) with \ufffd."]
    assert clean_text("a\ue000", limit=100) == ("a\ue000", [])      # just past the surrogates: a normal character
    text, notes = clean_text("abcdef", limit=4)
    assert text == "abcd" and notes == ["The text was cut to its first 4 characters (it had 6)."]


def test_id_to_text_bounds_and_message():
    enc = gpt2()
    assert id_to_text(enc, 0) == "!" and id_to_text(enc, 50_256) == "<|endoftext|>"
    for bad in (-1, 50_257, 3.0):
        with pytest.raises(ValueError, match=r"^GPT-2's ids run from 0 to 50,256; .* is not one\.$"):
            id_to_text(enc, bad)


def test_log_softmax_uses_each_rows_own_maximum():
    Z = np.array([[0.0, 1.0], [-2000.0, -2001.0]])          # a global maximum would underflow row 2
    a, b = -np.log1p(np.e), 1 - np.log1p(np.e)
    np.testing.assert_allclose(log_softmax(Z), [[a, b], [b, a]], rtol=1e-12)


def test_tokenize_defaults_positions_pieces_and_partial_bytes():
    from core.tokenizer import tokenize
    enc = gpt2()
    assert [t.id for t in tokenize(enc, "a<|endoftext|>")] == [64, 50_256]     # special token by default
    toks = tokenize(enc, "He sat by the bank")
    assert [t.position for t in toks] == list(range(len(toks)))
    assert "".join(t.text for t in toks) == "He sat by the bank" and not any(t.partial for t in toks)
    emoji = tokenize(enc, "🦜")
    assert len(emoji) > 1 and all(t.partial for t in emoji) and all("\ufffd" in t.text for t in emoji)


def test_gpt2_messages_name_the_file(tmp_path):
    from core.tokenizer import TokenizerUnavailable
    with pytest.raises(TokenizerUnavailable, match=r"^The GPT-2 vocabulary file .*missing\.tiktoken could not be "
                                                   r"read \(No such file or directory\)\.$"):
        gpt2(tmp_path / "missing.tiktoken")
    bad = tmp_path / "bad.tiktoken"
    bad.write_bytes(b"not the ranks")
    with pytest.raises(TokenizerUnavailable, match=r"does not match the published one\. Restore it from the "
                                                   r"repository \(git checkout core/data\)\.$"):
        gpt2(bad)
    assert gpt2().name == "gpt2-offline" and gpt2().n_vocab == 50_257


def test_aligned_frames_keep_steps_shares_and_width():
    from core.projection import aligned_frames, pca
    snaps = np.random.default_rng(0).normal(size=(3, 6, 4))
    f = aligned_frames(snaps, [0, 5, 10])
    np.testing.assert_array_equal(f.steps, [0, 5, 10])
    np.testing.assert_allclose(f.kept, [pca(s).kept for s in snaps])
    assert aligned_frames(snaps, [0, 5, 10], k=3).coords.shape == (3, 6, 3)
