"""The hostile suite's uploads (issue 31): the files an outside pass sent to "10. Your own
vectors" and to the Train screen's upload, each read right or refused with its line and
column, and the smaller wrong results the same pass found elsewhere. Each test failed on
the code before the fix."""
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.corpus import Corpus
from core.export import projector_tsv
from core.honesty import neighbour_overlap
from core.projection import pca
from core.similarity import cosine_matrix
from core.skipgram import loss_floor
from core.vectors_io import VectorsError, read_projector
from core.word2vec import Word2VecConfig
from lab_ui.widgets.common import plain
from lab_ui.screens.views.own_vectors_view import table_key
from tests.app.conftest import assert_clean, metric, open_screen, texts
from tests.app.values import charts

WORDS = ["the", "cat", "sat", "on", "mat", "dog", "log", "ran"]


def upload(vectors: bytes, metadata: bytes | None = None, switch_off: bool = True):
    """The screen with the files uploaded; ``switch_off``: then the lesson's switch is turned
    off by hand too (else it is left as the page set it)."""
    at = open_screen("own_vectors")
    at.file_uploader(key="own_vectors").set_value(("vectors.tsv", vectors, "text/tab-separated-values")).run()
    if metadata is not None:
        at.file_uploader(key="own_metadata").set_value(("metadata.tsv", metadata, "text/tab-separated-values")).run()
    if switch_off:
        at.toggle(key="own_lesson").set_value(False).run()
    assert_clean(at)
    return at


def files(E, words=WORDS) -> tuple[bytes, bytes]:
    vectors, metadata = projector_tsv(E, words)
    return vectors.encode(), metadata.encode()


def chart_titles(at) -> list[str]:
    return [c.title for c in charts(at)]


def scores_shown(at) -> list[str]:
    """The pictures' neighbour scores on the screen ("...; 100% of neighbours")."""
    return [t for t in chart_titles(at) if "of neighbours" in t]


# --- a cell of 60,000 digits: bounded before it is read or quoted ---------------------------

def test_a_60000_digit_cell_is_refused_with_its_place_and_a_short_quote():
    data = ("9" * 60_000 + "\t1\n2\t3\n").encode()
    with pytest.raises(VectorsError) as refused:
        read_projector(data)
    message = str(refused.value)
    assert "line 1, column 1" in message and "60,000 characters" in message and len(message) < 300
    at = upload(data)
    assert at.error and len(at.error[0].value) < 400 and plain("line 1, column 1") in at.error[0].value


# --- numbers far from 1: scaled, never inf or nan on screen ----------------------------------

@pytest.mark.parametrize("size", [1e155, 1e200, 1e308, 1e-170])
def test_entries_far_from_one_are_scaled_and_keep_their_cosines(size):
    unit = np.random.default_rng(3).uniform(-1, 1, (8, 3))
    vectors, _ = files(unit * size)
    table = read_projector(vectors)
    assert np.isfinite(table.E).all() and np.abs(table.E).max() == pytest.approx(1.0)
    np.testing.assert_allclose(cosine_matrix(table.E), cosine_matrix(unit), atol=1e-8)
    p = pca(table.E, k=2)
    assert np.isfinite(p.coords).all() and 2 / 3 - 1e-9 <= p.kept <= 1 + 1e-9   # 2 of 3 directions
    assert np.isfinite(neighbour_overlap(table.E, p.coords, 3).mean)


@pytest.mark.parametrize("size", [1e155, 1e308])
def test_the_screen_shows_huge_entries_without_a_crash_or_nan(size):
    unit = np.random.default_rng(4).uniform(-1, 1, (8, 3))
    at = upload(*files(unit * size))
    titles = chart_titles(at)
    assert any("PCA: keeps" in t for t in titles) and not any("nan" in t for t in titles)
    assert "Every number was divided by" in texts(at)


# --- repeated labels: unique for good ---------------------------------------------------------

def test_cat_cat_cat2_gives_three_labels_and_every_row_can_be_chosen():
    E = np.random.default_rng(5).normal(size=(4, 3))
    words = ["cat", "cat", "cat (2)", "dog"]
    table = read_projector(*files(E, words))
    assert table.words[0] == "cat" and table.words[2] == "cat (2)" and len(set(table.words)) == 4
    at = upload(*files(E, words))
    box = at.selectbox(key=f"own_word_{table_key(table.words)}")
    assert len(set(box.options)) == 4


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["a", "a (2)", "a (3)", "a (2) (2)", "b", ""]), min_size=1, max_size=12))
def test_any_labels_come_out_unique_with_first_ones_kept(labels):
    assume(any(labels))                                        # all blank: "metadata.tsv is empty"
    vectors = "".join(f"{i + 1}\t1\n" for i in range(len(labels)))
    table = read_projector(vectors, "\n".join(labels) + "\n")
    assert len(set(table.words)) == len(labels)
    for i, label in enumerate(labels):
        if label and label not in labels[:i]:
            assert table.words[i] == label                     # a label's first row keeps its name


