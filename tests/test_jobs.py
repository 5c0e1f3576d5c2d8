"""The long-run slots: bounded concurrency, first come first served, cancellation,
and the BLAS thread limit the app sets for a server; a cold run's progress bar and Stop button."""
import os
import re
import threading
import time

import pytest

from core import budget
from lab_ui.server.jobs import Cancelled, JobSlots, is_long


def _hold(slots: JobSlots, name: str, log: list, gate: threading.Event, places: list | None = None):
    def on_wait(place, running):
        if places is not None:
            places.append((name, place, running))
    ticket = slots.acquire(on_wait)
    log.append(("start", name))
    gate.wait(5)
    log.append(("end", name))
    slots.release(ticket)


def test_at_most_n_hold_a_slot_and_the_rest_wait_in_order():
    slots, log, gate, places = JobSlots(1), [], threading.Event(), []
    first = threading.Thread(target=_hold, args=(slots, "a", log, gate))
    first.start()
    while slots.running == 0:
        time.sleep(0.01)
    waiting = []
    for name in "bcd":                    # arrive one after the other
        t = threading.Thread(target=_hold, args=(slots, name, log, gate, places))
        t.start()
        waiting.append(t)
        while slots.waiting < len(waiting):
            time.sleep(0.01)
    time.sleep(0.3)                       # every waiter has reported its place at least once
    assert slots.running == 1 and slots.waiting == 3
    assert log == [("start", "a")]
    seen = {name: place for name, place, _ in places}
    assert seen == {"b": 1, "c": 2, "d": 3}
    assert all(running == 1 for _, _, running in places)
    gate.set()
    for t in [first, *waiting]:
        t.join(5)
    starts = [n for kind, n in log if kind == "start"]
    assert starts == ["a", "b", "c", "d"]
    # never two at once: every start after the first follows the previous end
    for i in range(1, 4):
        assert log.index(("start", starts[i])) > log.index(("end", starts[i - 1]))
    assert slots.running == 0 and slots.waiting == 0


def test_two_slots_run_two_at_once():
    slots, log, gate = JobSlots(2), [], threading.Event()
    threads = [threading.Thread(target=_hold, args=(slots, n, log, gate)) for n in "abc"]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 5
    while slots.running < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(0.1)
    assert slots.running == 2 and slots.waiting == 1
    gate.set()
    for t in threads:
        t.join(5)
    assert slots.running == 0


def test_a_cancelled_waiter_leaves_the_queue_and_the_next_one_moves_up():
    slots = JobSlots(1)
    held = slots.acquire()                 # the slot is taken
    gone = threading.Event()
    outcome = []

    def waiter():
        try:
            slots.acquire(cancelled=gone.is_set)
            outcome.append("got a slot")
        except Cancelled:
            outcome.append("cancelled")

    t = threading.Thread(target=waiter)
    t.start()
    while slots.waiting == 0:
        time.sleep(0.01)
    gone.set()                             # the student's tab closes
    t.join(5)
    assert outcome == ["cancelled"] and slots.waiting == 0
    slots.release(held)
    slots.acquire()                        # the slot is free again for the next one
    assert slots.running == 1


def test_an_interrupted_wait_leaves_the_queue():
    """Streamlit stops a script (a rerun) by raising inside an element update: the
    waiter's place must not stay in the queue."""
    slots = JobSlots(1)
    slots.acquire()

    def interrupted(place, running):
        raise KeyboardInterrupt   # stands in for Streamlit's rerun/stop exception

    with pytest.raises(KeyboardInterrupt):
        slots.acquire(interrupted)
    assert slots.waiting == 0 and slots.running == 1


def test_the_lesson_runs_just_run_and_a_pasted_text_is_a_long_run():
    assert not is_long(budget.skipgram_work(12, 4, 3000))        # the reference run
    assert not is_long(budget.skipgram_work(63, 12, 2000))       # the generated word groups
    assert is_long(budget.skipgram_work(300, 4, 3000))           # 300 different pasted words
    assert is_long(budget.skipgram_work(130, 4, 3000))           # 300 pasted words, 130 different
    assert not is_long(budget.negsampling_work(12, 126, 4, 5, 100))
    assert is_long(budget.negsampling_work(300, 6000, 32, 20, 200))


