"""Each screen's primary controls, the result each one changes, and the comparisons that sit
side by side: the list the classroom layout is built for and tested against
(tests/browser/test_browser_instrument.py moves every control at the classroom viewports and
checks that the control and at least half of its result are in view at once).

Names are element keys: a widget's key, or the key of the container that holds a result
(Streamlit gives the element the class ``st-key-<key>``).
"""
from __future__ import annotations

PRIMARY: dict[str, list[tuple[str, str]]] = {
    # screen file: [(control key, result key), ...]
    "lab_ui/screens/home.py": [],                                   # no controls: a table of contents
    "lab_ui/screens/lookup.py": [("lookup_row", "lookup_main_1")],  # the row -> one_hot(i) @ W and W[i]
    "lab_ui/screens/similarity.py": [("sim_scale", "sim_metrics")],  # stretch v -> dot, lengths, cosine
    "lab_ui/screens/train/train.py": [("train_d_model", "train_loss"), ("train_lr", "train_loss"),
                           ("train_window", "train_loss"), ("train_steps", "train_loss")],
    "lab_ui/screens/pair.py": [("pair_buttons", "pair_stages")],    # Next step -> the stage's numbers
    "lab_ui/screens/cbow.py": [("cbow_d_model", "cbow_loss"), ("cbow_window", "cbow_loss")],
    "lab_ui/screens/gradients.py": [("grad_lr", "grad_step")],      # learning rate -> rows before/after
    "lab_ui/screens/parameters.py": [("params_tied", "params_metrics")],
    "lab_ui/screens/limits.py": [("limits_b", "limits_verdict")],   # sentence B -> same mean or not
    "lab_ui/screens/tokens.py": [("tok_special", "tok_chips")],
    "lab_ui/screens/real_table.py": [("rt_text", "rt_shapes")],     # the text -> X's shape and its rows
    "lab_ui/screens/real_tokenizers.py": [("rtok_text", "rtok_counts")],   # the text -> each tokenizer's count
    "lab_ui/screens/real_context.py": [("rc_s0", "rc_cosines")],    # sentence 1 -> static and contextual cosines
    "lab_ui/screens/projections.py": [("proj_source", "proj_pictures_0")],   # the first picture of the grid
    "lab_ui/screens/analogies.py": [("ana_window", "ana_result"), ("ana_d", "ana_result")],
    "lab_ui/screens/real_words.py": [("rw_word", "rw_word_metrics")],   # the word -> its rank and kept neighbours
    "lab_ui/screens/position.py": [("pos_kind", "pos_places")],
    "lab_ui/screens/own_vectors.py": [("own_perplexity", "own_pictures_1")],   # the t-SNE picture
}

SIDE_BY_SIDE: dict[str, list[tuple[str, str]]] = {
    # screen path (with its settings): [(left block key, right block key), ...], at 1280 px
    # with the sidebar open
    "/projections": [("proj_pictures_0", "proj_pictures_1"), ("proj_pictures_2", "proj_pictures_3")],
    "/train": [("train_sim_0", "train_sim_1"), ("train_map_0", "train_map_1")],
    "/train?train_tab=Compare+runs": [("train_cmp_0", "train_cmp_1")],
    "/position": [("pos_places_0", "pos_places_1")],
}
