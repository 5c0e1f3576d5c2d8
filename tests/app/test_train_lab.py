"""AppTest: the Train screen's replay, compare, export tabs and shareable links."""
from streamlit.testing.v1 import AppTest

from tests.app.conftest import APP, assert_clean, metric, open_screen
from tests.app.values import charts


REPLAY, COMPARE, OBJECTIVES, EXPORT = ("Replay training", "Compare runs",
                                       "Negative sampling", "Export")


def test_only_the_open_tab_is_computed():
    at = open_screen("train")
    # The Export tab's files are not made (every chart's own PNG/SVG buttons are deferred).
    exports = [b for b in at.get("download_button") if b.proto.label not in ("PNG", "SVG")]
    assert not exports and "train_replay_step" not in at.session_state


def test_replay_scrubber_moves_the_pictures():
    at = open_screen("train", train_tab=REPLAY)
    slider = at.select_slider(key="train_replay_step")
    assert slider.value == 3000
    before = charts(at)
    slider.set_value(0).run()
    assert_clean(at)
    assert any("**Step 0**: loss 2.487" in m.value for m in at.markdown)
    after = charts(at)
    # the same two charts (their specs do not change: only their data) showing other numbers
    assert [c.spec for c in before] == [c.spec for c in after] and len(after) == 2
    for a, b in zip(before, after):
        assert not all(a.data[k].equals(b.data[k]) for k in a.data)


def test_replay_play_advances():
    at = open_screen("train", train_tab=REPLAY)
    at.select_slider(key="train_replay_step").set_value(0).run()
    at.toggle(key="train_replay_play").set_value(True).run()
    assert_clean(at)
    assert at.select_slider(key="train_replay_step").value == 50


def test_compare_two_runs():
    at = open_screen("train", train_tab=COMPARE)
    assert metric(at, "A, final loss") == "1.713"
    b = metric(at, "B, final loss")
    at.slider(key="train_cmp_d_model").set_value(2).run()
    assert_clean(at)
    assert metric(at, "B, final loss") != b
    at.slider(key="train_cmp_window").set_value(4).run()
    nn = [d.value for d in at.dataframe if "A: neighbour" in d.value.columns][0]
    assert list(nn.columns) == ["A: neighbour", "A: cosine", "B: neighbour", "B: cosine"]


def test_export_offers_the_files_and_snippet():
    at = open_screen("train", train_tab=EXPORT)
    labels = [b.proto.label for b in at.get("download_button")]
    assert labels == ["Table (CSV)", "vectors.tsv", "metadata.tsv", "PCA coordinates (CSV)",
                      "Download the snippet"]
    code = [c.value for c in at.code][0]
    assert "SkipGramConfig(\n    d_model=4, lr=0.5, steps=3000," in code and "window=2" in code


def test_a_link_opens_the_exact_run():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"train_d_model": "8", "train_window": "3", "train_steps": "500"})
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert_clean(at)
    assert at.slider(key="train_d_model").value == 8
    assert metric(at, "loss, step 500")
    assert not at.warning


def test_garbage_in_a_link_falls_back_with_a_notice():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"train_d_model": "abc", "train_lr": "1e9", "train_window": ["2", "3"],
                            "train_seed": "-5", "train_source": "<script>"})
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert_clean(at)
    assert metric(at, "loss, step 0") == "2.487"          # the defaults: the reference run
    notice = " ".join(w.value for w in at.warning)
    for name in ("d_model", "learning rate", "window", "seed", "training text"):
        assert name in notice, name
    assert "<script>" not in notice


def test_generated_corpus_with_groups_and_bank():
    at = open_screen("train")
    at.radio(key="train_source").set_value("Word groups (generated)").run()
    assert_clean(at)
    at.button(key="train_use_generated").click().run()
    assert_clean(at)
    assert at.slider(key="train_d_model").value == 12
    assert metric(at, "vocabulary") == "63"
    recovery = float(metric(at, "group recovery"))
    chance = float(metric(at, "by pure chance"))
    assert recovery > 0.9 > 3 * chance
    assert metric(at, "“bank”: cos to river / money")


def test_objectives_table_and_negatives_slider():
    at = open_screen("train", train_tab=OBJECTIVES)
    table = [d.value for d in at.dataframe if "objective" in d.value.columns][0]
    assert table["words scored per pair"].tolist() == [12, 6]
    assert round(table["cross-entropy (one scale)"][0], 3) == 1.713
    at.slider(key="train_ns_negatives").set_value(2).run()
    assert_clean(at)
    table = [d.value for d in at.dataframe if "objective" in d.value.columns][0]
    assert table["words scored per pair"].tolist() == [12, 3]


def test_a_tab_in_the_link_is_not_reported_as_invalid():
    at = open_screen("train", train_tab=EXPORT)
    assert not at.warning


def test_compare_learning_rate_and_objective_epochs_move_their_outputs():
    at = open_screen("train", train_tab=COMPARE)
    b = metric(at, "B, final loss")
    at.select_slider(key="train_cmp_lr").set_value(0.1).run()
    assert_clean(at)
    assert metric(at, "B, final loss") != b
    at = open_screen("train", train_tab=OBJECTIVES)
    table = [d.value for d in at.dataframe if "objective" in d.value.columns][0]
    at.slider(key="train_ns_epochs").set_value(20).run()
    assert_clean(at)
    after = [d.value for d in at.dataframe if "objective" in d.value.columns][0]
    assert after["cross-entropy (one scale)"][1] != table["cross-entropy (one scale)"][1]
