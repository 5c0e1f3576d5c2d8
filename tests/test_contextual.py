"""core.contextual: MiniLM's NumPy forward pass against the reference implementation (transformers'
BertModel on torch), captured once into tests/fixtures/real_model_reference.json (its header says how)."""
import json
import math
from pathlib import Path

import numpy as np
import pytest

from core.contextual import MAX_TOKENS, contextual_vectors, gelu, layer_norm, sentence_vector
from core.wordpiece import WordPiece, basic_split
from tests.real_models import get

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "real_model_reference.json").read_text())["minilm"]


@pytest.mark.parametrize("case", REFERENCE, ids=[c["text"][:20] for c in REFERENCE])
def test_last_hidden_states_and_sentence_vector_match_the_reference(case):
    tokens, H = get(contextual_vectors, case["text"])
    assert tokens == case["tokens"]
    assert H.shape == (len(case["tokens"]), 384)
    assert np.abs(H - np.array(case["hidden"])).max() < 1e-5
    assert np.abs(sentence_vector(case["text"]) - np.array(case["sentence"])).max() < 1e-5


def test_the_same_word_gets_different_vectors_in_different_sentences():
    """The static row of "bank" is one; its contextual vectors differ, and the river sentence's
    bank is nearer another river bank than the loan's bank."""
    river, loan, shore = (get(contextual_vectors, t) for t in (
        "He sat on the river bank.", "She got a bank loan.", "The boat reached the muddy bank of the stream."))

    def bank(pair):
        tokens, H = pair
        return H[tokens.index("bank")]

    def cos(u, v):
        return float(u @ v / np.linalg.norm(u) / np.linalg.norm(v))

    assert cos(bank(river), bank(loan)) < 0.99
    assert cos(bank(river), bank(shore)) > cos(bank(loan), bank(shore))


def test_long_text_is_cut_to_the_models_length():
    tokens, H = get(contextual_vectors, "word " * 400)
    assert len(tokens) == MAX_TOKENS == len(H) and tokens[0] == "[CLS]" and tokens[-1] == "[SEP]"


def test_gelu_and_layer_norm_by_their_formulas():
    z = np.linspace(-4, 4, 17)
    assert gelu(z) == pytest.approx([x * (1 + math.erf(x / math.sqrt(2))) / 2 for x in z], abs=1e-15)
    x = np.array([[1.0, 2.0, 6.0]])
    m, s = x.mean(), x.std()
    assert layer_norm(x, np.array([1.0, 2, 3]), np.array([0.0, 1, 0]), 1e-12)[0] == pytest.approx(
        [(1 - m) / s, 2 * (2 - m) / s + 1, 3 * (6 - m) / s])


def test_wordpiece_by_bert_rules():
    assert basic_split("Don't  STOP—now!") == ["don", "'", "t", "stop", "—", "now", "!"]
    assert basic_split("日本 x\u0000y") == ["日", "本", "xy"]
    wp = WordPiece(["[UNK]", "play", "##ing", "##s", "p"])
    assert wp.tokenize("Playing plays pq") == ["play", "##ing", "play", "##s", "[UNK]"]
    assert wp.split_word("p" * 101) == ["[UNK]"]
