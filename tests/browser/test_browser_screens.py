"""Every screen of the sidebar, opened as a user opens it: by clicking its link.

The list of screens comes from the sidebar itself, so a screen added to the router is tested
without touching this file (for an unknown screen: no exception, no error, no sideways scroll).
"""
import pytest

from .helpers import ARTIFACTS, slug

pytestmark = pytest.mark.browser

# Minimum number of drawn Vega-Lite charts each screen shows at its default settings
# (charts in closed tabs or expanders are not counted). Screens not listed here are only
# checked for exceptions, error messages and sideways scrolling.
MIN_CHARTS = {
    "Home": 0,
    "1. Lookup": 2,        # initial values as ticks, first 300 steps of training
    "2. Similarity": 1,    # one-hot heatmap (the arrows only show for 2-number vectors)
    "3. Train": 3,         # loss curve, cosine heatmap, PCA map (the Result tab)
    "3b. One pair, step by step": 0,
    "3c. CBOW next to skip-gram": 1,   # both loss curves on one chart
    "4. Gradients": 0,
    "5. Parameters": 3,    # memory bars, share bars, growth lines
    "6. Limits": 0,
    "7. Tokens: bank": 0,
    "8. Projections": 4,   # PCA and t-SNE pictures, at least
    "8b. Analogies and directions": 1,   # the words on a direction
    "9. Position": 1,      # the cosine between sinusoidal positions
    "10. Your own vectors": 3,   # heatmap, PCA and t-SNE of the lesson's table (the default)
}
# The screens the lesson cannot do without; the sidebar must offer each of them.
REQUIRED = ["Home", "1. Lookup", "2. Similarity", "3. Train", "4. Gradients", "5. Parameters",
            "6. Limits", "7. Tokens: bank"]


def test_every_screen_opens_cleanly(app):
    app.goto("/")
    links = app.nav_links()
    titles = [t for t, _ in links]
    assert len(links) >= len(REQUIRED), f"expected at least {len(REQUIRED)} screens in the sidebar, got {titles}"
    missing = [t for t in REQUIRED if t not in titles]
    assert not missing, f"screens missing from the sidebar: {missing} (sidebar: {titles})"

    # Start on the first screen (already open); visit the others by clicking, then come back.
    order = links[1:] + links[:1]
    report = {}
    for title, href in order:
        app.open_screen(title, href)
        problems = app.problems(MIN_CHARTS.get(title))
        app.note_spills(title)
        app.full_page_screenshot(ARTIFACTS / f"{slug(href)}.png")
        if problems:
            report[title] = problems
    assert not report, "Screens with problems:\n" + "\n".join(
        f"- {t}:\n    " + "\n    ".join(p) for t, p in report.items())
