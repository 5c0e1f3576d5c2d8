"""AppTest: the reset button, the Next buttons in lesson order, and presenter mode's switch."""
import pytest

from tests.app.conftest import assert_clean, metric, open_screen
from lab_ui.lesson.presenter import RESET_LABEL
from lab_ui.screens.registry import SCREENS


def page_links(at):
    return [(e.proto.label, e.proto.page) for e in at.get("page_link")]


@pytest.mark.parametrize("i", range(len(SCREENS)))
def test_every_screen_ends_with_next_in_lesson_order(i):
    title = SCREENS[i].title
    at = open_screen(SCREENS[i].name)
    links = page_links(at)
    assert links, f"{title}: no page links"
    label, page = links[-1]
    if i + 1 < len(SCREENS):
        assert label == f"Next: {SCREENS[i + 1].title}", (title, links)
    else:
        assert label == "Back to the start: Home"


def test_train_reset_restores_the_lesson_run_and_a_clean_address():
    at = open_screen("train")
    at.slider(key="train_d_model").set_value(8).run()
    at.select_slider(key="train_lr").set_value(0.1).run()
    assert metric(at, "loss, step 3,000") != "1.713"
    at.button(key="train_reset").click().run()
    assert_clean(at)
    assert at.slider(key="train_d_model").value == 4
    assert at.select_slider(key="train_lr").value == 0.5
    assert metric(at, "loss, step 3,000") == "1.713"
    assert not any(k.startswith("train_") for k in at.query_params)


@pytest.mark.parametrize("screen, key, changed, default, reset", [
    ("similarity", "sim_u", "3, 4, 5", "1, 2, 2", "sim_reset"),
    ("limits", "limits_a", "cat", "the cat saw the dog", "limits_reset"),
    ("gradients", "grad_ids", "1, 2", "15, 824, 391", "grad_reset"),
    ("tokens", "tok_id", "42", "3331", "tok_reset"),
])
def test_reset_on_screens_with_inputs(screen, key, changed, default, reset):
    at = open_screen(screen)
    at.text_input(key=key).input(changed).run()
    assert at.text_input(key=key).value == changed
    button = at.button(key=reset)
    assert button.label == RESET_LABEL
    button.click().run()
    assert_clean(at)
    assert at.text_input(key=key).value == default


def test_presenter_link_parameter_turns_it_on_and_hides_nothing_of_the_lesson():
    at = open_screen("lookup", present="1")
    assert at.toggle(key="present_switch").value is True
    labels = [label for label, _ in page_links(at)]
    assert "Previous: Home" in labels and "Next: 2. Similarity" in labels
    # charts are drawn with presenter-size text
    import json
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["config"]["axis"]["labelFontSize"] >= 18
    # captions as large and dark as the body text, by one fixed page style
    from lab_ui.lesson.presenter import PRESENTER_CSS
    assert [h.proto.body for h in at.get("html") if "stCaptionContainer" in h.proto.body] == [PRESENTER_CSS]
    plain = open_screen("lookup")
    assert not [h for h in plain.get("html") if "stCaptionContainer" in h.proto.body]


def _datasets(chart) -> dict:
    """{dataset name: DataFrame} of a vega_lite_chart element (Streamlit ships the data apart
    from the spec, as Arrow)."""
    import pyarrow as pa

    return {d.name: pa.ipc.open_stream(d.data.data).read_pandas() for d in chart.proto.datasets}


def test_presenter_mode_labels_only_points_with_room_for_a_label():
    """Labelling every point piled labels on each other on a projector: in both modes a crowded
    picture (63 words) labels some points, not all; the browser test measures the drawn labels."""
    import json
    for present in (False, True):
        at = open_screen("projections", **({"present": "1"} if present else {}))
        chart = at.get("vega_lite_chart")[0]                     # the PCA picture, 63 words
        spec, data = json.loads(chart.proto.spec), _datasets(chart)
        points = data[spec["layer"][0]["data"]["name"]]
        labelled = set()
        for layer in spec["layer"][1:]:
            if (layer.get("mark") or {}).get("type") == "text":
                labelled |= set(data[layer["data"]["name"]]["word"])
        assert len(points) == 63
        assert 0 < len(labelled) < len(points)                   # crowded: only labels that fit


def test_the_switch_turns_presenter_mode_on_and_off_and_the_address_follows():
    """The switch's callback sets the mode and the address (so a copied link keeps it), not
    only the switch's own value."""
    from lab_ui.lesson.presenter import PRESENTER_CSS

    def styled(at):
        return [h.proto.body for h in at.get("html") if "stCaptionContainer" in h.proto.body] == [PRESENTER_CSS]

    at = open_screen("lookup")
    assert "present" not in at.query_params and not styled(at)
    at.toggle(key="present_switch").set_value(True).run()
    assert_clean(at)
    assert at.query_params.get("present") in ("1", ["1"]) and styled(at)
    at.toggle(key="present_switch").set_value(False).run()
    assert_clean(at)
    assert "present" not in at.query_params and not styled(at)
