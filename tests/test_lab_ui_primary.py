"""lab_ui.lesson.primary names every screen of the lesson, and only keys the browser test can find."""
from lab_ui.screens.registry import HOME, SCREENS
from lab_ui.lesson.primary import PRIMARY, SIDE_BY_SIDE


def test_every_screen_of_the_lesson_names_its_primary_controls():
    assert list(PRIMARY) == [s.file for s in SCREENS]
    without = [f for f, pairs in PRIMARY.items() if not pairs]
    assert without == [HOME.file]            # only Home has nothing to move


def test_keys_are_plain_css_class_names():
    keys = [k for pairs in PRIMARY.values() for pair in pairs for k in pair]
    keys += [k for pairs in SIDE_BY_SIDE.values() for pair in pairs for k in pair]
    assert all(k.replace("_", "").isalnum() for k in keys), keys
