"""Hostile inputs, user text: every helper that reads it is linear in its length, and what is
quoted back is bounded first.

A pattern with an unbounded repetition before and after an alternative
(``\\S*(?:@|://|www\\.|mailto:|xmpp:)\\S*``, in ``lab_ui.widgets.common.plain`` until this suite) tries
every start of a run without spaces: 32,000 characters took 8.9 s, a 60,000-letter word in the
word2vec "two meanings" list froze every session for 32 s, and a megabyte would take hours.
Each helper below runs on 100 KB and on 1 MB runs without spaces, in a child process (CPU time,
so a busy machine does not matter): ten times the text may cost at most ``RATIO`` times the
time (linear: about 10; quadratic: about 100)."""
import json
import subprocess
import sys
import textwrap

import pytest
from streamlit.testing.v1 import AppTest

from tests.conftest import ROOT

RATIO = 30
SMALL, BIG = 100_000, 1_000_000
UNITS = {           # a run without spaces: name -> the unit repeated into it
    "letters": "a", "digits": "7", "dots (www.)": "w.", "colon-slash (://)": ":/", "at signs": "a@",
    "backticks": "`", "markdown": "*_[", "hyphens (word joiners)": "a-", "accents": "é",
    "combining marks": "a\u0301", "CJK": "日本", "emoji": "🐱", "zero-width joiners": "a\u200d",
}
QUOTING = ("plain", "shortened")                      # every run
NUMBERS = ("read_number", "parse_vector", "parse_matrix", "parse_ids", "parse_whole")
WORDS = ("split_words", "text_changes", "text_size", "clean_text")
CASES = ([(h, u) for h in QUOTING for u in UNITS]
         + [(h, u) for h in NUMBERS for u in ("digits", "dots (www.)")]
         + [(h, u) for h in WORDS for u in ("hyphens (word joiners)", "combining marks", "CJK")])
CHILD = textwrap.dedent("""
    import json, sys, time
    from lab_ui.widgets.common import plain, shortened
    from lab_ui.lesson.exercises import read_number
    from lab_ui.widgets.parse import InputError, parse_ids, parse_matrix, parse_vector, parse_whole
    from core.bigtext import text_size
    from core.corpus import split_words, text_changes
    from core.tokenizer import clean_text

    HELPERS = {"plain": plain, "shortened": shortened, "read_number": read_number,
               "parse_vector": parse_vector, "parse_matrix": parse_matrix,
               "parse_ids": lambda t: parse_ids(t, 50_257), "parse_whole": lambda t: parse_whole(t, "n", 0, 9),
               "split_words": split_words, "text_changes": text_changes, "text_size": text_size,
               "clean_text": lambda t: clean_text(t, 20_000)}
    split_words("warm up")                   # the word rule's pattern is built once per process
    small, big = map(int, sys.argv[1:3])
    out = {}
    for helper, unit in json.loads(sys.stdin.read()):
        times = []
        for n in (small, big):
            text = (unit * n)[:n]
            start = time.process_time()
            try:
                HELPERS[helper](text)
            except InputError:
                pass
            times.append(time.process_time() - start)
        out[f"{helper} on {unit!r}"] = times
    print(json.dumps(out))
""")


def test_every_helper_that_reads_user_text_is_linear_on_megabyte_runs_without_spaces():
    try:
        done = subprocess.run([sys.executable, "-c", CHILD, str(SMALL), str(BIG)], input=json.dumps([(h, UNITS[u]) for h, u in CASES]),
                              capture_output=True, text=True, cwd=ROOT, timeout=900,
                              env={"PATH": "", "OPENBLAS_NUM_THREADS": "1"})
    except subprocess.TimeoutExpired:
        pytest.fail(f"the helpers did not finish {len(CASES)} megabytes of text in 15 minutes: something is not linear")
    assert done.returncode == 0, done.stderr[-2000:]
    times = json.loads(done.stdout.splitlines()[-1])
    assert len(times) == len(CASES)
    slow = {case: (round(small, 3), round(big, 3)) for case, (small, big) in times.items()
            if big > RATIO * max(small, 0.01) or big > 60}
    assert not slow, f"(seconds at {SMALL:,} and {BIG:,} characters) {slow}"


def test_a_long_word_is_quoted_as_its_start_and_its_length():
    from lab_ui.widgets.common import LONGEST_QUOTE, RUN_KEPT, plain, shortened

    word = "x" * 60_000
    out = plain(f"the word {word} has no vector")
    assert out == f"the word {'x' * RUN_KEPT}… \\(60,000 characters\\) has no vector"
    cell = "9" * 60_000 + "@"
    assert plain(f"row 1: {cell} is not a finite number") == (      # the "@" cut off: no link left
        f"row 1\\: {'9' * RUN_KEPT}… \\(60,001 characters\\) is not a finite number")
    text = "word " * 100_000
    short = shortened(text)
    assert len(short) < LONGEST_QUOTE + 100 and "(500,000 characters in all)" in short
    assert short.startswith("word word") and short.rstrip().endswith("word word")


def test_ordinary_text_is_quoted_unchanged():
    from lab_ui.widgets.common import plain, shortened

    text = "the cat sat on the mat, said alice@example.org at https://example.org/a?b=c"
    assert shortened(text) == text
    assert plain(text) == ("the cat sat on the mat, said ` alice@example.org ` at ` https://example.org/a?b=c `")


def _two_meanings(long_word: str) -> None:
    """The word2vec result view's "One vector, two meanings?" list, on a table where a
    120,000-letter word is one of bank's nearest neighbours."""
    import numpy as np
    import streamlit as st

    from core.word2vec import Word2VecResult
    from lab_ui.screens.train.bigtext_view import ambiguous_view

    rng = np.random.default_rng(0)
    vocab = ["bank", long_word] + [f"w{i}" for i in range(14)]
    E = rng.normal(size=(len(vocab), 8)).astype(np.float32)
    E[1] = E[0] + 0.01                                           # the long word: bank's nearest
    st.session_state["tables"] = True
    ambiguous_view(Word2VecResult(vocab=vocab, E=E, W=E.copy(), counts=np.ones(len(vocab), np.int64)))


def test_the_two_meanings_list_quotes_a_huge_word_at_once():
    """On main this view took 32 s for a 60,000-letter word with every session frozen (the
    time grows with the square of the word); here the list shows the word shortened."""
    at = AppTest.from_function(_two_meanings, args=("q" * 120_000,), default_timeout=60)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    lists = [m.value for m in at.markdown if m.value.startswith("**group")]
    assert len(lists) == 2 and any(f"{'q' * 60}… \\(120,000 characters\\)" in m for m in lists)
    assert all(len(m) < 1_000 for m in lists)


@pytest.mark.parametrize("n", [1, 50, 10_000])
def test_a_bounded_quote_still_escapes_everything(n):
    """Shortening happens before escaping: however long, no Markdown, HTML or directive gets
    through unescaped, and link-like runs sit in code spans (checked outside them here)."""
    import re

    from lab_ui.widgets.common import plain

    hostile = "[x](javascript:alert(1)) :red[big] $x$ <b>www.evil.org</b> " + "*_" * 150 + " "
    out = plain(hostile * n)
    outside = re.sub(r"` [^`]* `", "", out)
    assert "www.evil.org" not in outside
    bare = [m.start() for m in re.finditer(r"[][()<>:*_$]", outside) if outside[m.start() - 1] != "\\"]
    assert not bare, outside[:300]
