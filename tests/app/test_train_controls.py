"""The Train screen's controls are derived from one table (lab_ui.screens.train.train_controls.CONTROLS)
and the config's defaults: the link, the reset defaults and the starting values agree."""
from dataclasses import fields

from core.corpus import Corpus
from core.skipgram import SkipGramConfig
from lab_ui.widgets.common import plain
from lab_ui.screens.train.train_controls import BOUND, CONTROLS, LESSON_RUN, GUIDE_WINDOW, WholeBox
from tests.app.conftest import assert_clean, metric, open_screen, texts


def test_each_control_sets_a_config_field_or_the_window():
    config_fields = {f.name for f in fields(SkipGramConfig)}
    assert set(CONTROLS) - {"window"} <= config_fields
    assert "window" in CONTROLS


def test_the_link_carries_every_control_and_the_text_source():
    assert set(BOUND) == {f"train_{name}" for name in CONTROLS} | {"train_source"}
    assert BOUND["train_lr"] == "learning rate" and BOUND["train_seed"] == "seed"


def test_the_reset_values_are_the_reference_run():
    reference = SkipGramConfig()
    for name, control in CONTROLS.items():
        expected = GUIDE_WINDOW if name == "window" else getattr(reference, name)
        value = LESSON_RUN[f"train_{name}"]
        assert value == (str(expected) if isinstance(control, WholeBox) else expected), name
    assert (LESSON_RUN["train_d_model"], LESSON_RUN["train_lr"], LESSON_RUN["train_steps"],
            LESSON_RUN["train_window"], LESSON_RUN["train_seed"]) == (4, 0.5, 3000, 2, "0")


def test_runs_are_cached_per_config_and_equal_core():
    from core.corpus import GUIDE_TEXT
    from core.skipgram import train
    from core.run import RunRequest
    from lab_ui.server.runs import run, run_cache

    def train_run(text, window, config):
        return run(RunRequest("softmax", text, config, window))

    run_cache().clear()
    a = SkipGramConfig(steps=5)
    b = SkipGramConfig(steps=5, init_std=0.3)          # a field no widget sets still tells runs apart
    ra, rb = train_run(GUIDE_TEXT, 2, a), train_run(GUIDE_TEXT, 2, b)
    assert train_run(GUIDE_TEXT, 2, SkipGramConfig(steps=5)) is ra     # an equal config: the cached run
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    for config, r in ((a, ra), (b, rb)):
        expected = train(corpus, config)
        assert (r.E == expected.E).all() and (r.losses == expected.losses).all()
    assert not (ra.E == rb.E).all()
    run_cache().clear()


def _upload(raw: bytes):
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.file_uploader(key="train_upload").set_value(("notes.txt", raw, "text/plain")).run()
    assert_clean(at)
    return at


def test_an_upload_that_is_not_utf8_is_refused_by_name_with_its_byte():
    raw = b"caf\xe9 au lait for the cat and the dog and the cat"      # Latin-1, not UTF-8
    at = _upload(raw)
    assert at.error and plain("byte 4 cannot be read as UTF-8 or UTF-16") in at.error[0].value
    assert plain("Latin-1") in at.error[0].value and not at.metric       # nothing trained on a guess


def test_an_upload_is_read_in_its_encoding():
    text = "the cat sat on the mat and the dog sat on the log"
    for raw, name in ((text.encode("utf-8"), "UTF-8"), (text.encode("utf-16"), "UTF-16 (little-endian)"),
                      (text.encode("utf-16-be"), "UTF-16 (big-endian)")):
        at = _upload(raw)
        assert f"Using the uploaded file “{plain('notes.txt')}” ({len(raw) / 1e6:.2f} MB, read as {name})" \
            in texts(at)
        assert metric(at, "vocabulary") == f"{Corpus.from_text(text, window=2).V:,}"


def test_an_upload_holding_the_replacement_character_itself_is_not_flagged():
    raw = "the cat \ufffd sat on the mat and the dog sat on the log".encode("utf-8")
    at = _upload(raw)
    assert "Using the uploaded file" in texts(at)
    assert not at.error
    assert metric(at, "vocabulary") == f"{Corpus.from_text(raw.decode('utf-8'), window=2).V:,}"


# --- the link notice and the generated text's settings, with a stand-in for Streamlit ---------

class _Screen:
    def __init__(self, state):
        self.session_state, self.warnings = dict(state), []

    def warning(self, text):
        self.warnings.append(text)


def test_a_links_values_that_were_not_used_are_named(monkeypatch):
    from lab_ui.screens.train import train_controls
    fake = _Screen({"train_lr": 0.5, "train_steps": 3000, "train_seed": "0", "train_d_model": 4,
                    "train_source": "The lesson's 33 words"})
    monkeypatch.setattr(train_controls, "st", fake)
    train_controls.link_notice({"train_lr": ["0.50"], "train_steps": ["3e3"], "train_source": ["The lesson's 33 words"]})
    assert fake.warnings == []                                     # equal values, however written
    train_controls.link_notice({"train_lr": ["7"], "train_seed": ["0", "1"], "train_d_model": ["four"],
                                "train_steps": ["3000"]})
    assert fake.warnings == [
        "Some settings in this link are not valid and were replaced by the defaults: "
        f"learning rate = {plain(repr('7'))} (using 0.5); "
        f"seed = {plain(repr('0') + ', ' + repr('1'))} (using 0); "
        f"d_model = {plain(repr('four'))} (using 4)."]
    fake.warnings.clear()
    train_controls.link_notice({"train_seed": ["x" * 40, "1", "2", "3"]})     # cut to 30 characters, 3 values
    assert f"seed = {plain(', '.join(repr(v) for v in ['x' * 30, '1', '2']))} (using 0)." in fake.warnings[0]


def test_the_generated_texts_settings_button_sets_them(monkeypatch):
    from lab_ui.screens.train import train_controls
    from lab_ui.widgets.presets import SOFTMAX_SETTINGS
    fake = _Screen({"train_d_model": 1, "train_lr": 50.0, "train_steps": 0, "train_window": 5})
    monkeypatch.setattr(train_controls, "st", fake)
    train_controls._use_generated_settings()
    assert fake.session_state == {"train_d_model": SOFTMAX_SETTINGS.d_model, "train_lr": SOFTMAX_SETTINGS.lr,
                                  "train_steps": SOFTMAX_SETTINGS.steps, "train_window": GUIDE_WINDOW}
