"""Screen 5, Parameters: how big the table is in real models, and why its share shrinks."""
import altair as alt
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table, intro
from lab_ui.lesson.exercises import Exercise, show
from lab_ui.widgets.inputs import whole_input
from lab_ui.lesson.presenter import reset_button
from lab_ui.screens.registry import file_of
from lab_ui.widgets.readable import byte_size, count_in_words
from core.params import (BYTES_PER_PARAM, CALCULATOR_MAX_D_MODEL, CALCULATOR_MAX_VOCAB, GPT2_VOCAB_SIZE,
                         PRESETS, crossover_d_model, embedding_params, layer_params, memory_bytes, preset,
                         share)


def main() -> None:
    intro("5. Parameters: how big is the table?",
          "The table holds |V| x d_model numbers: one row of width d_model for every token. "
          "**Try:** pick a real model or type your own sizes, and compare the table with the whole model.")
    reset_button("params_", key="params_reset")
    st.page_link(file_of("real_table"), label="A real model's table, counted from its own file", icon=":material/table_view:")
    p, vocab, d_model, total, tied = size_controls()
    if vocab is None or d_model is None or total is None:
        st.stop()
    table_n = embedding_params(vocab, d_model)
    size_figures(p, table_n, embedding_params(vocab, d_model, tied=tied), total, tied)
    left, right = layout.blocks(layout.HALF, layout.HALF)
    with left:
        memory_panel(table_n)
    with right:
        share_panel()
    growth_panel()
    exercises()


def size_controls():
    """A preset (or Custom) and its sizes, editable: (preset or None, |V|, d_model, total, tied).
    A size that is not a whole number in range is None (its box says why)."""
    names = [p.name for p in PRESETS] + ["Custom"]
    choice = st.selectbox("Model", names, index=0, key="params_preset", bind="query-params")
    p = preset(choice) if choice != "Custom" else None
    c = st.columns(3, gap="medium")
    vocab = whole_input("Vocabulary size |V|", 1, CALCULATOR_MAX_VOCAB, p.vocab_size if p else GPT2_VOCAB_SIZE,
                        f"params_vocab_{choice}", where=c[0], bind="query-params")
    d_model = whole_input("d_model", 1, CALCULATOR_MAX_D_MODEL, p.d_model if p else 768, f"params_d_{choice}",
                          where=c[1], bind="query-params")
    total = whole_input("Model total", 1, 10**13, p.total_params if p else 124_439_808,
                        f"params_total_{choice}", where=c[2], bind="query-params",
                        help="The whole model's parameters, as published for the preset; type your own for a "
                             "custom model.")
    # on a line of its own: in a fourth narrow column its label was cut to "Tie..."
    tied = st.toggle("Tied output", p.tied if p else True, key="params_tied", bind="query-params",
                     help="Is the output projection (lm_head) tied to the table? GPT-2 reuses the table "
                          "(transposed) to score the next token: no extra parameters. Untied, the "
                          "model holds a second |V| x d_model matrix.")
    return p, vocab, d_model, total, bool(tied)


def size_figures(p, table_n: int, both_n: int, total: int, tied: bool) -> None:
    """The table's size, its share of the model, and the table with its output projection."""
    layout.metrics([
        dict(label="embedding table |V| x d_model", value=f"{table_n:,}", help=count_in_words(table_n)),
        dict(label="share of the whole model",
             value=f"{100 * share(table_n, total):.{2 if table_n / total < 0.01 else 1}f}%"),
        dict(label="table + output projection", value=f"{both_n:,}",
             delta="tied: no extra" if tied else f"untied: +{table_n:,}", delta_color="off"),
    ], key="params_metrics")
    if both_n > total:
        st.warning("The table (with its output projection) is larger than the whole model you typed: "
                   "check the model's total.")
    if p:
        st.caption(f"{p.name}: |V| = {p.vocab_size:,}, d_model = {p.d_model:,}, {p.n_layers} layers, "
                   f"{p.total_params:,} parameters ({p.source}). "
                   f"{table_n:,} = {p.vocab_size:,} x {p.d_model:,} is {count_in_words(table_n)}.")


def memory_panel(table_n: int) -> None:
    """The table's size in bytes for each number format."""
    st.header("Memory")
    mem = pd.DataFrame({"number format": list(BYTES_PER_PARAM),
                        "bytes per number": list(BYTES_PER_PARAM.values()),
                        "bytes": [memory_bytes(table_n, k) for k in BYTES_PER_PARAM]})
    mem["size"] = mem["bytes"].map(byte_size)
    mem["MiB"] = mem["bytes"] / 2**20
    chart_with_table(charts.bars(mem, "number format", "MiB", "The table's size by number format",
                                 sort=list(BYTES_PER_PARAM), y_title="MiB (1 MiB = 1,048,576 bytes)",
                                 fmt=",.1f"),
                     mem, key="params_mem_table", stretch=True)


