"""The training lab's tabs, the generated corpus and a small load test, in a real browser."""
import re
import subprocess
import sys

import pytest

from .helpers import ARTIFACTS, REPO_ROOT, expect

pytestmark = pytest.mark.browser

FINAL = re.compile(r"^loss(,| at) step [1-9][\d,]*$")
TABS = {"Replay training": 2, "Compare two runs": 1, "Softmax vs negative sampling": 0, "Export": 0}


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


def test_load_four_sessions_get_their_own_results():
    """The load script (bench/load.py) at CI size: four concurrent sessions, one server."""
    out = subprocess.run([sys.executable, "-m", "bench.load", "--sessions", "4", "--steps", "500"],
                         cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert "all correct and error-free: True" in out.stdout
    (ARTIFACTS.parent / "load-4-sessions.txt").write_text(out.stdout)
