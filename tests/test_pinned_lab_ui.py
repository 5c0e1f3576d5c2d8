"""The UI helpers' sentences, figures and rules, pinned exactly (found by mutation testing,
docs/quality.md section 4). Each sentence is checked whole for one input per branch: the
numbers in it are the ones a student reads beside the chart, so a wrong figure, a swapped
comparison or a dropped clause fails here, without starting a screen."""
import numpy as np
import pytest

from lab_ui import captions

# --- captions: every branch, the whole sentence ---------------------------------------------


@pytest.mark.parametrize("x, digits, shown", [
    (100_000.4, 6, "100,000"), (999_999.5, 6, "1,000,000"), (1.5e18, 6, "1,500,000,000,000,000,000"),
    (12.345678, 4, "12.35"), (12.345678, 6, "12.3457"), (-0.5, 6, "-0.5"), (0.000123456789, 3, "0.000123"),
    (float("inf"), 6, "inf"), (float("nan"), 6, "nan"), (-38_597_376.0, 6, "-38,597,376"), (1.0, 6, "1"),
    (2.5, 6, "2.5"), (2.0000001, 6, "2"), (1234.0000001, 6, "1,234"),
])
def test_numbers_keep_their_zeros_and_their_digits(x, digits, shown):
    assert captions.number(x, digits) == shown


def test_number_defaults_to_six_significant_digits():
    assert captions.number(3.14159265) == "3.14159" and captions.number(0.123456789) == "0.123457"


def test_divergence_alert_in_full():
    text = captions.divergence(np.array([2.487, 2.469, 2.285, 6.795]), diverged_step=4, lr=50.0, factor=10.0)
    assert text == (      # issue 28: the loss fell for two updates first, so not "higher each time"
        "**Training blew up at step 4.** With learning rate 50 an update can overshoot: instead of "
        "stepping down into the valley of the loss, it jumps to the far side. The loss fell for the first "
        "2 updates (2.487 to 2.285); from update 3 on, each update overshot and landed higher than the one "
        "before. The loss went from 2.487 at step 0 to 6.795 at step 3; update 4 took it past 10 times its "
        "starting value (or made it stop being a number), so the app stopped the run there and shows the "
        "table as it was at step 3. **Try a smaller learning rate** (0.5 is the lesson's setting).")
    big = captions.divergence(np.linspace(2.5, 3.0, 1201), diverged_step=1201, lr=2.5, factor=10.0)
    assert "blew up at step 1,201" in big and "3.000 at step 1,200;" in big and "learning rate 2.5 " in big


def test_vectors_titles_in_full():
    assert captions.vectors_title(0) == "Cosine similarity of the starting vectors (no training yet)"
    assert captions.vectors_title(50) == "Cosine similarity of the trained vectors (after 50 steps)"
    assert captions.vectors_title(3000) == "Cosine similarity of the trained vectors (after 3,000 steps)"


def test_pca_readings_in_full():
    assert captions.pca_reading(2, np.array([0.62, 0.38])) == (
        "PCA lays the 2-number vectors flat along the directions in which they spread most (62% and 38% "
        "of the spread). Here the vectors have only this many numbers, so the picture keeps all of their "
        "spread: distances on the map are the real distances between the vectors.")
    assert captions.pca_reading(5, np.array([0.7, 0.2996, 0.0004])) == (
        "PCA lays the 5-number vectors flat along the directions in which they spread most (70% and 30% "
        "of the spread). Here the vectors happen to lie in a flat plane, so the picture keeps all of their "
        "spread: distances on the map are the real distances between the vectors.")
    assert captions.pca_reading(4, np.array([0.40, 0.30, 0.2, 0.1])) == (
        "PCA lays the 4-number vectors flat along the two directions in which they spread most: 40% and "
        "30% of the spread. The other 30% is lost, so two words can look close here and still be far apart.")
    # the threshold: 99.95% of the spread counts as all of it, 99.94% does not
    assert "keeps all" in captions.pca_reading(3, np.array([0.9, 0.0995]))
    assert "other 0.1% is lost" in captions.pca_reading(3, np.array([0.9, 0.0994]))     # not "0% is lost"


_OBJ = ("Both losses are the full-softmax cross-entropy of the final vectors, so they are on one scale. "
        "{speed} Its real saving is the middle column: it scores 6 words per pair instead of all 1,200. "
        "With GPT-2's 50,257 tokens that is about 8,376 times fewer.")


