"""The one list of the app's screens, in lesson order.

Each screen is one row: its script (the path Streamlit runs, from app/), its title in the
navigation, its icon, and the prefix every widget key of the screen starts with (the reset
button forgets a screen's settings by it, the lesson-link builder lists a screen's controls by
it; Home has none). The router builds its navigation from ``SCREENS``, presenter mode its
Previous / Next buttons, lesson links their prefixes, and the tests their list of screens; a
new screen is one row here (and its primary controls in ``lab_ui.lesson.primary.BY_SCREEN``,
under its name: ``PRIMARY`` is built from ``SCREENS`` and refuses a screen without its row).
"""
from __future__ import annotations

from pathlib import PurePosixPath
from typing import NamedTuple


class Screen(NamedTuple):
    file: str      # the script, from app/: what st.Page and AppTest.switch_page take
    title: str     # in the navigation and on the Previous / Next buttons
    icon: str
    prefix: str    # every widget key of the screen starts with it ("" for Home: no controls)

    @property
    def name(self) -> str:
        """The script's name without .py: the page's address (``/train``)."""
        return PurePosixPath(self.file).stem


SCREENS = [
    Screen("lab_ui/screens/home.py", "Home", ":material/home:", ""),
    Screen("lab_ui/screens/lookup.py", "1. Lookup", ":material/table_rows:", "lookup_"),
    Screen("lab_ui/screens/similarity.py", "2. Similarity", ":material/explore:", "sim_"),
    Screen("lab_ui/screens/train/train.py", "3. Train", ":material/model_training:", "train_"),
    Screen("lab_ui/screens/pair.py", "3b. One pair, step by step", ":material/footprint:", "pair_"),
    Screen("lab_ui/screens/cbow.py", "3c. CBOW next to skip-gram", ":material/compare:", "cbow_"),
    Screen("lab_ui/screens/gradients.py", "4. Gradients", ":material/gradient:", "grad_"),
    Screen("lab_ui/screens/parameters.py", "5. Parameters", ":material/calculate:", "params_"),
    Screen("lab_ui/screens/limits.py", "6. Limits", ":material/block:", "limits_"),
    Screen("lab_ui/screens/tokens.py", "7. Tokens: bank", ":material/toll:", "tok_"),
    Screen("lab_ui/screens/real_table.py", "7b. A real model's table", ":material/table_view:", "rt_"),
    Screen("lab_ui/screens/real_tokenizers.py", "7c. Tokenizers side by side", ":material/view_column:", "rtok_"),
    Screen("lab_ui/screens/real_context.py", "7d. Static against contextual", ":material/join_inner:", "rc_"),
    Screen("lab_ui/screens/projections.py", "8. Projections", ":material/scatter_plot:", "proj_"),
    Screen("lab_ui/screens/analogies.py", "8b. Analogies and directions", ":material/compare_arrows:", "ana_"),
    Screen("lab_ui/screens/real_words.py", "8c. Real word vectors (GloVe)", ":material/dictionary:", "rw_"),
    Screen("lab_ui/screens/position.py", "9. Position", ":material/format_list_numbered:", "pos_"),
    Screen("lab_ui/screens/own_vectors.py", "10. Your own vectors", ":material/upload_file:", "own_"),
]
HOME = SCREENS[0]
BY_FILE = {s.file: s for s in SCREENS}
BY_NAME = {s.name: s for s in SCREENS}


def file_of(name: str) -> str:
    """The script of the screen called ``name`` (``"train"`` -> its path from app/)."""
    return BY_NAME[name].file


def neighbours(current_file: str) -> tuple[Screen | None, Screen | None]:
    """The screens before and after ``current_file`` in lesson order (an unknown file counts
    as Home)."""
    files = [s.file for s in SCREENS]
    i = files.index(current_file) if current_file in files else 0
    return (SCREENS[i - 1] if i > 0 else None), (SCREENS[i + 1] if i + 1 < len(SCREENS) else None)
