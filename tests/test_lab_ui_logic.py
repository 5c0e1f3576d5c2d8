"""app/lab_ui helpers' logic, checked directly (no screen): which group a word is in, a
chart's title, label pixels, the pair walk's stepper, captions that compare two runs on every
branch, find-a-word's rings and table, the player, and the Analogies screen's pieces.
(The chart builders' specs: tests/test_lab_ui_charts_logic.py.)"""
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
import streamlit as st

from core.relations import RELATIONS
from lab_ui.screens.views import pair_view
from lab_ui.widgets import charts
from lab_ui.screens.views.analogy_view import group_of
from lab_ui.widgets.charts import chart_title, with_title
from lab_ui.widgets.label_layout import to_pixels
from lab_ui.widgets.parse import InputError, parse_id_rows
from lab_ui.screens.views.projection_views import word_groups


@pytest.fixture(autouse=True)
def fresh_state():
    st.session_state.clear()
    yield
    st.session_state.clear()


def test_group_of_names_each_side_of_each_relation():
    for name, (_, _, pairs) in RELATIONS.items():
        first, second = name.split(" - ")
        for a, b, _ in pairs:
            assert (group_of(a), group_of(b)) == (first, second), name
    assert group_of("no such word") == "other word"


def test_chart_title_from_the_spec_and_from_the_data():
    assert chart_title({"title": "plain"}) == "plain"
    assert chart_title({"title": ["two", "lines"]}) == "two lines"
    assert chart_title({"title": {"text": "in a dict"}}) == "in a dict"
    assert chart_title({"title": {"anchor": "start"}}) == ""             # a dict without text
    assert chart_title({}) == ""
    spec = {"title": charts.data_title("points")}
    df = with_title(pd.DataFrame({"x": [1.0, 2.0]}), "first\nsecond")
    assert chart_title(spec, {"points": df}) == "first second"
    assert chart_title(spec, {"points": df.iloc[:0]}) == ""               # no rows yet
    assert chart_title(spec, {"other": df}) == ""                          # its data is missing
    assert chart_title(spec) == ""
    assert chart_title({"title": {"text": {"signal": "s"}}}) == "{'signal': 's'}"   # no data expr


def test_chart_title_reads_the_dataset_its_expression_names():
    spec = {"title": charts.data_title("labels")}
    frames = {"points": with_title(pd.DataFrame({"x": [1.0]}), "of the points"),
              "labels": with_title(pd.DataFrame({"x": [1.0]}), "of the labels")}
    assert chart_title(spec, frames) == "of the labels"


def test_to_pixels_pads_each_axis_by_its_own_range():
    xy = np.array([[10.0, 0.0], [20.0, 0.1], [15.0, 0.02]])    # x spans 10, y spans 0.1
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    pad = 0.08 * (hi - lo)
    u = (xy - (lo - pad)) / ((hi + pad) - (lo - pad))
    expected = np.column_stack([u[:, 0] * 300, (1 - u[:, 1]) * 200])
    np.testing.assert_allclose(to_pixels(xy, 300, 200), expected)
    # the first point sits 8 / 116 of the way in from the left and bottom edges
    np.testing.assert_allclose(to_pixels(xy, 300, 200)[0], [300 * 0.08 / 1.16, 200 * (1 - 0.08 / 1.16)])


def test_to_pixels_with_a_fixed_domain_uses_it_on_both_axes():
    xy = np.array([[-1.0, 3.0], [1.0, -1.0], [0.5, 0.0]])
    u = (xy + 1.0) / 4.0                                        # domain -1 .. 3 on both axes
    np.testing.assert_allclose(to_pixels(xy, 400, 100, domain=(-1.0, 3.0)),
                               np.column_stack([u[:, 0] * 400, (1 - u[:, 1]) * 100]))