@pytest.mark.parametrize("sm, ns, speed", [
    (0.3, 0.1, "Here negative sampling was faster (0.100 s against 0.300 s for the full softmax)."),
    (0.1, 0.3, "Here negative sampling was slower (0.300 s against 0.100 s): on 1,200 words the full "
               "softmax is cheap, and the sampling and small batches cost more than they save."),
    (0.100, 0.105, "On 1,200 words both took about the same time (0.100 s and 0.105 s): the softmax over "
                   "so few words is cheap."),
    (1.1, 1.0, "On 1,200 words both took about the same time (1.100 s and 1.000 s): the softmax over "
               "so few words is cheap."),
    (0.9, 1.0, "On 1,200 words both took about the same time (0.900 s and 1.000 s): the softmax over "
               "so few words is cheap."),
    (1.2, 1.0, "Here negative sampling was faster (1.000 s against 1.200 s for the full softmax)."),
    (0.1, 0.0, "Here negative sampling was faster (0.000 s against 0.100 s for the full softmax)."),
])
def test_objectives_sentence_in_full(sm, ns, speed):
    assert captions.objectives(1200, sm, ns, 6) == _OBJ.format(speed=speed)


def test_order_verdicts_in_full():
    v = captions.order_verdict
    assert v("the cat".split(), "the cat".split(), True, 1.0) == (
        "same-sentence", "Same sentence, same vector: now change the order in one of them.")
    assert v("the cat saw the dog".split(), "the dog saw the cat".split(), True, 1.0) == (
        "collapsed", "**Identical vectors** (cosine 1.00), although the sentences differ. Both use the same "
        "words the same number of times, and an average only counts what share of the rows each word is.")
    assert v("dog cat".split(), "cat dog cat dog".split(), True, 0.999) == (
        "collapsed", "**Identical vectors** (cosine 1.00), although the sentences differ. Both use the same "
        "words in the same proportions (cat 1/2, dog 1/2 of the words in each), though not the same number "
        "of times (2 words against 4), and an average only counts what share of the rows each word is.")
    assert "(cat 1/1 of the words in each)" in v(["cat"], ["cat", "cat"], True, 1.0)[1]
    assert "(1 word against 2)" in v(["cat"], ["cat", "cat"], True, 1.0)[1]
    assert v("cat dog dog".split(), "dog cat cat".split(), False, 0.904) == (
        "different", "Different vectors (cosine 0.90): the sentences use the same words in different "
        "proportions (cat dog dog vs cat cat dog), so the averages weight the rows differently. Reorder "
        "the same words to see them collapse into one.")
    assert v("dog cat".split(), "cat bird".split(), False, 0.5) == (
        "different", "Different vectors (cosine 0.50): the sentences use different words (cat dog vs bird "
        "cat). Reorder the same words to see them collapse into one.")


_START = ("With std 1 the model starts confidently wrong: loss 4.00 at step 0, against 2.485 for a uniform "
          "guess; with std 0.1 every score starts near 0 and the loss starts at 2.480.")


@pytest.mark.parametrize("big, verdict", [
    ([4.0, 3.0, 2.1, 1.9], " At width 4, the std 1 curve drops below the std 0.1 curve at step 2 and stays "
                           "lower to the end."),
    ([4.0, 3.0, 2.1, 2.5], " At width 4, the std 1 curve drops below the std 0.1 curve at step 2 and ends "
                           "at 2.500 against 2.200."),
    # a tie at the end is not "lower to the end"
    ([4.0, 3.0, 2.1, 2.2], " At width 4, the std 1 curve drops below the std 0.1 curve at step 2 and ends "
                           "at 2.200 against 2.200."),
    ([4.0, 3.5, 3.0, 2.9], " At width 4, std 1 never catches up in 3 steps: it ends at 2.900, against 2.200 "
                           "for std 0.1, still worse than a uniform guess (2.485)."),
    ([4.0, 3.5, 3.0, 2.3], " At width 4, std 1 never catches up in 3 steps: it ends at 2.300, against 2.200 "
                           "for std 0.1."),
    ([4.0, 3.5, 3.0, 2.2], " At width 4, std 1 never catches up in 3 steps: it ends at 2.200, against 2.200 "
                           "for std 0.1."),
    # ending exactly at the uniform guess is not "worse than" it
    ([4.0, 3.5, 3.0, 2.485], " At width 4, std 1 never catches up in 3 steps: it ends at 2.485, against 2.200 "
                             "for std 0.1."),
])
def test_init_comparison_in_full(big, verdict):
    small = np.array([2.48, 2.4, 2.3, 2.2])
    assert captions.init_comparison(4, small, np.array(big), 0.1, 2.485) == _START + verdict


