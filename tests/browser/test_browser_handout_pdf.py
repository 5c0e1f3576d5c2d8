"""Handouts printed through Chromium's own print path (``page.pdf``), read back as text.

Issue 28: printed, a handout lost numbers (the loss table's loss column empty, the heatmap's
table blank, wide tables cut at the right edge), because a table on screen is a canvas in a
scroll box. For every screen: no scroll box is left, every printed table fits the page's width
(measured with print styles at the PDF's width), and every cell of every table and every
metric on the page is in the PDF's text (``pdftotext``, from Debian's poppler-utils), as many
times as it is printed; then figures computed by core are looked for in that text.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from collections import Counter

import pytest

from lab_ui.screens.registry import SCREENS as LESSON

pytestmark = pytest.mark.browser

A4_PX = 794                     # an A4 page's width in CSS px (210 mm at 96 px per inch)
SCREENS = [s.name for s in LESSON]


@pytest.fixture(scope="module")
def pdftotext() -> str:
    found = shutil.which("pdftotext")
    if not found:
        message = "pdftotext is missing: apt-get install poppler-utils."
        if os.environ.get("EMBEDDING_LAB_REQUIRE_BROWSER") == "1":
            pytest.fail(message, pytrace=False)
        pytest.skip(message)
    return found


def _core_figures(screen: str) -> list[str]:
    """Figures of the lesson computed here by core, as the handout prints them."""
    from core.corpus import GUIDE_TEXT, Corpus
    from core.params import embedding_params
    from core.similarity import cosine
    from core.skipgram import SkipGramConfig, train
    if screen == "train":
        losses = train(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig()).losses
        return [f"{losses[0]:.3f}", f"{losses[-1]:.3f}",                       # the metrics: 2.487, 1.713
                *(f"{losses[s]:.4f}".rstrip("0") for s in (0, 100, 1500, 3000))]   # the printed loss table
    if screen == "similarity":
        return [f"{cosine([1, 2, 2], [2, 1, 2]):.3f}"]                           # 0.889
    if screen == "parameters":
        return [f"{embedding_params(50_257, 768):,}"]                            # 38,597,376
    return []


QUIET_JS = """ms => new Promise(done => {
  let timer = setTimeout(done, ms);
  new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, ms); })
      .observe(document.body, {subtree: true, childList: true, characterData: true});
})"""
"""Resolves once the page has not changed for ``ms``."""


SCROLL_JS = """async () => {
  for (const box of [document.querySelector("[data-testid='stMain']"), document.scrollingElement]) {
    for (let y = 0; y <= box.scrollHeight; y += 500) {
      box.scrollTop = y; await new Promise(r => setTimeout(r, 120));
    }
    box.scrollTop = 0;
  }
}"""
"""Scrolls the page through once, slowly. With the QUIET_JS wait after it this gives the
browser the seconds it takes to draw every st.table: measured on the Train handout, the DOM
had none of its 5 tables when the run had ended and all 5 about eight seconds later (a quiet
period alone was not enough: nothing changes on the page while the table code loads)."""


def _settled(app) -> None:
    app.settle()
    app.page.evaluate(SCROLL_JS)
    app.page.evaluate(QUIET_JS, 2000)


def _tokens(text: str) -> Counter:
    return Counter(text.split())


@pytest.mark.parametrize("screen", SCREENS)
def test_the_printed_handout_holds_every_number(app, screen, pdftotext, tmp_path):
    page = app.page
    app.goto(f"/{'' if screen == 'home' else screen}?handout=1")
    app.assert_healthy()
    _settled(app)
    page.emulate_media(media="print")
    page.set_viewport_size({"width": A4_PX, "height": 1100})
    _settled(app)
    assert page.locator("[data-testid='stDataFrame']").count() == 0, "a scroll box in the handout"
    tables = page.locator("[data-testid='stTable']")
    closed = tables.evaluate_all("ts => ts.filter(t => !t.checkVisibility()).length")
    assert closed == 0, f"{closed} tables in a closed box: the printed page leaves them out"
    overflow = tables.evaluate_all(
        "ts => ts.map(t => [t.scrollWidth - t.clientWidth,"
        " ...[...t.querySelectorAll('table')].map(x => x.getBoundingClientRect().right"
        "      - document.querySelector('[data-testid=\"stMain\"]').getBoundingClientRect().right)])")
    assert all(max(o) <= 1 for o in overflow), f"tables past the page's edge (px): {overflow}"
    cells = tables.evaluate_all("ts => ts.flatMap(t => [...t.querySelectorAll('th, td')].map(c => c.innerText))")
    columns = tables.evaluate_all(
        "ts => ts.flatMap(t => { const rows = [...t.querySelectorAll('tbody tr')].map(r => [...r.children]);"
        " return rows.length ? rows[0].map((_, j) => rows.every(r => !(r[j] && r[j].innerText.trim()))) : []; })")
    assert not any(columns), "an empty column"
    metrics = page.locator("[data-testid='stMetricValue']").all_inner_texts()
    pdf = tmp_path / f"{screen}.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    text = subprocess.run([pdftotext, str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    have, want = _tokens(text), _tokens(" ".join(cells + metrics))
    missing = want - have
    assert not missing, f"{sum(missing.values())} of {sum(want.values())} printed words and numbers are " \
                        f"not in the PDF, e.g. {list(missing)[:12]}"
    for figure in _core_figures(screen):
        assert figure in have or figure in text, (screen, figure)
    if screen in ("train", "lookup", "similarity", "position", "projections"):
        assert cells, "tables expected in this handout"
