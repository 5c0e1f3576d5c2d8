"""AppTest: t-SNE that moves shows core's picture and KL at the iteration chosen."""
import pytest

from core.tsne import tsne
from tests.app.conftest import assert_clean, open_screen
from tests.app.test_values_projections import GROUPS, LESSON, trained
from tests.app.values import assert_close, chart_titled, metric


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
