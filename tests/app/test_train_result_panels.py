"""AppTest: the Train screen's Result tab (lab_ui.screens.train.train_result), panel by panel, off the
lesson's defaults: a vocabulary too big for a half-width heatmap, a found word, a run that
blew up. Each value is checked against core for the same run."""
import numpy as np
from streamlit.testing.v1 import AppTest

from core.corpus import GUIDE_TEXT, Corpus
from core.generated import generate_corpus
from core.honesty import neighbour_overlap
from core.projection import pca
from core.similarity import cosine_matrix
from core.skipgram import SkipGramConfig, loss_floor, train, uniform_loss
from lab_ui.widgets import layout
from lab_ui.widgets.find_word import FOUND_K
from lab_ui.screens.train.train_result import BIG_HEATMAP, heatmap_px
from lab_ui.screens.train.train_views import heatmap_order
from tests.app.conftest import assert_clean
from tests.app.values import assert_close, charts, table, texts


def _script(text, config, found):
    import streamlit as st
    from core.corpus import Corpus
    from core.skipgram import loss_floor, train
    from lab_ui.screens.train.train_result import result_tab
    st.session_state["tables"] = True          # every chart's table open
    corpus = Corpus.from_text(text, window=2)
    result_tab(train(corpus, config), corpus, loss_floor(corpus), 2, config.d_model, found=found)


def run_tab(text: str, config: SkipGramConfig, found: int | None = None):
    at = AppTest.from_function(_script, args=(text, config, found), default_timeout=60).run()
    assert_clean(at)
    corpus = Corpus.from_text(text, window=2)
    return at, corpus, train(corpus, config)


def shown(at) -> str:
    return " ".join(texts(at))


def test_the_heatmap_size_follows_the_number_of_words():
    assert heatmap_px(BIG_HEATMAP) == layout.chart_px() != 11 * BIG_HEATMAP      # still half width
    assert heatmap_px(BIG_HEATMAP + 1) == 11 * (BIG_HEATMAP + 1)
    assert heatmap_px(100) == 720 and heatmap_px(66) == 720 and heatmap_px(65) == 715


BIG = generate_corpus().text        # 63 words: more than BIG_HEATMAP
SMALL_RUN = SkipGramConfig(d_model=6, steps=200)


def test_a_big_vocabulary_gets_a_full_width_heatmap_of_its_words_and_a_found_word():
    at, corpus, r = run_tab(BIG, SMALL_RUN, found=5)
    assert corpus.V > BIG_HEATMAP
    S = cosine_matrix(r.E)
    order = heatmap_order(S, corpus)
    words = [corpus.vocab[i] for i in order]
    heat = [c for c in charts(at) if any("cosine" in d.columns for d in c.data.values())][0]
    cells = heat.rows("cosine")
    assert list(dict.fromkeys(cells["row"])) == words
    assert_close(cells["cosine"], [S[corpus.vocab.index(a), corpus.vocab.index(b)]
                                   for a, b in zip(cells["row"], cells["column"])])
    assert f'datum.row === "{corpus.vocab[5]}"' in str(heat.spec)      # the found word is framed
    assert heat.spec["height"] == heatmap_px(len(order)) == min(720, 11 * len(order))
    behind = table(at, "word", nth=0)
    np.testing.assert_allclose(behind[corpus.vocab].to_numpy(), S, atol=1e-9)
    # the map rings the found word's table neighbours, and its table says which stay near
    p = pca(r.E, k=2)
    overlap = neighbour_overlap(r.E, p.coords, FOUND_K)
    near = overlap.neighbours_of(5)
    found = table(at, "neighbour", "PCA map")
    assert list(found["neighbour"]) == [corpus.vocab[j] for j, _ in near]
    assert_close(found["cosine"], [S[5, j] for j, _ in near])
    assert list(found["PCA map"]) == ["near" if kept else "far" for _, kept in near]
    pca_table = table(at, "direction 1")
    assert_close(pca_table["direction 1"], p.coords[:, 0])
    assert_close(pca_table["direction 2"], p.coords[:, 1])


def test_the_lesson_s_small_run_has_no_found_table_and_every_word_on_the_heatmap():
    at, corpus, r = run_tab(GUIDE_TEXT, SkipGramConfig(steps=300))
    assert "PCA map" not in {c for t in at.dataframe for c in t.value.columns}
    assert "most frequent of the" not in shown(at)
    heat = [c for c in charts(at) if any("cosine" in d.columns for d in c.data.values())][0]
    assert heat.spec["height"] != min(720, 11 * corpus.V)          # half width: the layout's size
    floor = loss_floor(corpus)
    assert f"This run ends {r.final_loss - floor:.3f} above it." in shown(at)
    loss = table(at, "step", "loss")
    assert list(loss["step"]) == list(range(len(r.losses)))
    assert_close(loss["loss"], r.losses)
    at.session_state["train_pairs_box"] = True                      # the student opens the pairs
    at.run()
    assert ("For each word, every word at most 2 places away is a neighbour, in order of position."
            in shown(at))                                            # the run's window, 2
    pairs = table(at, "centre", "context")
    assert list(pairs["centre"]) == [corpus.vocab[i] for i in corpus.inputs]
    assert list(pairs["context"]) == [corpus.vocab[j] for j in corpus.targets]


def test_a_run_that_blew_up_shows_its_loss_and_nothing_else():
    config = SkipGramConfig(lr=50.0, steps=300)
    at, corpus, r = run_tab(GUIDE_TEXT, config)
    assert r.diverged
    assert [c for c in charts(at)] and len(charts(at)) == 1       # the loss curve only
    guess = uniform_loss(corpus.V)
    assert f"uniform guess: ln {corpus.V} = {guess:.3f}" in str(charts(at)[0].spec) + str(charts(at)[0].data)


def test_every_chart_of_a_finished_run_fills_its_column(chart_widths):
    # The charts are built with width "container": drawn at their content's width instead,
    # they shrink to a sliver beside their tables.
    run_tab(BIG, SMALL_RUN, found=5)
    assert chart_widths == [("vega", "stretch")] * 3        # the loss curve, the heatmap, the map
