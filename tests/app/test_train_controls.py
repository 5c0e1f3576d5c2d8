"""The Train screen's controls are derived from one table (lab_ui.train_controls.CONTROLS)
and the config's defaults: the link, the reset defaults and the starting values agree."""
from dataclasses import fields

from core.skipgram import SkipGramConfig
from lab_ui.train_controls import BOUND, CONTROLS, LESSON_RUN, WINDOW, WholeBox


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
        expected = WINDOW if name == "window" else getattr(reference, name)
        value = LESSON_RUN[f"train_{name}"]
        assert value == (str(expected) if isinstance(control, WholeBox) else expected), name
    assert (LESSON_RUN["train_d_model"], LESSON_RUN["train_lr"], LESSON_RUN["train_steps"],
            LESSON_RUN["train_window"], LESSON_RUN["train_seed"]) == (4, 0.5, 3000, 2, "0")


def test_runs_are_cached_per_config_and_equal_core():
    from core.corpus import GUIDE_TEXT, Corpus
    from core.skipgram import train
    from lab_ui.runs import run_cache, train_run

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
