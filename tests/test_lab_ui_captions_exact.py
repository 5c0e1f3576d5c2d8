"""lab_ui.widgets.captions: each sentence in full for one input per branch, and the number format, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from lab_ui.widgets import captions


_OBJ = ("Both losses are the full-softmax cross-entropy of the final vectors, so they are on one scale. "
        "{speed} Its real saving is the middle column: it scores 6 words per pair instead of all 1,200. "
        "With GPT-2's 50,257 tokens that is about 8,376 times fewer.")


_START = ("With std 1 the model starts confidently wrong: loss 4.00 at step 0, against 2.485 for a uniform "
          "guess; with std 0.1 every score starts near 0 and the loss starts at 2.480.")


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
