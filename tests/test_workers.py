"""Long runs in worker processes (lab_ui.server.workers): the same numbers as in-process, progress
and Stop across the process boundary, cancellation that really ends the worker, and errors
that come back as clear messages."""
import logging
import os
import time

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from core.corpus import GUIDE_TEXT, Corpus
from core.negsampling import NegSamplingConfig, compare_objectives
from core.skipgram import SkipGramConfig, train
from core.word2vec import Word2VecConfig, train_word2vec
from lab_ui.server import workers
from lab_ui.server.workers import Cancelled, Pool, WorkerError
from tests import worker_helpers as helpers


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def pid_in(path) -> int:
    deadline = time.monotonic() + 30
    while not path.exists() or not path.read_text():
        assert time.monotonic() < deadline, "the worker never started the run"
        time.sleep(0.01)
    return int(path.read_text())


@pytest.fixture
def pool():
    p = Pool(max_idle=1)
    yield p
    p.close()


def test_a_skipgram_run_in_a_worker_gives_the_same_numbers_as_in_process(pool):
    text = " ".join(f"w{i % 97}" for i in range(0, 2000, 7))       # 97 words, as a pasted text
    for corpus, config in [(Corpus.from_text(GUIDE_TEXT, window=2), SkipGramConfig()),
                           (Corpus.from_text(text, window=3), SkipGramConfig(d_model=6, steps=400, seed=3,
                                                                             snapshot_every=20))]:
        with threadpool_limits(limits=1):           # as on the server, and in the worker
            here = train(corpus, config)
        there = pool.call(train, corpus, config)
        assert np.array_equal(here.losses, there.losses)
        assert np.array_equal(here.E, there.E) and np.array_equal(here.W, there.W)
        assert np.array_equal(here.snapshot_steps, there.snapshot_steps)
        assert all(np.array_equal(a, b) for a, b in zip(here.snapshots, there.snapshots))
        assert not there.stopped


def test_word2vec_and_the_objective_comparison_in_a_worker_give_the_same_numbers(pool):
    sentences = [["the", "cat", "sat", "on", "the", "mat"], ["the", "dog", "sat", "on", "the", "log"]] * 30
    config = Word2VecConfig(d_model=8, epochs=3, min_count=1, seed=2)
    here, there = train_word2vec(sentences, config), pool.call(train_word2vec, sentences, config)
    assert here.vocab == there.vocab and np.array_equal(here.E, there.E)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2)
    args = (corpus, SkipGramConfig(steps=200), NegSamplingConfig(epochs=5))
    with threadpool_limits(limits=1):
        a = compare_objectives(*args)
    b = pool.call(compare_objectives, *args, stoppable=False)
    assert (a.softmax_loss, a.negsampling_loss) == (b.softmax_loss, b.negsampling_loss)


def test_a_worker_uses_one_blas_thread(pool):
    """A BLAS thread per core for every product made a 300-word run 20x slower beside a
    busy class; the limit must reach the BLAS the worker actually loaded."""
    assert pool.call(helpers.blas_threads, stoppable=False) == [1]


def test_a_worker_runs_nicer_than_the_server(pool):
    """Long runs are background work: on a busy machine the class's light reruns come first."""
    assert pool.call(helpers.niceness, stoppable=False) == min(19, os.nice(0) + workers.WORKER_NICE)


def test_progress_reaches_the_caller_and_stop_returns_the_partial_run(pool):
    corpus, seen = Corpus.from_text(GUIDE_TEXT, window=2), []

    def callback(step, loss):
        seen.append((step, loss))
        return step > 0                          # Stop pressed once training has begun

    result = pool.call(train, corpus, SkipGramConfig(steps=20_000), callback=callback)
    assert result.stopped and 1 < len(result.losses) < 20_001
    reported = [(s, v) for s, v in seen if s > 0]
    assert reported and reported[0][1] == pytest.approx(result.losses[reported[0][0]])
    assert len(pool._idle) == 1                 # a run that stopped leaves a healthy worker


