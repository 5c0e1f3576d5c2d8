"""Screen 8c, real word vectors (GloVe 6B, 50 numbers per word): a word's rank and neighbours in 50-d
next to its neighbours on the 2-D map, analogies with their baselines, and the hidden-word game."""
import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table, data_table, error, intro, plain
from lab_ui.lesson.links import named
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.real_models import table_or_stop
from core.relations import axis_positions
from core.vectors import UnknownLabel
from core.word_map import check_word, hint, map_neighbours
from core.word_similarity import WORDSIM353, benchmark, read_pairs

WORD_MODEL = "glove-6b-50d"
TOPS = [2_000, 10_000, 50_000]
MAP_NEIGHBOURS = 10
GAME_TOP = 50_000         # a guess's rank is counted among this many commonest words
MAX_WORD = 40
DIRECTION_TOP = 10_000    # the words ranked on a direction: the commonest
DIRECTION_ENDS = 10       # words shown at each end
DIRECTION_MAX = 50_000    # words beyond this rank are not placed (a (top, 50) float64 copy: 20 MB)


@st.cache_data(show_spinner=False, max_entries=64)
def _map(word: str, top: int):
    return map_neighbours(table_or_stop(WORD_MODEL), word, top, MAP_NEIGHBOURS)


def main() -> None:
    intro("8c. Real word vectors (GloVe)",
          "GloVe 6B gives each of 400,000 words a row of 50 numbers, learned from 6 billion words of text, "
          "with the words in order of how common they are. **Try:** a word, then the same word on the map, "
          "then the game at the bottom.")
    reset_button("rw_", key="rw_reset")
    table = table_or_stop(WORD_MODEL)
    word_panel(table)
    analogy_panel(table)
    direction_panel(table)
    people_panel(table)
    game_panel(table)


@st.cache_resource(show_spinner=False, max_entries=2)   # one per real word table
def _wordsim(_table):
    """GloVe's Spearman rho on WordSim-353 (once per server: 353 cosines)."""
    return benchmark(_table, read_pairs(WORDSIM353))


def _left_out(got) -> str:
    if not got.missing:
        return "every pair has both words in GloVe, so none is left out"
    return f"{len(got.missing)} pairs with a word GloVe lacks are left out"


def people_panel(table) -> None:
    st.header("Do the cosines order word pairs as people do?")
    got = _wordsim(table)
    layout.metrics([dict(label="Spearman's rho, GloVe against people", value=f"{got.rho:.3f}"),
                    dict(label="pairs scored (of 353)", value=f"{got.found:,}")], key="rw_wordsim_metrics")
    st.caption("WordSim-353 (Finkelstein et al., 2002) lists 353 pairs of words, such as tiger/cat, with the "
               "mean score people gave each pair from 0 (unrelated) to 10 (the same). Rank the pairs by "
               "people's scores and again by the cosine of GloVe's two rows: Spearman's rho compares the two "
               "orders (1 = the same order, 0 = no relation). This figure is **our own measurement**, "
               f"computed here on the installed table; {_left_out(got)}. "
               "We found no published figure for this 50-number table to compare it with. The nearest, about "
               "0.52 in the example of the word-embedding benchmark package “web” (Jastrzebski et al., 2017), "
               "is for GloVe 6B's 300-number table: a different table, so it is not a check of ours.")


def known(table, typed: str, what: str) -> str | None:
    """The typed word as the table spells it, or None after a clear message with near spellings."""
    try:
        return check_word(table, typed)
    except UnknownLabel as err:
        error(f"{what}: {err}")
        return None


