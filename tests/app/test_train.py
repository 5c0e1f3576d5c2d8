"""AppTest: the Train screen moves with its sliders and shows the reference run."""
from tests.app.conftest import assert_clean, metric, open_screen, texts


def test_defaults_show_the_reference_figures():
    at = open_screen("train")
    assert metric(at, "loss, step 0") == "2.487"
    assert metric(at, "loss, step 3,000") == "1.713"
    assert metric(at, "pairs") == "126"
    assert metric(at, "vocabulary") == "12"
    assert len(at.get("vega_lite_chart")) >= 3


def test_d_model_slider_changes_the_result():
    at = open_screen("train")
    before = metric(at, "loss, step 3,000")
    at.slider(key="train_d_model").set_value(8).run()
    assert_clean(at)
    assert metric(at, "loss, step 3,000") != before


def test_window_slider_changes_the_pairs():
    at = open_screen("train")
    at.slider(key="train_window").set_value(1).run()
    assert_clean(at)
    assert metric(at, "pairs") == "64"  # 2 * (33 - 1)


def test_learning_rate_changes_the_result_and_divergence_is_explained():
    at = open_screen("train")
    at.select_slider(key="train_lr").set_value(0.1).run()
    assert metric(at, "loss, step 3,000") != "1.713"
    at.select_slider(key="train_lr").set_value(50.0).run()
    assert_clean(at)
    assert any("blew up" in e.value for e in at.error)
    assert "smaller learning rate" in texts(at)


def test_steps_and_seed():
    at = open_screen("train")
    at.select_slider(key="train_steps").set_value(100).run()
    assert metric(at, "loss, step 100")
    before = metric(at, "loss, step 0")
    at.text_input(key="train_seed").input("5").run()
    assert_clean(at)
    assert metric(at, "loss, step 0") != before


def test_pasted_text_and_bad_text():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.text_area(key="train_text").input("the king and the queen, the man and the woman").run()
    assert_clean(at)
    assert metric(at, "vocabulary") == "6"
    at.text_area(key="train_text").input("!!! ???").run()
    assert_clean(at)
    assert any("at least two words" in e.value for e in at.error)
    at.text_area(key="train_text").input("la la la").run()
    assert any("only one distinct word" in e.value for e in at.error)


def test_neighbours_and_word_pair():
    at = open_screen("train")
    at.button_group(key="train_word").set_value("dog").run()
    assert_clean(at)
    at.button_group(key="train_w1").set_value("mat").run()
    at.button_group(key="train_w2").set_value("log").run()
    assert any(m.label == "cos(mat, log)" for m in at.metric)
