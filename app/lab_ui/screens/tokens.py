"""Screen 7, Tokens: GPT-2's real tokenizer, and one row for every meaning of " bank"."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.chips import chips_html, visible
from lab_ui.widgets.common import data_table, error, intro, more, plain
from lab_ui.widgets.parse import TOKENS_MAX_CHARS, InputError, parse_whole
from lab_ui.lesson.links import named
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.registry import file_of
from lab_ui.server.runs import tokenizer
from core.tokenizer import EOT_ID, TokenizerUnavailable, Token, clean_text, id_to_text, tokenize

MAX_CHIPS = 400
MAX_ID_CHARS = 40


def main() -> None:
    intro("7. Tokens: one row for every “bank”",
          "This is GPT-2's real tokenizer. Each coloured box is one token, with its id underneath; "
          "the same id always gets the same colour, and ids that occur more than once get a dark outline. "
          "**Try:** write your own sentences with a word that has two meanings.")
    reset_button("tok_", key="tok_reset")
    enc = tokenizer_or_stop()
    bank_id, = enc.encode(" bank")                     # one token: GPT-2 has " bank" in its vocabulary
    tokens = tokens_panel(enc)
    bank_panel(tokens, bank_id)
    near_strings_panel(enc)
    id_lookup_panel(enc, bank_id)


def tokenizer_or_stop():
    """GPT-2's encoding; if its bundled file is damaged, say so and stop this screen only."""
    try:
        return tokenizer()
    except TokenizerUnavailable as err:
        st.error(f"The GPT-2 tokenizer cannot be loaded, so this screen cannot run. {err} "
                 "Every other screen still works.")
        st.stop()


def tokens_panel(enc) -> list[Token]:
    """The typed text as coloured token boxes, its figures and its table; returns the tokens."""
    text_label = f"Text (up to {TOKENS_MAX_CHARS:,} characters)"
    raw = st.text_area(text_label, "He sat on the river bank.\nShe got a bank loan.", height=110,
                       key=named("tok_text", text_label), bind="query-params",
                       max_chars=TOKENS_MAX_CHARS)
    special = st.toggle("Read the text <|endoftext|> as GPT-2's end-of-text token", True, key="tok_special", bind="query-params",
                        help=f"On: it becomes the single special token {EOT_ID:,}, as in GPT-2's training "
                             "data. Off: it is split like any other characters.")
    text, notes = clean_text(raw, TOKENS_MAX_CHARS)
    for note in notes:
        st.info(note)
    tokens = tokenize(enc, text, special_as_token=special)
    if not tokens:
        st.warning("The text is empty: type something to see its tokens.")
        return tokens
    with st.container(key="tok_chips"):
        st.markdown(chips_html(tokens[:MAX_CHIPS]), unsafe_allow_html=True)
    if len(tokens) > MAX_CHIPS:
        st.caption(f"Showing the first {MAX_CHIPS} of {len(tokens):,} tokens as boxes; the table has them all.")
    if any(t.partial for t in tokens):
        st.caption("A box showing � holds part of a character: GPT-2 works on bytes, and some "
                   "characters (many emoji, for example) are split over several tokens.")
    layout.metrics([dict(label="characters", value=f"{len(text):,}"),
                    dict(label="tokens", value=f"{len(tokens):,}"),
                    dict(label="characters per token", value=f"{len(text) / len(tokens):.2f}")],
                   key="tok_metrics")
    if special and any(t.id == EOT_ID for t in tokens):
        st.caption(f"<|endoftext|> was read as the special token {EOT_ID:,}.")
    with more("The tokens as a table"):
        data_table(pd.DataFrame({"position": [t.position for t in tokens],
                                   "token (· = space)": [visible(t.text) for t in tokens],
                                   "id": [t.id for t in tokens]}),
                     hide_index=True, key="tok_table")
    return tokens


def bank_panel(tokens: list[Token], bank_id: int) -> None:
    """How often " bank" occurs in the text, and why one id means one row for both meanings."""
    bank = [t for t in tokens if t.id == bank_id]
    st.header("Why this matters")
    st.markdown(
        f"In the two example sentences, id **{bank_id}** (“{visible(' bank')}”, bank with a space before it) "
        f"appears twice; in the text above it appears {len(bank)} time{'s' if len(bank) != 1 else ''}. "
        f"The table has one row for id {bank_id}, so the riverside and the lender start from the very "
        "same vector. Telling them apart is left to the layers after the table, which mix in the "
        "neighbouring words.")
    st.page_link(file_of("real_context"), label="Measured on a real model: static against contextual", icon=":material/compare:")
    st.page_link(file_of("real_table"), label="The “·bank” row of a real model's table, and its nearest tokens",
                 icon=":material/table_view:")


def near_strings_panel(enc) -> None:
    """Strings that look alike and get unrelated ids."""
    st.header("Near-identical strings, unrelated ids")
    words = [" bank", "bank", " Bank", " banks", " cat", " Cat"]
    compare = pd.DataFrame({"text (· = space)": [visible(w) for w in words],
                            "ids": [", ".join(map(str, enc.encode(w))) for w in words]})
    data_table(compare, hide_index=True, key="tok_compare")
    (cat_id,), (capital_cat_id,) = enc.encode(" cat"), enc.encode(" Cat")
    bare_bank, spaced_bank = ", ".join(map(str, enc.encode("bank"))), ", ".join(map(str, enc.encode(" bank")))
    st.caption(f"An id is a name, not a quantity: “{visible(' cat')}” (cat with the space before it, as in "
               f"“the cat”) is {cat_id} and “{visible(' Cat')}” is {capital_cat_id}, and nothing in the two "
               "numbers says they are the same animal. The space is part of the token: "
               f"“{visible(' bank')}” is {spaced_bank}, “{visible('bank')}” without it is {bare_bank}. Ids come from "
               "the order in which the tokenizer learned its merges, not from meaning.")
    st.page_link(file_of("real_tokenizers"), label="The same words under four real tokenizers: other ids, and why",
                 icon=":material/view_week:")


def id_lookup_panel(enc, start_id: int) -> None:
    """A typed id (first ``start_id``) and the token it stands for."""
    st.header("Look up an id")
    typed = st.text_input("Token id", str(start_id), key="tok_id", bind="query-params", max_chars=MAX_ID_CHARS)
    try:
        tid = parse_whole(typed, "The id", 0, enc.n_vocab - 1)
        st.markdown(f"Id {tid} is the token **{plain(visible(id_to_text(enc, tid)))}** (· = space)")
    except InputError as err:
        error(f"{err} GPT-2's ids are whole numbers from 0 to {enc.n_vocab - 1:,}.")


main()