def test_a_pasted_300_word_text_trains_in_a_worker_and_the_lessons_runs_in_the_server():
    """The attack benchmark's ordinary run (bench.attack: 300 words, 130 different) is
    estimated at just under a second: it must still count as long (it trains for about 2 s,
    which in the server held the interpreter against every other student's rerun)."""
    from bench.attack import ordinary_text
    from core.corpus import GUIDE_TEXT, Corpus
    from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP

    pasted = Corpus.from_text(ordinary_text(), window=2, max_vocab=TRAIN_VOCAB_CAP)
    assert pasted.V == 130
    assert is_long(budget.skipgram_work(pasted.V, 4, 3000))
    lesson = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    assert not any(is_long(budget.skipgram_work(lesson.V, d, 3000)) for d in range(1, 33))


def test_slots_need_at_least_one():
    with pytest.raises(ValueError):
        JobSlots(0)


def _last_line_of_the_router_in_a_fresh_process(lines: str) -> str:
    """Run the app's router once with AppTest in a fresh Python process (as on a server, where
    the app itself first loads NumPy and sets up the process), then ``lines`` (``at`` is the
    AppTest); the last line the process printed."""
    import subprocess
    import sys
    from tests.app.conftest import APP
    from tests.conftest import ROOT

    script = ("from streamlit.testing.v1 import AppTest\n"
              f"at = AppTest.from_file({APP!r}, default_timeout=60).run()\n"
              "assert not at.exception\n" + lines)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout.strip().splitlines()[-1]


def test_the_router_limits_blas_to_one_thread():
    """Once the app has run, every BLAS/OpenMP pool of the server process has one thread.
    In a fresh process, as on a server: there NumPy (and its BLAS) is first loaded by the
    app itself, and a limit set before that would reach nothing."""
    last = _last_line_of_the_router_in_a_fresh_process(
        "from threadpoolctl import threadpool_info\n"
        "at.switch_page('lab_ui/screens/train/train.py').run()\n"
        "print(sorted({p['num_threads'] for p in threadpool_info()}))\n")
    assert last == "[1]", last


def test_the_router_freezes_the_imports_once_per_process():
    """gc.freeze() at every rerun also froze other sessions' pages and runs, and frozen garbage
    in a reference cycle is never collected: a class's server kept growing. In a fresh process:
    the first run freezes, later runs (with new objects alive) freeze nothing more."""
    last = _last_line_of_the_router_in_a_fresh_process(
        "import gc\n"
        "first = gc.get_freeze_count()\n"
        "alive = [[i] for i in range(50_000)]\n"
        "at.switch_page('lab_ui/screens/train/train.py').run()\n"
        "at.run()\n"
        "print(first, gc.get_freeze_count())\n")
    first, later = map(int, last.split())
    assert first > 100_000 and later <= first        # frozen objects may be freed, none added


def test_a_long_run_on_the_train_screen_takes_a_slot_and_gives_it_back(monkeypatch):
    """With the long-run line lowered to 0 s, the lesson's run goes through a slot and is
    trained in a worker process: the figures are the same and the slot is free again
    afterwards."""
    from streamlit.testing.v1 import AppTest
    import lab_ui.server.jobs
    from tests.app.conftest import APP, metric
    from lab_ui.server.runs import run_cache

    taken = []
    real = lab_ui.server.jobs.JobSlots.acquire

    def spy(self, *a, **k):
        taken.append(self)
        return real(self, *a, **k)

    import lab_ui.server.workers
    in_worker, real_call = [], lab_ui.server.workers.call

    def call(fn, *a, **k):
        in_worker.append(f"{fn.__module__}.{fn.__name__}")
        return real_call(fn, *a, **k)

    monkeypatch.setattr(lab_ui.server.jobs, "LONG_RUN_SECONDS", 0.0)
    monkeypatch.setattr(lab_ui.server.jobs.JobSlots, "acquire", spy)
    monkeypatch.setattr(lab_ui.server.workers, "call", call)
    run_cache().clear()
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"train_seed": "12345"})     # a setting no other test has cached
    at.run()
    at.switch_page("lab_ui/screens/train/train.py").run()
    assert not at.exception
    assert taken, "the run did not ask for a long-run slot"
    assert taken[-1].running == 0 and taken[-1].waiting == 0
    assert "core.run.run" in in_worker, "the long run was not trained in a worker process"
    from bench.classroom import expected
    assert (metric(at, "loss, step 0"), metric(at, "loss, step 3,000")) == expected(4, 2, 12345)


class _Placeholder:
    """Records what ``heavy_slot`` shows in its placeholder (an ``st.empty()`` on screen)."""

    def __init__(self):
        self.shown: list[str] = []

    def info(self, text, icon=None):
        self.shown.append(text)

    def empty(self):
        self.shown.append("")