def test_pair_stepper_walks_the_stages_then_the_next_pair():
    last = len(pair_view.STAGES) - 1
    assert pair_view.position(3) == (0, 0)                    # a fresh session: first pair, first stage
    pair_view._next_step(3)
    assert pair_view.position(3) == (0, 1)                    # one stage at a time
    st.session_state[pair_view.PAIR_KEY] = 1
    st.session_state[pair_view.STAGE_KEY] = last - 1
    pair_view._next_step(3)
    assert pair_view.position(3) == (1, last)
    pair_view._next_step(3)                                   # past the last stage: next pair
    assert pair_view.position(3) == (2, 0)
    st.session_state[pair_view.STAGE_KEY] = last
    pair_view._next_step(3)                                   # from the last pair: back to the first
    assert pair_view.position(3) == (0, 0)
    pair_view._move_pair(3, -1)
    assert pair_view.position(3) == (2, 0)
    pair_view._show_all()
    assert pair_view.position(3) == (2, last)


def test_pair_position_stays_inside_the_pairs_and_stages():
    st.session_state[pair_view.PAIR_KEY] = 7                  # e.g. a link made for a longer text
    st.session_state[pair_view.STAGE_KEY] = 99
    assert pair_view.position(5) == (4, len(pair_view.STAGES) - 1)
    assert pair_view.position(6) == (5, len(pair_view.STAGES) - 1)


def test_word_groups_puts_words_outside_the_groups_in_other():
    g = SimpleNamespace(groups={"animals": ["cat", "dog"], "places": ["river"]}, ambiguous="bank")
    assert word_groups(["dog", "bank", "the", "river", "cat", "saw"], g) == [
        "animals", "bank", "other", "places", "animals", "other"]


def test_parse_id_rows_reads_whole_numbers_as_int64():
    ids = parse_id_rows("1 2 3\n4, 5, 6.0")
    assert ids.dtype == np.int64
    np.testing.assert_array_equal(ids, [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(InputError, match=r"^The ids"):
        parse_id_rows("\n".join(["1 2"] * 17))                # more lines than the 16 allowed
    assert parse_id_rows("\n".join(["1 2"] * 17), max_rows=17).shape == (17, 2)
    with pytest.raises(InputError, match=r"^Batch"):
        parse_id_rows("1 2\n3", name="Batch")                  # rows of unequal length


def test_parse_id_rows_names_the_box_in_its_message():
    with pytest.raises(InputError, match=r"^The ids must be whole numbers\."):
        parse_id_rows("1 2.5")
    with pytest.raises(InputError, match=r"^Batch must be whole numbers\."):
        parse_id_rows("1 2.5", name="Batch")


# --- captions that compare two runs: every branch ------------------------------------------

@pytest.mark.parametrize("loss_b, says", [
    (2.05 + 0.0110, "B ends closer to its floor than A: 0.011 above it against 0.020"),
    (2.05 + 0.0300, "B ends further from its floor than A: 0.030 above it against 0.020"),
    (2.05 + 0.0203, "B ends as close to its floor as A (both 0.020 above it)"),      # 0.0003 apart
    (2.05 + 0.0196, "B ends as close to its floor as A (both 0.020 above it)"),
])
def test_floors_differ_compares_each_run_with_its_own_floor(loss_b, says):
    from lab_ui.widgets.captions import floors_differ

    text = floors_differ(2, 1.700, 1.720, 4, 2.05, loss_b)
    assert text.endswith(f"each run is above its own floor. {says}.")
    assert text.startswith("A and B count neighbours in different windows (2 and 4)")
    assert "1.700 for A and 2.050 for B" in text


def test_floors_differ_calls_a_gap_of_half_a_thousandth_a_difference():
    from lab_ui.widgets.captions import floors_differ

    assert "B ends further from its floor than A" in floors_differ(2, 0.0, 0.5, 3, 0.0, 0.5006)
    assert "as close to its floor as A" in floors_differ(2, 0.0, 0.5, 3, 0.0, 0.5004)
    # exactly half a thousandth (0.0005 - 0 is the float 0.0005 itself): already a difference
    assert "B ends further from its floor than A" in floors_differ(2, 0.0, 0.0, 3, 0.0, 0.0005)


@pytest.mark.parametrize("a, b, says", [
    (0.1, 0.2, "CBOW was quicker (skip-gram took 2.0 times as long)"),
    (0.3, 0.1, "skip-gram was quicker (CBOW took 3.0 times as long)"),
    (1.5, 1.0, "skip-gram was quicker (CBOW took 1.5 times as long)"),         # exactly the bar
    (0.149, 0.1, "CBOW and skip-gram took about the same time (the slower took 1.5 times as long"),
    (0.1, 0.12, "CBOW and skip-gram took about the same time (the slower took 1.2 times as long"),
    (0.0, 0.0, "CBOW and skip-gram both took under 10 ms, too little to time apart"),     # issue 28: 0 ms, 0 ms
    (0.0, 0.1, "CBOW was quicker (skip-gram took at least 100.0 times as long)"),           # 0 ms against 100 ms
])
def test_speed_verdict_calls_a_winner_only_past_the_bar(a, b, says):
    from lab_ui.widgets.captions import CLEAR_SPEEDUP, speed_verdict

    text = speed_verdict("CBOW", a, "skip-gram", b)
    assert text.startswith(says), text
    if "about the same" in text:
        assert text.endswith(f"only {CLEAR_SPEEDUP:.1f} times or more counts as quicker)")


def test_speed_verdict_takes_its_bar_as_given():
    from lab_ui.widgets.captions import speed_verdict

    assert speed_verdict("A", 0.1, "B", 0.12, clear=1.1).startswith("A was quicker (B took 1.2 times")
    assert "only 3.0 times or more" in speed_verdict("A", 0.1, "B", 0.2, clear=3.0)


# --- find a word: its rings and its table; the player's steps ---------------------------------

def overlap_of_a_square():
    from core.honesty import neighbour_overlap

    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9], [-1.0, 0.2]])
    Y = np.array([[0.0, 0.0], [5.0, 0.0], [1.0, 0.0], [6.0, 0.0], [2.0, 0.0]])   # 0 and 1 pulled apart
    return X, neighbour_overlap(X, Y, k=2)


