"""Chart files (PNG, SVG) drawn where the drawing library cannot take the server down with it.

vl-convert (Rust, with its own JavaScript engine) does not raise on a chart whose text holds a
character that XML 1.0 forbids (U+0000 to U+0008, U+000B, U+000C, U+000E to U+001F, lone
surrogates, U+FFFE, U+FFFF): it *aborts the process* (exit code 134). In the server that ended
every student's session at once, from one label in an uploaded ``metadata.tsv``. Two defences:

* ``clean(spec)``: every string of the spec (keys too) has those characters replaced by
  U+FFFD, the character a reader shows for "something unreadable was here", before it is drawn;
* ``draw_file(spec, kind)``: the conversion runs in a worker process (``lab_ui.server.workers``), one
  export at a time, at most ``TIME_LIMIT`` seconds. If vl-convert still aborts or hangs, only
  that process ends; the caller gets ``ChartFileError`` (the button then says the file could
  not be made) and the next export starts a fresh worker.

One worker is kept waiting between exports, so a file costs what vl-convert costs plus the
pipe (``python -m bench.hostile`` measures both ways). No Streamlit here: the worker
imports this module to find ``draw``.
"""
from __future__ import annotations

import re
import threading
import time

from lab_ui.server.workers import Cancelled, Pool, WorkerError

NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""The characters XML 1.0 does not allow in a document (one class: linear in the text)."""
KINDS = ("png", "svg")
TIME_LIMIT = 120.0
"""Seconds an export may take, waiting for the drawing worker included. A slide-sized chart
takes well under a second once the worker is warm, but the first one starts vl-convert's
JavaScript engine in a worker of low CPU priority (``lab_ui.server.workers.WORKER_NICE``): on the
2-core test machine at a load of 20 that took more than 30 s. The limit only ends a drawing
that hangs; waiting for it holds no lock the class needs."""
PNG_SCALE = 2                # pixels per CSS pixel: sharp on a slide

_EXPORTS = Pool(max_idle=1)  # the drawing worker, apart from the long runs' workers and slots
_ONE_AT_A_TIME = threading.Semaphore(1)   # a class pressing PNG together starts one process, not 40


class ChartFileError(RuntimeError):
    """The file could not be drawn (the drawing process failed, or took too long)."""


def clean(node):
    """``node`` (a Vega-Lite spec, or any part of one) with every character XML forbids
    replaced by U+FFFD, in keys and values alike.

    >>> clean({"title": "a\\x00b", "data": [{"la\\x0bbel": "\\ufffe"}], "n": 3})
    {'title': 'a\\ufffdb', 'data': [{'la\\ufffdbel': '\\ufffd'}], 'n': 3}
    """
    if isinstance(node, str):
        return NOT_XML.sub("\ufffd", node)
    if isinstance(node, dict):
        return {clean(k): clean(v) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        return [clean(v) for v in node]
    return node


def draw(spec: dict, kind: str) -> bytes | str:
    """The file itself (PNG bytes or SVG text), drawn by vl-convert in *this* process: the
    drawing worker calls it; the server calls ``draw_file``."""
    import vl_convert
    if kind == "png":
        return vl_convert.vegalite_to_png(spec, scale=PNG_SCALE)
    if kind == "svg":
        return vl_convert.vegalite_to_svg(spec)
    raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")


def draw_file(spec: dict, kind: str, time_limit: float = TIME_LIMIT) -> bytes | str:
    """``draw(clean(spec), kind)`` in the drawing worker, within ``time_limit`` seconds."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
    return in_worker(draw, clean(spec), kind, time_limit=time_limit)


def in_worker(fn, *args, time_limit: float = TIME_LIMIT):
    """``fn(*args)`` in the drawing worker (``fn`` importable by name); ``ChartFileError`` if
    the worker dies or the call (its wait for the worker included) passes ``time_limit``."""
    deadline = time.monotonic() + time_limit
    if not _ONE_AT_A_TIME.acquire(timeout=time_limit):
        raise ChartFileError(f"The chart file could not be made within {time_limit:g} s: "
                             "other files were being drawn.")
    try:
        return _EXPORTS.call(fn, *args, stoppable=False,
                             callback=lambda step, value: time.monotonic() > deadline)
    except Cancelled:
        raise ChartFileError(f"The chart file took longer than {time_limit:g} s and was abandoned.") from None
    except WorkerError as err:
        raise ChartFileError(f"The chart file could not be drawn: {err}") from None
    finally:
        _ONE_AT_A_TIME.release()