def test_a_waiting_long_run_shows_its_place_in_the_queue_then_starts(monkeypatch):
    import lab_ui.server.jobs
    from lab_ui.server.jobs import heavy_slot

    slots = JobSlots(1)
    monkeypatch.setattr(lab_ui.server.jobs, "job_slots", lambda: slots)
    held = slots.acquire()                           # another student's long run holds the slot
    box, ran = _Placeholder(), threading.Event()

    def student():
        with heavy_slot(box):
            ran.set()

    t = threading.Thread(target=student)
    t.start()
    deadline = time.monotonic() + 5
    while not box.shown and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not ran.is_set()
    assert box.shown[0].startswith("The server is busy with 1 long run from other students.")
    assert "(you are next)" in box.shown[0]
    slots.release(held)
    t.join(5)
    assert ran.is_set() and box.shown[-1] == ""      # the notice is cleared when the run starts
    assert slots.running == 0


def test_a_long_run_computes_in_a_worker_and_gives_its_slot_back(monkeypatch):
    import lab_ui.server.jobs
    from lab_ui.server import workers
    from lab_ui.server.jobs import heavy_slot
    from tests import worker_helpers

    slots = JobSlots(1)
    monkeypatch.setattr(lab_ui.server.jobs, "job_slots", lambda: slots)
    with heavy_slot():
        assert slots.running == 1
        assert workers.call(worker_helpers.pid, stoppable=False) != os.getpid()
    assert slots.running == 0
    with pytest.raises(ValueError, match="no words"):
        with heavy_slot():
            workers.call(worker_helpers.raises, "no words", stoppable=False)
    assert slots.running == 0


def test_a_word2vec_run_stops_when_its_tab_closes(monkeypatch):
    """The big-text run is watched from a thread outside the script: it asks by the
    session's id whether the tab is still there, and stops (in its worker) when not."""
    from core.run import RunRequest
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs

    gone_sessions = set()
    monkeypatch.setattr(runs, "session_gone", lambda session: session in gone_sessions)
    text = "\n".join(["the cat sat on the mat the dog sat on the log"] * 4000)
    job = runs.LongRun(RunRequest("word2vec", text, Word2VecConfig(d_model=10, epochs=20, min_count=1)),
                       44_000 * 20, slots=JobSlots(1), session="tab-1")
    job.start()
    deadline = time.monotonic() + 60
    while job.done == 0 and not job.finished.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not job.finished.is_set(), "the run ended before the tab could close"
    gone_sessions.add("tab-1")                      # the student closes the tab
    assert job.finished.wait(30)
    assert job.error is None and job.result.stopped and job.result.words_done < job.total
    assert job.stop.is_set()


def _start_page(texts: tuple[str, ...], n_words: int):
    """A page that starts one background word2vec run per text (as the big-text tab's button
    does) and says what the service answered."""
    import streamlit as st
    from core.run import RunRequest
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs
    for text in texts:
        job = runs.start(RunRequest("word2vec", text, Word2VecConfig(d_model=4, epochs=2, min_count=1)),
                         n_words, "demo_job")
        st.markdown(f"finished {job.finished.is_set()}, error {job.error}, cached "
                    f"{job.result is not None and job.result is runs.run_cache().get(job.request)}")


def _background_page(monkeypatch, texts: tuple[str, ...], n_words: int = 6):
    from streamlit.testing.v1 import AppTest
    import lab_ui.server.workers
    from lab_ui.server import runs
    started = []
    monkeypatch.setattr(lab_ui.server.workers, "call", lambda *a, **k: pytest.fail("nothing may train"))
    monkeypatch.setattr(runs.LongRun, "start", lambda self: started.append(self))
    at = AppTest.from_function(_start_page, args=(texts, n_words), default_timeout=30).run()
    assert not at.exception, [e.value for e in at.exception]
    return [m.value for m in at.markdown], started, at


def test_a_background_run_the_server_has_finished_before_comes_back_from_the_cache(monkeypatch):
    """runs.start looks in the one run cache first, keyed by the planned request: a word2vec
    run finished before (here: put there) is handed back finished, with no queue or worker."""
    import numpy as np
    from core.run import RunRequest, RunResult
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs

    text = "the cat sat\nthe dog sat\nunique background text 1"
    request = RunRequest("word2vec", text, Word2VecConfig(d_model=4, epochs=2, min_count=1))
    done = RunResult("word2vec", request.config, ["the", "sat"], np.zeros((2, 4)), np.zeros((2, 4)),
                     np.zeros(2), words_done=20)
    runs.run_cache().put(request, done)
    said, started, at = _background_page(monkeypatch, (text,))
    assert said == ["finished True, error None, cached True"] and started == []
    job = at.session_state["demo_job"]
    assert job.result is done and (job.done, job.total) == (20, 20)