def test_ring_args_ring_the_word_then_its_table_neighbours_with_the_far_ones_marked():
    from lab_ui.widgets.find_word import ring_args

    X, ov = overlap_of_a_square()
    near = ov.neighbours_of(0)                        # [(1, False), ...]: 1 is near in the table, far here
    assert ring_args(ov, None) == {}
    assert ring_args(ov, 0) == {"ring": (0, *[j for j, _ in near]), "far": tuple(not kept for _, kept in near)}
    assert ring_args(ov, 0)["ring"][1] == 1 and ring_args(ov, 0)["far"][0] is True


def test_found_table_names_each_neighbour_its_cosine_and_each_picture_s_verdict():
    from core.honesty import neighbour_overlap
    from core.similarity import cosine_matrix
    from lab_ui.widgets.find_word import found_table

    X, ov = overlap_of_a_square()
    kept = neighbour_overlap(X, X, k=2)               # the table itself keeps every neighbour
    vocab = ["a", "b", "c", "d", "e"]
    S = cosine_matrix(X)
    t = found_table(vocab, 3, S[3], {"squashed": ov, "faithful": kept})
    near = [j for j, _ in ov.neighbours_of(3)]
    assert list(t["neighbour"]) == [vocab[j] for j in near]
    np.testing.assert_allclose(t["cosine"], S[3, near])
    assert list(t["squashed"]) == ["near" if k else "far" for _, k in ov.neighbours_of(3)]
    assert list(t["faithful"]) == ["near", "near"]


def test_the_player_starts_at_the_end_and_steps_round():
    from lab_ui.widgets.player import start_at_the_end

    start_at_the_end("k", [0, 25, 50])
    assert st.session_state["k"] == 50
    st.session_state["k"] = 25
    start_at_the_end("k", [0, 25, 50])               # still one of the steps: left where it is
    assert st.session_state["k"] == 25
    start_at_the_end("k", [0, 10, 20])               # a new run's steps: back to its end
    assert st.session_state["k"] == 20


