"""Each screen's primary controls, the result each one changes, and the comparisons that sit
side by side: the list the classroom layout is built for and tested against
(tests/browser/test_browser_instrument.py moves every control at the classroom viewports and
checks that the control and at least half of its result are in view at once).

Names are element keys: a widget's key, or the key of the container that holds a result
(Streamlit gives the element the class ``st-key-<key>``). Both start with the screen's key
prefix, so ``BY_SCREEN`` names each screen by its name in the registry and each key without
its prefix; ``PRIMARY`` is built from ``lab_ui.screens.registry.SCREENS`` (the one list of
screens), in lesson order, and refuses a screen of the registry that has no row here.
"""
from __future__ import annotations

from typing import Sequence

from lab_ui.screens.registry import SCREENS, Screen

BY_SCREEN: dict[str, list[tuple[str, str]]] = {
    # screen name: [(control key, result key), ...], both after the screen's prefix
    "home": [],                                           # no controls: a table of contents
    "lookup": [("row", "main_1")],                        # the row -> one_hot(i) @ W and W[i]
    "similarity": [("scale", "metrics")],                 # stretch v -> dot, lengths, cosine
    "train": [("d_model", "loss"), ("lr", "loss"), ("window", "loss"), ("steps", "loss")],
    "pair": [("buttons", "stages")],                      # Next step -> the stage's numbers
    "cbow": [("d_model", "loss"), ("window", "loss")],
    "gradients": [("lr", "step")],                        # learning rate -> rows before/after
    "parameters": [("tied", "metrics")],
    "limits": [("b", "verdict")],                         # sentence B -> same mean or not
    "tokens": [("special", "chips")],
    "real_table": [("text", "shapes")],                   # the text -> X's shape and its rows
    "real_tokenizers": [("text", "counts")],              # the text -> each tokenizer's count
    "real_context": [("s0", "cosines")],                  # sentence 1 -> static and contextual cosines
    "projections": [("source", "pictures_0")],            # the first picture of the grid
    "analogies": [("window", "result"), ("d", "result")],
    "real_words": [("word", "word_metrics")],             # the word -> its rank and kept neighbours
    "position": [("kind", "places")],
    "own_vectors": [("perplexity", "pictures_1")],        # the t-SNE picture
}


def primary_of(screens: Sequence[Screen], controls: dict[str, list[tuple[str, str]]] = BY_SCREEN
               ) -> dict[str, list[tuple[str, str]]]:
    """Screen file -> [(control key, result key), ...], full keys (prefix + name), one row per
    screen of ``screens`` in their order. A screen without a row in ``controls`` (or a row
    for no screen) is an error naming it, so a new screen cannot be left out of the layout test."""
    names = [s.name for s in screens]
    missing = [n for n in names if n not in controls]
    unknown = [n for n in controls if n not in names]
    if missing or unknown:
        raise ValueError("lab_ui.lesson.primary.BY_SCREEN and the screen registry disagree: "
                         f"no primary controls for {missing}; rows for no screen: {unknown}.")
    return {s.file: [(s.prefix + control, s.prefix + result) for control, result in controls[s.name]]
            for s in screens}


PRIMARY = primary_of(SCREENS)

SIDE_BY_SIDE: dict[str, list[tuple[str, str]]] = {
    # screen path (with its settings): [(left block key, right block key), ...], at 1280 px
    # with the sidebar open
    "/projections": [("proj_pictures_0", "proj_pictures_1"), ("proj_pictures_2", "proj_pictures_3")],
    "/train": [("train_sim_0", "train_sim_1"), ("train_map_0", "train_map_1")],
    "/train?train_tab=Compare+runs": [("train_cmp_0", "train_cmp_1")],
    "/position": [("pos_places_0", "pos_places_1")],
}
