"""The Projections screen's "t-SNE that moves": the picture at every stage of its iterations,
with Play, so a class sees clusters form and how that depends on the perplexity."""
from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from lab_ui.widgets import charts, layout
from lab_ui.widgets.common import chart_with_table
from lab_ui.widgets.find_word import FOUND_K, ring_args
from core.honesty import neighbour_overlap
from lab_ui.widgets.player import start_at_the_end, step_slider

FRAME_EVERY = 25             # iterations between two kept pictures (41 frames for 1,000)
TSNE_PLAY_SECONDS = 0.4
PERPLEXITIES = [2, 5, 10, 30]
EXAGGERATION_ITER = 250      # core.tsne's default: the first iterations pull neighbours 12x harder


@st.cache_data(max_entries=8, show_spinner="Running t-SNE and keeping its pictures...")
def tsne_frames(E: np.ndarray, perplexity: float, seed: int):
    from core.tsne import tsne
    return tsne(E, perplexity=perplexity, seed=seed, metric="cosine", perplexity_cap=1.0,
                frame_every=FRAME_EVERY)


def tsne_motion_view(E: np.ndarray, vocab: list[str], colour: list[str], priority: list[int],
                     found: int | None = None) -> None:
    st.header("t-SNE that moves")
    st.markdown("t-SNE starts from a tiny random cloud and moves the points a little at each "
                "iteration, so that words that are near in the table end up near in the picture. "
                "Press Play and watch the clusters form; then try another perplexity.")
    c1, c2, c3 = st.columns([2, 1, 1])
    perplexity = c1.select_slider("Perplexity", PERPLEXITIES, 5, key="proj_motion_perplexity", bind="query-params")
    seed = int(c2.number_input("Seed", 0, 1000, 0, key="proj_motion_seed", bind="query-params"))
    playing = c3.toggle("Play", key="proj_motion_play", help="Steps through the iterations; switch off to pause.")
    run = tsne_frames(E, float(perplexity), seed)
    steps = [int(s) for s in run.frame_steps]
    start_at_the_end("proj_motion_step", steps)

    @st.fragment(run_every=TSNE_PLAY_SECONDS if playing else None)
    def frame() -> None:
        step = step_slider("Iteration", steps, "proj_motion_step", playing)
        i = steps.index(step)
        layout.metrics([dict(label="iteration", value=f"{step:,} of {steps[-1]:,}"),
                        dict(label="KL divergence", value=f"{run.frame_kl[i]:.3f}",
                             help="How far the picture's neighbour chances are from the table's "
                                  "(0 would be a perfect match); it falls as the picture forms.")],
                       key="proj_motion_metrics")
        coords = run.frames[i]
        rings = {} if found is None else ring_args(neighbour_overlap(E, coords, FOUND_K), found)
        chart_with_table(charts.scatter(coords, vocab, vocab, colour=colour, size=layout.chart_px(), **rings,
                                        title=f"t-SNE at iteration {step:,} (perplexity {perplexity})",
                                        labels=True, priority=priority, xtitle="", ytitle=""),
                         pd.DataFrame({"word": vocab, "x": coords[:, 0], "y": coords[:, 1]}),
                         key="proj_motion_table")
        st.caption(("Early exaggeration: for the first "
                    f"{EXAGGERATION_ITER} iterations neighbours are pulled together 12 times harder, "
                    "so tight clumps form first and the KL divergence can even rise."
                    if step <= EXAGGERATION_ITER else
                    "After the early exaggeration the clumps spread out to their final places.")
                   + " The axes follow the picture's size, which grows from almost nothing. Every frame "
                   "is turned the way the finished picture is, so the last one is the still t-SNE "
                   "picture above for the same perplexity and seed. Labels: the most frequent words "
                   "first, where they fit.")

    frame()
