"""Screen 7c, tokenizers side by side: one text under GPT-2, cl100k_base, o200k_base, SmolLM2 and
any other real tokenizer installed: pieces, ids, counts, and " bank" and " cat" in each."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.chips import chips_html, visible
from lab_ui.widgets.common import data_table, intro
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.real_models import encoding_or_none, text_box
from core.pretrained import MODELS_INSTALL
from core.token_rows import side_by_side
from core.tokenizer import ENCODINGS

WORDS = [" bank", " cat", "bank", " Bank"]
SHORT = {"gpt2": "GPT-2", "cl100k_base": "cl100k", "o200k_base": "o200k", "smollm2-135m": "SmolLM2"}
SHOWN = {"gpt2": "GPT-2 (2019)", "cl100k_base": "cl100k_base (GPT-4, 2023)",
         "o200k_base": "o200k_base (GPT-4o, 2024)", "smollm2-135m": "SmolLM2-135M (2024)"}


def main() -> None:
    intro("7c. Tokenizers side by side",
          "Every model cuts text with its own tokenizer, learned from its own training text, so the same "
          "sentence becomes different pieces with different ids. All the tokenizers here are real and "
          "byte-level BPE: the space before a word is part of its token. "
          "**Try:** a long word, a number, a name, or another language.")
    reset_button("rtok_", key="rtok_reset")
    available = {name: enc for name in ENCODINGS if (enc := encoding_or_none(name)) is not None}
    missing = [SHOWN.get(n, n) for n in ENCODINGS if n not in available]
    if missing:
        st.info(f"Not installed here: {', '.join(missing)}. Install the real tokenizers with: {MODELS_INSTALL}")
    if not available:
        st.stop()
    names = st.multiselect("Tokenizers", list(available), default=list(available), key="rtok_names",
                           bind="query-params", format_func=lambda n: SHOWN.get(n, n))
    chosen = {n: available[n] for n in names}
    if not chosen:
        st.warning("No tokenizer is chosen: pick at least one above.")
        return
    words_panel(chosen)     # the fixed example first: its table is the screen's point (ids differ)
    st.header("Your text in each tokenizer")
    text = text_box("Text", "He sat on the river bank.\nShe got a bank loan.", key="rtok_text")
    if not text:
        st.warning("The text is empty: type something to see its pieces.")
    else:
        pieces_panel(chosen, text)
    sentencepiece_panel()


def pieces_panel(chosen: dict, text: str) -> None:
    """Each tokenizer's pieces as chips with their ids, and the counts side by side."""
    splits = side_by_side(chosen, text)
    layout.metrics([dict(label=SHOWN.get(s.name, s.name), value=f"{len(s.tokens):,} tokens") for s in splits],
                   key="rtok_counts")
    for s in splits:
        st.markdown(f"**{SHOWN.get(s.name, s.name)}**: {len(s.tokens):,} tokens")
        st.markdown(chips_html(s.tokens), unsafe_allow_html=True)
    counts = [len(s.tokens) for s in splits]
    if len(splits) > 1:
        fewest = [SHOWN.get(s.name, s.name) for s in splits if len(s.tokens) == min(counts)]
        most = [SHOWN.get(s.name, s.name) for s in splits if len(s.tokens) == max(counts)]
        verdict = (f"every tokenizer needs {min(counts):,} tokens" if min(counts) == max(counts) else
                   f"{' and '.join(fewest)} need{'s' if len(fewest) == 1 else ''} the fewest tokens ({min(counts):,}) "
                   f"and {' and '.join(most)} the most ({max(counts):,})")
        st.caption(f"For this text, {verdict}. A larger vocabulary usually needs fewer tokens for the same "
                   "text. A piece shown as <bytes …> is part of a character: these tokenizers work on bytes.")


def words_panel(chosen: dict) -> None:
    """The same short strings in every tokenizer: their ids have nothing in common."""
    st.header("“·bank” and “·cat” in each tokenizer")
    splits = {w: side_by_side(chosen, w) for w in WORDS}
    frame = pd.DataFrame({"text (· = space)": [visible(w) for w in WORDS]}
                         | {SHORT.get(n, n): [", ".join(map(str, splits[w][i].ids)) for w in WORDS]
                            for i, n in enumerate(chosen)})
    data_table(frame, hide_index=True, key="rtok_words")
    banks = [", ".join(map(str, s.ids)) for s in splits[" bank"]]
    first = next(iter(chosen))
    st.caption(f"“·bank” gets {len(set(banks))} different id{'s' if len(set(banks)) != 1 else ''} in these "
               f"{len(banks)} tokenizer{'s' if len(banks) != 1 else ''} (in {SHOWN.get(first, first)} it is "
               f"{banks[0]}): an id is only a name inside one tokenizer, and each model's table has its rows "
               "in its own tokenizer's order.")



# A worked example written by hand from SentencePiece's published rules (Kudo & Richardson, 2018):
# each space becomes the mark ▁ (U+2581) glued to the next piece, and one ▁ is added before the
# text's first word. The pieces are those a vocabulary holding these words would give; no ids
# are shown, because no SentencePiece tokenizer is installed here.
SENTENCEPIECE_EXAMPLE = [
    ("the river bank", "▁the | ▁river | ▁bank", "after a space: ▁bank"),
    ("bank", "▁bank", "first word: ▁ added"),
    ("riverbank", "▁river | bank", "glued on: bank"),
    ("(bank)", "▁( | bank | )", "after “(”: bank"),
]


def sentencepiece_panel() -> None:
    """Why a SentencePiece tokenizer (Llama 2, T5, Gemma) has two entries for one word."""
    st.header("Why a SentencePiece tokenizer gives “▁bank” and “bank” two ids")
    st.markdown(
        "Tokenizers such as Llama 2's, T5's and Gemma's are **SentencePiece** tokenizers. Before cutting "
        "the text they turn every space into a visible mark, **▁**, glued to the start of the next word, "
        "and they put one ▁ before the very first word. So a word has two spellings in the vocabulary: "
        "with its space (“▁bank”, the word on its own) and without it (“bank”, glued to what comes before). "
        "They are two different entries, so two different ids and two different rows of the table, and "
        "the model has to learn both. The byte-level tokenizers above do the same with a plain space: "
        "compare “·bank” and “bank” in the table above.")
    st.caption("A worked example written by hand from SentencePiece's rules, not the output of a tokenizer "
               "(none is installed here): the pieces a vocabulary holding these words would give.")
    data_table(pd.DataFrame(SENTENCEPIECE_EXAMPLE, columns=["text", "pieces (worked example)", "why"]),
               hide_index=True, key="rtok_sentencepiece")


main()
