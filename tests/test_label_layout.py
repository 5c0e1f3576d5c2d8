"""Scatter labels (app/lab_ui/widgets/label_layout.py): no two labels cover each other, the most frequent
words are labelled first, presenter mode labels every point."""
import numpy as np

from lab_ui.widgets.label_layout import CHAR_WIDTH, _box, place, to_pixels


def boxes(coords, words, spots, size, font):
    pix = to_pixels(coords, size, size)
    return {i: _box(pix[i, 0], pix[i, 1], dx, dy, al, CHAR_WIDTH * font * len(words[i]), 1.1 * font)
            for i, (dx, dy, al) in spots.items()}


def overlapping(bx):
    items = list(bx.items())
    return [(i, j) for k, (i, a) in enumerate(items) for j, b in items[k + 1:]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]]


def test_a_crowded_cloud_gets_labels_that_do_not_overlap():
    rng = np.random.default_rng(0)
    coords = rng.normal(size=(63, 2))                      # (63, 2) like the word-groups map
    words = [f"word{i}" for i in range(63)]
    spots = place(coords, words, 380, 380, 15)
    assert 10 <= len(spots) < 63                            # some labelled, not all: too crowded
    assert overlapping(boxes(coords, words, spots, 380, 15)) == []


def test_priority_words_are_labelled_first():
    coords = np.array([[0.0, 0.0], [0.001, 0.0], [5.0, 5.0]])   # 0 and 1 sit on top of each other
    words = ["rare", "frequent", "far"]
    spots = place(coords, words, 300, 300, 15, priority=[1, 2, 0])
    assert 1 in spots and 2 in spots


def test_presenter_mode_labels_every_point():
    rng = np.random.default_rng(1)
    coords = rng.normal(size=(63, 2))
    words = [f"w{i}" for i in range(63)]
    assert len(place(coords, words, 380, 380, 20, label_all=True)) == 63


def test_twelve_words_of_the_lesson_all_fit():
    rng = np.random.default_rng(2)
    coords = rng.uniform(-3, 3, size=(12, 2))
    words = "and cat dog log mat on ran sat saw the then to".split()
    assert len(place(coords, words, 420, 420, 15)) >= 11


def test_no_label_passes_the_right_edge_of_the_plot():
    """Nothing is drawn right of the plot, so a label there would be cut off (presenter mode too)."""
    rng = np.random.default_rng(3)
    coords = rng.normal(size=(40, 2))
    words = [f"word{i}" for i in range(40)]
    for label_all in (False, True):
        spots = place(coords, words, 380, 380, 18, label_all=label_all)
        assert max(b[2] for b in boxes(coords, words, spots, 380, 18).values()) <= 380
    # the lesson's case: the rightmost word's label goes to its left, not past the edge
    edge = np.array([[0.0, 0.0], [3.0, 0.2], [-3.0, 1.0]])
    assert place(edge, ["cat", "and", "dog"], 410, 410, 18, label_all=True)[1][2] == "right"


def test_presenter_mode_spreads_a_crowd_instead_of_piling_it_on_one_side():
    rng = np.random.default_rng(1)
    coords = rng.normal(size=(63, 2))
    words = [f"w{i}" for i in range(63)]
    spots = place(coords, words, 380, 380, 20, label_all=True)
    free = place(coords, words, 380, 380, 20)
    piled = {i: spots[i] if i in free else (9.0, 0.0, "left") for i in range(63)}   # the old rule
    assert len(overlapping(boxes(coords, words, spots, 380, 20))) < \
        0.7 * len(overlapping(boxes(coords, words, piled, 380, 20)))


def test_a_label_too_long_for_the_plot_is_left_out_even_where_it_covers_nothing():
    """Two points far apart; one word is wider than the whole plot, so every place for its
    label sticks out of the plot (and covers no other label or point): it gets no label,
    the short word does. Presenter mode (label_all) labels both all the same."""
    coords = np.array([[0.0, 0.0], [1.0, 1.0]])
    size, font = 300, 15
    words = ["a" * 60, "cat"]
    assert CHAR_WIDTH * font * 60 > size                    # wider than the plot, wherever it goes
    assert sorted(place(coords, words, size, size, font)) == [1]
    assert sorted(place(coords, words, size, size, font, label_all=True)) == [0, 1]


def test_label_boxes_and_overlaps_exactly():
    from lab_ui.widgets.label_layout import _box, _hits, candidates, to_pixels

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
    from lab_ui.widgets.label_layout import place

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
