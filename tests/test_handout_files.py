"""Chart files: the footer that carries the screen's address, drawn offline by vl-convert."""
import json

import pandas as pd
import vl_convert

from lab_ui.widgets import charts
from lab_ui.lesson.handout import EXPORT_WIDTH, with_footer

FOOTER = "Embedding Lab · http://localhost:8501/train?train_d=8"


def spec():
    return charts.bars(pd.DataFrame({"format": ["fp32", "fp16"], "MiB": [4.0, 2.0]}), "format", "MiB",
                       "The table's size")


def test_footer_sits_under_the_chart_and_widths_are_fixed():
    s = spec()
    out = with_footer(s, FOOTER)
    assert out["title"]["text"] == FOOTER and out["title"]["orient"] == "bottom"
    assert out["vconcat"][0]["title"] == s["title"]
    assert "datasets" in out and "datasets" not in out["vconcat"][0]
    assert '"container"' not in json.dumps(out) and out["vconcat"][0]["width"] == EXPORT_WIDTH
    assert '"container"' in json.dumps(s, default=repr)       # the screen's own spec is untouched
    # (its datasets are Arrow bytes for Streamlit; the file's are rows vl-convert can read)
    assert all(isinstance(v, bytes) for v in s["datasets"].values())
    assert all(isinstance(v, list) for v in out["datasets"].values())


def test_png_and_svg_are_drawn_with_the_data_and_the_footer():
    out = with_footer(spec(), FOOTER)
    svg = vl_convert.vegalite_to_svg(out)
    assert "train?train_d=8" in svg and "The table" in svg and "fp16" in svg
    png = vl_convert.vegalite_to_png(out, scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(png[16:20], "big")
    assert width >= 2 * EXPORT_WIDTH                            # scale 2: sharp on a slide


def test_a_chart_s_download_buttons_draw_that_chart(monkeypatch):
    """``chart_files`` on a screen's own loss chart (the Train screen's, on the lesson's run):
    pressing PNG gives a PNG and SVG an SVG, each drawn from that chart with the footer."""
    import streamlit as st

    from core.corpus import GUIDE_TEXT, Corpus
    from core.skipgram import SkipGramConfig, loss_floor, train
    from lab_ui.lesson import handout

    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    r = train(corpus, SkipGramConfig(steps=300))
    chart = charts.loss_curve({"run": r.losses}, {"floor": loss_floor(corpus)})
    pressed = {}

    def button(label, data, file_name, mime, **kwargs):
        pressed[label] = (data, file_name, mime)

    monkeypatch.setattr(st, "download_button", button)
    handout.chart_files(chart, "train_loss")
    assert [(k, v[1:]) for k, v in pressed.items()] == [("PNG", ("train_loss.png", "image/png")),
                                                       ("SVG", ("train_loss.svg", "image/svg+xml"))]
    drawn = with_footer(chart, "Embedding Lab · embedding lab")     # no browser address in a test
    png = pressed["PNG"][0]()
    assert png == vl_convert.vegalite_to_png(drawn, scale=2)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") >= 2 * EXPORT_WIDTH
    svg = pressed["SVG"][0]()
    assert svg == vl_convert.vegalite_to_svg(drawn)
    assert svg.lstrip().startswith("<svg") and "Embedding Lab · embedding lab" in svg


def test_the_file_keeps_the_chart_s_fonts_and_prints_the_footer_small():
    """Vega-Lite reads ``config`` (the chart's font sizes) only at the top of a spec: moved
    there, the file's chart has the screen's fonts; the footer is printed at 10 px."""
    s = spec()
    out = with_footer(s, FOOTER)
    assert out["config"] == s["config"] and out["config"]["title"]["fontSize"] == charts.FONT + 2
    assert "config" not in out["vconcat"][0]
    assert {k: out["title"][k] for k in ("orient", "anchor", "fontSize")} == {
        "orient": "bottom", "anchor": "start", "fontSize": 10}
    svg = vl_convert.vegalite_to_svg(out)
    assert 'font-size="10px"' in svg and f'font-size="{charts.FONT + 2}px"' in svg
