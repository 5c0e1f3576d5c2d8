"""AppTest: every screen's controls come from the page address; a link can hide controls; a
value a screen cannot use falls back with a notice; the sidebar builds the link."""
import pytest

from tests.app.conftest import assert_clean, open_screen
from tests.app.values import metric
from lab_ui.lesson.links import KEY_RULE, label_of
from lab_ui.screens.registry import BY_NAME, SCREENS

# (screen, {key: value in the link}, how to read the widget, the value it must show)
LINKS = [
    ("similarity", {"sim_u": "3, 4", "sim_v": "4, 3", "sim_scale": "2.5"}, "slider", "sim_scale", 2.5),
    ("lookup", {"lookup_row": "2"}, "slider", "lookup_row", 2),
    ("gradients", {"grad_ids": "1, 2, 2", "grad_lr": "0.5"}, "text_input", "grad_ids", "1, 2, 2"),
    ("position", {"pos_kind": "Learned, before training", "pos_width": "4"}, "radio", "pos_kind",
     "Learned, before training"),
    ("analogies", {"ana_window": "2", "ana_a": "france", "ana_b": "paris", "ana_c": "japan"}, "selectbox", "ana_c", "japan"),
    ("tokens", {"tok_special": "false"}, "toggle", "tok_special", False),
    ("projections", {"proj_source": "The lesson's 33 words", "proj_find": "dog"}, "text_input", "proj_find", "dog"),
]


@pytest.mark.parametrize("screen, query, kind, key, value", LINKS, ids=[c[0] for c in LINKS])
def test_a_link_opens_the_screen_in_its_state(screen, query, kind, key, value):
    at = open_screen(screen, **query)
    assert_clean(at)
    assert getattr(at, kind)(key=key).value == value
    assert not at.warning


def test_the_link_state_reaches_the_numbers():
    at = open_screen("similarity", sim_u="3, 4", sim_v="4, 3")
    assert metric(at, "cosine") == "0.960"          # 24 / 25


def test_an_unusable_value_falls_back_with_a_notice():
    at = open_screen("similarity", sim_scale="99")
    assert_clean(at)
    assert at.slider(key="sim_scale").value == 1.0
    assert "sim\\_scale" in at.warning[0].value and "using 1\\.0" in at.warning[0].value


def test_hide_hides_the_chosen_keys_and_names_what_it_cannot_use():
    at = open_screen("similarity", hide="sim_scale,sim_metrics,not a key!")
    assert_clean(at)
    styles = [h.proto.body for h in at.get("html") if ".st-key-" in h.proto.body and "display: none" in h.proto.body]
    assert styles == ["<style>.st-key-sim_scale, .st-key-sim_metrics {display: none !important;}</style>"]
    assert at.slider(key="sim_scale").value == 1.0           # hidden, still working
    assert any("not a key!" in w.value.replace("\\", "") for w in at.warning)


def test_the_sidebar_builds_a_link_from_this_screens_controls():
    at = open_screen("similarity")
    assert not at.sidebar.multiselect, "a closed box builds nothing"
    at.session_state["links_builder"] = True                    # the teacher opens the box
    at.run()
    chooser = at.sidebar.multiselect(key="links_hide_choice")
    assert {"Vector u", "Vector v", "Stretch v by"} <= set(chooser.options)      # by label, not by key
    assert not [o for o in chooser.options if o.endswith(("_png", "_svg")) or o.startswith("sim_")]
    chooser.set_value(["sim_scale"]).run()
    assert "hide=sim_scale" in at.sidebar.code[0].value


def test_the_link_builder_leaves_out_the_chart_tables_boxes():
    """A chart's closed table box keeps its state under ``<key>_box``: not a control to hide."""
    at = open_screen("similarity", tables=False)
    at.session_state["links_builder"] = True
    at.run()
    boxes = {k for k in at.session_state if str(k).startswith("sim_") and str(k).endswith("_box")}
    assert "sim_onehot_table_box" in boxes
    options = at.sidebar.multiselect(key="links_hide_choice").options
    assert {"Vector u", "Vector v", "Stretch v by"} <= set(options)
    assert not boxes & set(options)
    # the one option that names a table is the table choice itself (a control: sim_table)
    assert [o for o in options if "table" in o.lower()] == ["Table"]


def test_a_custom_model_from_a_link():
    at = open_screen("parameters", params_preset="Custom", params_vocab_Custom="32000", params_d_Custom="4096")
    assert_clean(at)
    assert metric(at, "embedding table |V| x d_model") == "131,072,000"


def _widget_labels(at) -> dict[str, str]:
    """Every keyed widget's label, as the screen drew it."""
    from streamlit.testing.v1.element_tree import Widget
    found: dict[str, str] = {}

    def walk(node):
        for child in getattr(node, "children", {}).values():
            if isinstance(child, Widget) and child.key and getattr(child, "label", None):
                found[child.key] = child.label
            walk(child)
    walk(at._tree)
    return found


@pytest.mark.parametrize("page", sorted(s.name for s in SCREENS if s.prefix))
def test_the_link_builder_lists_controls_by_their_labels(page):
    """Issue 28: the builder listed raw keys (``train_w1``, ``train_find``). Each control of
    the screen is offered under the label the screen gives it, and the whole link is shown,
    wrapped onto as many lines as it needs, in a code box (which has a copy button)."""
    at = open_screen(page, tables=False)
    at.session_state["links_builder"] = True
    at.run()
    options = at.sidebar.multiselect(key="links_hide_choice").options
    prefix = BY_NAME[page].prefix
    drawn = {k: label for k, label in _widget_labels(at).items()        # the reset button and the
             if k.startswith(prefix) and not k.endswith(("_reset", "_png", "_svg"))    # files: no control
             and KEY_RULE.match(k)}                  # hide= names only keys its rule accepts
    assert drawn and set(drawn.values()) <= set(options), (drawn, options)
    keys = {str(k) for k in at.session_state if str(k).startswith(prefix)}
    assert not keys & set(options), "a raw widget key offered"
    assert not [o for o in options if "…" in o]
    assert {label_of(k) for k in drawn} == set(drawn.values())
    code = at.sidebar.code[0]
    assert code.proto.wrap_lines
