"""The Train screen with a big own text: upload, objective, estimate, word2vec run, Stop, views.

Values shown are checked against core's own computation on the same text and settings.
"""
import time

import numpy as np
import pytest

from core.corpus import split_words
from core.bigtext import sense_split, text_sentences, text_size
from core.run import RunRequest, estimate
from core.similarity import nearest
from core.word2vec import Word2VecConfig, train_word2vec
from lab_ui.widgets.common import plain
from core.vectors import Vectors
from tests.app.conftest import assert_clean, metric, open_screen, texts
from tests.bigtext_data import big_text

TEXT = big_text(3_000_000)          # 3 MB, about 400,000 words, over 2,000 distinct


def _wait(at, timeout=240):
    """Rerun the page until the background job has finished (as the fragment's timer would)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        job = at.session_state["train_w2v_job"] if "train_w2v_job" in at.session_state else None
        if job is not None and job.finished.is_set():
            at.run()
            return job
        time.sleep(0.3)
        at.run()
    raise AssertionError("the word2vec job did not finish in time")


def _upload(text=TEXT):
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("big.txt", text.encode("utf-8"), "text/plain")).run()
    assert_clean(at)
    return at


def test_an_uploaded_megabyte_text_is_trained_with_word2vec_and_shown():
    at = _upload()
    size = text_size(TEXT)
    shown = texts(at)
    assert size.objective == "word2vec"
    assert f"{size.n_words:,} words, {size.n_distinct:,} of them different" in shown
    assert "negative sampling" in shown and "3.00 MB" in shown
    at.select_slider(key="train_w2v_d").set_value(10).run()
    at.select_slider(key="train_w2v_epochs").set_value(1).run()
    config = Word2VecConfig(d_model=10, window=5, epochs=1, min_count=5, seed=0)
    assert f"{estimate(RunRequest('word2vec', TEXT, config), size.n_words).words_to_read:,} words to read" in texts(at)
    at.button(key="train_w2v_start").click().run()
    job = _wait(at)
    assert_clean(at)
    assert job.result is not None and not job.result.stopped
    expected = train_word2vec(text_sentences(TEXT), config)          # deterministic: same seed
    np.testing.assert_array_equal(job.result.E, expected.E)
    assert (f"**{len(expected.vocab):,}** words have a vector (seen at least 5 times). "
            f"**{expected.words_done:,}** words read in") in texts(at)
    # neighbours of a typed word, against core
    at.text_input(key="train_w2v_word").input("Cat").run()
    table = [d.value for d in at.dataframe if "count in the text" in d.value.columns][0]
    i = expected.vocab.index("cat")
    nn = nearest(expected.E, i, k=10)
    assert table["neighbour"].tolist() == [expected.vocab[j] for j, _ in nn]
    assert table["cosine"].tolist() == [round(c, 2) for _, c in nn]
    assert {"dog", "horse", "cow"} & set(table["neighbour"][:5])      # the known group shows
    # heatmap and map of the most frequent words, with the number stated
    assert "Showing the 30 most frequent of the" in texts(at)
    specs = [c.proto.spec for c in at.get("vega_lite_chart")]
    assert len(specs) == 3                                           # heatmap, map, ambiguous map
    # the ambiguous-word view for a word the user picks
    at.text_input(key="train_w2v_ambiguous").input("bank").run()
    s = sense_split(Vectors(expected.vocab, expected.E), "bank")
    amb = texts(at)
    assert f"cosine {s.position.centroid_a:.2f} to group 1's centre and {s.position.centroid_b:.2f}" in amb
    at.text_input(key="train_w2v_word").input("zzzz").run()
    assert "has no vector" in texts(at)
    assert_clean(at)


def test_stop_keeps_the_vectors_learned_so_far():
    at = _upload()
    at.select_slider(key="train_w2v_d").set_value(10).run()
    at.select_slider(key="train_w2v_epochs").set_value(20).run()
    at.button(key="train_w2v_start").click().run()
    job = at.session_state["train_w2v_job"]
    deadline = time.monotonic() + 60
    while job.done == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    at.run()
    assert any(p.proto.text.startswith("Training:") for p in at.get("progress"))
    at.button(key="train_w2v_stop").click().run()
    job = _wait(at)
    assert_clean(at)
    assert job.result.stopped and 0 < job.result.words_done < job.total
    assert f"Stopped after {job.result.words_done:,} of {job.total:,} words" in texts(at)


def test_small_texts_keep_the_full_softmax_and_long_pastes_are_cut():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    text = "the cat sat on the mat " * 2000                  # 46,000 characters: a file (the box takes 20,000)
    at.file_uploader(key="train_upload").set_value(("cats.txt", text.encode(), "text/plain")).run()
    assert_clean(at)
    assert "only the first 20,000 are used" in texts(at)
    assert metric(at, "vocabulary") == str(len(set(split_words(text[:20_000]))))   # "m" of a cut "mat" too
    assert "train_w2v_start" not in [b.key for b in at.button]


@pytest.mark.parametrize("raw,note", [(b"caf\xe9 au lait for the cat and the dog", "cannot be read as UTF-8 or UTF-16")])
def test_undecodable_bytes_are_reported(raw, note):
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("odd.txt", raw, "text/plain")).run()
    assert_clean(at)
    assert plain(note) in texts(at)


def test_a_big_text_shows_only_word2vecs_settings_and_keeps_the_lessons():
    """One set of controls at a time: the lesson's sliders hide while a big text is chosen (no
    second "Window"), the Seed box moves beside word2vec's settings and reaches its run, and
    the lesson's sliders come back as the student left them."""
    at = open_screen("train")
    at.slider(key="train_d_model").set_value(9).run()
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("big.txt", TEXT.encode("utf-8"), "text/plain")).run()
    assert_clean(at)
    keys = {w.key for w in at.slider} | {w.key for w in at.select_slider}
    assert {"train_d_model", "train_lr", "train_window", "train_steps"}.isdisjoint(keys)
    assert [s.label for s in at.slider] == ["Window"] and "train_w2v_window" in keys
    assert at.select_slider(key="train_w2v_epochs").options == ["1", "2", "3", "5", "10", "20"]
    assert at.button(key="train_w2v_start").label == "Train word2vec"
    at.text_input(key="train_seed").input("7").run()
    at.select_slider(key="train_w2v_epochs").set_value(1).run()
    at.button(key="train_w2v_start").click().run()
    job = at.session_state["train_w2v_job"]
    assert job.request.config == Word2VecConfig(d_model=50, window=5, epochs=1, min_count=5, seed=7)
    job.stop.set()
    _wait(at)
    assert at.button(key="train_w2v_start").label == "Train again"     # these settings have a run
    lesson = at.radio(key="train_source").options[0]
    at.radio(key="train_source").set_value(lesson).run()
    assert_clean(at)
    assert at.slider(key="train_d_model").value == 9 and at.text_input(key="train_seed").value == "7"
