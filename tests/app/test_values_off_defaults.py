"""AppTest: screen paths off the lesson's defaults that the round-6 mutation sample of
app/lab_ui found untested (docs/quality.md): run B of "Compare runs" on a text of more than
300 different words, cut to the step budget. Each value is computed from core for the same
inputs, never read back from the screen."""
from dataclasses import replace

from streamlit.testing.v1 import AppTest

from core import budget
from core.corpus import Corpus
from core.similarity import nearest
from core.skipgram import SkipGramConfig, train
from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP
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
    from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP
    from lab_ui.screens.train.train_views import compare_view
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
    # no "cat" in this text: the neighbours are of the vocabulary's first word, in both runs
    assert at.selectbox(key="train_cmp_word").value == corpus.vocab[0]
    nn = table(at, "A: neighbour")
    for name, r in (("A", a), ("B", b)):
        want = nearest(r.E, 0, k=5)
        assert list(nn[f"{name}: neighbour"]) == [corpus.vocab[j] for j, _ in want], name
        assert_close(nn[f"{name}: cosine"], [c for _, c in want], 2)


def _objectives(text, config, window):
    from core.corpus import Corpus
    from core.run import RunRequest
    from lab_ui.server.runs import run
    from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP
    from lab_ui.screens.train.train_views import objectives_view
    softmax = run(RunRequest("softmax", text, config, window, max_vocab=TRAIN_VOCAB_CAP))
    objectives_view(softmax, Corpus.from_text(text, window=window, max_vocab=TRAIN_VOCAB_CAP), text, window,
                    config, False)


def test_objectives_refuse_when_the_softmax_run_leaves_no_room_at_all():
    """300 words 65 times over at d_model 8: the softmax run's 3,000 steps take nearly the whole
    budget, so not one epoch of negative sampling fits; the refusal says to lower d_model or
    the steps instead of offering "at most 0 epochs"."""
    text = " ".join(f"w{i:03d}" for i in range(300)) + " "
    text = text * 65
    config = SkipGramConfig(d_model=8, steps=3000)
    at = AppTest.from_function(_objectives, args=(text, config, 2), default_timeout=60).run()
    assert_clean(at)
    corpus = Corpus.from_text(text, window=2, max_vocab=TRAIN_VOCAB_CAP)
    softmax = budget.skipgram_work(corpus.V, 8, 3000)
    assert softmax <= budget.BUDGET
    assert budget.max_negsampling_epochs(corpus.V, corpus.n_pairs, 8, 5, budget.BUDGET - softmax) == 0
    work = softmax + budget.negsampling_work(corpus.V, corpus.n_pairs, 8, 5, 10)    # K = 5, 10 epochs
    refusal = [w.value for w in at.warning]
    assert len(refusal) == 1 and has_number(refusal[0], budget.seconds(work), 0)
    assert refusal[0].startswith(f"Negative sampling for 10 epochs with K = 5 at d_model 8 on {corpus.n_pairs:,} pairs")
    assert refusal[0].endswith("What fits: nothing more at this width; lower d_model or the steps above. "
                               "Nothing was trained.")
    assert not at.dataframe


def test_a_cold_run_b_shows_its_progress_and_its_own_stop_button(monkeypatch):
    """Run B trains after run A: while it trains, its bar says how far it got and a Stop
    button (key ``train_cmp_stop``) sits under it; here it is stopped at the first check."""
    import re

    import lab_ui.server.guard
    import lab_ui.server.runs

    monkeypatch.setattr(lab_ui.server.runs, "QUIET_SECONDS", -1.0)           # a bar even for a short run
    monkeypatch.setattr(lab_ui.server.guard, "session_gone", lambda: True)   # the run stops at its first check
    config = SkipGramConfig(d_model=3, lr=0.5, steps=2000, seed=77)
    at = AppTest.from_function(_compare, args=(MANY_WORDS, config, 2), default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.button(key="train_cmp_stop").label == "Stop training"
    [bar] = [p.proto.text for p in at.get("progress")]
    steps = [int(n.replace(",", "")) for n in re.fullmatch(r"Training: step ([\d,]+) of ([\d,]+), loss \d+\.\d{3}",
                                                           bar).groups()]
    assert steps[0] < steps[1] == 2000


def test_run_a_cut_to_the_budget_says_so_and_shows_the_run_it_trained():
    """300 pasted words at d_model 32 for 5,000 steps do not fit the budget: the request asks
    for the cut (core.run.plan), the screen says how many steps it trained instead (a Steps
    slider value), and its figures are core's run of exactly those steps."""
    from core.run import fit_steps
    from lab_ui.screens.train.train_controls import STEP_OPTIONS
    from tests.app.conftest import APP
    text = " ".join(f"w{i:03d}" for i in range(300))
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params.update({"train_source": "Paste your own text", "train_d_model": "32", "train_steps": "5000"})
    at.session_state["train_text"] = text
    at.run()
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert_clean(at)
    corpus = Corpus.from_text(text, window=2, max_vocab=TRAIN_VOCAB_CAP)
    steps, cut = fit_steps(corpus.V, 32, 5000, tuple(STEP_OPTIONS))
    assert cut is not None and steps in STEP_OPTIONS and steps < 5000
    assert cut.message in [w.value for w in at.warning]
    assert f"trained for **{steps:,} steps** instead" in cut.message
    r = train(corpus, SkipGramConfig(d_model=32, steps=steps))
    assert metric(at, f"loss, step {steps:,}") == f"{r.final_loss:.3f}"