def test_playing_moves_one_step_on_and_wraps_round():
    from lab_ui.widgets.player import step_slider

    st.session_state["k"] = 25
    step_slider("Iteration", [0, 25, 50], "k", playing=True)
    assert st.session_state["k"] == 50
    step_slider("Iteration", [0, 25, 50], "k", playing=True)
    assert st.session_state["k"] == 0
    step_slider("Iteration", [0, 25, 50], "k", playing=False)     # paused: it stays
    assert st.session_state["k"] == 0


@pytest.mark.parametrize("text, rewritten, dropped", [
    ("ﬁsh 🐱 and ﬁsh 🐶 🐱", True, True), ("ﬁsh and STRAẞE", True, False), ("cat 🐱 dog", False, True)])
def test_the_word_rule_note_gives_core_s_counts_and_examples(text, rewritten, dropped):
    from core.corpus import text_changes
    from lab_ui.widgets.inputs import word_rule_note

    c = text_changes(text)
    note = word_rule_note(c)
    assert note.startswith("Your text was changed before training: ") and note.endswith(".")
    rewrites = f"{c.n_normalised:,} character(s) were rewritten by the word rule's Unicode normalisation ("
    drops = f"{c.n_dropped:,} character(s) that are not letters, marks or digits were dropped ("
    assert (rewrites in note, drops in note) == (rewritten, dropped)
    for a, b in c.normalised:
        assert f"{a} → {b}" in note
    if dropped:
        assert f"were dropped ({' '.join(c.dropped)})" in note
    if rewritten and dropped:
        assert note.index(rewrites) < note.index("; ") < note.index(drops)


def test_chip_colours_go_by_first_appearance_and_cycle_after_the_last():
    from lab_ui.widgets.chips import CHIP_COLOURS, colours_for

    n = len(CHIP_COLOURS)
    ids = [7, 3, 7, *range(100, 100 + n)]
    got = colours_for(ids)
    assert list(got) == [7, 3, *range(100, 100 + n)]
    assert [got[7], got[3]] == CHIP_COLOURS[:2]
    assert got[100 + n - 2] == CHIP_COLOURS[0] and got[100 + n - 1] == CHIP_COLOURS[1]   # cycled round


def test_short_headers_keep_the_full_name_as_the_tooltip_and_the_format():
    from lab_ui.widgets.layout import short_headers

    fmt = st.column_config.NumberColumn(format="%.2f")
    out = short_headers({"a long column name": fmt, "other": None}, {"a long column name": "short", "x": "y"})
    assert out["a long column name"]["label"] == "short" and out["a long column name"]["help"] == "a long column name"
    assert out["a long column name"]["type_config"] == fmt["type_config"]          # its number format is kept
    assert (out["x"]["label"], out["x"]["help"]) == ("y", "x")
    assert out["other"] is None                                                    # a column not renamed: as given
    assert fmt.get("label") is None                                                # the caller's config is not changed


# --- the Analogies screen's pieces ------------------------------------------------------------

def test_relation_of_and_the_group_order():
    from lab_ui.screens.views.analogy_view import GROUP_ORDER, relation_of

    for name, (_, _, pairs) in RELATIONS.items():
        for a, b, _ in pairs:
            assert relation_of(a) == relation_of(b) == name
    assert relation_of("the") == "other word"
    assert GROUP_ORDER == [side for name in RELATIONS for side in name.split(" - ")] + ["other word"]


def test_accuracy_and_answers_tables():
    from core.relations import METHODS
    from lab_ui.screens.views.analogy_view import accuracy_table, answers_table

    scores = {"capitals": {m: (i + 1, 4) for i, m in enumerate(METHODS)}, "plurals": {m: (0, 2) for m in METHODS}}
    t = accuracy_table(scores)
    assert list(t.columns) == ["questions", *METHODS]
    assert list(t["questions"]) == ["capitals", "plurals"]
    assert list(t.iloc[0, 1:]) == [f"{i + 1} of 4" for i in range(len(METHODS))]
    assert set(t.iloc[1, 1:]) == {"0 of 2"}
    # the columns keep the methods' order (and headers) whatever order a score arrives in
    backwards = accuracy_table({"capitals": {m: (1, 3) for m in reversed(METHODS)}})
    assert list(backwards.columns) == ["questions", *METHODS]
    assert list(accuracy_table({}).columns) == ["questions", *METHODS]     # no question set: headers
    found = SimpleNamespace(answers=[("queen", 0.912345), ("king", 0.5)])
    a = answers_table(found)
    assert list(a["rank"]) == [1, 2] and list(a["word"]) == ["queen", "king"]
    assert list(a["cosine"]) == [0.9123, 0.5]