# --- token chips: the exact HTML, colours in order of first appearance ----------------------

def test_chips_html_escapes_marks_repeats_and_colours_in_order():
    from collections import namedtuple

    from lab_ui import chips

    Tok = namedtuple("Tok", "id text")
    html = chips.chips_html([Tok(5, "a<b"), Tok(7, " x\n\t\r"), Tok(5, "a<b")])
    assert html == chips.CSS + (
        '<div class="chips">'
        '<span class="chip repeat" style="background:#77AADD" title="id 5">a&lt;b<span class="id">5</span></span>'
        '<span class="chip" style="background:#EE8866" title="id 7">·x↵→␍<span class="id">7</span></span>'
        '<span class="chip repeat" style="background:#77AADD" title="id 5">a&lt;b<span class="id">5</span></span>'
        '</div>')
    colours = chips.colours_for([9, 3, 9, *range(100, 112)])
    assert list(colours) == [9, 3, *range(100, 112)]
    assert [colours[i] for i in (9, 3, 100, 109, 110, 111)] == [
        "#77AADD", "#EE8866", "#44BB99", "#CCDDAA", "#77AADD", "#EE8866"]     # the 13th wraps round


# --- jobs: the queue sentence and what counts as a long run ---------------------------------

def test_waiting_sentence_names_the_place_and_the_runs():
    from lab_ui.jobs import _waiting_text

    assert _waiting_text(1, 1) == ("The server is busy with 1 long run from other students. Your run waits "
                                   "for a free slot (you are next); it starts by itself.")
    assert _waiting_text(3, 2) == ("The server is busy with 2 long runs from other students. Your run waits "
                                   "for a free slot (2 ahead of you); it starts by itself.")


def test_a_long_run_is_one_the_budget_expects_to_take_over_a_second(monkeypatch):
    from core import budget
    from lab_ui import jobs

    monkeypatch.setattr(budget, "seconds", lambda work: work)
    assert jobs.is_long(1.01) and not jobs.is_long(1.0) and not jobs.is_long(0.2)


# --- exercises: reading typed numbers and the tolerance --------------------------------------

@pytest.mark.parametrize("typed, value", [
    ("12%", 12.0), ("1 000", 1000.0), ("-0,5", -0.5), ("38.597.376,5", 38597376.5), ("38_597_376", 38597376.0),
    ("1\u00a0234", 1234.0), ("1\u202f234", 1234.0), ("2,5e3", None), ("1" * 61, None), ("1" * 60, 1e59 * 1.1111111111111112),
    ("inf", None), ("nan", None), ("", None), ("0,960", 0.96), ("+1,234.5", 1234.5),
])
def test_read_number_cases(typed, value):
    from lab_ui.exercises import read_number

    got = read_number(typed)
    assert got == (pytest.approx(value, rel=1e-15) if value is not None else None)


def test_answers_are_right_within_the_larger_tolerance():
    from lab_ui.exercises import Exercise, is_right

    decimal = Exercise("k", "q", 2.0, "why")                # tolerance max(0.005, 0.005 * 2) = 0.01
    assert is_right(decimal, 2.0099) and is_right(decimal, 1.9901) and not is_right(decimal, 2.0101)
    assert not is_right(decimal, 1.9899)
    binary = Exercise("k", "q", 0.5, "why", rel_tol=0.0, abs_tol=0.25)   # exact in binary: the edge counts
    assert is_right(binary, 0.75) and is_right(binary, 0.25) and not is_right(binary, 0.75 + 2**-40)
    small = Exercise("k", "q", 0.1, "why")                  # tolerance max(0.005, 0.0005) = 0.005
    assert is_right(small, 0.105) and not is_right(small, 0.1051)
    count = Exercise("k", "q", 12, "why")
    assert count.is_count and is_right(count, 12.0) and not is_right(count, 12.001)
    forced = Exercise("k", "q", 12.0, "why", exact=True)
    assert forced.is_count and not is_right(forced, 12.001)
    assert not Exercise("k", "q", 12, "why", exact=False).is_count
    assert Exercise("k", "q", 1.0, "why").unit == "" and Exercise("k", "q", 1.0, "why").rel_tol == 0.005


