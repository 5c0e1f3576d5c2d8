"""Your own vectors in Chromium: export files uploaded, the views drawn, a bad file refused."""
import numpy as np
import pytest

from core.export import projector_tsv

from .helpers import expect

pytestmark = pytest.mark.browser


def test_upload_round_trip_and_a_ragged_file(app, tmp_path):
    words = [f"word{i}" for i in range(20)]
    vectors, metadata = projector_tsv(np.random.default_rng(1).normal(size=(20, 8)), words)
    (tmp_path / "vectors.tsv").write_text(vectors)
    (tmp_path / "metadata.tsv").write_text(metadata)
    app.goto("/")
    app.open_screen("10. Your own vectors", app.base_url + "/own_vectors")
    app.assert_healthy(min_charts=3)
    page = app.page
    app.rerun(lambda: page.locator(".st-key-own_vectors input[type=file]").set_input_files(str(tmp_path / "vectors.tsv")))
    app.rerun(lambda: page.locator(".st-key-own_metadata input[type=file]").set_input_files(str(tmp_path / "metadata.tsv")))
    expect(app.metric("rows")).to_contain_text("20")           # the upload is shown: the lesson's switch went off
    expect(page.locator(".st-key-own_lesson input")).not_to_be_checked()
    expect(app.metric("numbers per row")).to_contain_text("8")
    app.assert_healthy(min_charts=3)

    (tmp_path / "bad.tsv").write_text("1\t2\n3\n")
    app.rerun(lambda: page.locator(".st-key-own_vectors input[type=file]").set_input_files(str(tmp_path / "bad.tsv")))
    expect(page.locator("[data-testid='stAlertContentError']")).to_contain_text("ragged rows")

    app.rerun(lambda: page.locator(".st-key-own_lesson label").click())         # back to the lesson's table
    expect(app.metric("rows")).to_contain_text("12")


def test_a_long_cell_and_a_utf16_file_in_the_browser(app, tmp_path):
    """The 60,000-digit cell is refused at once with a short quote; UTF-16 without a
    byte-order mark (as some Windows tools save) is read, labels with spaces included."""
    (tmp_path / "long.tsv").write_text("9" * 60_000 + "\t1\n2\t3\n")
    words = ["New York", "cat (2)"] + [f"w{i}" for i in range(6)]
    vectors, metadata = projector_tsv(np.random.default_rng(2).normal(size=(8, 3)), words)
    (tmp_path / "vectors.tsv").write_bytes(vectors.encode("utf-16-le"))
    (tmp_path / "metadata.tsv").write_bytes(metadata.encode("utf-16-le"))
    app.goto("/")
    app.open_screen("10. Your own vectors", app.base_url + "/own_vectors")
    page = app.page
    app.rerun(lambda: page.locator(".st-key-own_vectors input[type=file]").set_input_files(str(tmp_path / "long.tsv")))
    error = page.locator("[data-testid='stAlertContentError']")
    expect(error).to_contain_text("line 1, column 1")
    expect(error).to_contain_text("60,000 characters long")
    assert len(error.inner_text()) < 400
    app.rerun(lambda: page.locator(".st-key-own_vectors input[type=file]").set_input_files(str(tmp_path / "vectors.tsv")))
    app.rerun(lambda: page.locator(".st-key-own_metadata input[type=file]").set_input_files(str(tmp_path / "metadata.tsv")))
    expect(app.metric("rows")).to_contain_text("8")
    app.assert_healthy(min_charts=3)
    expect(page.locator("[data-testid='stAlertContentError']")).to_have_count(0)    # Limits reads "New York cat (2) w0"
