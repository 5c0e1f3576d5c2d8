"""The training lab's tabs, the generated corpus and a small load test, in a real browser."""
import re

import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train

from .helpers import ARTIFACTS, AppPage, expect

pytestmark = pytest.mark.browser

FINAL = re.compile(r"^loss(,| at) step [1-9][\d,]*$")
TABS = {"Replay training": 2, "Compare runs": 1, "Negative sampling": 0, "Export": 0}


@pytest.mark.parametrize("tab,min_charts", TABS.items())
def test_each_tab_opens_from_a_link_and_draws(app, tab, min_charts):
    app.goto("/train?train_tab=" + tab.replace(" ", "+"))
    app.assert_healthy(min_charts=min_charts + 0)
    selected = app.page.locator("[data-testid='stTab'][aria-selected='true']")
    expect(selected).to_have_text(tab)
    app.full_page_screenshot(ARTIFACTS / f"train-{tab.split()[0].lower()}.png")


def test_replay_scrubber_shows_the_first_step(app):
    app.goto("/train?train_tab=Replay+training")
    thumb = app.slider("train_replay_step").get_by_role("slider")
    expect(thumb).to_have_count(1)
    thumb.focus()
    app.rerun(lambda: thumb.press("Home"))
    expect(app.page.get_by_text(re.compile(r"^Step 0: loss 2\.487"))).to_have_count(1)
    app.assert_healthy(min_charts=2)


def test_export_offers_downloads(app):
    app.goto("/train?train_tab=Export")
    buttons = app.page.locator("[data-testid='stDownloadButton']")
    expect(buttons).to_have_count(5)
    with app.page.expect_download() as info:
        buttons.filter(has_text="vectors.tsv").locator("button").click()
    path = info.value.path()
    rows = open(path).read().splitlines()
    assert len(rows) == 12 and all(len(r.split("\t")) == 4 for r in rows)


def test_generated_corpus_scores_the_groups(app):
    app.goto("/train?train_source=Word+groups+%28generated%29&train_d_model=12&train_lr=1.0"
             "&train_steps=2000")
    expect(app.metric(re.compile("^vocabulary$"))).to_have_text("63")
    recovery = float(app.metric(re.compile(r"^group recovery")).inner_text())
    assert recovery > 0.9, recovery
    app.assert_healthy(min_charts=5)


def test_four_sessions_at_once_each_get_their_own_results(browser, app_server):
    """A small load test: four sessions open the Train screen at the same moment, each with its
    own settings from a link, then each moves its d_model slider. Every page must show the
    losses the core computes for its own settings (no cross-talk through the shared caches or
    module state). The class-sized version is ``bench.classroom`` (40 websocket students)."""
    settings = [(2 + i, 1 + i % 3, i) for i in range(4)]   # (d_model, window, seed)

    def expected(d, w, seed):
        r = train(Corpus.from_text(GUIDE_TEXT, window=w), SkipGramConfig(d_model=d, seed=seed, steps=500))
        return f"{r.losses[0]:.3f}", f"{r.losses[-1]:.3f}"

    def shown(a):
        return tuple(a.metric(label).first.inner_text().strip() for label in ("loss, step 0", "loss, step 500"))

    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in settings]
    try:
        pages = [AppPage(ctx, app_server.base_url, app_server.log_tail) for ctx in contexts]
        for a, (d, w, seed) in zip(pages, settings):   # no waiting in between: all at once
            a.page.goto(f"{a.base_url}/train?train_d_model={d}&train_window={w}&train_seed={seed}"
                        "&train_steps=500", wait_until="commit")
        for a, (d, w, seed) in zip(pages, settings):
            a.wait_for_run(0, "opening the Train screen", 120_000)
            a.settle()
            assert shown(a) == expected(d, w, seed)
        before = [a.runs_done for a in pages]
        for a in pages:
            thumb = a.slider("train_d_model").get_by_role("slider")
            thumb.focus()
            thumb.press("ArrowRight")
        for a, n, (d, w, seed) in zip(pages, before, settings):
            a.wait_for_run(n, "the key press", 120_000)
            a.settle()
            assert shown(a) == expected(d + 1, w, seed)
            a.assert_healthy()
            assert not a.console_errors + a.page_errors + a.dialogs
    finally:
        for ctx in contexts:
            ctx.close()
