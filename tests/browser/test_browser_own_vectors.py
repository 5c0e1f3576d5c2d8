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
    app.rerun(lambda: page.locator(".st-key-own_lesson label").click())
    expect(app.metric("rows")).to_contain_text("20")
    expect(app.metric("numbers per row")).to_contain_text("8")
    app.assert_healthy(min_charts=3)

    (tmp_path / "bad.tsv").write_text("1\t2\n3\n")
    app.rerun(lambda: page.locator(".st-key-own_vectors input[type=file]").set_input_files(str(tmp_path / "bad.tsv")))
    expect(page.locator("[data-testid='stAlertContentError']")).to_contain_text("ragged rows")
