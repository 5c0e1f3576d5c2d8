"""AppTest: the "Your own vectors" screen reads the files and shows core's numbers for them."""
import numpy as np
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.export import projector_tsv
from core.honesty import neighbour_overlap
from core.projection import pca
from core.similarity import cosine_matrix, nearest
from core.skipgram import SkipGramConfig, train
from core.tsne import tsne
from core.vectors_io import read_projector
from lab_ui.screens.views.own_vectors_view import table_key
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import assert_close, charts_with, metric, table

WORDS = [f"w{i}" for i in range(9)] + ["<b>bold</b>", "[link](http://x.test)"]


def uploaded(E=None, words=WORDS, metadata=True):
    E = np.random.default_rng(2).normal(size=(len(words), 6)) if E is None else E
    vectors, meta = projector_tsv(E, words)
    at = open_screen("own_vectors")
    at.file_uploader(key="own_vectors").set_value(("vectors.tsv", vectors.encode(), "text/tab-separated-values")).run()
    if metadata:
        at.file_uploader(key="own_metadata").set_value(("metadata.tsv", meta.encode(), "text/tab-separated-values")).run()
    at.toggle(key="own_lesson").set_value(False).run()
    return at, read_projector(vectors, meta if metadata else None)


def check_views(at, E, words, word=None, perplexity=5):
    assert_clean(at)
    i = words.index(word or words[0])
    near = table(at, "word", "cosine")
    expected = nearest(E, i, k=5)
    assert list(near["word"]) == [words[j] for j, _ in expected]
    assert_close(near["cosine"].to_numpy(), [c for _, c in expected])
    n = min(30, len(words))
    heat = charts_with(at, "cosine")[0].rows("cosine")
    assert_close(heat["cosine"].to_numpy(), cosine_matrix(E[:n]).reshape(-1))
    pics = [c for c in charts_with(at, "x") if c.title.startswith(("PCA", "t-SNE"))]
    X = E[: min(300, len(words))]
    p = pca(X, k=2)
    t = tsne(X, perplexity=float(perplexity), seed=0, metric="cosine", perplexity_cap=1.0)
    for chart, coords in zip(pics, (p.coords, t.coords)):
        rows = chart.rows("x")
        assert_close(rows[["x", "y"]].to_numpy(), coords)
        assert f"{100 * neighbour_overlap(X, coords, 5).mean:.0f}% of neighbours" in chart.title
    assert len(pics) == 2 and pics[1].title.startswith(f"t-SNE, perplexity {perplexity}")


def test_the_lesson_table_by_default():
    at = open_screen("own_vectors")
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E = train(corpus, SkipGramConfig()).E
    vectors, meta = projector_tsv(E, corpus.vocab)
    back = read_projector(vectors, meta)
    assert metric(at, "rows") == "12" and metric(at, "numbers per row") == "4"
    check_views(at, back.E, back.words)
    assert at.warning and "Identical vectors" in at.warning[0].value      # "and cat dog" vs "dog cat and"


@pytest.mark.parametrize("word, perplexity", [(None, None), ("w4", 2)])
def test_uploaded_files(word, perplexity):
    at, back = uploaded()
    if word:
        at.selectbox(key=f"own_word_{table_key(back.words)}").set_value(word).run()
    if perplexity:
        at.select_slider(key="own_perplexity").set_value(perplexity).run()
    assert metric(at, "rows") == str(len(WORDS)) and metric(at, "numbers per row") == "6"
    check_views(at, back.E, back.words, word, perplexity or 5)


def test_user_labels_are_shown_literally_in_the_limits_verdict():
    at, _ = uploaded()
    at.text_input(key=f"own_a_{table_key(WORDS)}").input("<b>bold</b> w1").run()
    at.text_input(key=f"own_b_{table_key(WORDS)}").input("w1 w2").run()
    assert_clean(at)
    verdict = at.info[0].value
    assert "<b>" not in verdict and "\\<b\\>bold\\</b\\>" in verdict


def test_without_metadata_rows_are_numbered():
    at, back = uploaded(metadata=False)
    assert back.words[0] == "row 0"
    check_views(at, back.E, back.words)


@pytest.mark.parametrize("content, message", [(b"1\t2\n3\n", "ragged rows"), (b"1\tx\n", "is not a number")])
def test_a_bad_file_gets_a_message_not_a_traceback(content, message):
    at = open_screen("own_vectors")
    at.file_uploader(key="own_vectors").set_value(("vectors.tsv", content, "text/tab-separated-values")).run()
    at.toggle(key="own_lesson").set_value(False).run()
    assert not at.exception
    assert at.error and message in at.error[0].value


def test_unknown_words_in_a_sentence():
    at, _ = uploaded()
    at.text_input(key=f"own_a_{table_key(WORDS)}").input("w1 nothere").run()
    assert not at.exception and "nothere" in at.error[0].value