def side(**kw):
    from core.relations import SideSplit

    base = dict(relation="male - female", away="male", towards="female", gap=0.5, spread=0.2,
                ordered=6, pairs=6, apart=True)
    return SideSplit(**{**base, **kw})


def test_split_sentence_on_each_branch():
    from lab_ui.screens.views.analogy_view import split_sentence

    assert split_sentence(None, "man", "woman") == ""
    apart = split_sentence(side(), "man", "woman")
    assert apart.startswith("The male and female words **separate** along man → woman")
    assert "the female words sit 0.50 further along than the male words" in apart
    assert "spread by about 0.20" in apart and "6 of 6 pairs" in apart and "left out" not in apart
    overlap = split_sentence(side(apart=False, gap=-0.123, pairs=4, ordered=4), "man", "woman")
    assert overlap.startswith("The female words lie further along than their partners, but the two groups **overlap**")
    assert "sit 0.12 less far along than the male words" in overlap
    assert "4 of 4 pairs" in overlap and "(pairs holding the two words that set the direction are left out)" in overlap
    mixed = split_sentence(side(apart=False, gap=0.004, ordered=3, pairs=5), "man", "woman")
    assert mixed.startswith("The male and female words **do not separate** along man → woman")
    assert "on average the two groups sit at the same place" in mixed and "3 of 5 pairs" in mixed
    assert "left out" in mixed
    assert "sit 0.01 further along" in split_sentence(side(gap=0.006), "a", "b")        # rounds to 0.01: not 0


def test_a_t_sne_picture_of_few_points_says_its_perplexity_was_lowered():
    """12 points cannot carry perplexity 30: the note names the perplexity asked, the number of
    points and the perplexity core used; perplexity 3 fits and its note is the name alone."""
    from core.tsne import tsne
    from lab_ui.screens.views.projection_views import Table, pictures

    E = np.random.default_rng(3).normal(size=(12, 5))
    vocab = [f"w{i}" for i in range(12)]
    shown = pictures(Table(E, vocab, vocab, labels=True, priority=list(range(12))), (30, 3), seed=0, k=3)
    t = tsne(E, perplexity=30.0, seed=0, metric="cosine", perplexity_cap=1.0)
    assert t.clamped and t.perplexity_used < 12
    assert [p.note for p in shown[1:]] == [
        f"t-SNE, perplexity 30: only 12 points, so the perplexity was lowered to {t.perplexity_used:.1f} "
        "(it must stay below the number of points).", "t-SNE, perplexity 3."]


def test_the_word_index_of_the_finished_run_is_built_once_and_only_for_that_run(monkeypatch):
    """The big-text views look words up through one index per finished run (kept on the job,
    built once for its vocabulary of up to a million words); another result gets its own."""
    from lab_ui.screens.train import bigtext_view

    r = SimpleNamespace(vocab=["the", "cat", "sat"])
    other = SimpleNamespace(vocab=["dog", "the"])
    job = SimpleNamespace(result=r)                  # a finished job has no index until first asked
    monkeypatch.setattr(bigtext_view, "st", SimpleNamespace(session_state={bigtext_view.JOB: job}))
    first = bigtext_view._index(r)
    assert first == {"the": 0, "cat": 1, "sat": 2} and first is job.index
    assert bigtext_view._index(r) is first                                  # reused, not rebuilt
    assert bigtext_view._index(other) == {"dog": 0, "the": 1} and job.index is first
