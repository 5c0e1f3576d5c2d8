"""The Train screen's run plumbing, tested directly (no screen, no worker process):
the Stop button's hand-over of a stopped run (``lab_ui.server.runs``), the callback that stops a
run (``lab_ui.server.guard.Stopper``), the "has this tab gone away?" question (``lab_ui.server.jobs``)
and a worker's side of one job (``lab_ui.server.workers._one``), run in this process over pipes."""
from __future__ import annotations

import threading
import types
from dataclasses import dataclass, replace
from multiprocessing import Pipe

import numpy as np
import pytest
import streamlit as st
import streamlit.runtime as runtime
from streamlit.runtime.scriptrunner_utils.exceptions import RerunException

from core.corpus import Corpus
from core.run import RunRequest, plan
from core.skipgram import SkipGramConfig, train
from lab_ui.server import guard, jobs, runs, workers


# --- lab_ui.server.guard.Stopper ---------------------------------------------------------------

def test_resume_does_nothing_when_no_rerun_is_waiting():
    stopper = guard.Stopper()
    assert stopper.resume() is None
    assert stopper.pending is None


def test_resume_raises_the_rerun_streamlit_asked_for():
    stopper = guard.Stopper()
    request = RerunException(None)
    stopper.pending = request
    with pytest.raises(RerunException) as raised:
        stopper.resume()
    assert raised.value is request


def test_a_rerun_request_stops_the_run_and_is_kept(monkeypatch):
    request = RerunException(None)

    def check():
        raise request
    monkeypatch.setattr(guard, "get_run_yield_check", lambda: check)
    stopper = guard.Stopper()
    assert stopper(1, 0.5) is True
    assert stopper.pending is request


def test_the_progress_callback_and_the_session_check_run_every_n_calls(monkeypatch):
    seen, asked = [], []
    monkeypatch.setattr(guard, "get_run_yield_check", lambda: None)
    monkeypatch.setattr(guard, "session_gone", lambda: asked.append(1) or len(asked) >= 2)
    stopper = guard.Stopper(lambda step, value: seen.append((step, value)), every=3)
    answers = [stopper(step, step / 10) for step in range(1, 8)]
    assert seen == [(3, 0.3), (6, 0.6)]                 # calls 3 and 6 of 7
    assert answers == [False] * 5 + [True, True]        # gone from the 2nd check on, and kept
    assert stopper.gone is True
    assert guard.Stopper(every=0).every == 1            # never zero: every call reports


