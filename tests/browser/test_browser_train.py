"""The Train screen in a real browser: reference figures, sliders, divergence, shareable URLs."""
import re

import pytest

from .helpers import ARTIFACTS, DOCS_SCREENSHOTS, REPO_ROOT, expect

pytestmark = pytest.mark.browser

# "loss at step 0" / "loss at step 3,000" (or "loss, step 0" ...)
STEP0 = re.compile(r"^loss(,| at) step 0$")
FINAL = re.compile(r"^loss(,| at) step [1-9][\d,]*$")
D_MODEL, LR, WINDOW = "train_d_model", "train_lr", "train_window"  # widget keys


def open_train(app, query: str = "") -> None:
    app.goto("/")
    app.open_screen("3. Train", app.base_url + "/train")
    if query:
        app.goto("/train" + query)
    app.assert_healthy()


def test_defaults_show_the_reference_run(app, app_root):
    open_train(app)
    expect(app.metric(STEP0)).to_have_text("2.487")
    expect(app.metric(FINAL)).to_have_text("1.713")
    app.assert_healthy(min_charts=3)
    shots = [ARTIFACTS / "train.png"]
    if app_root == REPO_ROOT:  # the README shows this checkout's screen, not a scratch copy's
        shots.append(DOCS_SCREENSHOTS / "train.png")
    app.full_page_screenshot(*shots)


def test_each_slider_changes_the_results(app):
    open_train(app)
    expect(app.metric(FINAL)).to_have_text("1.713")
    seen = {"default": app.metric(FINAL).inner_text()}
    for widget, press, setting in [(D_MODEL, "ArrowRight", "5"), (LR, "ArrowLeft", "0.2"),
                                   (WINDOW, "ArrowRight", "3")]:
        before = app.metric(FINAL).inner_text()
        app.press_on_slider(widget, press)
        assert app.slider_value(widget) == setting, f"{widget}: {app.slider_value(widget)!r}"
        expect(app.metric(FINAL)).not_to_have_text(before)
        seen[f"{widget}={setting}"] = app.metric(FINAL).inner_text()
        app.assert_healthy(min_charts=3)
    assert "train_d_model=5" in app.page.url, app.page.url
    assert len(set(seen.values())) == len(seen), f"some changes did not change the loss: {seen}"


def test_diverging_learning_rate_is_explained(app):
    open_train(app)
    app.press_on_slider(LR, "End")
    assert app.slider_value(LR) in ("50", "50.0")
    alert = app.page.locator("[data-testid='stAlertContentError']", has_text="Training blew up")
    expect(alert).to_have_count(1)
    expect(app.page.locator("[data-testid='stException']")).to_have_count(0)
    assert "train_lr=50" in app.page.url, app.page.url


def test_the_url_carries_the_setting(app):
    open_train(app)
    app.press_on_slider(D_MODEL, "ArrowRight")
    assert "train_d_model=5" in app.page.url, app.page.url
    shared = app.metric(FINAL).inner_text()

    # Whoever opens the address sees the same run.
    app.goto("/train?train_d_model=5")
    assert app.slider_value(D_MODEL) == "5"
    expect(app.metric(FINAL)).to_have_text(shared)

    app.goto("/train?train_d_model=8")
    assert app.slider_value(D_MODEL) == "8"
    expect(app.slider(D_MODEL).get_by_role("slider")).to_have_value("8")
    expect(app.metric(FINAL)).not_to_have_text("1.713")
    assert "train_d_model=8" in app.page.url, app.page.url
    app.assert_healthy(min_charts=3)


def test_a_word_is_picked_with_one_click_and_the_url_carries_it(app):
    """The lesson's words are a row of buttons: one click picks a word, the page's address
    carries it, and whoever opens that address sees the same words picked."""
    open_train(app)
    second = app.page.locator(".st-key-train_w2")
    expect(second.get_by_role("radio", name="dog", exact=True)).to_have_attribute("aria-checked", "true")
    app.rerun(second.get_by_role("radio", name="mat", exact=True).click)
    expect(second.get_by_role("radio", name="mat", exact=True)).to_have_attribute("aria-checked", "true")
    expect(app.metric("cos(cat, mat)")).to_be_visible()
    assert "train_w2=mat" in app.page.url, app.page.url
    second.get_by_role("radio", name="mat", exact=True).click()     # a second click does nothing
    app.page.wait_for_timeout(500)
    expect(second.get_by_role("radio", name="mat", exact=True)).to_have_attribute("aria-checked", "true")

    app.goto("/train?train_word=log&train_w1=the&train_w2=on")
    word = app.page.locator(".st-key-train_word")
    expect(word.get_by_role("radio", name="log", exact=True)).to_have_attribute("aria-checked", "true")
    expect(app.metric("cos(the, on)")).to_be_visible()
    app.assert_healthy(min_charts=3)