# --- no direction, no spread: named, not scored as a success ---------------------------------

@pytest.mark.parametrize("E, named", [
    (np.zeros((6, 3)), "are all zeros"),
    (np.tile([1.0, 2.0, 3.0], (6, 1)), "point the same way"),
    (np.outer(np.arange(1, 7), [1.0, -2.0, 0.5]), "point the same way"),      # same direction, other lengths
])
def test_a_table_without_directions_or_spread_is_named_and_not_scored(E, named):
    at = upload(*files(E, WORDS[:6]))
    assert named in texts(at)
    assert scores_shown(at) == []


def test_rows_of_zeros_are_named_and_left_out_of_neighbours_and_pictures():
    E = np.random.default_rng(6).normal(size=(8, 3))
    E[[2, 5]] = 0.0
    at = upload(*files(E))
    assert f"The rows {WORDS[2]}, {WORDS[5]} are all zeros" in texts(at)
    box = at.selectbox(key=f"own_word_{table_key([w for i, w in enumerate(WORDS) if i not in (2, 5)])}")
    assert WORDS[2] not in box.options and len(box.options) == 6
    assert len(scores_shown(at)) == 2


# --- encodings: detected, or refused by name ---------------------------------------------------

@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
def test_both_files_are_read_in_the_usual_encodings(encoding):
    words = ["the", "café", "niño", "straße", "dog", "cat"]
    E = np.random.default_rng(7).normal(size=(6, 4))
    vectors, metadata = projector_tsv(E, words)
    table = read_projector(vectors.encode(encoding), metadata.encode(encoding))
    assert table.words == words
    np.testing.assert_allclose(table.E, E, rtol=1e-9)


@pytest.mark.parametrize("data, said", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "byte 1 cannot be read as UTF-8 or UTF-16"),
    (b"1\t2\n\x00\x00\x00\x01\n", "line 2, column 1 holds a zero character"),
    (b"1\t2\n3\t\xe9\n", "byte 7 cannot be read as UTF-8 or UTF-16"),
    ("1\t2\n".encode("utf-32"), "is in UTF-32"),
])
def test_binary_and_other_encodings_are_refused_by_name(data, said):
    with pytest.raises(VectorsError, match=said):
        read_projector(data)
    at = upload(data)
    assert at.error and plain(said) in at.error[0].value


def test_the_train_screen_reads_utf16_without_a_byte_order_mark():
    text = "the cat sat on the mat and the dog sat on the log"
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("notes.txt", text.encode("utf-16-le"), "text/plain")).run()
    assert_clean(at)
    assert metric(at, "vocabulary") == f"{Corpus.from_text(text, window=2).V:,}"     # not 26 letters
    assert "read as UTF-16 (little-endian)" in texts(at)


def test_the_train_screen_says_a_binary_upload_is_not_text():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("photo.txt", b"\x00\x01\x02the cat\x00" * 50, "text/plain")).run()
    assert_clean(at)
    assert at.error and plain("looks like a binary file") in at.error[0].value


# --- labels a student can type --------------------------------------------------------------

def test_without_metadata_the_limits_view_works_at_its_defaults():
    at = upload(files(np.random.default_rng(8).normal(size=(5, 3)))[0])
    assert metric(at, "rows") == "5" and not at.error
    assert at.warning and "Identical vectors" in at.warning[-1].value     # "row 0 row 1 row 2", reversed


def test_labels_with_spaces_can_be_typed_in_the_limits_view():
    words = ["New York", "Los Angeles", "cat", "dog", "big  city"]
    E = np.random.default_rng(9).normal(size=(5, 3))
    at = upload(*files(E, words))
    assert not at.error
    table = read_projector(*files(E, words))
    assert "big city" in table.words                                    # one space, as it is typed
    at.text_input(key=f"own_a_{table_key(table.words)}").input("cat New York big city").run()
    at.text_input(key=f"own_b_{table_key(table.words)}").input("big city cat New York").run()
    assert not at.error and at.warning and "Identical vectors" in at.warning[0].value