def test_a_background_run_over_the_budget_trains_nothing_and_says_why(monkeypatch):
    """The budget's verdict is the service's too (core.run.estimate): 6,000,001 words x 2 epochs
    is over budget.MAX_WORDS_TO_READ, so nothing waits, nothing trains."""
    said, started, _ = _background_page(monkeypatch, ("a b c unique background text 2",), n_words=6_000_001)
    assert started == []
    assert said == ["finished True, error This run would read 12,000,002 words, more than the "
                    "12,000,000 one run may read on this shared machine., cached False"]


def test_one_background_run_per_tab_a_new_one_stops_the_old_one(monkeypatch):
    said, started, at = _background_page(monkeypatch, ("first unique text 3", "second unique text 3"))
    assert said == ["finished False, error None, cached False"] * 2
    first, second = started
    assert first.stop.is_set() and not second.stop.is_set()
    assert at.session_state["demo_job"] is second and first.owner == second.owner is not None


@pytest.mark.parametrize("room", [True, False])
def test_a_finished_background_run_is_kept_in_the_cache_when_it_is_small(monkeypatch, room):
    """A complete run goes into run_cache() for every session; one whose arrays and text take
    more than MAX_BACKGROUND_RUN_BYTES stays with its tab (it would push the class's runs out)."""
    from core.run import RunRequest
    from core.word2vec import Word2VecConfig
    from lab_ui.server import runs

    request = RunRequest("word2vec", f"the cat sat\nthe dog sat\nkept {room}",
                         Word2VecConfig(d_model=4, epochs=2, min_count=1))
    if not room:
        monkeypatch.setattr(runs, "MAX_BACKGROUND_RUN_BYTES", len(request.text))
    job = runs.LongRun(request, 16, slots=JobSlots(1))
    job.run()                                        # in this thread; the worker trains
    assert job.error is None and not job.result.stopped and job.done == job.total == job.result.words_done
    assert (runs.run_cache().get(request) is job.result) is room


def _two_stopped_runs(heavy: bool):
    """Two cold runs on one page, each with its own progress bar and Stop button (as the Train
    screen's run A and Compare's run B); each is stopped early as if its tab had closed."""
    import streamlit as st
    from core.run import RunRequest
    from core.skipgram import SkipGramConfig
    from lab_ui.server import runs
    # 300 different words: a step takes about half a millisecond, so no run can finish before the
    # Stopper's first look at the session (on a fast machine the lesson's 12 words could: 20,000
    # steps in under a second, and the run ended unstopped).
    text = " ".join(f"w{i % 300}" for i in range(3_000))
    for seed, stop_key in ((901 + 2 * heavy, "demo_a_stop"), (902 + 2 * heavy, "demo_b_stop")):
        r = runs.run(RunRequest("softmax", text, SkipGramConfig(d_model=32, steps=20_000, seed=seed), 2),
                     progress=st.empty(), stop_key=stop_key)
        st.markdown(f"{stop_key}: stopped {r.stopped} at step {len(r.losses) - 1}")


@pytest.mark.parametrize("heavy", [False, True])
def test_each_cold_run_has_its_own_bar_and_stop_button_and_stops_early(monkeypatch, heavy):
    """A long run (in a worker process) and a short one (in the script) alike: the bar says
    how far training got, a Stop button with the run's own key sits under it (two runs on one
    page do not clash), and the run stops early when asked."""
    from streamlit.testing.v1 import AppTest

    import lab_ui.server.guard
    import lab_ui.server.jobs
    import lab_ui.server.runs

    monkeypatch.setattr(lab_ui.server.runs, "QUIET_SECONDS", -1.0)           # every run shows its bar
    monkeypatch.setattr(lab_ui.server.jobs, "LONG_RUN_SECONDS", 0.0 if heavy else 1e9)
    monkeypatch.setattr(lab_ui.server.guard, "session_gone", lambda: True)   # stop at the first check
    at = AppTest.from_function(_two_stopped_runs, args=(heavy,), default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    assert [(b.key, b.label) for b in at.button] == [("demo_a_stop", "Stop training"),
                                                     ("demo_b_stop", "Stop training")]
    said = [m.value for m in at.markdown if m.value.startswith("demo_")]
    assert [s.split(":")[0] for s in said] == ["demo_a_stop", "demo_b_stop"]
    for line in said:
        assert "stopped True" in line and int(line.rsplit(" ", 1)[1]) < 20_000, line
    bars = [p.proto.text for p in at.get("progress")]
    assert len(bars) == 2 and all(re.fullmatch(r"Training: step [\d,]+ of 20,000, loss \d+\.\d{3}", t)
                                  for t in bars), bars