# --- label layout: boxes, overlaps, the first free place -------------------------------------

def test_label_boxes_and_overlaps_exactly():
    from lab_ui.label_layout import _box, _hits, candidates, to_pixels

    assert _box(100, 50, 9, 0, "left", 30, 10) == (109, 45, 139, 55)
    assert _box(100, 50, -9, 0, "right", 30, 10) == (61, 45, 91, 55)
    assert _box(100, 50, 0, -18, "center", 30, 10) == (85, 27, 115, 37)
    a = (0, 0, 10, 10)
    assert _hits(a, (5, 5, 15, 15)) and _hits((5, 5, 15, 15), a)
    for touching in [(10, 0, 20, 10), (-10, 0, 0, 10), (0, 10, 10, 20), (0, -10, 10, 0)]:
        assert not _hits(a, touching) and not _hits(touching, a)
    assert candidates(20) == [(9.0, 0.0, "left"), (-9.0, 0.0, "right"), (0.0, -18.0, "center"),
                              (0.0, 18.0, "center"), (7.0, -18.0, "left"), (7.0, 18.0, "left"),
                              (-7.0, -18.0, "right"), (-7.0, 18.0, "right")]
    np.testing.assert_allclose(to_pixels(np.array([[0.0, 0.0], [1.0, 2.0]]), 100, 50),
                               [[0.08 / 1.16 * 100, (1 - 0.16 / 2.32) * 50], [1.08 / 1.16 * 100, (1 - 2.16 / 2.32) * 50]])
    np.testing.assert_allclose(to_pixels(np.array([[0.0, 0.0], [1.0, 2.0]]), 100, 50, domain=(-1, 3)),
                               [[25.0, 37.5], [50.0, 12.5]])
    np.testing.assert_allclose(to_pixels(np.array([[1.0, 1.0], [1.0, 1.0]]), 100, 50), [[50.0, 25.0]] * 2)


def test_labels_take_the_first_free_place_in_order():
    from lab_ui.label_layout import place

    # a point at the right edge cannot take the right-hand place, so its label goes left
    pts = np.array([[0.0, 0.0], [10.0, 0.0], [5.0, 10.0]])
    spots = place(pts, ["left", "rightmost", "top"], 300, 300, 15)
    assert spots == {0: (9.0, 0.0, "left"), 1: (-9.0, 0.0, "right"), 2: (9.0, 0.0, "left")}
    # two points on top of each other: the first in priority order is labelled, the other is left out
    twin = np.array([[0.0, 0.0], [0.0, 0.0], [9.0, 9.0]])
    assert sorted(place(twin, ["aaaa", "bbbb", "c"], 200, 200, 15, priority=[1])) == [1, 2]
    assert sorted(place(twin, ["aaaa", "bbbb", "c"], 200, 200, 15)) == [0, 2]
    # presenter mode: the left-out label goes to the right of its point anyway
    assert place(twin, ["aaaa", "bbbb", "c"], 200, 200, 15, label_all=True)[1] == (9.0, 0.0, "left")


# --- parse: whole numbers typed in a box, and every refusal in full ---------------------------

@pytest.mark.parametrize("typed, value", [
    ("1e6", 1_000_000), ("12,345", 12_345), ("1 000 000", 1_000_000), ("1_000", 1000), ("2.5e3", 2500),
    ("  42 ", 42), ("+7", 7), (".5e1", 5), ("1.", 1), ("0012", 12), ("0", 0), ("1E6", 1_000_000),
])
def test_parse_whole_reads_what_people_type(typed, value):
    from lab_ui.parse import parse_whole

    assert parse_whole(typed, "The seed", 0, 10**6) == value


@pytest.mark.parametrize("typed, message", [
    ("", "The seed is empty. Type a whole number from 0 to 1,000,000."),
    ("x" * 41, "The seed: 'xxxxxxxxxxxxxxxxxxxx…' is too long for a number from 0 to 1,000,000."),
    ("1.5", "The seed: '1.5' is not a whole number. Type a whole number from 0 to 1,000,000."),
    ("1e-3", "The seed: '1e-3' is not a whole number. Type a whole number from 0 to 1,000,000."),
    ("abc", "The seed: 'abc' is not a number. Type a whole number from 0 to 1,000,000."),
    ("1,23", "The seed: '1,23' is not a number. Type a whole number from 0 to 1,000,000."),
    ("-5", "The seed: '-5' is outside the range 0 to 1,000,000."),
    ("1000001", "The seed: '1000001' is outside the range 0 to 1,000,000."),
    ("123456789012345678901", "The seed: '12345678901234567890…' is outside the range 0 to 1,000,000."),
])
def test_parse_whole_refusals_in_full(typed, message):
    from lab_ui.parse import InputError, parse_whole

    with pytest.raises(InputError) as err:
        parse_whole(typed, "The seed", 0, 10**6)
    assert str(err.value) == message