def test_a_label_too_long_to_type_is_refused_with_its_line():
    with pytest.raises(VectorsError, match="metadata.tsv line 2: the label 'xxxxxxxxxxxxxxxxxxxx...' is "
                                           "60,000 characters long; at most 160") as refused:
        read_projector("1\n2\n", "cat\n" + "x" * 60_000 + "\n")
    assert len(str(refused.value)) < 300
    words = ["y" * 160, "z" * 160, "w" * 160, "cat"]                     # the longest allowed: typeable
    at = upload(*files(np.random.default_rng(12).normal(size=(4, 3)), words))
    assert not at.error and at.warning and "Identical vectors" in at.warning[-1].value


# --- blank labels and empty cells: read right, or refused with line and column ---------------

def test_blank_labels_at_the_end_are_labels():
    table = read_projector("1\n2\n3\n4\n", "a\nb\n\n\n")
    assert table.words == ["a", "b", "(blank)", "(blank) (2)"]
    assert read_projector("1\n2\n", "a\nb\n\n\n").words == ["a", "b"]      # blank lines past the rows


@pytest.mark.parametrize("vectors, metadata, said", [
    ("\t1\t2\n\t3\t4\n", None, "vectors.tsv line 1, column 1 is empty"),
    ("1\t2\t\n3\t4\t\n", None, "vectors.tsv line 1, column 3 is empty"),
    ("1\t2\n\n3\t4\n", None, "vectors.tsv line 2 is empty"),
    ("1\n2\n", "cat\n\tdog\n", "metadata.tsv line 2 has 2 columns, but line 1 has one: the tab at column 1"),
])
def test_empty_cells_are_refused_with_line_and_column(vectors, metadata, said):
    with pytest.raises(VectorsError, match=said):
        read_projector(vectors, metadata)


# --- the uploaded table is the one shown --------------------------------------------------------

def test_an_upload_is_shown_without_touching_the_lessons_switch():
    E = np.random.default_rng(10).normal(size=(8, 5))
    at = upload(*files(E), switch_off=False)
    assert metric(at, "rows") == "8" and metric(at, "numbers per row") == "5"
    assert "Read from your files." in texts(at)


# --- smaller wrong results ---------------------------------------------------------------------

def test_a_link_with_seed_nan_names_the_seed_really_used():
    at = open_screen("train", train_seed="nan")
    warned = " ".join(w.value for w in at.warning)
    assert "(using 0)" in warned and "(using nan)" not in warned


def test_a_most_frequent_word_longer_than_the_box_is_not_the_default():
    from tests.app.test_bigtext_views import run_view
    rng = np.random.default_rng(11)
    vocab = ["x" * 70, "words", "and", "more"] + [f"w{i}" for i in range(8)]
    r = SimpleNamespace(E=rng.normal(size=(12, 4)), vocab=vocab, counts=np.arange(120, 0, -10))
    at = run_view("neighbours_view", r)
    assert "has no vector" not in texts(at) and at.text_input(key="train_w2v_word").value == "words"


def test_a_loss_floor_of_zero_is_not_minus_zero():
    floor = loss_floor(Corpus.from_text("apple banana", window=1))
    assert f"{floor:.3f}" == "0.000"


def test_two_empty_sentences_have_no_words():
    at = open_screen("limits", limits_a=" ", limits_b=" ")
    assert plain("Sentence A and Sentence B have no words") in at.error[0].value


def test_a_percent_sign_on_a_cosine_is_hundredths():
    from tests.app.test_exercises import answer
    at = answer(open_screen("similarity"), "sim_ex1", "0.96%")
    assert not at.success and any(e.value.startswith("Not quite") for e in at.error)
    at = answer(open_screen("similarity"), "sim_ex1", "96%")
    assert any(s.value.startswith("Right.") for s in at.success)


def test_the_progress_count_reaches_its_total():
    from core.run import RunRequest
    from lab_ui.server.runs import LongRun
    text = "\n".join(["the cat sat on the mat", "the dog sat on the log"] * 20 + ["once only here"])
    config = Word2VecConfig(d_model=4, epochs=2, min_count=2)
    job = LongRun(RunRequest("word2vec", text, config), len(text.split()) * config.epochs)
    job.run()                                            # in this thread; the worker trains
    assert job.result is not None and not job.result.stopped
    assert job.done == job.total == job.result.words_done