def test_a_worker_is_reused_and_the_idle_ones_are_bounded():
    p = Pool(max_idle=1)
    try:
        first, second = p.call(helpers.pid, stoppable=False), p.call(helpers.pid, stoppable=False)
        assert first == second and len(p._idle) == 1
    finally:
        p.close()
    assert gone(first)


def test_a_run_that_does_not_stop_when_asked_is_terminated(pool, tmp_path):
    where = tmp_path / "pid"
    started = time.monotonic()
    with pytest.raises(Cancelled, match="did not stop within 0.3 s"):
        pool.call(helpers.ignores_stop, str(where), callback=lambda step, value: step > 3, grace=0.3)
    assert time.monotonic() - started < 20
    pid = pid_in(where)
    assert gone(pid), "the worker still runs"
    assert pool._idle == []                     # an ended worker is not handed out again
    assert pool.call(helpers.pid, stoppable=False) != pid        # the next run gets a new worker


def test_leaving_by_an_exception_ends_the_worker(pool, tmp_path):
    """Streamlit stops a script by raising inside it (here: inside the progress callback)."""
    class Interrupted(Exception):
        pass

    where = tmp_path / "pid"

    def callback(step, value):
        if step > 3:
            raise Interrupted
        return False

    with pytest.raises(Interrupted):
        pool.call(helpers.ignores_stop, str(where), callback=callback)
    assert gone(pid_in(where))


def test_a_run_without_a_callback_is_terminated_at_once_when_stopped(pool, tmp_path):
    where = tmp_path / "pid"
    started = time.monotonic()
    with pytest.raises(Cancelled, match="^the run was stopped$"):      # its reason, for the log
        pool.call(helpers.sleeps, str(where), 60, stoppable=False, callback=lambda s, v: where.exists())
    assert time.monotonic() - started < 30
    assert gone(pid_in(where))
    assert pool.call(helpers.sleeps, str(where), 0, stoppable=False) == "slept"


def test_an_error_in_the_worker_comes_back_with_its_type_and_message(pool, caplog):
    with caplog.at_level(logging.ERROR, logger="lab_ui.server.workers"):
        with pytest.raises(ValueError, match="^This text has no words.$"):
            pool.call(helpers.raises, "This text has no words.", stoppable=False)
    assert "worker_helpers.py" in caplog.text and "raises" in caplog.text   # the worker's traceback, logged
    assert pool.call(helpers.pid, stoppable=False) > 0           # the worker is still usable


def test_a_worker_that_dies_is_a_clear_error_and_the_next_run_gets_a_new_one(pool):
    with pytest.raises(WorkerError, match=r"ended without an answer \(exit code 3\)"):
        pool.call(helpers.dies, 3, stoppable=False)
    assert pool.call(helpers.sleeps, os.devnull, 0, stoppable=False) == "slept"


def test_a_result_that_cannot_be_sent_back_is_a_clear_error(pool):
    with pytest.raises(WorkerError, match="result could not be sent back"):
        pool.call(helpers.unpicklable, stoppable=False)


def test_the_module_level_call_uses_the_servers_pool(monkeypatch):
    seen = []
    monkeypatch.setattr(workers.POOL, "call", lambda fn, *a, **k: seen.append((fn, a, k)) or "ok")
    assert workers.call(helpers.pid, 1, stoppable=False) == "ok"
    assert seen == [(helpers.pid, (1,), {"callback": None, "stoppable": False,
                                          "grace": workers.STOP_GRACE_SECONDS})]


def test_a_worker_whose_server_has_gone_stops_its_run_and_exits(tmp_path):
    """The server process ends (or is killed) while a long run computes: the worker notices
    at its next progress report, stops, and exits instead of computing for nobody."""
    where = tmp_path / "pid"
    worker = workers.Worker()
    try:
        worker.jobs.send(("run", 1, helpers.runs_until_stopped, (str(where),), {}, True))
        pid_in(where)
        worker.jobs.close()
        worker.answers.close()                      # what the server's exit does to the pipes
        assert worker.proc.wait(20) == 0
        assert where.read_text() == "stopped"
    finally:
        worker.end()
