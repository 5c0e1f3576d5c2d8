"""Read the values a screen shows, so AppTests can compare them with core's own numbers.

- ``charts(at)``: every Vega-Lite chart on the screen as ``Chart(spec, data)``, where ``data``
  maps each dataset name to its rows as a DataFrame (Streamlit moves Altair's datasets out of
  ``proto.spec`` into ``proto.datasets``; this puts them back together).
- ``Chart.rows(field)``: the rows of the dataset(s) that carry ``field`` (e.g. "cosine").
- ``table(at, column)``: the dataframe element that has a column of that name.
- ``numbers(text)``: every number written in a piece of text (thousands separators and %
  allowed), so a caption's figures are checked without pinning its wording.
- ``download_holds(button, data, mime, filename)``: whether a download button serves exactly
  these bytes (Streamlit names the file by a hash of its content, type and name).
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
from streamlit.runtime.memory_media_file_storage import _calculate_file_id
from streamlit.testing.v1 import AppTest

from lab_ui.widgets.charts import chart_title


@dataclass
class Chart:
    spec: dict
    data: dict[str, pd.DataFrame]

    @property
    def title(self) -> str:
        """The title as shown, in one line (a scatter reads its title from its data)."""
        t = chart_title(self.spec, self.data)
        for layer in self.spec.get("layer", []):
            t = t or chart_title(layer)
        return t

    def rows(self, field: str) -> pd.DataFrame:
        """The first dataset with ``field`` (a scatter's label layer repeats its points' data)."""
        frames = [df for df in self.data.values() if field in df.columns]
        assert frames, f"no dataset with {field!r} in the chart {self.title!r}: {[list(d.columns) for d in self.data.values()]}"
        return frames[0]


def charts(at: AppTest) -> list[Chart]:
    out = []
    for el in at.get("vega_lite_chart"):
        spec = json.loads(el.proto.spec)
        data = {ds.name: convert_arrow_bytes_to_pandas_df(ds.data.data) for ds in el.proto.datasets}
        data.update({name: pd.DataFrame(rows) for name, rows in spec.get("datasets", {}).items()})
        out.append(Chart(spec, data))
    return out


def chart_titled(at: AppTest, start: str) -> Chart:
    found = [c for c in charts(at) if c.title.startswith(start)]
    assert len(found) == 1, f"{len(found)} charts titled {start!r}: {[c.title for c in charts(at)]}"
    return found[0]


def charts_with(at: AppTest, field: str) -> list[Chart]:
    """The charts with a dataset that carries ``field`` (e.g. "cosine" for heatmaps)."""
    return [c for c in charts(at) if any(field in d.columns for d in c.data.values())]


def tables(at: AppTest) -> list[pd.DataFrame]:
    return [d.value for d in at.dataframe]


def table(at: AppTest, *columns: str, nth: int = 0) -> pd.DataFrame:
    """The ``nth`` dataframe on the screen that has all these columns."""
    found = [t for t in tables(at) if all(c in t.columns for c in columns)]
    assert len(found) > nth, f"no table with columns {columns!r}: {[list(t.columns) for t in tables(at)]}"
    return found[nth]


_NUMBER = re.compile(r"(?<![\w.])[-−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def numbers(text: str) -> list[float]:
    """Every number in ``text``: "1,234.5" -> 1234.5; "−0.3" -> -0.3; "31.0%" -> 31.0."""
    return [float(m.replace(",", "").replace("−", "-")) for m in _NUMBER.findall(str(text))]


def has_number(text: str, value: float, decimals: int) -> bool:
    """Whether ``text`` shows ``value`` rounded to ``decimals`` places."""
    want = round(float(value), decimals)
    return any(abs(x - want) < 0.5 * 10 ** -decimals + 1e-12 and _shown(x, decimals) for x in numbers(text))


def _shown(x: float, decimals: int) -> bool:
    return abs(round(x, decimals) - x) < 1e-9


def texts(at: AppTest, *kinds: str) -> list[str]:
    kinds = kinds or ("markdown", "caption", "info", "success", "warning", "error")
    return [str(e.value) for kind in kinds for e in getattr(at, kind)]


def text_with(at: AppTest, pattern: str, *kinds: str) -> str:
    """The one text element (caption, markdown, alert...) matching the regex ``pattern``."""
    found = [t for t in texts(at, *kinds) if re.search(pattern, t)]
    assert found, f"no text matches {pattern!r}"
    return found[0]


def metric(at: AppTest, label: str) -> str:
    """The value of the metric whose label is exactly ``label``."""
    found = [m.value for m in at.metric if m.label == label]
    assert len(found) == 1, f"metric {label!r}: {[m.label for m in at.metric]}"
    return found[0]


def move(at: AppTest, *changes: tuple[str, str, object]) -> AppTest:
    """Set controls as a user would, one rerun each: ``move(at, ("slider", "train_d_model", 8))``."""
    for kind, key, value in changes:
        widget = getattr(at, kind)(key=key)
        (widget.input(str(value)) if kind in ("text_input", "text_area") else widget.set_value(value)).run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def download_holds(button, data: str | bytes, mime: str, filename: str) -> bool:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return button.proto.url.rsplit("/", 1)[-1].split(".")[0] == _calculate_file_id(raw, mime, filename)


def download(at: AppTest, label: str):
    found = [b for b in at.get("download_button") if b.proto.label == label]
    assert len(found) == 1, [b.proto.label for b in at.get("download_button")]
    return found[0]


def assert_close(shown, expected, decimals: int | None = None) -> None:
    """Shown numbers (a column, a frame) equal the expected ones (to ``decimals`` if rounded)."""
    a = np.asarray(shown, dtype=float)
    b = np.asarray(expected, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    if decimals is None:
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
    else:
        np.testing.assert_allclose(a, np.round(b, decimals), rtol=0, atol=10 ** -decimals / 2 + 1e-12)