def test_parse_whole_takes_both_ends_of_the_range_and_forty_characters():
    from lab_ui.parse import parse_whole

    assert parse_whole("0", "n", 0, 5) == 0 and parse_whole("5", "n", 0, 5) == 5
    assert parse_whole(" " + "0" * 39 + "5", "n", 0, 5) == 5            # 40 characters once stripped


def test_vector_and_matrix_refusals_in_full():
    from lab_ui.parse import InputError, parse_ids, parse_matrix, parse_vector

    cases = [(lambda: parse_vector(""), "The vector is empty. Type numbers separated by commas, e.g. 1, 2, 2."),
             (lambda: parse_vector("1, x"), "The vector: 'x' is not a number. Use digits like 1, -0.5 or 2e-3."),
             (lambda: parse_vector("nan"), "The vector: 'nan' is not a finite number; nan and inf cannot be used."),
             (lambda: parse_vector("-inf"), "The vector: '-inf' is not a finite number; nan and inf cannot be used."),
             (lambda: parse_vector("2e6"), "The vector: '2e6' is too large; keep entries between -1,000,000 and "
                                           "1,000,000."),
             (lambda: parse_matrix(" \n "), "The matrix is empty. Type one row per line, e.g. 1, 2 on the first "
                                            "line."),
             (lambda: parse_matrix("1 2\n3"), "The matrix has rows of different lengths (row 0: 2, row 1: 1). "
                                              "Every row needs the same number of entries."),
             (lambda: parse_matrix("x"), "The matrix, row 0: 'x' is not a number. Use digits like 1, -0.5 or 2e-3."),
             (lambda: parse_ids("1.5", 5), "The ids: '1.5' is not a whole number."),
             (lambda: parse_ids("5", 5), "The ids: 5 is outside the vocabulary; ids run from 0 to 4."),
             (lambda: parse_ids("-1", 5), "The ids: -1 is outside the vocabulary; ids run from 0 to 4."),
             (lambda: parse_ids("X5", 10), "The ids: 'X5' is not a whole number."),
             (lambda: parse_vector("X"), "The vector: 'X' is not a number. Use digits like 1, -0.5 or 2e-3.")]
    for call, message in cases:
        with pytest.raises(InputError) as err:
            call()
        assert str(err.value) == message
    assert parse_vector("(1; 2)").tolist() == [1.0, 2.0] and parse_vector("[-0.5]").tolist() == [-0.5]
    assert parse_matrix(" 1 2 \n\n 3 4 ").tolist() == [[1.0, 2.0], [3.0, 4.0]]
    assert parse_ids("0, 4", 5).dtype == np.int64


# --- common: tables and quoting --------------------------------------------------------------

def test_vector_frame_and_fixed_decimals():
    import pandas as pd

    from lab_ui.common import fixed_decimals, plain, vector_frame

    f = vector_frame([1.5, -2.0, 0.25])
    assert list(f.columns) == ["dim 0", "dim 1", "dim 2"] and list(f.index) == ["value"]
    assert f.loc["value"].tolist() == [1.5, -2.0, 0.25]
    g = vector_frame([3, 4], name="cat", prefix="d")
    assert list(g.columns) == ["d 0", "d 1"] and list(g.index) == ["cat"]
    conf = fixed_decimals(pd.DataFrame({"word": ["a"], "x": [0.5], "n": [3], "y": [1.25]}), 3)
    assert sorted(conf) == ["x", "y"] and all(c["type_config"]["format"] == "%.3f" for c in conf.values())
    assert plain("a\x00b\x7fc") == "a\ufffdb\ufffdc"
    assert plain("go to www.x.org now") == "go to ` www.x.org ` now"
    assert plain("``a`b``@c") == "``` ``a`b``@c ```"
    assert plain("1+1=2 (ok)!") == "1\\+1\\=2 \\(ok\\)\\!"
