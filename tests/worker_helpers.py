"""Functions for tests/test_workers.py to run in a worker process (importable by name there,
no pytest, no Streamlit)."""
import os
import time
from pathlib import Path


def note_pid(where: str) -> None:
    Path(where).write_text(str(os.getpid()))


def ignores_stop(where: str, callback) -> None:
    """Reports progress but never stops when asked (a run stuck in one long step)."""
    note_pid(where)
    step = 0
    while True:
        step += 1
        callback(step, 0.0)
        time.sleep(0.01)


def sleeps(where: str, seconds: float) -> str:
    """A run that takes no callback."""
    note_pid(where)
    time.sleep(seconds)
    return "slept"


def raises(message: str):
    raise ValueError(message)


def dies(code: int):
    os._exit(code)


def unpicklable():
    return lambda: None


def pid() -> int:
    return os.getpid()


def niceness() -> int:
    return os.nice(0)


def blas_threads() -> list[int]:
    """The thread counts of the worker's BLAS/OpenMP pools."""
    import numpy  # noqa: F401
    from threadpoolctl import threadpool_info
    return sorted({p["num_threads"] for p in threadpool_info()})


def runs_until_stopped(where: str, callback) -> int:
    """A well-behaved long run: reports progress until asked to stop, then says so."""
    note_pid(where)
    step = 0
    while callback(step, 0.0) is not True:
        step += 1
        time.sleep(0.01)
    Path(where).write_text("stopped")
    return step
