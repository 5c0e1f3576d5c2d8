"""t-SNE that moves, in Chromium: Play advances the iteration by itself, and pauses."""
import re

import pytest

from .helpers import expect

pytestmark = pytest.mark.browser


def test_play_runs_the_iterations(app):
    app.goto("/projections")
    app.assert_healthy(min_charts=4)
    page = app.page
    iteration = app.metric("iteration")
    expect(iteration).to_contain_text("1,000 of 1,000")
    play = page.locator(".st-key-proj_motion_play label")
    play.scroll_into_view_if_needed()
    app.rerun(lambda: play.click())
    # Playing wraps round to the start and keeps going without any click.
    expect(iteration).to_contain_text(re.compile(r"^(iteration)?\s*(25|50|75|100|125|150) of 1,000"), timeout=30_000)
    first = iteration.inner_text()
    expect(iteration).not_to_have_text(first, timeout=30_000)
    app.rerun(lambda: play.click())
    # Paused: once the last timed run has drained, the iteration stays where it is.
    paused = None
    for _ in range(20):
        app.settle()
        now = iteration.inner_text()
        page.wait_for_timeout(1_000)   # 2.5 times the Play step
        app.settle()
        if iteration.inner_text() == now:
            paused = now
            break
    assert paused is not None, "the iteration kept moving after Play was switched off"
    app.assert_healthy(min_charts=4)
    expect(iteration).to_have_text(paused)
