"""Screen 3c in Chromium: both models train, the chart draws, and a control changes the numbers."""
import re

import pytest

from core.cbow import train_cbow
from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig

from .helpers import expect

pytestmark = pytest.mark.browser


def test_cbow_and_skipgram_side_by_side(app):
    app.goto("/")
    app.open_screen("3c. CBOW next to skip-gram", app.base_url + "/cbow")
    app.assert_healthy(min_charts=1)
    page = app.page
    cb = train_cbow(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig())
    metric = page.locator("[data-testid='stMetric']").filter(has_text="CBOW: final loss")
    expect(metric).to_contain_text(f"{cb.final_loss:.3f}")
    expect(page.locator("[data-testid='stMetric']").filter(has_text="skip-gram: final loss")).to_contain_text("1.713")
    expect(page.get_by_text(re.compile(r"CBOW took [\d,]+ ms, skip-gram [\d,]+ ms"))).to_be_visible()

    # a link with another window trains both models again: CBOW's floor and loss follow it
    cb3 = train_cbow(Corpus.from_text(GUIDE_TEXT, window=3), SkipGramConfig())
    app.goto("/cbow?cbow_window=3")
    app.assert_healthy(min_charts=1)
    expect(metric).to_contain_text(f"{cb3.final_loss:.3f}")
    expect(page.locator("[data-testid='stMetric']").filter(has_text="CBOW: floor")).to_contain_text("0.042")