def word_panel(table) -> None:
    st.header("A word's neighbours: in 50 numbers, and on a flat map")
    cols = layout.blocks(layout.PANEL, layout.PANEL, key="rw_word_controls")
    typed = cols[0].text_input("Word", "cat", key="rw_word", bind="query-params", max_chars=MAX_WORD)
    top = cols[1].selectbox("Words on the map (the commonest)", TOPS, index=1, key="rw_top",
                            bind="query-params", format_func=lambda n: f"{n:,}")
    word = known(table, typed, "The word") if typed.strip() else None
    if word is None:
        return
    try:
        m = _map(word, top)
    except ValueError as err:
        error(f"{err} Choose more words on the map.")
        return
    layout.metrics([dict(label="frequency rank", value=f"{m.rank:,}"),
                    dict(label="neighbours kept on the map", value=f"{len(m.kept)} of {MAP_NEIGHBOURS}"),
                    dict(label="spread the map keeps", value=f"{100 * m.explained:.0f}%")], key="rw_word_metrics")
    w = layout.block_px(layout.PANEL, 400)     # presenter: wide enough for the columns at 18 px
    left, right = layout.blocks(w, w, key="rw_word_tables")
    with left:
        data_table(pd.DataFrame({"in 50-d (cosine)": [w for w, _ in m.full], "cosine": [c for _, c in m.full],
                                     "on the map?": ["kept" if w in m.kept else "lost" for w, _ in m.full]}),
                       hide_index=True, key="rw_full", column_config={"cosine": st.column_config.NumberColumn(format="%.2f")})
    with right:
        data_table(pd.DataFrame({"on the 2-D map (distance)": [w for w, _ in m.on_map],
                                      "in 50-d?": ["kept" if w in m.kept else "false" for w, _ in m.on_map]}),
                        hide_index=True, key="rw_map")
    st.caption(f"“{plain(word)}” is word number {m.rank:,} by frequency. Of its {MAP_NEIGHBOURS} nearest words in 50 numbers, "
               f"{len(m.kept)} are also among its {MAP_NEIGHBOURS} nearest on the flat PCA map of the top {top:,} words; "
               f"{len(m.lost)} are lost and {len(m.false)} map neighbours are false friends. The map keeps "
               f"{100 * m.explained:.0f}% of the spread: check a cluster with cosines before believing it.")


def analogy_panel(table) -> None:
    st.header("Analogies: a is to b as c is to ?")
    cols = layout.blocks(180, 180, 180, key="rw_analogy_controls")
    typed = [c.text_input(lab, d, key=named(f"rw_{k}", lab), bind="query-params", max_chars=MAX_WORD)
             for c, lab, d, k in zip(cols, ["a", "b", "c"], ["man", "king", "woman"], ["a", "b", "c"])]
    words = [known(table, t, f"Word {n}") for t, n in zip(typed, "abc")]
    if None in words:
        return
    a, b, c = words
    if len({a, b, c}) < 3:
        st.warning("Type three different words.")
        return
    answers = {"b − a + c": table.analogy(a, b, c, 5),
               f"nearest to {b} (baseline)": table.nearest_to(table.vector(b), 5, exclude=[a, b, c]),
               f"nearest to {c} (baseline)": table.nearest_to(table.vector(c), 5, exclude=[a, b, c])}
    data_table(pd.DataFrame({name: [f"{w} {s:.2f}" for w, s in found] for name, found in answers.items()}),
                 hide_index=True, key="rw_analogy")
    first = {name: found[0][0] for name, found in answers.items()}
    same = [n for n in list(first)[1:] if first[n] == first["b − a + c"]]
    note = (f" A baseline gives the same first word ({', '.join(same)}), so the arithmetic added nothing here."
            if same else " Neither baseline gives that word first, so the arithmetic did add something.")
    st.caption(f"b − a + c gives “{plain(first['b − a + c'])}” first.{note} The question's own words are "
               "never answers.")


@st.cache_data(show_spinner=False, max_entries=32)
def _positions(a: str, b: str, top: int):
    """Every one of the top words on the direction a -> b: (top,) positions (core.relations)."""
    return axis_positions(table_or_stop(WORD_MODEL).first(top), a, b)


