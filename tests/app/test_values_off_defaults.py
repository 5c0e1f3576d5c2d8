"""AppTest: screen paths off the lesson's defaults that the round-6 mutation sample of
app/lab_ui found untested (docs/quality.md): run B of "Compare runs" on a text of more than
300 different words, cut to the step budget. Each value is computed from core for the same
inputs, never read back from the screen."""
from dataclasses import replace

from streamlit.testing.v1 import AppTest

from core import budget
from core.corpus import Corpus
from core.skipgram import SkipGramConfig, loss_floor, train
from lab_ui.train_controls import TRAIN_VOCAB_CAP
from tests.app.conftest import assert_clean
from tests.app.values import assert_close, has_number, metric, table

# 340 different words, the first 40 of them twice as often: a capped vocabulary keeps the
# 300 most frequent (ties alphabetical) and maps the other 40 to <unk>.
MANY_WORDS = " ".join(f"w{i:03d}" for i in range(340)) + " " + " ".join(f"w{i:03d}" for i in range(40))
RUN_A = SkipGramConfig(d_model=2, lr=0.5, steps=2100, seed=1)


def _compare(text, config, window):
    import streamlit as st
    from dataclasses import replace
    from core.corpus import Corpus
    from core.skipgram import train
    from lab_ui.train_controls import TRAIN_VOCAB_CAP
    from lab_ui.train_views import compare_view
    st.session_state["tables"] = True
    corpus = Corpus.from_text(text, window=window, max_vocab=TRAIN_VOCAB_CAP)
    result = train(corpus, replace(config, snapshot_every=max(1, config.steps // 60)))
    compare_view(result, corpus, text, window, config)


def test_run_b_keeps_the_vocabulary_cap_and_says_when_its_steps_were_cut():
    """Run B on a text of 340 different words trains on the same capped vocabulary as run A
    (300 words and <unk>), and B's width 32 does not fit the step budget: the steps are cut to
    a round number and the refusal says so under B's name."""
    at = AppTest.from_function(_compare, args=(MANY_WORDS, RUN_A, 2), default_timeout=120)
    at.session_state["train_cmp_d_model"] = 32
    at.run()
    assert_clean(at)
    corpus = Corpus.from_text(MANY_WORDS, window=2, max_vocab=TRAIN_VOCAB_CAP)
    assert corpus.V <= TRAIN_VOCAB_CAP + 1 < len(set(MANY_WORDS.split()))
    most = budget.max_skipgram_steps(corpus.V, 32)
    assert most < RUN_A.steps                                   # 2,100 steps do not fit at width 32
    steps_b = budget.nice_floor(most)
    assert 0 < steps_b <= most
    b = train(corpus, replace(RUN_A, d_model=32, steps=steps_b, snapshot_every=max(1, steps_b // 60)))
    a = train(corpus, replace(RUN_A, snapshot_every=max(1, RUN_A.steps // 60)))
    assert metric(at, "B, final loss") == f"{b.final_loss:.3f}"
    assert metric(at, "A, final loss") == f"{a.final_loss:.3f}"
    curves = table(at, "step")
    name_b = [c for c in curves.columns if c.startswith("B:")][0]
    assert_close(curves[name_b].dropna().to_numpy(), b.losses)
    refusal = " ".join(w.value for w in at.warning)
    assert refusal.startswith("Run B: ")
    assert f"at most {most:,} steps at this width" in refusal
    assert f"trained for **{steps_b:,} steps** instead" in refusal
