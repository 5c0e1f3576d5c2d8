"""The Train screen's controls: the row of sliders that builds the run's ``SkipGramConfig``
(one entry of ``CONTROLS`` per setting; the CBOW screen draws the same row), the corpus
chooser, and the link notice.

Each control's widget key is ``train_<field>`` and is bound to the page address, so the
shareable link, the reset button's defaults and the link notice all follow ``CONTROLS``:
a new setting needs its config field and one entry here, nothing else on the screen."""
from __future__ import annotations

from dataclasses import dataclass, fields

import streamlit as st

from lab_ui.widgets import layout
from lab_ui.server.bigtext_jobs import is_big
from lab_ui.widgets.common import error, plain
from lab_ui.widgets.inputs import whole_input
from lab_ui.widgets.parse import InputError, parse_whole
from lab_ui.widgets.paste_guard import TEXT_AREA_LIMIT
from lab_ui.lesson.links import named
from lab_ui.widgets.presets import SOFTMAX_SETTINGS

from core.bigtext import MAX_SOFTMAX_VOCAB
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.generated import generate_corpus
from core.run import RunRequest
from core.skipgram import SkipGramConfig
from core.textfile import NotTextError, decode_text

LR_OPTIONS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0]
STEP_OPTIONS = [0, 100, 250, 500, 1000, 2000, 3000, 5000]
MAX_CORPUS_CHARS = 20_000
"""The full softmax's texts are cut here (its pairs and V x V pictures grow with the text)."""
TRAIN_VOCAB_CAP = MAX_SOFTMAX_VOCAB
"""The Train screen's full softmax keeps at most this many distinct words (rarer ones become
<unk>); texts with more are trained with word2vec instead (core.bigtext)."""


def train_request(text: str, window: int, config: SkipGramConfig) -> RunRequest:
    """The Train screen's run: the full softmax on the text (at most TRAIN_VOCAB_CAP words),
    its steps cut to the server's budget when they do not fit (onto a Steps slider value)."""
    return RunRequest("softmax", text, config, window, max_vocab=TRAIN_VOCAB_CAP, fit_budget=True,
                      step_options=tuple(STEP_OPTIONS))
MAX_TEXT_MB = 5
"""Largest own text, uploaded or pasted (.streamlit/config.toml server.maxUploadSize matches)."""
MAX_TEXT_CHARS = MAX_TEXT_MB * 1_000_000
PASTE_MAX_CHARS = TEXT_AREA_LIMIT
"""Longest text the own-text box takes (the paste guard's limit for every box: a browser
laying out 300 KB in a text box froze its tab for 104 s); a longer text is uploaded."""
SOURCES = ["The lesson's 33 words", "Word groups (generated)", "Paste your own text"]
GENERATED = SOURCES[1]
PASTED = SOURCES[2]
TABS = ["Result", "Replay training", "Compare runs", "Negative sampling", "Export"]
"""The tabs under the run's figures; each name is also its value in the page address
(``train_tab=...``). Short enough that all five fit the main area at 853 px with the sidebar open."""
OLD_TAB_NAMES = {"Compare two runs": "Compare runs", "Softmax vs negative sampling": "Negative sampling"}
"""Earlier names of the tabs, as older links carry them -> today's names."""
"""The lesson's window: two words on each side (a corpus setting, not a training one)."""


@dataclass(frozen=True)
class Slider:
    """A slider over whole numbers ``low .. high``."""

    label: str
    low: int
    high: int
    help: str

    def show(self, where, key: str, default):
        return where.slider(self.label, self.low, self.high, default, key=named(key, self.label), bind="query-params",
                            help=self.help)


@dataclass(frozen=True)
class Choice:
    """A slider over a fixed list of values."""

    label: str
    options: tuple
    help: str

    def show(self, where, key: str, default):
        return where.select_slider(self.label, self.options, default, key=named(key, self.label), bind="query-params",
                                   help=self.help)


@dataclass(frozen=True)
class WholeBox:
    """A text box for a whole number (``lab_ui.widgets.inputs.whole_input``; a typo falls back to the
    default, with a warning)."""

    label: str
    low: int
    high: int
    help: str

    def show(self, where, key: str, default):
        return whole_input(self.label, self.low, self.high, default, key, where=where, fallback=default,
                           bind="query-params", help=self.help)


