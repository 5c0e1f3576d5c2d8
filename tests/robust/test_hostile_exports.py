"""Hostile inputs, chart files: no character in a chart's text can end the server.

vl-convert aborts its whole process (exit code 134, not an exception) on a character XML 1.0
forbids. Each class below is fed to both file buttons (PNG and SVG) of a chart, inside a child
Python process that stands in for the server: the test fails if that process dies. The abort
itself is shown by ``test_vl_convert_itself_still_aborts``, so the suite notices the day the
library stops needing the defence (and that its check is real)."""
import json
import subprocess
import sys
import textwrap
import time

import pytest

from tests.conftest import ROOT

# name -> a character of that class (every class the hostile pass tried, and the rest of XML's list)
HOSTILE = {
    "U+0000 (NUL)": "\x00", "U+0001": "\x01", "U+0008 (backspace)": "\x08",
    "U+000B (vertical tab)": "\x0b", "U+000C (form feed)": "\x0c", "U+000E": "\x0e",
    "U+001F": "\x1f", "U+FFFE (non-character)": "\ufffe", "U+FFFF (non-character)": "\uffff",
    "U+D800 (lone high surrogate)": "\ud800", "U+DFFF (lone low surrogate)": "\udfff",
}
SERVER = textwrap.dedent("""
    import json, sys
    import streamlit as st
    from lab_ui.lesson import handout

    pressed = {}
    st.download_button = lambda label, data, **kw: pressed.__setitem__(label, data)
    out = {}
    for name, ch in json.loads(sys.stdin.read()).items():
        labels = ["cat", "d" + ch + "og", ch, "mat"]
        chart = {"title": "title " + ch, "mark": "text", "width": "container",
                 "data": {"values": [{"x": i, "y": i * i, "word": w} for i, w in enumerate(labels)]},
                 "encoding": {"x": {"field": "x", "type": "quantitative", "title": "x " + ch},
                              "y": {"field": "y", "type": "quantitative"}, "text": {"field": "word"}}}
        handout.chart_files(chart, "hostile")
        png, svg = pressed["PNG"](), pressed["SVG"]()
        out[name] = [png[:8].hex(), svg.lstrip()[:4], "d\\ufffdog" in svg]
    print(json.dumps(out))
""")


def as_json(chars: dict[str, str]) -> str:
    """Lone surrogates cannot be encoded as UTF-8: send every character as a JSON escape."""
    return json.dumps(chars, ensure_ascii=True)


def test_every_character_class_in_both_chart_files_leaves_the_server_running():
    done = subprocess.run([sys.executable, "-c", SERVER], input=as_json(HOSTILE), capture_output=True,
                          text=True, cwd=ROOT, env={"PATH": ""},
                          timeout=600)
    assert done.returncode == 0, f"the server process ended with exit code {done.returncode}: {done.stderr[-2000:]}"
    drawn = json.loads(done.stdout.splitlines()[-1])
    assert sorted(drawn) == sorted(HOSTILE)
    for name, (png_magic, svg_start, replaced) in drawn.items():
        assert png_magic == b"\x89PNG\r\n\x1a\n".hex(), name
        assert svg_start == "<svg" and replaced, name          # the label drawn, with U+FFFD in place


def test_vl_convert_itself_still_aborts():
    """The reason for the defences, reproduced in a throwaway process: one raw NUL in a label."""
    raw = textwrap.dedent("""
        import vl_convert
        vl_convert.vegalite_to_svg({"data": {"values": [{"t": "a\\x00b"}]}, "mark": "text",
                                    "encoding": {"text": {"field": "t"}}})
    """)
    done = subprocess.run([sys.executable, "-c", raw], capture_output=True, timeout=300)
    assert done.returncode != 0


def test_an_abort_in_the_drawing_worker_is_a_message_and_the_next_file_is_drawn():
    """The second defence alone: a spec that bypasses ``clean`` kills only the drawing worker."""
    from lab_ui.server import chart_files

    raw = {"data": {"values": [{"t": "a\x00b"}]}, "mark": "text", "encoding": {"text": {"field": "t"}}}
    with pytest.raises(chart_files.ChartFileError, match="could not be drawn"):
        chart_files.in_worker(chart_files.draw, raw, "svg")
    assert chart_files.draw_file(raw, "svg").lstrip().startswith("<svg")      # cleaned: drawn


def test_a_drawing_that_hangs_is_abandoned_at_the_time_limit():
    from lab_ui.server import chart_files

    start = time.monotonic()
    with pytest.raises(chart_files.ChartFileError, match="longer than 1 s"):
        chart_files.in_worker(time.sleep, 60, time_limit=1.0)
    assert time.monotonic() - start < 10


def test_clean_replaces_exactly_the_characters_xml_forbids():
    from lab_ui.server.chart_files import clean

    forbidden = {chr(c) for c in range(0x20) if chr(c) not in "\t\n\r"} | {"\ufffe", "\uffff"} \
        | {chr(c) for c in range(0xD800, 0xE000)}
    every = "".join(chr(c) for c in range(0x10000)) + "\U0001f600\U0010ffff"
    out = clean({"k" + every: [every]})
    (key, [value]), = out.items()
    assert key == "k" + value
    assert all((b == "\ufffd") == (a in forbidden or a == "\ufffd") for a, b in zip(every, value, strict=True))


def test_uploaded_labels_with_every_class_reach_every_chart_file_of_the_screen(monkeypatch):
    """10. Your own vectors, as the hostile pass used it: a metadata.tsv whose labels hold each
    class; every PNG and SVG button of the screen gives its file (or the label is refused with
    a message: then no chart holds it)."""
    import streamlit

    from tests.app.conftest import assert_clean, open_screen

    pressed = []
    real = streamlit.download_button

    def spy(label, data, *args, **kwargs):
        if label in ("PNG", "SVG"):
            pressed.append((label, data))
        return real(label, data, *args, **kwargs)

    monkeypatch.setattr(streamlit, "download_button", spy)
    labels = [f"w{i}{ch}x" for i, ch in enumerate(HOSTILE.values()) if not 0xD800 <= ord(ch) < 0xE000]
    labels += ["cat", "dog", "mat", "log"]
    vectors = "\n".join("\t".join(f"{((i * 7 + j * 3) % 11) - 5:.1f}" for j in range(4)) for i in range(len(labels)))
    at = open_screen("own_vectors")
    at.file_uploader(key="own_vectors").set_value(("vectors.tsv", vectors.encode(), "text/tab-separated-values")).run()
    at.file_uploader(key="own_metadata").set_value(("metadata.tsv", "\n".join(labels).encode(),
                                                    "text/tab-separated-values")).run()
    at.toggle(key="own_lesson").set_value(False).run()
    assert_clean(at)
    if not at.error:
        pressed.clear()
        at.run()
        assert len(pressed) >= 4, "every chart of the screen has its two file buttons"
        for label, make in pressed:
            out = make()
            assert out[:8] == b"\x89PNG\r\n\x1a\n" if label == "PNG" else out.lstrip().startswith("<svg")
