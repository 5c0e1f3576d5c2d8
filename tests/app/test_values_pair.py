"""AppTest: the "One pair, step by step" screen shows core's numbers at every stage and pair."""
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.pair_step import combined_scores, pair_step, walk
from core.skipgram import SkipGramConfig, init_params
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, metric, table, texts


def expected(pair: int):
    cfg = SkipGramConfig()
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E0, W0 = init_params(corpus.V, cfg)
    E, W = walk(E0, W0, corpus.inputs, corpus.targets, cfg.lr, pair)
    return corpus, E, W, pair_step(E, W, int(corpus.inputs[pair]), int(corpus.targets[pair]), cfg.lr)


def press(at, key, times=1):
    for _ in range(times):
        at.button(key=key).click().run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("pair, next_pairs, steps", [(0, 0, 0), (0, 0, 2), (0, 0, 6), (1, 1, 6), (3, 3, 4)])
def test_each_stage_shows_core_numbers(pair, next_pairs, steps):
    at = open_screen("pair")
    press(at, "pair_next", next_pairs)
    press(at, "pair_next_step", steps)
    corpus, E, W, s = expected(pair)
    header = next(t for t in texts(at, "markdown") if t.startswith("**Pair"))
    assert f"Pair {pair + 1} of {len(corpus.inputs)}" in header
    assert f"centre **{corpus.vocab[s.centre]}** (id {s.centre})" in header
    assert f"context **{corpus.vocab[s.context]}** (id {s.context})" in header
    assert f"Step {steps + 1} of 7" in header

    words = table(at, "word", "role")
    assert list(words["word"]) == corpus.vocab
    roles = {s.centre: "centre", s.context: "context"} if s.centre != s.context else {s.centre: "centre + context"}
    assert list(words["role"]) == [roles.get(i, "") for i in range(corpus.V)]
    for column, values, from_stage in (("z (score)", s.z, 1), ("p (chance)", s.p, 2), ("dz", s.dz, 4),
                                       ("move of W's column", s.column_moves, 6)):
        assert (column in words.columns) == (steps >= from_stage), column
        if column in words.columns:
            assert_close(words[column].to_numpy(), values)
    vectors = table(at, "vector")
    assert_close(vectors[[f"dim {k}" for k in range(4)]].to_numpy()[0], s.x)
    if steps >= 5:
        assert_close(vectors.iloc[1, 1:].to_numpy(dtype=float), s.dx)
    if steps >= 3:
        assert float(metric(at, "loss = −log p[t]")) == pytest.approx(s.loss, abs=5e-5)
    if steps >= 6:
        assert_close(vectors.iloc[2, 1:].to_numpy(dtype=float), s.E_after[s.centre])
        done = at.success[0].value
        assert "**1 row of E** moved" in done and f"{s.row_move:.4f}" in done
        assert f"the column of “{corpus.vocab[s.most_moved_column]}”" in done
    else:
        assert not at.success


def test_the_walk_wraps_and_goes_back():
    at = open_screen("pair")
    press(at, "pair_prev")
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    n = len(corpus.inputs)
    assert any(f"Pair {n} of {n}" in t for t in texts(at, "markdown"))
    press(at, "pair_next", 2)
    assert any("Pair 2 of" in t for t in texts(at, "markdown"))
    press(at, "pair_all")
    assert any("Step 7 of 7" in t for t in texts(at, "markdown"))


@pytest.mark.parametrize("pair", [0, 2])
def test_the_combined_table_and_its_rank(pair):
    at = open_screen("pair")
    press(at, "pair_next", pair)
    _, E, W, _ = expected(pair)
    S, rank = combined_scores(E, W)
    assert metric(at, "its rank") == str(rank) == "4"
    assert metric(at, "E · W shape") == "12 x 12"
    assert_close(table(at, "the").to_numpy(), S, decimals=4)
