"""lab_ui.widgets.readable: counts in words switch unit exactly at each power of a thousand, pinned exactly
(details mutation testing found loose: docs/quality.md)."""

import pytest

from lab_ui.widgets.readable import count_in_words as human


@pytest.mark.parametrize("n,text", [(1e12, "1 trillion"), (1e9, "1 billion"), (1e6, "1 million"),
                                    (1e3, "1 thousand"), (999, "999"), (999_999, "1 million"),
                                    (999_499, "999 thousand"), (-2.5e9, "-2.5 billion")])
def test_human_counts_switch_unit_exactly_at_the_power_of_a_thousand(n, text):
    assert human(n) == text