def share_panel() -> None:
    """The table's share of each preset model."""
    st.header("Share of the model")
    rows = [{"model": q.name, "d_model": q.d_model, "family": q.name.split()[0],
             "table share %": 100 * share(embedding_params(q.vocab_size, q.d_model), q.total_params),
             "table": embedding_params(q.vocab_size, q.d_model), "whole model": q.total_params}
            for q in PRESETS]
    df = pd.DataFrame(rows)
    title = charts.wrap_title("The table's share shrinks as models grow", layout.HALF, charts.presenting())
    chart_with_table(charts.bars(df, "model", "table share %", title,
                                 color="family", sort=None, fmt=".2f", horizontal=True,
                                 x_title=None, y_title="table share (%)"),
                     df, key="params_share_table", stretch=True)


def growth_panel() -> None:
    """The table (|V| d) against one layer (about 12 d²) as d_model grows."""
    st.header("Why: the table grows with d_model, each layer with d_model²")
    growth = pd.DataFrame([{"d_model": d, "what": what, "parameters": n}
                           for d in (256, 512, 768, 1024, 1600, 2048, 4096, 8192, 12_288)
                           for what, n in ((f"table: {GPT2_VOCAB_SIZE:,} x d", embedding_params(GPT2_VOCAB_SIZE, d)),
                                           ("one layer: about 12 x d²", layer_params(d)))])
    chart = alt.Chart(growth).mark_line(point=True, strokeWidth=3).encode(
        x=alt.X("d_model:Q", scale=alt.Scale(type="log", domain=[200, 16_000]), title="d_model (log scale)",
                axis=alt.Axis(values=[256, 512, 1024, 2048, 4096, 8192, 12_288], format=",")),
        y=alt.Y("parameters:Q", scale=alt.Scale(type="log"), title="parameters (log scale)",
                axis=alt.Axis(format="~s")),
        color=alt.Color("what:N", scale=alt.Scale(range=charts.WORD_COLOURS[:2]), title=None),
        tooltip=["what", "d_model", alt.Tooltip("parameters:Q", format=",")],
    ).properties(width="container", height=320)
    chart_with_table(charts.style(chart, big=charts.presenting()), growth, key="params_growth_table", stretch=True)
    st.caption("Each transformer layer holds about 12 d_model² parameters (attention 4 d², MLP 8 d²), and "
               "big models also stack more layers (12 in GPT-2 small, 96 in the largest GPT-3). Past "
               f"d_model ≈ {crossover_d_model(GPT2_VOCAB_SIZE):,.0f} (= {GPT2_VOCAB_SIZE:,} / 12) a single layer already "
               "outweighs the whole table.")


def exercises() -> None:
    gpt2, gpt3 = preset("GPT-2 small"), preset("GPT-3 175B")
    gpt2_fp16 = memory_bytes(embedding_params(gpt2.vocab_size, gpt2.d_model), "fp16")
    gpt3_table = embedding_params(gpt3.vocab_size, gpt3.d_model)
    show([
        Exercise("params_ex1", "A model has |V| = 32,000 and d_model = 4,096. How many parameters are in "
                 "its embedding table?", embedding_params(32_000, 4_096),
                 f"32,000 × 4,096 = {embedding_params(32_000, 4_096):,}: one row of 4,096 numbers per token."),
        Exercise("params_ex2", f"How many bytes does GPT-2 small's table ({gpt2.vocab_size:,} × {gpt2.d_model:,}) "
                 "take in fp16?", gpt2_fp16,
                 f"{embedding_params(gpt2.vocab_size, gpt2.d_model):,} numbers × 2 bytes = {gpt2_fp16:,} "
                 f"bytes, about {byte_size(gpt2_fp16)}."),
        Exercise("params_ex3", f"The largest GPT-3 has d_model {gpt3.d_model:,} and "
                 f"{count_in_words(gpt3.total_params)} parameters. With GPT-2's {gpt3.vocab_size:,}-token "
                 "vocabulary, what percentage of it is the table? (2 decimals)",
                 100 * share(gpt3_table, gpt3.total_params),
                 f"{gpt3.vocab_size:,} × {gpt3.d_model:,} = {gpt3_table:,}, and {gpt3_table:,} / "
                 f"{gpt3.total_params:,} = {100 * share(gpt3_table, gpt3.total_params):.2f}%.",
                 unit="%"),
    ])


main()
