"""AppTest: the word2vec result's three views (lab_ui.bigtext_view) on a small made-up result,
each value checked against core for the same vectors. The views only read ``E``, ``vocab`` and
``counts``, so no word2vec run is needed (tests/app/test_bigtext.py trains a real one)."""
from types import SimpleNamespace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.bigtext import sense_split
from core.projection import pca
from core.similarity import cosine_matrix, nearest, similarity_order
from lab_ui.bigtext_view import HEATMAP_WORDS, MAP_WORDS, NEIGHBOURS
from tests.app.conftest import assert_clean
from tests.app.values import assert_close, charts, table, texts


def result(n: int, with_bank: bool = True, seed: int = 0):
    rng = np.random.default_rng(seed)
    vocab = ["the", "and", "of"] + [f"word{i:02d}" for i in range(n - 4)] + (["bank"] if with_bank else ["ox"])
    return SimpleNamespace(E=rng.normal(size=(n, 6)), vocab=vocab, counts=np.arange(10 * n, 0, -10))


def _script(view: str, r):
    import streamlit as st
    from lab_ui import bigtext_view
    st.session_state["tables"] = True          # every chart's table open
    getattr(bigtext_view, view)(r)


def run_view(view: str, r, **inputs) -> AppTest:
    at = AppTest.from_function(_script, args=(view, r), default_timeout=30).run()
    for key, value in inputs.items():
        at.text_input(key=key).input(value).run()
    assert_clean(at)
    return at


@pytest.mark.parametrize("n", [60, 20])            # more words than the heatmap holds, and fewer
def test_the_frequent_words_heatmap_and_map_are_core_s(n):
    r = result(n)
    at = run_view("frequent_view", r)
    n_heat, n_map = min(HEATMAP_WORDS, n), min(MAP_WORDS, n)
    S = cosine_matrix(r.E[:n_heat])
    order = [r.vocab[i] for i in similarity_order(S)]
    heat, scatter = charts(at)
    cells = heat.rows("cosine")
    assert list(dict.fromkeys(cells["row"])) == order and list(dict.fromkeys(cells["column"])) == order
    idx = {w: i for i, w in enumerate(r.vocab)}
    assert_close(cells["cosine"], [S[idx[a], idx[b]] for a, b in zip(cells["row"], cells["column"])])
    behind = table(at, "word", nth=0)
    assert list(behind["word"]) == r.vocab[:n_heat]
    np.testing.assert_allclose(behind[r.vocab[:n_heat]].to_numpy(), S, atol=1e-6)
    p = pca(r.E[:n_map], k=2)
    points = scatter.rows("x")
    assert list(points["word"]) == r.vocab[:n_map]
    assert_close(points["x"], p.coords[:, 0])
    assert_close(points["y"], p.coords[:, 1])
    assert f"keeps {100 * p.kept:.0f}% of the spread" in scatter.title
    assert f"Showing the {n_heat} most frequent of the {n:,} words with a vector" in " ".join(texts(at))


@pytest.mark.parametrize("with_bank, typed, word", [(True, None, "bank"), (False, None, "word00"),
                                                      (True, "  WORD03 ", "word03")])
def test_the_neighbours_of_the_default_or_a_typed_word(with_bank, typed, word):
    r = result(40, with_bank)
    at = run_view("neighbours_view", r, **({"train_w2v_word": typed} if typed else {}))
    i = r.vocab.index(word)
    nn = nearest(r.E, i, k=NEIGHBOURS)
    t = table(at, "neighbour")
    assert list(t["neighbour"]) == [r.vocab[j] for j, _ in nn]
    assert list(t["cosine"]) == [round(c, 2) for _, c in nn]
    assert list(t["count in the text"]) == [int(r.counts[j]) for j, _ in nn]


def test_a_vocabulary_smaller_than_the_neighbour_list_shows_every_other_word():
    r = result(6)
    at = run_view("neighbours_view", r)
    assert sorted(table(at, "neighbour")["neighbour"]) == sorted(w for w in r.vocab if w != "bank")


def test_a_word_without_a_vector_gets_a_message_not_a_table():
    at = run_view("neighbours_view", result(40), train_w2v_word="zebra")
    assert "“zebra” has no vector" in " ".join(texts(at))
    assert not at.dataframe


@pytest.mark.parametrize("typed", [None, "word05"])
def test_the_ambiguous_word_view_is_core_s_sense_split(typed):
    r = result(40)
    at = run_view("ambiguous_view", r, **({"train_w2v_ambiguous": typed} if typed else {}))
    s = sense_split(r.E, r.vocab, typed or "bank")
    p = s.position
    shown = {m.label: m.value for m in at.metric}
    assert shown == {f"cosine to {p.group_a}'s centre": f"{p.centroid_a:.2f}",
                     f"cosine to {p.group_b}'s centre": f"{p.centroid_b:.2f}"}
    t = table(at, "group")
    assert list(t["word"]) == [s.word] + [w for w, _ in s.neighbours]
    assert list(t["group"]) == ["the word"] + ["group 1" if w in s.groups["group 1"] else "group 2"
                                               for w, _ in s.neighbours]
    assert_close(t["cosine to the word"], [1.0] + [c for _, c in s.neighbours], 2)
    points = charts(at)[0].rows("x")
    assert_close(points["x"], s.coords[:, 0])
    assert_close(points["y"], s.coords[:, 1])
    closer = p.group_a if p.centroid_a >= p.centroid_b else p.group_b
    assert (f"has cosine {p.centroid_a:.2f} to group 1's centre and {p.centroid_b:.2f} to group 2's: "
            f"it sits closer to {closer}") in " ".join(texts(at))


def test_a_run_that_core_refuses_shows_core_s_own_message():
    """A text whose every word is too rare for min_count: word2vec refuses to train, and the
    results view shows that refusal's words (not a traceback, not "None")."""
    from core.bigtext import text_sentences
    from core.config_rules import ConfigError
    from core.word2vec import Word2VecConfig, train_word2vec
    from lab_ui.bigtext_view import Word2VecJob

    text = "one two three four\nfive six seven eight"
    config = Word2VecConfig(d_model=4, epochs=1, min_count=3)
    with pytest.raises(ConfigError) as refused:
        train_word2vec(text_sentences(text), config)
    job = Word2VecJob(text, config, ("refused",), n_words=8)
    job.run()                                     # in this thread: the worker process refuses
    assert job.finished.is_set() and job.result is None
    at = run_view("results_view", job)
    shown = [e.value.replace("\\", "") for e in at.error]     # plain text: escaped Markdown
    assert shown == [str(refused.value)] and "3 times or more" in shown[0]
