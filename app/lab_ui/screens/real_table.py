"""Screen 7b, a real model's table: typed text -> tokens, ids, rows X = E[ids] and nearest tokens,
on SmolLM2-135M's real token table (GPT-2's own table ships in no package)."""
import pandas as pd
import streamlit as st

from lab_ui.widgets import layout
from lab_ui.widgets.chips import chips_html, visible
from lab_ui.widgets.common import data_table, intro
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.views.real_models import encoding_or_none, encoding_or_stop, table_or_stop, text_box
from core.params import GPT2_VOCAB_SIZE
from core.token_rows import MAX_NEAREST, look_up

TOKEN_MODEL = "smollm2-135m"
GPT2_D_MODEL = 768            # GPT-2 small's width (Radford et al., 2019)
FIRST_NUMBERS = 4             # the first numbers of each row shown in the table
BANK_NEIGHBOURS = 8


def main() -> None:
    intro("7b. A real model's table",
          "Everything so far ran on small tables this app trains itself. Here is a real one. "
          "GPT-2's own table ships in no package we can install offline, so this screen uses "
          "**SmolLM2-135M** (2024), a small language model built on GPT-2's design: a byte-level BPE "
          "tokenizer and one table of token rows, reused by the output layer. "
          "**Try:** type any text and watch each token become a row.")
    reset_button("rt_", key="rt_reset")
    table = table_or_stop(TOKEN_MODEL)
    enc = encoding_or_stop(TOKEN_MODEL)
    text = text_box("Text", "The cat sat on the", key="rt_text")
    if not text:
        st.warning("The text is empty: type something to see its tokens and rows.")
    else:
        rows_panel(table, enc, text)
    pairs_panel(table)
    size_panel(table)
    bank_panel(table)


def rows_panel(table, enc, text: str) -> None:
    """Tokens as chips, the shape of X beside GPT-2's, and one table: id, first numbers, nearest."""
    found = look_up(table, enc, text)
    V, d = table.shape
    st.markdown(chips_html(found.tokens), unsafe_allow_html=True)
    gpt2 = encoding_or_none("gpt2")
    items = [dict(label="tokens", value=f"{len(found.tokens):,}"),
             dict(label="X = E[ids], shape", value=f"({found.X.shape[0]:,}, {found.X.shape[1]})",
                  help=f"One row of {d} numbers per token, gathered from the {V:,}-row table.")]
    if gpt2 is not None:
        n_gpt2 = len(gpt2.encode(text))
        items.append(dict(label="in GPT-2 it would be", value=f"({n_gpt2:,}, {GPT2_D_MODEL})",
                          help=f"GPT-2's tokenizer gives {n_gpt2:,} tokens for this text, and each of its "
                               f"{GPT2_VOCAB_SIZE:,} rows has {GPT2_D_MODEL} numbers."))
    layout.metrics(items, key="rt_shapes")
    if any(t.partial for t in found.tokens):
        st.caption("A token shown as <bytes …> holds part of a character: the tokenizer works on bytes, "
                   "and some characters (many emoji, for example) are split over several tokens.")
    listed = min(len(found.tokens), MAX_NEAREST)
    shown = min(FIRST_NUMBERS, d)
    rows = pd.DataFrame({"token (· = space)": [visible(t.text) for t in found.tokens],
                         "id": [t.id for t in found.tokens]})
    for j in range(shown):
        rows[f"dim {j}"] = found.X[:, j].astype(float)
    rows["…"] = f"+{d - shown}"
    near = pd.DataFrame({"token (· = space)": [visible(t.text) for t in found.tokens[:listed]],
                         "nearest tokens by cosine": [", ".join(f"{visible(w)} {c:.2f}" for w, c in n)
                                                      for n in found.nearest]})
    w = layout.block_px(layout.HALF + 100, layout.BIG_CHART)   # presenter: one full-width table a row
    left, right = layout.blocks(w, w, key="rt_tables")
    left.markdown(f"**X = E[ids]**, the first {shown} of each row's {d} numbers")
    with left:
        data_table(rows, hide_index=True, key="rt_rows",
                       column_config={f"dim {j}": st.column_config.NumberColumn(format="%.3f") for j in range(shown)})
    right.markdown("**Each token's nearest tokens**")
    with right:
        data_table(near, hide_index=True, key="rt_near")
    more = f" Only the first {listed} tokens get their neighbours." if listed < len(found.tokens) else ""
    st.caption(f"Each row of X is row *id* of the table: {d} numbers, of which the first {shown} "
               f"are shown. The neighbours are the tokens whose rows point the most the same way "
               f"(cosine), out of all {V:,}.{more}")


def pairs_panel(table) -> None:
    """The lesson's claim, on the real table: cat lands nearer dog than car."""
    st.header("Cat, dog and car on the real table")
    dog, car = table.cosine(" cat", " dog"), table.cosine(" cat", " car")
    layout.metrics([dict(label="cos( ·cat, ·dog )", value=f"{dog:.2f}"),
                    dict(label="cos( ·cat, ·car )", value=f"{car:.2f}")], key="rt_pairs")
    verdict = "nearer to" if dog > car else "not nearer to"
    st.caption(f"On this real table “·cat” is {verdict} “·dog” ({dog:.2f}) than to “·car” ({car:.2f}). "
               "Nobody wrote these numbers: training on text put them there.")


def size_panel(table) -> None:
    """The table's size and share of the model, counted from the model file's own tensors."""
    st.header("How big is the table?")
    info = table.info
    layout.metrics([dict(label="rows (tokens)", value=f"{info.rows:,}"),
                    dict(label="numbers per row", value=f"{info.dims:,}"),
                    dict(label="table parameters", value=f"{info.table_params:,}"),
                    dict(label="whole model", value=f"{info.model_params:,}"),
                    dict(label="table's share", value=f"{100 * info.share:.1f}%")], key="rt_size")
    tied = ("The file has no separate output layer: the output reuses this very table (tied), as GPT-2 "
            "does, so every training step touches every row." if info.tied else
            "The file has a separate output layer: the table is not reused at the output.")
    st.caption(f"Counted from the model file's own tensors: {info.rows:,} x {info.dims:,} = "
               f"{info.table_params:,} numbers out of {info.model_params:,}. The file stores the table as "
               f"{info.stored_as} (8-bit numbers with a scale per block of 32); the app reads it back as "
               f"ordinary decimals. {tied}")


def bank_panel(table) -> None:
    """The " bank" row and its nearest tokens: one row for the riverside and the lender."""
    st.header("The row of “·bank”")
    bank = table.row(" bank")
    near = table.nearest(" bank", BANK_NEIGHBOURS)
    data_table(pd.DataFrame({"token (· = space)": [visible(w) for w, _ in near],
                               "cosine": [c for _, c in near]}),
                 hide_index=True, key="rt_bank", column_config={"cosine": st.column_config.NumberColumn(format="%.2f")})
    top = near[:3]
    spellings = all(w.strip().lower().startswith("bank") for w, _ in top)
    kind = ": other spellings of the same word" if spellings else ""
    st.caption(f"“·bank” is id {bank:,} in this tokenizer and has one row. Its nearest tokens are "
               f"{', '.join('“' + visible(w) + '”' for w, _ in top)}{kind}. "
               "The riverside and the lender start from this same row; only the layers after the table "
               "can tell them apart.")


main()