def direction_panel(table) -> None:
    st.header("A direction defined by two words")
    cols = layout.blocks(180, 180, layout.PANEL, key="rw_direction_controls")
    typed = [c.text_input(lab, d, key=named(f"rw_dir_{k}", lab), bind="query-params", max_chars=MAX_WORD)
             for c, lab, d, k in zip(cols[:2], ["From", "To"], ["he", "she"], ["a", "b"])]
    placed = cols[2].text_input("Words to place on it", "king queen doctor nurse", key="rw_dir_words",
                                bind="query-params", max_chars=200)
    a, b = (known(table, t, w) for t, w in zip(typed, ["From", "To"]))
    if a is None or b is None:
        return
    if a == b:
        st.warning("Type two different words: one word alone gives no direction.")
        return
    others = [w for w in (known(table, t, "A word to place") for t in placed.split()[:12]) if w is not None]
    far = [w for w in [a, b, *others] if table.row(w) >= DIRECTION_MAX]
    if far:
        error(f"Only the {DIRECTION_MAX:,} commonest words are placed; not among them: {', '.join(map(plain, far))}.")
        return
    top = max([DIRECTION_TOP] + [table.row(w) + 1 for w in (a, b, *others)])
    pos = _positions(a, b, top)                                      # (top,) cosine with v(b) - v(a)
    words = table.labels[:top]
    order = np.argsort(pos, kind="stable")                           # lowest (a's side) first
    ends = [int(j) for j in order[:DIRECTION_ENDS]] + [int(j) for j in order[::-1][:DIRECTION_ENDS]]
    frame = pd.DataFrame({"word": [words[j] for j in ends], "position": [float(pos[j]) for j in ends],
                          "side": [f"towards {a}"] * DIRECTION_ENDS + [f"towards {b}"] * DIRECTION_ENDS})
    left, right = layout.blocks(layout.HALF, layout.HALF, key="rw_direction")
    with left:
        chart_with_table(charts.bars(frame, "word", "position", color="side", horizontal=True, fmt=".2f",
                                     sort=None, height=22 * len(frame) + 60, x_title=None,
                                     y_title=f"position on {a} → {b}"),
                         frame, key="rw_direction_table")
    with right:
        rows = [{"word": w, "position": float(pos[table.row(w)])} for w in dict.fromkeys(others)]
        if rows:
            data_table(pd.DataFrame(rows).sort_values("position", kind="stable"), hide_index=True,
                       key="rw_direction_placed", column_config={"position": st.column_config.NumberColumn(format="%.2f")})
    st.caption(f"Each word's position is the cosine of its row with the direction v({plain(b)}) − v({plain(a)}) "
               f"(rows scaled to length 1 first): the {DIRECTION_ENDS} lowest and highest of the {top:,} commonest "
               "words. A direction found from two words mixes every way they differ: check its ends before "
               "calling it “gender” or “sentiment”.")


def game_panel(table) -> None:
    st.header("Game: find the hidden word")
    with st.expander("Teacher: set the hidden word (it goes into the lesson link)"):
        secret = st.text_input("Hidden word", "ocean", key="rw_hidden", bind="query-params",
                               max_chars=MAX_WORD)
    hidden = known(table, secret, "The hidden word")
    if hidden is None:
        return
    guesses = st.session_state.setdefault("hidden_word_guesses", {}).setdefault(hidden, {})   # per hidden word
    with st.form("rw_guess_form", clear_on_submit=True):
        typed = st.text_input("Your guess", key="rw_guess", max_chars=MAX_WORD)
        sent = st.form_submit_button("Guess")
    if sent and typed.strip():
        word = known(table, typed, "The guess")
        if word is not None:
            guesses[word] = hint(table, hidden, word, GAME_TOP)
    if hidden in guesses:
        st.success(f"Found: the hidden word is “{plain(hidden)}”. Keep guessing to find its nearest words.")
    if guesses:
        best = sorted(guesses.values(), key=lambda h: -h.cosine)
        data_table(pd.DataFrame({"guess": [h.guess for h in best], "cosine": [h.cosine for h in best],
                                   "rank": ["the word" if h.rank == 0 else "—" if h.rank is None else f"{h.rank:,}"
                                            for h in best]}),
                     hide_index=True, key="rw_best", column_config={"cosine": st.column_config.NumberColumn(format="%.2f")})
        st.caption(f"Best guesses so far, closest first. Rank 1 is the hidden word's nearest word among the "
                   f"{GAME_TOP:,} commonest; “—” means the guess is not among them.")


main()
