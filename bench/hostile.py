"""The hostile inputs of tests/robust/test_hostile_*.py, counted: what each surface was given and
what happened, and what a chart file costs now that it is drawn in a worker process.

    python -m bench.hostile            (about 2 minutes on an idle 2-core machine)

Each input is classified as a *process abort* (the process that handled it died), a *freeze*
(it held the interpreter more than FREEZE_SECONDS of CPU time), a *crash* (an exception where
a screen would show "This app has encountered an error"), a *silent wrong result* (an output
that fails its check: not a PNG/SVG, a suggestion the control does not offer, a box without
the guard's limit), or fine. The chart files are drawn in a child process per character
class, which stands in for the server: the table counts that child's death as an abort.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bench.machine import load

ROOT = Path(__file__).resolve().parents[1]
ENV = dict(os.environ)
FREEZE_SECONDS = 5.0
EXPORT = textwrap.dedent("""
    import json, sys, time
    import streamlit as st
    from lab_ui.lesson import handout
    pressed = {}
    st.download_button = lambda label, data, **kw: pressed.__setitem__(label, data)
    ch = json.loads(sys.stdin.read())
    labels = ["cat", "d" + ch + "og", ch]
    chart = {"title": "t " + ch, "mark": "text", "data": {"values": [{"x": i, "w": w} for i, w in enumerate(labels)]},
             "encoding": {"x": {"field": "x", "type": "quantitative"}, "text": {"field": "w"}}}
    handout.chart_files(chart, "k")
    out = {}
    for kind in ("PNG", "SVG"):
        start = time.process_time()
        try:
            f = pressed[kind]()
            ok = f[:8] == b"\\x89PNG\\r\\n\\x1a\\n" if kind == "PNG" else f.lstrip().startswith("<svg")
            out[kind] = ["fine" if ok else "wrong", time.process_time() - start]
        except Exception as err:
            out[kind] = ["crash: " + type(err).__name__, time.process_time() - start]
    print(json.dumps(out))
""")


def exports() -> list[str]:
    from tests.robust.test_hostile_exports import HOSTILE
    outcomes = []
    for ch in HOSTILE.values():
        done = subprocess.run([sys.executable, "-c", EXPORT], input=json.dumps(ch), capture_output=True,
                              text=True, cwd=ROOT, env=ENV, timeout=300)
        if done.returncode != 0:
            outcomes += ["abort", "abort"]
            continue
        for kind, seconds in json.loads(done.stdout.splitlines()[-1]).values():
            outcomes.append("freeze" if seconds > FREEZE_SECONDS else kind.split(":")[0])
    return outcomes


def text_helpers() -> list[str]:
    from tests.robust.test_hostile_text import BIG, CASES, CHILD, UNITS
    done = subprocess.run([sys.executable, "-c", CHILD, "1", str(BIG)],
                          input=json.dumps([(h, UNITS[u]) for h, u in CASES]), capture_output=True,
                          text=True, cwd=ROOT, env=ENV, timeout=1800)
    if done.returncode != 0:
        return ["abort"] * len(CASES)
    times = json.loads(done.stdout.splitlines()[-1]).values()
    return ["freeze" if big > FREEZE_SECONDS else "fine" for _, big in times]


def word_counts() -> list[str]:
    from core.bigtext import EPOCH_CHOICES, suggested_epochs
    counts = list(range(0, 400_001, 10)) + list(range(400_000, 5_000_001, 1_000))
    return ["fine" if suggested_epochs(n) in EPOCH_CHOICES else "crash" for n in counts]


def text_boxes() -> list[str]:
    from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT, TEXT_INPUT_LIMIT
    from tests.robust.test_hostile_screens import _text_box_calls, _value
    out = []
    for path, tree, node, limit in _text_box_calls():
        most = TEXT_AREA_LIMIT if node.func.attr == "text_area" else TEXT_INPUT_LIMIT
        out.append("fine" if limit is not None and 0 < _value(path, tree, limit) <= most else "freeze")
    return out


def export_cost(repeats: int = 5) -> list[tuple[str, float, float]]:
    """Seconds per file, in the server's own process (as before) and through the worker."""
    import vl_convert

    from lab_ui.server.chart_files import draw_file
    spec = {"mark": "point", "data": {"values": [{"x": i, "y": i * i % 17} for i in range(300)]},
            "encoding": {"x": {"field": "x", "type": "quantitative"}, "y": {"field": "y", "type": "quantitative"}},
            "width": 640, "height": 400}
    rows = []
    for name, fn in (("in the server (before)", lambda k: vl_convert.vegalite_to_png(spec, scale=2)
                      if k == "png" else vl_convert.vegalite_to_svg(spec)),
                     ("in the worker (now)", lambda k: draw_file(spec, k))):
        for kind in ("png", "svg"):
            start = time.perf_counter()
            fn(kind)
            first = time.perf_counter() - start
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                fn(kind)
                times.append(time.perf_counter() - start)
            rows.append((f"{name}, {kind.upper()}", first, sorted(times)[len(times) // 2]))
    return rows


def main() -> None:
    print(f"load averages at start: {load()}")
    surfaces = {"chart files (PNG, SVG) x 11 character classes": exports(),
                "text helpers on 1 MB runs without spaces": text_helpers(),
                "own text word counts 0 to 5 million (Epochs)": word_counts(),
                "free-text boxes (paste guard)": text_boxes()}
    print(f"\n{'surface':<48} {'inputs':>7} {'aborts':>7} {'freezes':>8} {'crashes':>8} {'wrong':>6}")
    for name, outcomes in surfaces.items():
        print(f"{name:<48} {len(outcomes):>7,} {outcomes.count('abort'):>7} {outcomes.count('freeze'):>8} "
              f"{outcomes.count('crash'):>8} {outcomes.count('wrong'):>6}")
    print(f"\n{'chart file':<32} {'first s':>8} {'median s':>9}")
    for name, first, median in export_cost():
        print(f"{name:<32} {first:>8.3f} {median:>9.3f}")
    print(f"load averages at end: {load()}")


if __name__ == "__main__":
    main()
