"""AppTest: the Projections screen (PCA vs t-SNE, honesty scores, rotation, context preview)."""
from tests.app.conftest import assert_clean, metric, open_screen, texts


def scores(at):
    return [d.value for d in at.dataframe if "neighbours kept (%)" in d.value.columns][0]


def test_four_pictures_with_scores():
    at = open_screen("projections")
    assert len(at.get("vega_lite_chart")) >= 6
    s = scores(at)
    assert s["picture"].tolist() == ["PCA", "t-SNE, perplexity 2", "t-SNE, perplexity 5",
                                     "t-SNE, perplexity 30"]
    assert s["neighbours kept (%)"].between(0, 100).all()


def test_perplexity_choice_changes_the_pictures_and_small_tables_clamp():
    at = open_screen("projections")
    at.multiselect(key="proj_perplexities").set_value([10]).run()
    assert_clean(at)
    assert scores(at)["picture"].tolist() == ["PCA", "t-SNE, perplexity 10"]
    at.radio(key="proj_source").set_value("The lesson's 33 words").run()
    at.multiselect(key="proj_perplexities").set_value([2, 30]).run()
    assert_clean(at)
    assert "lowered to 11.0" in texts(at)
    at.multiselect(key="proj_perplexities").set_value([]).run()
    assert_clean(at)
    assert scores(at)["picture"].tolist() == ["PCA"]


def test_rotation_keeps_cosines_and_changes_columns():
    at = open_screen("projections")
    assert metric(at, "largest change of any cosine") == "below 0.000001"
    assert metric(at, "numbers of the table that changed") == "100%"
    at.slider(key="proj_rotation").set_value(0).run()
    assert metric(at, "numbers of the table that changed") == "0%"


def test_context_preview_separates_the_two_senses():
    at = open_screen("projections")
    df = [d.value for d in at.dataframe if "vector" in d.value.columns][0]
    cos = {(r.vector, r.group): r.cosine for r in df.itertuples()}
    assert cos[("mixed, in river sentences", "river")] > cos[("mixed, in river sentences", "money")]
    assert cos[("mixed, in money sentences", "money")] > cos[("mixed, in money sentences", "river")]
    assert "not attention" in texts(at)
