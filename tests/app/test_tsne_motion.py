"""AppTest: t-SNE that moves shows core's picture and KL at the iteration chosen."""
import numpy as np
import pytest

from core.corpus import Corpus
from core.generated import generate_corpus
from core.tsne import tsne
from tests.app.conftest import assert_clean, open_screen
from tests.app.test_values_projections import GROUPS, LESSON, trained
from tests.app.values import assert_close, chart_titled, charts, metric, move


@pytest.mark.parametrize("step, perplexity, seed, source", [(None, None, None, GROUPS), (100, None, None, GROUPS),
                                                              (500, 30, 4, GROUPS), (250, 2, None, LESSON)])
def test_the_frame_and_its_kl_come_from_core(step, perplexity, seed, source):
    at = open_screen("projections")
    if source != GROUPS:
        at.radio(key="proj_source").set_value(source).run()
    if perplexity:
        at.select_slider(key="proj_motion_perplexity").set_value(perplexity).run()
    if seed:
        at.number_input(key="proj_motion_seed").set_value(seed).run()
    if step is not None:
        at.select_slider(key="proj_motion_step").set_value(step).run()
    assert_clean(at)
    r = trained(source)
    run = tsne(r.E, perplexity=float(perplexity or 5), seed=seed or 0, metric="cosine", perplexity_cap=1.0,
               frame_every=25)
    step = 1000 if step is None else step
    i = list(run.frame_steps).index(step)
    assert metric(at, "iteration") == f"{step:,} of 1,000"
    assert metric(at, "KL divergence") == f"{run.frame_kl[i]:.3f}"
    rows = chart_titled(at, f"t-SNE at iteration {step:,} (perplexity {perplexity or 5})").rows("x")
    assert_close(rows[["x", "y"]].to_numpy(), run.frames[i])


def test_play_moves_to_the_next_frame():
    at = open_screen("projections")
    at.select_slider(key="proj_motion_step").set_value(0).run()
    at.toggle(key="proj_motion_play").set_value(True).run()
    assert_clean(at)
    assert at.select_slider(key="proj_motion_step").value == 25


@pytest.mark.parametrize("perplexity, seed", [(5, 0), (2, 3)])
def test_the_last_frame_is_the_still_picture(perplexity, seed):
    """At iteration 1,000 the moving t-SNE shows the same points as the still t-SNE picture of the
    same perplexity and seed (both turned onto the finished picture's principal axes), labelled."""
    at = open_screen("projections")
    if seed:
        move(at, ("text_input", "proj_seed", seed), ("number_input", "proj_motion_seed", seed))
    if perplexity != 5:
        at.select_slider(key="proj_motion_perplexity").set_value(perplexity).run()
    assert_clean(at)
    moving = chart_titled(at, f"t-SNE at iteration 1,000 (perplexity {perplexity})")
    still = [c for c in charts(at) if c.title.startswith(f"t-SNE, perplexity {perplexity}:")]
    assert len(still) == 1
    last = moving.rows("x").set_index("word")
    pts = still[0].rows("x").set_index("word").loc[last.index]
    np.testing.assert_allclose(last[["x", "y"]].to_numpy(), pts[["x", "y"]].to_numpy(), rtol=1e-9, atol=1e-12)
    labels = set(moving.rows("align")["word"])                   # the label layer's words
    corpus = Corpus.from_text(generate_corpus().text, window=2)
    assert corpus.vocab[int(corpus.most_frequent(1)[0])] in labels    # the most frequent word first


def frame_shown(at, perplexity, seed):
    run = tsne(trained(GROUPS).E, perplexity=float(perplexity), seed=seed, metric="cosine",
               perplexity_cap=1.0, frame_every=25)
    assert metric(at, "KL divergence") == f"{run.frame_kl[-1]:.3f}"
    rows = chart_titled(at, f"t-SNE at iteration 1,000 (perplexity {perplexity})").rows("x")
    assert_close(rows[["x", "y"]].to_numpy(), run.frames[-1])


def test_a_shared_link_opens_the_same_perplexity_and_seed():
    at = open_screen("projections", proj_motion_perplexity="30", proj_motion_seed="4")
    assert_clean(at)
    frame_shown(at, 30, 4)


def test_a_link_with_a_seed_past_the_box_s_range_falls_back_to_the_default():
    at = open_screen("projections", proj_motion_seed="5000")      # seeds run from 0 to 1,000
    assert_clean(at)
    frame_shown(at, 5, 0)