def test_streamlit_is_asked_at_the_first_call_then_at_most_every_check_seconds(monkeypatch):
    asked, lookups, now = [], [], [0.0]
    monkeypatch.setattr(guard, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(guard, "get_run_yield_check", lambda: lookups.append(1) or (lambda: asked.append(now[0])))
    stopper = guard.Stopper(every=1000, check_seconds=0.002)
    for t in (0.0, 0.0005, 0.0019, 0.002, 0.0039, 0.0041, 0.0042, 0.01):
        now[0] = t
        assert stopper(1, 0.5) is False
    assert asked == [0.0, 0.002, 0.0041, 0.01]          # 8 steps, 4 questions
    assert lookups == [1]                               # the script run's check, looked up once


def test_a_rerun_asked_for_between_two_checks_stops_the_run_at_the_next_check(monkeypatch):
    request, waiting, now = RerunException(None), [False], [0.0]

    def check():
        if waiting[0]:
            raise request
    monkeypatch.setattr(guard, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    monkeypatch.setattr(guard, "get_run_yield_check", lambda: check)
    stopper = guard.Stopper(check_seconds=0.002)
    assert stopper(1, 0.5) is False
    waiting[0] = True                                   # the user moved a slider
    now[0] = 0.001
    assert stopper(2, 0.5) is False                     # within 2 ms of the last question
    now[0] = 0.002
    assert stopper(3, 0.5) is True and stopper.pending is request


# --- lab_ui.server.jobs.session_gone -----------------------------------------------------------

def test_no_session_or_no_runtime_is_never_gone(monkeypatch):
    assert jobs.session_gone() is False                 # outside a script run: no session
    monkeypatch.setattr(runtime, "exists", lambda: False)
    monkeypatch.setattr(runtime, "get_instance", lambda: pytest.fail("no runtime to ask"))
    assert jobs.session_gone("abc") is False            # a session id, but no server


@pytest.mark.parametrize("active", [True, False])
def test_a_session_is_gone_when_the_server_no_longer_has_it(monkeypatch, active):
    asked = []
    server = types.SimpleNamespace(is_active_session=lambda s: asked.append(s) or active)
    monkeypatch.setattr(runtime, "exists", lambda: True)
    monkeypatch.setattr(runtime, "get_instance", lambda: server)
    assert jobs.session_gone("abc") is (not active)
    assert asked == ["abc"]


# --- lab_ui.server.runs: the Stop button and the stopped run's hand-over ------------------------

def test_the_stop_button_marks_the_run_as_held(monkeypatch):
    fake = types.SimpleNamespace(session_state={})
    monkeypatch.setattr(runs, "st", fake)
    runs._hold("train_stop")
    assert fake.session_state == {"train_stop_held": True}
    runs._PARTIALS.put("", (("k",), "partial"))
    runs.resume_training("train_stop")
    assert fake.session_state == {} and runs._PARTIALS.get("") is None
    runs.resume_training("train_stop")                  # nothing held: nothing to forget, no error
    assert fake.session_state == {}


def test_the_next_run_waits_for_the_stopped_runs_hand_over():
    key, result = ("text", 2, None, "config"), object()
    runs._PARTIALS.take("")
    late = threading.Timer(0.05, runs._PARTIALS.put, args=("", (key, result)))
    late.start()
    try:
        assert runs._wait_for_partial(key, seconds=30) is result
    finally:
        late.cancel()
        runs._PARTIALS.take("")


def test_a_stopped_run_of_other_settings_is_not_handed_over(monkeypatch):
    clock = iter([0.0, 0.0, 1.0, 2.5])                  # the deadline passes on the 3rd look
    monkeypatch.setattr(runs, "time", types.SimpleNamespace(monotonic=lambda: next(clock),
                                                            sleep=lambda s: None))
    runs._PARTIALS.put("", (("other",), "partial"))
    try:
        assert runs._wait_for_partial(("mine",), seconds=2.0) is None
    finally:
        runs._PARTIALS.take("")


def test_partials_keep_the_last_sessions_only():
    p = runs._Partials(size=2)
    for s in "abc":
        p.put(s, (s, s.upper()))
    assert p.get("a") is None and p.get("b") == ("b", "B") and p.take("c") == ("c", "C")
    assert p.get("c") is None
    p = runs._Partials()                                # by default the last 16 sessions
    for s in range(17):
        p.put(str(s), (s, s))
    assert p.get("0") is None and p.get("1") == (1, 1) and p.get("16") == (16, 16)


def test_the_run_cache_drops_the_least_recently_used_run_and_freezes_its_arrays():
    cache = runs.RunCache(max_entries=2)
    for k in "abc":
        cache.put(k, _Result(np.zeros(3)))
    assert len(cache) == 2 and cache.get("a") is None and cache.get("b") is not None
    assert cache.nbytes == 2 * 3 * 8
    assert not cache.get("c").vectors.flags.writeable


@dataclass
class _Result:
    vectors: np.ndarray


# --- lab_ui.server.workers._one: a worker's side of one job, in this process ----------------------

def _pipes():
    """(jobs, answers) as the worker sees them, and the server's ends."""
    jobs_in, jobs_out = Pipe(duplex=False)        # server -> worker
    answers_in, answers_out = Pipe(duplex=False)  # worker -> server
    return jobs_in, answers_out, jobs_out, answers_in


def _received(conn) -> list:
    out = []
    while conn.poll():
        out.append(conn.recv())
    return out


def test_progress_goes_out_at_most_every_report_interval(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(workers, "time", types.SimpleNamespace(monotonic=lambda: now[0]))
    monkeypatch.setattr(workers, "REPORT_SECONDS", 1.0)     # with exact quarters below

    def fn(n, callback):
        for step in range(1, n + 1):
            assert callback(step, step / 100) is False
            now[0] += 0.25                 # four calls per report interval
        return "result"

    jobs_r, answers_w, jobs_w, answers_r = _pipes()
    assert workers._one(7, fn, (9,), {}, True, jobs_r, answers_w) == ("done", "result", "")
    assert _received(answers_r) == [("progress", 1, 0.01), ("progress", 5, 0.05), ("progress", 9, 0.09)]


def test_a_stop_request_for_this_job_stops_the_run():
    jobs_r, answers_w, jobs_w, answers_r = _pipes()
    jobs_w.send(("stop", 6))                            # an older job's late request: ignored
    jobs_w.send(("stop", 7))
    seen = []

    def fn(callback):
        seen.append(callback(1, 2.0))
        return "partial"

    assert workers._one(7, fn, (), {}, True, jobs_r, answers_w) == ("done", "partial", "")
    assert seen == [True]
    assert _received(answers_r) == [("progress", 1, 2.0)]


def test_an_other_jobs_stop_request_does_not_stop_this_one():
    jobs_r, answers_w, jobs_w, answers_r = _pipes()
    jobs_w.send(("stop", 6))
    assert workers._one(7, lambda callback: callback(1, 2.0), (), {}, True, jobs_r, answers_w) == \
        ("done", False, "")


def test_a_run_that_cannot_stop_gets_no_callback_and_errors_come_back():
    jobs_r, answers_w, _, _ = _pipes()
    assert workers._one(1, lambda x, y=0: x + y, (2,), {"y": 3}, False, jobs_r, answers_w) == ("done", 5, "")
    kind, err, trace = workers._one(1, lambda x: 1 / x, (0,), {}, False, jobs_r, answers_w)
    assert kind == "error" and isinstance(err, ZeroDivisionError) and "ZeroDivisionError" in trace


def test_a_server_that_went_away_stops_the_run():
    jobs_r, answers_w, _, answers_r = _pipes()
    answers_r.close()
    answers_w.close()                                   # sending now raises OSError
    assert workers._one(1, lambda callback: callback(1, 0.0), (), {}, True, jobs_r, answers_w) == \
        ("done", True, "")


# --- lab_ui.server.runs.run: a run stopped early, and the Stop button's next run -------------

TEXT = "the cat sat on the mat and the dog sat on the log"


def _key(config):
    """The cache's key: the request as trained (core.run.plan)."""
    return plan(RunRequest("softmax", TEXT, config, 2)).request


@pytest.fixture
def clean_runs():
    runs.run_cache().clear()
    runs._PARTIALS.take("")
    st.session_state.pop("t_stop_held", None)
    yield
    runs.run_cache().clear()
    runs._PARTIALS.take("")
    st.session_state.pop("t_stop_held", None)


def test_a_run_stopped_early_is_kept_for_its_session_only(monkeypatch, clean_runs):
    config = SkipGramConfig(steps=400)
    monkeypatch.setattr(guard, "session_gone", lambda: True)      # the tab closed: stop at the first report
    r = runs.run(RunRequest("softmax", TEXT, config, 2))
    assert r.stopped and len(r.losses) < 400
    assert runs.run_cache().get(_key(config)) is None               # never cached for everybody
    assert runs._PARTIALS.get("") == (_key(config), r)
    monkeypatch.setattr(guard, "session_gone", lambda: False)
    full = runs.run(RunRequest("softmax", TEXT, config, 2))                          # not held: trained to the end
    expected = train(Corpus.from_text(TEXT, window=2), replace(config, snapshot_every=400 // 60))
    assert not full.stopped and (full.E == expected.E).all()
    assert runs._PARTIALS.get("") is None and runs.run_cache().get(_key(config)) is full


def test_the_stop_buttons_next_run_shows_the_stopped_run(clean_runs):
    config = SkipGramConfig(steps=300)
    partial = types.SimpleNamespace(stopped=True, cut=None)
    runs._PARTIALS.put("", (_key(config), partial))
    st.session_state["t_stop_held"] = True
    assert runs.run(RunRequest("softmax", TEXT, config, 2), stop_key="t_stop") is partial
    assert st.session_state.get("t_stop_held") is True               # still held until "train to the end"
    runs.resume_training("t_stop")
    r = runs.run(RunRequest("softmax", TEXT, config, 2), stop_key="t_stop")
    assert r is not partial and not r.stopped and len(r.losses) == 301


# --- lab_ui.server.jobs: the queue's words and a slot held for the body of a with -----------------

@pytest.mark.parametrize("place, running, words", [
    (1, 1, "busy with 1 long run from other students. Your run waits for a free slot (you are next)"),
    (3, 2, "busy with 2 long runs from other students. Your run waits for a free slot (2 ahead of you)"),
    (2, 0, "busy with 0 long runs from other students. Your run waits for a free slot (1 ahead of you)")])
def test_the_waiting_message_says_the_place_and_the_runs(place, running, words):
    assert words in jobs._waiting_text(place, running)


class _Placeholder:
    def __init__(self):
        self.calls = []

    def info(self, text, icon=None):
        self.calls.append(("info", text))

    def empty(self):
        self.calls.append(("empty",))


def test_a_slot_is_held_for_the_body_and_given_back_after_an_error(monkeypatch):
    slots = jobs.JobSlots(1)
    monkeypatch.setattr(jobs, "job_slots", lambda: slots)
    box = _Placeholder()
    with jobs.heavy_slot(box):
        assert slots.running == 1
    assert slots.running == 0 and box.calls == [("empty",)]
    with pytest.raises(ZeroDivisionError):
        with jobs.heavy_slot(None):
            raise ZeroDivisionError
    assert slots.running == 0


def test_a_waiting_run_shows_its_place_until_a_slot_is_free(monkeypatch):
    slots = jobs.JobSlots(1)
    monkeypatch.setattr(jobs, "job_slots", lambda: slots)
    monkeypatch.setattr(jobs, "session_gone", lambda: False)
    held = slots.acquire()                            # another student's long run
    box, entered = _Placeholder(), threading.Event()

    def waiter():
        with jobs.heavy_slot(box):
            entered.set()

    t = threading.Thread(target=waiter)
    t.start()
    while not box.calls:                              # it has reported its place at least once
        t.join(0.01)
    assert not entered.is_set()
    slots.release(held)
    t.join(30)
    assert entered.is_set() and slots.running == 0
    assert box.calls[0] == ("info", jobs._waiting_text(1, 1)) and box.calls[-1] == ("empty",)


def test_a_session_that_went_away_leaves_the_queue(monkeypatch):
    slots = jobs.JobSlots(1)
    monkeypatch.setattr(jobs, "job_slots", lambda: slots)
    monkeypatch.setattr(jobs, "session_gone", lambda: True)
    slots.acquire()
    with pytest.raises(jobs.Cancelled):
        with jobs.heavy_slot(_Placeholder()):
            pytest.fail("must not run")
    assert slots.waiting == 0 and slots.running == 1


def _a_lambda():
    return lambda: 0                                    # cannot be pickled


def _fails():
    raise KeyError("missing")


class _Unsendable(Exception):
    def __init__(self, text):
        super().__init__(text)
        self.hook = lambda: 0                           # this error cannot be pickled


def _fails_unsendably():
    raise _Unsendable("bad input")


def test_the_worker_loop_answers_each_job_and_ends_when_the_server_closes(monkeypatch):
    import operator

    import threadpoolctl
    limits = []
    monkeypatch.setattr(threadpoolctl, "threadpool_limits", lambda **kw: limits.append(kw))
    niced = []
    monkeypatch.setattr(workers.os, "nice", niced.append)     # not this test process
    jobs_r, answers_w, jobs_w, answers_r = _pipes()
    jobs_w.send(("stop", 0))                            # a late stop request: skipped
    jobs_w.send(("run", 1, operator.add, (2, 3), {}, False))
    jobs_w.send(("run", 2, _a_lambda, (), {}, False))
    jobs_w.send(("run", 3, _fails, (), {}, False))
    jobs_w.send(("run", 4, _fails_unsendably, (), {}, False))
    jobs_w.close()
    workers.serve(jobs_r, answers_w)                    # returns at the end of the pipe
    assert limits == [{"limits": 1}] and niced == [workers.WORKER_NICE]
    done, unsendable, failed, unsendable_error = _received(answers_r)
    # an error that cannot be sent back is named with its type and message, not called a result
    assert unsendable_error[0] == "error" and isinstance(unsendable_error[1], workers.WorkerError)
    assert str(unsendable_error[1]).startswith("The run's error (_Unsendable: bad input) could not be sent "
                                               "back from its worker process: ")
    assert "_Unsendable: bad input" in unsendable_error[2]      # the traceback still comes back
    assert done == ("done", 5, "")
    assert unsendable[0] == "error" and isinstance(unsendable[1], workers.WorkerError)
    assert "The run's result could not be sent back from its worker process" in str(unsendable[1])
    assert failed[0] == "error" and isinstance(failed[1], KeyError) and "KeyError: 'missing'" in failed[2]
