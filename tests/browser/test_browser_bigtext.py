"""A big own text in a real browser: upload a generated 3 MB .txt, train word2vec with a live
progress bar, press Stop (or let it finish), then read the neighbours of a typed word."""
import re

import pytest

from tests.bigtext_data import big_text

from .helpers import ARTIFACTS, expect

pytestmark = pytest.mark.browser


def test_upload_train_stop_and_neighbours(app, tmp_path):
    path = tmp_path / "big.txt"
    path.write_text(big_text(3_000_000), encoding="utf-8")
    app.goto("/")
    app.open_screen("3. Train", app.base_url + "/train")
    app.goto("/train?train_source=Paste+your+own+text")
    page = app.page
    page.locator(".st-key-train_upload input[type=file]").set_input_files(str(path))
    expect(page.get_by_text("trained with word2vec's negative sampling", exact=False)).to_be_visible(
        timeout=60_000)
    expect(page.get_by_text(re.compile(r"words to read; about"))).to_be_visible()
    page.locator(".st-key-train_w2v_start button").click()
    # Stop once training has read words (pressed while the text is still being counted, Stop ends
    # the run before training with "nothing was trained", which the job tests cover)
    progress = page.get_by_text(re.compile(r"^Training: [1-9][\d,]* of [\d,]+ words read .* words per second$"))
    expect(progress).to_be_visible(timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / "train_bigtext_progress.png"))
    stop = page.locator(".st-key-train_w2v_stop button:visible").first
    pressed = stop.count() > 0          # on a fast machine the run may end before the click
    if pressed:
        stop.click()
    expect(page.get_by_text("Type a word", exact=True)).to_be_visible(timeout=120_000)
    if pressed:
        expect(page.get_by_text(re.compile(r"^Stopped after [\d,]+ of [\d,]+ words"))).to_be_visible()
    box = page.locator(".st-key-train_w2v_word input")
    expect(box).to_be_visible(timeout=60_000)
    box.fill("cat")
    box.press("Enter")
    expect(page.get_by_text("Nearest neighbours", exact=True)).to_be_visible()
    expect(page.get_by_test_id("stDataFrame").first).to_be_visible(timeout=30_000)
    expect(page.get_by_text(re.compile(r"^The \d+ most frequent words: cosine similarity$"))).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "train_bigtext_result.png"), full_page=True)
    app.assert_healthy()