# In screen order: a SkipGramConfig field (or "window") -> the widget that sets it.
CONTROLS: dict[str, Slider | Choice | WholeBox] = {
    "d_model": Slider("d_model", 1, 32, "The vector width: how many numbers each word's vector has."),
    "lr": Choice("Learning rate", tuple(LR_OPTIONS), "How big each update step is. Too big and "
                 "training blows up."),
    "window": Slider("Window", 1, 5, "How many words on each side count as neighbours."),
    "steps": Choice("Steps", tuple(STEP_OPTIONS), "Number of full-batch gradient-descent updates."),
    "seed": WholeBox("Seed", 0, 1_000_000, "Which random starting table, from 0 to 1,000,000. "
                     "Same seed, same run."),
}
LESSON_DEFAULTS = {**{f.name: f.default for f in fields(SkipGramConfig)}, "window": GUIDE_WINDOW}
"""Each control's starting value: the lesson's reference run (SkipGramConfig's defaults)."""


def lesson_run(prefix: str = "train") -> dict:
    """The reference run as the values of the widgets of ``run_controls(bar, prefix)`` (the
    reset button's defaults; a WholeBox holds its text)."""
    return {f"{prefix}_{name}": (str(LESSON_DEFAULTS[name]) if isinstance(control, WholeBox)
                                 else LESSON_DEFAULTS[name]) for name, control in CONTROLS.items()}


LESSON_RUN = {**lesson_run("train"), "train_source": SOURCES[0], "train_tab": "Result"}
"""The Train screen's reference run as the values of the widgets bound to the page address."""


def control_px(control) -> int:
    """The width of a control's block: 8 px or more a slider step, its label on one line."""
    if isinstance(control, Slider):
        return layout.slider_px(control.high - control.low)
    if isinstance(control, Choice):
        return layout.slider_px(len(control.options) - 1)
    return layout.MIN_CONTROL


def run_controls(bar, prefix: str = "train") -> tuple[SkipGramConfig, int]:
    """The row of sliders, drawn in ``bar`` (the screen's controls bar, ``layout.controls_bar``):
    the training config they set, and the corpus window. Every screen that trains the full-batch
    models draws these same widgets, keyed ``<prefix>_<field>`` (the Train screen: ``train_``)."""
    values = {name: control.show(layout.control(bar, control_px(control)), f"{prefix}_{name}",
                                 LESSON_DEFAULTS[name])
              for name, control in CONTROLS.items()}
    window = values.pop("window")
    return SkipGramConfig(**values), window


def seed_control(where) -> int:
    """The Seed box alone (the big-text path shows it beside word2vec's settings)."""
    return CONTROLS["seed"].show(where, "train_seed", LESSON_DEFAULTS["seed"])


def keep_hidden_controls() -> None:
    """Keep the full softmax's settings while its sliders are hidden (a big text is chosen):
    Streamlit forgets a widget's value in a run that does not draw it, and a student who goes
    back to a small text should find the sliders as they left them."""
    for name in CONTROLS:
        key = f"train_{name}"
        if name != "seed" and key in st.session_state:
            st.session_state[key] = st.session_state[key]


def corpus_controls() -> tuple[str, str]:
    """Let the user pick the training text; return it and a note on anything changed."""
    src = st.radio("Training text", SOURCES, horizontal=True, key="train_source", bind="query-params")
    if src == SOURCES[0]:
        st.caption(f"“{GUIDE_TEXT}”")
        return GUIDE_TEXT, ""
    if src == GENERATED:
        g = generated()
        st.caption(f"{len(g.sentences)} short sentences written by the app's own generator from "
                   f"{len(g.groups)} known word groups ("
                   + ", ".join(g.groups) + f"). The word “{g.ambiguous}” is used in both river "
                   "sentences and money sentences. First lines: “"
                   + " / ".join(g.sentences[:4]) + " …”")
        st.button("Use the settings that suit this text", on_click=_use_generated_settings,
                  key="train_use_generated",
                  help=f"d_model {SOFTMAX_SETTINGS.d_model}, learning rate {SOFTMAX_SETTINGS.lr:g}, "
                       f"{SOFTMAX_SETTINGS.steps:,} steps")
        return g.text, ""
    return own_text()


