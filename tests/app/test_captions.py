"""AppTest: every caption that compares or counts says what its own numbers say.

Each test recomputes the numbers with core and checks the sentence on screen against them
(the wording rules themselves are pinned in tests/test_caption_rules.py)."""
import numpy as np

from tests.app.conftest import assert_clean, metric, open_screen, texts
from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train


def _init_losses(width: int):
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    run = {s: train(corpus, SkipGramConfig(d_model=width, lr=0.5, steps=300, seed=0, init_std=s)).losses
           for s in (0.02, 1.0)}
    return run[0.02], run[1.0], float(np.log(corpus.V))


def test_lookup_init_caption_matches_its_curves_at_every_width():
    at = open_screen("lookup")
    for width in (256, 4):
        at.select_slider(key="lookup_init_width").set_value(width).run()
        assert_clean(at)
        small, big, uniform = _init_losses(width)
        caption = next(c.value for c in at.caption if c.value.startswith("With std 1"))
        assert f"loss {big[0]:.2f} at step 0" in caption
        below = np.flatnonzero(big < small)
        if below.size:   # the toy width: std 1 overtakes, and the caption says where
            assert f"drops below the std 0.02 curve at step {below[0]:,}" in caption
        else:            # a wide model: std 1 never catches up within 300 steps
            assert "never catches up" in caption and f"ends at {big[-1]:.3f}" in caption
        # the chart shows exactly these curves
        spec = at.get("vega_lite_chart")[-1].proto.spec
        assert f"d_model {width}" in spec
    # the two widths tell the two halves of the lesson
    small4, big4, _ = _init_losses(4)
    small256, big256, _ = _init_losses(256)
    assert (big4 < small4).any() and not (big256 < small256).any()


def test_divergence_alert_and_metric_name_the_same_steps():
    at = open_screen("train")
    at.select_slider(key="train_lr").set_value(50.0).run()
    assert_clean(at)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    r = train(corpus, SkipGramConfig(lr=50.0))
    last = len(r.losses) - 1
    alert = next(e.value for e in at.error if "blew up" in e.value)
    assert f"blew up at step {r.diverged_step}" in alert
    assert f"{r.losses[last]:.3f} at step {last}" in alert
    assert metric(at, f"loss, step {last}") == f"{r.losses[last]:.3f}"


def test_negative_sampling_speed_sentence_follows_the_seconds_column():
    at = open_screen("train", train_tab="Negative sampling")
    df = next(d.value for d in at.dataframe if "seconds" in d.value.columns)
    sm, ns = float(df["seconds"].iloc[0]), float(df["seconds"].iloc[1])
    caption = next(c.value for c in at.caption if "one scale" in c.value)
    if ns < 0.9 * sm:
        assert "negative sampling was faster" in caption
    elif ns > 1.1 * sm:
        assert "negative sampling was slower" in caption
    assert "not faster here" not in caption
    assert f"{sm:.3f} s" in caption and f"{ns:.3f} s" in caption


def test_limits_cat_and_cat_cat_are_not_the_same_number_of_times():
    at = open_screen("limits")
    at.text_input(key="limits_a").input("cat").run()
    at.text_input(key="limits_b").input("cat cat").run()
    assert_clean(at)
    warning = next(w.value for w in at.warning if "Identical vectors" in w.value)
    assert "words the same number of times" not in warning
    assert "same proportions" in warning
    at.text_input(key="limits_b").input("dog cat").run()
    assert "Identical" not in texts(at) and "different words" in texts(at)


def test_pca_reading_at_d_model_2_does_not_say_lost():
    at = open_screen("train")
    at.slider(key="train_d_model").set_value(2).run()
    assert_clean(at)
    reading = next(m.value for m in at.markdown if m.value.startswith("PCA lays"))
    assert "lost" not in reading and "keeps all" in reading
    at.slider(key="train_d_model").set_value(4).run()
    reading = next(m.value for m in at.markdown if m.value.startswith("PCA lays"))
    assert "is lost" in reading


def test_steps_0_heatmap_is_called_the_starting_vectors():
    at = open_screen("train")
    at.select_slider(key="train_steps").set_value(0).run()
    assert_clean(at)
    heads = [h.value for h in at.header]
    assert any("starting vectors" in h for h in heads), heads
    assert not any("trained vectors" in h for h in heads), heads


def test_exercise_feedback_is_not_in_scientific_notation():
    at = open_screen("parameters")
    at.text_input(key="params_ex2_answer").input("38597375")
    next(b for b in at.button if b.proto.form_id == "params_ex2" or "params_ex2" in b.id).click().run()
    wrong = next(e.value for e in at.error if e.value.startswith("Not quite"))
    assert "you typed 38,597,375." in wrong and "e+" not in wrong


def test_gradients_says_the_lesson_ids_are_not_gpt2s_and_shows_gpt2s():
    from core.tokenizer import gpt2, id_to_text, tokenize

    enc = gpt2()
    real = [t.id for t in tokenize(enc, "I love AI", special_as_token=False)]
    at = open_screen("gradients")
    note = next(i.value for i in at.info if "home-made BPE" in i.value)
    assert "[15, 824, 391]" in note and "not from GPT-2" in note
    assert f"**{real}**" in note                       # computed by core.tokenizer
    assert real != [15, 824, 391]
    assert "ss" in id_to_text(enc, 824) and "824 = “ss”" in note
    assert "GPT-2's vocabulary" not in texts(at)


def test_steps_0_shows_one_loss_metric_not_two():
    at = open_screen("train")
    at.select_slider(key="train_steps").set_value(0).run()
    assert [m.label for m in at.metric].count("loss, step 0") == 1
