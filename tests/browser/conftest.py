"""Fixtures for the real-browser tests: the app started as the README says, and Chromium.

The app runs in a subprocess, ``streamlit run app`` from the repository root, on a free port
of 127.0.0.1; the browser is Debian's Chromium (never a browser that Playwright downloads).

* No Chromium: the tests skip with a message saying how to enable them, unless
  ``EMBEDDING_LAB_REQUIRE_BROWSER=1`` (set by ``.ci/run``), in which case they fail.
* ``EMBEDDING_LAB_APP_ROOT`` points the server at another checkout (default: this one);
  used to check that the suite fails when the app is broken.
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from bench.browser import launch_server, stop_server, wait_healthy

from .helpers import (ARTIFACTS, CHROMIUM, CHROMIUM_ARGS, IGNORED_CONSOLE, LAYOUT_NOTES, REPO_ROOT,
                      AppPage, Server, expect)

# Streamlit scripts served to the browser by the tests, not modules to import for doctests.
collect_ignore = ["fixtures"]
if expect is not None:
    expect.set_options(timeout=15_000)


def _require_browser() -> bool:
    return os.environ.get("EMBEDDING_LAB_REQUIRE_BROWSER", "") == "1"


def _missing(reason: str) -> None:
    """Skip on a laptop, fail in CI."""
    if _require_browser():
        pytest.fail(f"{reason} EMBEDDING_LAB_REQUIRE_BROWSER=1 is set, so the browser tests "
                    "must run: install it (apt-get install chromium) or unset the variable.",
                    pytrace=False)
    pytest.skip(f"{reason} To run the browser tests: apt-get install chromium "
                "(and pip install -r requirements-dev.txt for Playwright), then rerun pytest.")


@pytest.fixture(scope="session")
def chromium_executable() -> str:
    if not Path(CHROMIUM).exists():
        _missing(f"Debian's Chromium is not installed ({CHROMIUM} is missing).")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _missing("Playwright for Python is not installed.")
    return CHROMIUM


@pytest.fixture(scope="session")
def app_root() -> Path:
    root = Path(os.environ.get("EMBEDDING_LAB_APP_ROOT", REPO_ROOT)).resolve()
    assert (root / "app" / "streamlit_app.py").is_file(), f"no app/streamlit_app.py under {root}"
    return root


@contextlib.contextmanager
def streamlit_server(root: Path, script: str, logs: Path):
    """Start ``streamlit run <script>`` in ``root`` as the README does (``bench.browser``, the
    harness the benchmarks share: ``python -P``, so the repository root is not importable and
    the router must find its own packages, the trap this suite exists to catch); yield a
    Server; stop it."""
    log = logs / "server.txt"
    proc, base = launch_server(log, root, script=script)
    try:
        try:
            wait_healthy(proc, base, log)
        except RuntimeError as err:
            pytest.fail(str(err), pytrace=False)
        yield Server(base, log)
    finally:
        stop_server(proc)


# Package scope, not session: Playwright's sync API keeps its asyncio loop marked as running (in
# a greenlet) for as long as it is open, so tests after this package that call asyncio.run
# (deploy.warm) or ast.parse (CPython 3.11 miscounts its recursion depth there) would fail in the
# README's single `pytest` run. Closing the browser with the package ends that.
@pytest.fixture(scope="package")
def app_server(chromium_executable, app_root, tmp_path_factory):
    """Start ``streamlit run app`` as the README does; yield its URL and log; stop it."""
    with streamlit_server(app_root, "app", tmp_path_factory.mktemp("streamlit-server")) as server:
        yield server


@pytest.fixture(scope="package")
def browser(chromium_executable):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_executable, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def app(browser, app_server):
    """A fresh browser context (a fresh Streamlit session) at 1280 x 900.

    Fails the test at teardown if the page logged a console error or an uncaught exception
    that the app caused, or opened a dialog (alert/confirm/prompt).
    """
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    a = AppPage(ctx, app_server.base_url, app_server.log_tail)
    yield a
    ctx.close()
    problems = [f"console error: {m}" for m in a.console_errors] + \
               [f"uncaught page error: {m}" for m in a.page_errors] + \
               [f"dialog opened: {m}" for m in a.dialogs]
    assert not problems, "The browser reported problems:\n" + "\n".join(problems)


def pytest_terminal_summary(terminalreporter):
    """List what the browser suite let pass without failing, and keep it in test-artifacts/."""
    sections = [("browser console errors ignored (not caused by the app)", IGNORED_CONSOLE),
                ("layout notes (charts or tables wider than their column)", LAYOUT_NOTES)]
    text = []
    for title, items in sections:
        unique = list(dict.fromkeys(items))
        if unique:
            text += [f"== {title}", *[f"  {line}" for line in unique]]
    if text:
        terminalreporter.write_line("")
        for line in text:
            terminalreporter.write_line(line)
        ARTIFACTS.parent.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS.parent / "browser-notes.txt").write_text("\n".join(text) + "\n")
