"""Robustness of the core: hostile text and numbers, and property tests."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from core.corpus import Corpus, CorpusError
from core.embedding import lookup_backward
from core.params import embedding_params
from core.projection import pca
from core.similarity import cosine, cosine_matrix
from core.skipgram import SkipGramConfig, train
from core.tokenizer import clean_text, gpt2, tokenize
from lab_ui.widgets.parse import TOKENS_MAX_CHARS

ENC = gpt2()


@pytest.mark.parametrize("text", [
    "", "   \t\n ", "one", "la la la la", "!!! ... ??? ;;;", "x" * 100_000,
])
def test_unusable_texts_give_a_message(text):
    with pytest.raises(CorpusError):
        Corpus.from_text(text)


@pytest.mark.parametrize("text,n_words", [
    ("the cat\r\nsat on\r\nthe mat", 6),                         # Windows line endings
    ("the\x00cat\x07sat\x1bon the mat", 6),                      # NUL and control characters
    ("猫 は 犬 が 好き the cat 🐱 ❤️ кот собака", 9),              # mixed scripts and emoji
])
def test_odd_but_usable_texts(text, n_words):
    c = Corpus.from_text(text)
    assert len(c.words) == n_words
    r = train(c, SkipGramConfig(steps=20))
    assert np.isfinite(r.losses).all()


def test_a_megabyte_of_text_is_bounded_by_the_vocabulary_cap():
    words = [f"w{i % 5000}" for i in range(200_000)]            # ~1 MB
    c = Corpus.from_text(" ".join(words), window=1, max_vocab=300)
    assert c.V == 300 and c.cooccurrence.shape == (300, 300)


@pytest.mark.parametrize("d_model", [1, 32])
def test_extreme_widths_train(d_model):
    r = train(Corpus.from_text("the cat sat on the mat"), SkipGramConfig(d_model=d_model, steps=50))
    assert np.isfinite(r.losses).all() and r.E.shape[1] == d_model


def test_huge_seed_is_fine():
    r = train(Corpus.from_text("the cat sat on the mat"), SkipGramConfig(seed=2**63 - 1, steps=5))
    assert np.isfinite(r.losses).all()


def test_calculator_bounds_never_allocate():
    assert embedding_params(10_000_000, 1_000_000) == 10**13      # plain integers, no overflow
    for v in (0, 10**12):
        with pytest.raises(ValueError):
            embedding_params(v, 768)


@pytest.mark.parametrize("text", [
    "<|endoftext|>", "<|endoftext|><|endoftext|>x", "<|fim_prefix|><|im_start|>",
    "<script>alert(1)</script>", "a" * 1_000_000,
])
def test_tokenizer_never_raises(text):
    fixed, _ = clean_text(text, TOKENS_MAX_CHARS)
    for special in (True, False):
        toks = tokenize(ENC, fixed, special_as_token=special)
        assert len(toks) >= 1


def test_invalid_utf8_pasted_from_elsewhere():
    broken = b"caf\xc3 \xff\xfe ok".decode("utf-8", errors="surrogateescape")   # lone surrogates
    fixed, notes = clean_text(broken, TOKENS_MAX_CHARS)
    assert notes and "\ufffd" in fixed
    assert tokenize(ENC, fixed)


finite = st.floats(-1e3, 1e3, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, 5, elements=finite), arrays(np.float64, 5, elements=finite))
def test_cosine_is_bounded_and_symmetric(u, v):
    c = cosine(u, v)
    assert -1.0 <= c <= 1.0
    assert c == cosine(v, u)


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, (6, 3), elements=finite))
def test_cosine_matrix_bounded(X):
    S = cosine_matrix(X)
    assert np.isfinite(S).all() and (np.abs(S) <= 1).all()
    np.testing.assert_allclose(S, S.T)


@settings(max_examples=100, deadline=None)
@given(arrays(np.float64, (8, 4), elements=finite), st.integers(1, 4))
def test_pca_shares_sum_to_at_most_one(X, k):
    p = pca(X, k)
    assert (p.explained >= 0).all() and p.explained.sum() <= 1 + 1e-9


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 49), min_size=1, max_size=20))
def test_sparse_gradient_touches_exactly_the_used_rows(ids):
    g = np.random.default_rng(len(ids)).normal(size=(1, len(ids), 3)) + 5.0   # never zero
    grad = lookup_backward([ids], g, 50)
    touched = set(np.flatnonzero(np.any(grad != 0, axis=1)).tolist())
    assert touched == set(ids)
