"""AppTest: the Limits, Tokens and Home screens show core's numbers for what was typed."""
import re

import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.similarity import cosine, mean_embedding
from core.skipgram import SkipGramConfig, train
from core.tokenizer import clean_text, gpt2, tokenize
from lab_ui.widgets.parse import TOKENS_MAX_CHARS
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, has_number, metric, table, text_with


@pytest.mark.parametrize("a, b", [(None, None), ("the cat sat on the mat", "the dog ran to the log"),
                                  ("cat saw the dog", "the dog saw cat")])
def test_limits_means_and_their_cosine(a, b):
    at = open_screen("limits")
    if a is not None:
        at.text_input(key="limits_a").input(a).run()
        at.text_input(key="limits_b").input(b).run()
        assert_clean(at)
    a, b = a or "the cat saw the dog", b or "the dog saw the cat"
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E = train(corpus, SkipGramConfig()).E
    mean_a, mean_b = mean_embedding(E, corpus.encode(a)), mean_embedding(E, corpus.encode(b))
    means = table(at, "dim 0")
    assert_close(means.to_numpy(), np.vstack([mean_a, mean_b]))
    msg = text_with(at, r"cosine", "warning", "info")
    assert has_number(msg, cosine(mean_a, mean_b), 2)
    same = bool((mean_a == mean_b).all())
    assert bool(at.warning) == same


TOKENS = {
    "defaults": ("He sat on the river bank.\nShe got a bank loan.", True),
    "special off": ("the bank<|endoftext|> bank bank, Bank!", False),
    "special on": ("the bank<|endoftext|> bank bank, Bank!", True),
}


@pytest.mark.parametrize("name", list(TOKENS))
def test_tokens_counts_and_table(name):
    text, special = TOKENS[name]
    at = open_screen("tokens")
    if name != "defaults":
        at.text_area(key="tok_text").input(text).run()
        at.toggle(key="tok_special").set_value(special).run()
        assert_clean(at)
    clean, _ = clean_text(text, TOKENS_MAX_CHARS)
    tokens = tokenize(gpt2(), clean, special_as_token=special)
    assert metric(at, "characters") == f"{len(clean):,}"
    assert metric(at, "tokens") == f"{len(tokens):,}"
    assert metric(at, "characters per token") == f"{len(clean) / len(tokens):.2f}"
    t = table(at, "position", "id")
    assert list(t["id"]) == [tok.id for tok in tokens]
    assert list(t["position"]) == [tok.position for tok in tokens]
    n_bank = sum(tok.id == 3331 for tok in tokens)
    said = re.search(r"text above it appears (\d+) time", text_with(at, r"in the text above it"))
    assert said and int(said.group(1)) == n_bank


def test_home_counts_the_lesson_text():
    at = open_screen("home")
    n_words = len(Corpus.from_text(GUIDE_TEXT).words)
    assert f"{n_words} words" in text_with(at, r"Train")