def own_text() -> tuple[str, str]:
    """An uploaded .txt file or pasted text, at most MAX_TEXT_CHARS characters."""
    upload = st.file_uploader(f"Upload a .txt file (up to {MAX_TEXT_MB} MB)", type=["txt"],
                              key="train_upload")
    text = st.text_area(
        f"… or paste your text (up to {PASTE_MAX_CHARS:,} characters; upload a longer one as a file; "
        f"lower-cased, punctuation dropped). Up to {TRAIN_VOCAB_CAP} different words: the lesson's full "
        f"softmax trains on the first {MAX_CORPUS_CHARS:,} characters; more different words: word2vec "
        "trains on all of it",
        GUIDE_TEXT, height=120, key="train_text", max_chars=PASTE_MAX_CHARS)
    notes = []
    if upload is not None:
        raw = upload.getvalue()
        try:
            text, encoding = decode_text(raw, f"The file “{upload.name}”")
        except NotTextError as err:
            error(f"{err} Or remove it to train on the text in the box.")
            st.stop()
        notes.append(f"Using the uploaded file “{plain(upload.name)}” ({len(raw) / 1e6:.2f} MB, read as "
                     f"{encoding}); the text box is ignored while a file is loaded.")
    if len(text) >= MAX_TEXT_CHARS:
        notes.append(f"The text reaches the limit of {MAX_TEXT_CHARS:,} characters; anything "
                     f"beyond it was cut.")
        text = text[:MAX_TEXT_CHARS]
    if not is_big(text) and len(text) > MAX_CORPUS_CHARS:
        notes.append(f"Your text has {len(text):,} characters; only the first {MAX_CORPUS_CHARS:,} are used.")
        text = text[:MAX_CORPUS_CHARS]
    return text, " ".join(notes)


BOUND = {**{f"train_{name}": control.label.lower() for name, control in CONTROLS.items()},
         "train_source": "training text"}
"""The settings a link carries (widget key -> how the link notice names it)."""


def link_values() -> dict[str, list[str]]:
    """The bound settings as the page's address gave them (read before the widgets run)."""
    return {k: st.query_params.get_all(k) for k in BOUND if st.query_params.get_all(k)}


def used_value(key: str):
    """The value a bound setting has in this run: a text box's (the seed's) as read, or the
    default it falls back to when what it holds is not a whole number in its range."""
    value = st.session_state.get(key)
    name = key.removeprefix("train_")
    control = CONTROLS.get(name)
    if isinstance(control, WholeBox):
        try:
            return parse_whole(str(value), control.label, control.low, control.high)
        except InputError:
            return LESSON_DEFAULTS[name]
    return value


def _same(raw: str, value) -> bool:
    try:
        return float(raw) == float(value)
    except (TypeError, ValueError):
        return raw == str(value)


def link_notice(given: dict[str, list[str]]) -> None:
    """Say which values from a shared link could not be used (Streamlit drops them quietly
    and falls back to the default)."""
    dropped = []
    for key, raw in given.items():
        value = used_value(key)
        if len(raw) > 1 or not _same(raw[0], value):
            shown = plain(", ".join(repr(r[:30]) for r in raw[:3]))
            dropped.append(f"{BOUND[key]} = {shown} (using {value})")
    if dropped:
        st.warning("Some settings in this link are not valid and were replaced by the defaults: "
                   + "; ".join(dropped) + ".")


@st.cache_data(max_entries=1, show_spinner=False)
def generated():
    """The built-in corpus with known groups (deterministic)."""
    return generate_corpus()


def _use_generated_settings() -> None:
    st.session_state["train_d_model"] = SOFTMAX_SETTINGS.d_model
    st.session_state["train_lr"] = SOFTMAX_SETTINGS.lr
    st.session_state["train_steps"] = SOFTMAX_SETTINGS.steps
    st.session_state["train_window"] = GUIDE_WINDOW
