"""Chart files: the footer that carries the screen's address, drawn offline by vl-convert."""
import json

import pandas as pd
import vl_convert

from lab_ui import charts
from lab_ui.handout import EXPORT_WIDTH, with_footer

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
