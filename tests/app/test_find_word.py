"""AppTest: a word found on Train and Projections is ringed with its table neighbours on every
map (far ones marked from core's neighbour overlap) and framed in the heatmap."""
import json

import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.honesty import neighbour_overlap
from core.projection import pca
from core.similarity import cosine_matrix
from core.skipgram import SkipGramConfig, train
from tests.app.conftest import assert_clean, open_screen
from tests.app.test_values_projections import GROUPS, LESSON, trained
from tests.app.values import assert_close, charts, table

FAR = "neighbour, far in this picture"


def rings_match(chart, E, coords, i, vocab):
    ov = neighbour_overlap(E, coords, 5)
    near = ov.neighbours_of(i)
    found = chart.data["found"]
    assert list(found["word"]) == [vocab[i]] + [vocab[j] for j, _ in near]
    assert list(found["role"]) == ["the word"] + [FAR if not kept else "neighbour, near here too" for _, kept in near]
    assert_close(found[["x", "y"]].to_numpy(), coords[[i] + [j for j, _ in near]])
    return near


@pytest.mark.parametrize("typed, d_model", [("cat", None), (" Mat ", 8)])
def test_train_rings_the_word_on_the_map_and_frames_it_in_the_heatmap(typed, d_model):
    at = open_screen("train")
    if d_model:
        at.slider(key="train_d_model").set_value(d_model).run()
    at.text_input(key="train_find").input(typed).run()
    assert_clean(at)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    E = train(corpus, SkipGramConfig(d_model=d_model or 4)).E
    i = corpus.vocab.index(typed.strip().lower())
    pca_chart = next(c for c in charts(at) if "found" in c.data)
    near = rings_match(pca_chart, E, pca(E, k=2).coords, i, corpus.vocab)
    heat = next(c for c in charts(at) if "matrix" in c.data)
    frame = [layer for layer in heat.spec["layer"] if layer.get("transform")]
    assert frame and json.dumps(corpus.vocab[i]) in frame[0]["transform"][0]["filter"]
    shown = table(at, "neighbour", "PCA map")
    S = cosine_matrix(E)
    assert list(shown["neighbour"]) == [corpus.vocab[j] for j, _ in near]
    assert_close(shown["cosine"].to_numpy(), [S[i, j] for j, _ in near])
    assert list(shown["PCA map"]) == ["near" if kept else "far" for _, kept in near]


def test_an_unknown_word_is_quoted_back_and_nothing_is_ringed():
    at = open_screen("train")
    at.text_input(key="train_find").input("[x](http://a.test)").run()
    assert_clean(at)
    assert at.info[0].value.startswith("` [x](http://a.test) ` is not one of the 12 words")   # literal, not a link
    assert not any("found" in c.data for c in charts(at))


@pytest.mark.parametrize("source, word", [(GROUPS, "bank"), (LESSON, "dog")])
def test_projections_ring_the_word_on_every_picture(source, word):
    at = open_screen("projections")
    if source != GROUPS:
        at.radio(key="proj_source").set_value(source).run()
    at.text_input(key="proj_find").input(word).run()
    assert_clean(at)
    r = trained(source)
    i = r.vocab.index(word)
    ringed = [c for c in charts(at) if "found" in c.data and not c.title.startswith("t-SNE at iteration")]
    assert len(ringed) == 1 + 3                                    # PCA and the default perplexities
    shown = table(at, "neighbour", "PCA")
    for chart in ringed:
        coords = chart.data["points"][["x", "y"]].to_numpy()
        near = rings_match(chart, r.E, coords, i, r.vocab)
        name = chart.title.split(":")[0]
        assert list(shown[name]) == ["near" if kept else "far" for _, kept in near]


@pytest.mark.parametrize("step", [3000, 0])
def test_train_replay_rings_the_word_in_each_steps_table(step):
    from core.projection import aligned_frames
    at = open_screen("train", train_tab="Replay training", train_find="dog")
    at.select_slider(key="train_replay_step").set_value(step).run()
    assert_clean(at)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    r = train(corpus, SkipGramConfig(snapshot_every=50))
    frames = aligned_frames(r.snapshots, r.snapshot_steps)
    i = list(frames.steps).index(step)
    chart = next(c for c in charts(at) if "found" in c.data)
    rings_match(chart, r.snapshots[i], frames.coords[i], corpus.vocab.index("dog"), corpus.vocab)
    heat = next(c for c in charts(at) if "matrix" in c.data)
    assert any(layer.get("transform") for layer in heat.spec["layer"])


def test_the_moving_tsne_rings_the_word_on_its_frame():
    from core.tsne import tsne
    at = open_screen("projections", proj_find="bank")
    at.select_slider(key="proj_motion_step").set_value(100).run()
    assert_clean(at)
    r = trained(GROUPS)
    run = tsne(r.E, perplexity=5.0, seed=0, metric="cosine", perplexity_cap=1.0, frame_every=25)
    frame = next(c for c in charts(at) if c.title.startswith("t-SNE at iteration 100"))
    rings_match(frame, r.E, run.frames[4], r.vocab.index("bank"), r.vocab)


@pytest.mark.parametrize("text", [None, "cat dog dog cat cat dog"])
def test_the_find_box_suggests_the_table_s_second_word(text):
    """The box's example is the table's second word (the first is often "the"), also when the
    pasted text has only two different words."""
    at = open_screen("train")
    if text:
        at.radio(key="train_source").set_value("Paste your own text").run()
        at.text_area(key="train_text").input(text).run()
    assert_clean(at)
    vocab = Corpus.from_text(text or GUIDE_TEXT, window=2).vocab
    assert len(vocab) == (2 if text else 12)
    assert at.text_input(key="train_find").proto.placeholder == f"e.g. {vocab[1]}"
