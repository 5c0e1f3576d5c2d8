import pytest
from streamlit.testing.v1 import AppTest

from lab_ui.screens.registry import file_of
from tests.conftest import ROOT

APP = str(ROOT / "app" / "streamlit_app.py")


def open_screen(name: str, tables: bool = True, **query) -> AppTest:
    """Run the real router and switch to a screen, as a click in the sidebar would.
    ``query`` sets URL parameters first (e.g. ``train_tab="Export"`` opens that tab).
    ``tables``: the sidebar's "Open every chart's table" switch is on, so that the tests can
    read the numbers behind every chart (otherwise a chart's table is built only when its
    box is opened: ``lab_ui.widgets.common.chart_with_table``)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(query)
    if tables:
        at.session_state["tables"] = True
    at.run()
    if name != "home":
        at.switch_page(file_of(name)).run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]


def metric(at: AppTest, label_start: str) -> str:
    for m in at.metric:
        if m.label.startswith(label_start):
            return m.value
    raise AssertionError(f"no metric starting with {label_start!r}: {[m.label for m in at.metric]}")


def texts(at: AppTest) -> str:
    """All markdown, captions and alerts on the screen, as one string."""
    parts = [e.value for kind in ("markdown", "caption", "info", "success", "warning", "error")
             for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


@pytest.fixture
def screen():
    return open_screen


@pytest.fixture
def chart_widths(monkeypatch) -> list[tuple[str, str]]:
    """Every chart ``lab_ui.widgets.common.chart_with_table`` draws from now on, as (kind, width):
    kind "vega" or "altair", width as passed to Streamlit ("stretch" or "content"). AppTest
    does not keep an element's width, so the call itself is recorded."""
    import streamlit

    import lab_ui.widgets.common

    drawn: list[tuple[str, str]] = []

    class Spy:
        def __getattr__(self, name):
            return getattr(streamlit, name)

        def vega_lite_chart(self, *, spec, width, **options):
            drawn.append(("vega", width))
            return streamlit.vega_lite_chart(spec=spec, width=width, **options)

        def altair_chart(self, chart, width, **options):
            drawn.append(("altair", width))
            return streamlit.altair_chart(chart, width=width, **options)

    monkeypatch.setattr(lab_ui.widgets.common, "st", Spy())
    return drawn
