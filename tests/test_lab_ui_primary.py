"""lab_ui.lesson.primary names every screen of the lesson, and only keys the browser test can find."""
import pytest

from lab_ui.lesson.primary import BY_SCREEN, PRIMARY, SIDE_BY_SIDE, primary_of
from lab_ui.screens.registry import HOME, SCREENS, Screen


def test_every_screen_of_the_lesson_names_its_primary_controls():
    assert list(PRIMARY) == [s.file for s in SCREENS]
    without = [f for f, pairs in PRIMARY.items() if not pairs]
    assert without == [HOME.file]            # only Home has nothing to move


def test_a_screen_added_to_the_registry_without_its_primary_row_is_refused():
    new = Screen("lab_ui/screens/new_idea.py", "11. A new idea", ":material/star:", "new_")
    with pytest.raises(ValueError, match="no primary controls for \\['new_idea'\\]"):
        primary_of([*SCREENS, new])
    with pytest.raises(ValueError, match="rows for no screen: \\['lookup'\\]"):
        primary_of([s for s in SCREENS if s.name != "lookup"])
    with_row = primary_of([*SCREENS, new], {**BY_SCREEN, "new_idea": [("knob", "answer")]})
    assert with_row[new.file] == [("new_knob", "new_answer")]


def test_keys_are_the_screens_own_keys():
    for screen in SCREENS:
        for control, result in PRIMARY[screen.file]:
            assert control.startswith(screen.prefix) and result.startswith(screen.prefix)
    assert PRIMARY["lab_ui/screens/train/train.py"][0] == ("train_d_model", "train_loss")


def test_keys_are_plain_css_class_names():
    keys = [k for pairs in PRIMARY.values() for pair in pairs for k in pair]
    keys += [k for pairs in SIDE_BY_SIDE.values() for pair in pairs for k in pair]
    assert all(k.replace("_", "").isalnum() for k in keys), keys
