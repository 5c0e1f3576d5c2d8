"""AppTest: the word2vec result's three views (lab_ui.screens.train.bigtext_view) on a small made-up result,
each value checked against core for the same vectors. The views only read ``E``, ``vocab`` and
``counts``, so no word2vec run is needed (tests/app/test_bigtext.py trains a real one)."""
import time
from types import SimpleNamespace

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from core.bigtext import sense_split
from core.projection import pca
from core.similarity import cosine_matrix, nearest, similarity_order
from core.vectors import Vectors
from lab_ui.screens.train.bigtext_view import HEATMAP_WORDS, MAP_WORDS, NEIGHBOURS_LISTED
from tests.app.conftest import assert_clean
from tests.app.values import assert_close, charts, table, texts


def result(n: int, with_bank: bool = True, seed: int = 0):
    rng = np.random.default_rng(seed)
    vocab = ["the", "and", "of"] + [f"word{i:02d}" for i in range(n - 4)] + (["bank"] if with_bank else ["ox"])
    return SimpleNamespace(E=rng.normal(size=(n, 6)), vocab=vocab, counts=np.arange(10 * n, 0, -10))


def _script(view: str, r):
    import streamlit as st
    from lab_ui.screens.train import bigtext_view
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
    nn = nearest(r.E, i, k=NEIGHBOURS_LISTED)
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
    s = sense_split(Vectors(r.vocab, r.E), typed or "bank")
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
    from core.run import RunRequest
    from lab_ui.server.runs import LongRun

    text = "one two three four\nfive six seven eight"
    config = Word2VecConfig(d_model=4, epochs=1, min_count=3)
    with pytest.raises(ConfigError) as refused:
        train_word2vec(text_sentences(text), config)
    job = LongRun(RunRequest("word2vec", text, config), 8)
    job.run()                                     # in this thread: the worker process refuses
    assert job.finished.is_set() and job.result is None
    at = run_view("results_view", job)
    shown = [e.value.replace("\\", "") for e in at.error]     # plain text: escaped Markdown
    assert shown == [str(refused.value)] and "3 times or more" in shown[0]


def test_the_two_groups_are_listed_word_by_word_under_their_names():
    """Beside each group's centre cosine, its words, separated by a comma and a space."""
    from lab_ui.widgets.common import plain
    r = result(40)
    at = run_view("ambiguous_view", r)
    s = sense_split(Vectors(r.vocab, r.E), "bank")
    shown = texts(at, "markdown")
    for name in ("group 1", "group 2"):
        words = s.groups[name]
        assert len(words) >= 2
        assert f"**{name}:** " + plain(", ".join(words)) in shown


def test_the_map_s_table_holds_each_word_s_two_pca_coordinates():
    r = result(60)
    at = run_view("frequent_view", r)
    p = pca(r.E[:MAP_WORDS], k=2)
    behind = table(at, "word", "direction 1", "direction 2")
    assert list(behind["word"]) == r.vocab[:MAP_WORDS]
    assert_close(behind["direction 1"], p.coords[:, 0])
    assert_close(behind["direction 2"], p.coords[:, 1])


def test_a_stopped_run_says_how_far_it_got_in_full():
    from core.word2vec import Word2VecConfig
    r = SimpleNamespace(stopped=True, diverged=False, words_done=1234, vocab=["a", "b"], seconds=2.0,
                        words_per_second=617.0)
    job = SimpleNamespace(error=None, result=r, total=5000, request=SimpleNamespace(config=Word2VecConfig(min_count=5)))
    at = run_view("results_view", job)
    assert [w.value for w in at.warning] == [
        "Stopped after 1,234 of 5,000 words: these are the vectors learned so far.",
        "Fewer than three words are frequent enough to have a vector; lower the minimum count."]


def test_an_unexpected_failure_is_logged_with_its_traceback_and_worded_on_screen(monkeypatch, caplog):
    """A bug in a run: the server's log gets a line that names it, with the traceback; the page
    gets a sentence that points there (the screen says the details are in the log)."""
    import logging

    from core.run import RunRequest
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs

    def broken(*args, **kwargs):
        raise RuntimeError("a bug")
    monkeypatch.setattr(runs.workers, "call", broken)
    job = runs.LongRun(RunRequest("word2vec", "one two", Word2VecConfig()), 2)
    with caplog.at_level(logging.ERROR, logger=runs.__name__):
        job.run()
    [record] = [r for r in caplog.records if r.name == runs.__name__]
    assert record.getMessage() == "a long run failed"
    assert record.exc_info[0] is RuntimeError and "a bug" in caplog.text
    assert job.finished.is_set() and job.error == ("Training stopped with an unexpected error "
                                                   "(the details are in the server's log).")


def test_stop_while_waiting_for_a_slot_leaves_the_queue_and_trains_nothing(monkeypatch):
    """Every long-run slot is taken: the job waits in the queue; Stop takes it out of the queue
    (the slot's holder keeps it) and the page says nothing was trained."""
    import threading

    from core.run import RunRequest
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs
    from lab_ui.server.jobs import LONG, JobSlots

    monkeypatch.setattr(runs.workers, "call", lambda *a, **k: pytest.fail("nothing may train"))
    slots = JobSlots(1)
    slots.acquire(lane=LONG)                          # another run holds the only slot
    job = runs.LongRun(RunRequest("word2vec", "one two", Word2VecConfig()), 2, slots=slots)
    waiter = threading.Thread(target=job.run, daemon=True)
    waiter.start()
    try:
        deadline = time.monotonic() + 10
        while job.place != 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert job.place == 1                         # first in line, not running
        job.stop.set()                                # the Stop button
        assert job.finished.wait(10)
    finally:
        job.stop.set()
        waiter.join(10)
    assert job.error == "Stopped before training could start: nothing was trained."
    assert job.result is None and slots.running == 1 and slots.waiting == 0
