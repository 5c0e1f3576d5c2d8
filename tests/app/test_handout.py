"""AppTest: every chart offers its PNG and SVG; a handout is one column with the numbers open."""
import pytest

from tests.app.conftest import assert_clean, open_screen


@pytest.mark.parametrize("screen", ["train", "parameters", "projections", "position"])
def test_every_chart_has_png_and_svg(screen):
    at = open_screen(screen)
    assert_clean(at)
    charts = at.get("vega_lite_chart")
    buttons = at.get("download_button")
    labels = [b.proto.label for b in buttons]
    assert labels.count("PNG") == labels.count("SVG") == len(charts) > 0
    assert all(b.proto.deferred_file_id for b in buttons if b.proto.label in ("PNG", "SVG"))
    assert "Printable handout of this screen" in [b.proto.label for b in at.sidebar.get("link_button")]


@pytest.mark.parametrize("screen", ["train", "parameters"])
def test_a_handout_has_no_navigation_no_buttons_and_open_numbers(screen):
    at = open_screen(screen, handout="1")
    assert_clean(at)
    assert at.get("vega_lite_chart")
    assert not [b for b in at.get("download_button") if b.proto.label in ("PNG", "SVG")]
    assert all(e.proto.expanded for e in at.expander if e.label == "Show the numbers as a table")
    assert not at.sidebar.get("link_button")
    assert not [p for p in at.get("page_link") if p.proto.label.startswith("Next:")]


def _printed(at) -> list:
    return [t.value for t in at.table]


@pytest.mark.parametrize("screen", ["train", "lookup", "similarity", "position", "cbow", "projections"])
def test_a_handout_prints_every_table_as_text_not_as_a_scroll_box(screen):
    """Issue 28: printed, the grid (a canvas in a 10-row scroll box) left the loss column empty
    and the heatmap's table blank. In a handout every table is plain text (``st.table``)."""
    from lab_ui.lesson.printed import PRINT_COLUMNS, PRINT_ROWS
    at = open_screen(screen, handout="1")
    assert_clean(at)
    assert not at.dataframe, "a scroll box in a handout"
    tables = _printed(at)
    assert tables
    for t in tables:
        assert len(t) <= PRINT_ROWS + 1 and len(t.columns) <= PRINT_COLUMNS + 1
        assert all((t[c].astype(str).str.len() > 0).any() for c in t.columns), "an empty column"


def test_the_handout_prints_the_loss_curve_thinned_and_says_so():
    import numpy as np

    from core.corpus import GUIDE_TEXT, Corpus
    from core.skipgram import SkipGramConfig, train
    losses = train(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig()).losses
    at = open_screen("train", handout="1")
    loss = next(t for t in _printed(at) if list(t.columns) == ["step", "loss"])
    steps = [int(s.replace(",", "")) for s in loss["step"]]
    assert steps == list(range(0, 3001, 100))
    assert list(loss["loss"]) == [f"{x:.4f}".rstrip("0").rstrip(".") for x in losses[steps]]
    assert loss["loss"].iloc[0].startswith("2.487") and loss["loss"].iloc[-1].startswith("1.713")
    assert any("31 of its 3,001 rows, one in every 100" in c.value for c in at.caption)
    heat = [t for t in _printed(at) if t.columns[0] == "word"]
    words = Corpus.from_text(GUIDE_TEXT, window=2).vocab
    assert heat and all(list(t["word"]) == words for t in heat[:2])
    shown = {c for t in heat[:2] for c in t.columns} - {"word"}
    assert shown == set(words), "every column of the 12 x 12 cosine table, over its parts"
    assert np.isfinite(losses).all()


@pytest.mark.parametrize("screen,box", [("tokens", "The tokens as a table"), ("pair", "Show E · W as a table"),
                                        ("cbow", "Rare and frequent words: who trains a word's row")])
def test_a_handout_opens_the_boxes_under_a_result(screen, box):
    """Issue 28: printed, these boxes were closed, so their tables and text were not on the page
    (the PDF check saw a table with no text in any column). Closed on screen, open in a handout."""
    assert not next(e for e in open_screen(screen).expander if e.label == box).proto.expanded
    at = open_screen(screen, handout="1")
    assert next(e for e in at.expander if e.label == box).proto.expanded
