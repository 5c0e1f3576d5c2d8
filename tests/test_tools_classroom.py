"""tools.classroom opens each screen by its own path (the screenshots of 7b, 7c, 7d, 8c and
Your own vectors showed "Page not found" over Home when it opened the file name instead)."""
from tests.browser.helpers import slug
from tools.classroom import page_path


def test_a_screen_is_opened_by_its_path_not_its_file_name():
    href = "http://127.0.0.1:8501/own_vectors"
    assert page_path(href) == "/own_vectors"
    assert slug(href) == "own-vectors"          # the screenshot's file name differs from the path
    assert page_path("http://127.0.0.1:8501/") == "/"
