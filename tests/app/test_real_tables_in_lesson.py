"""AppTest: the lesson's Similarity, Projections, Analogies and Your own vectors screens on a
real table (item 6 of the real-models issue). The figures shown are checked against NumPy's own
arithmetic on the model file's rows, never against the code that drew them; the toy table stays
the default, so every existing figure of these screens holds (their own tests)."""
import numpy as np
import pytest

from core.pretrained import load_table
from tests.app.conftest import assert_clean, metric, open_screen, texts
from tests.real_models import get

GLOVE = "GloVe 6B 50d (real words)"
SMOLLM2 = "SmolLM2-135M's token table"


@pytest.fixture(scope="module")
def glove():
    return get(load_table, "glove-6b-50d")


@pytest.fixture(scope="module")
def smollm2():
    return get(load_table, "smollm2-135m")


def cos(u, v) -> float:
    u, v = np.asarray(u, np.float64), np.asarray(v, np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def test_similarity_defaults_to_the_toy_table():
    at = open_screen("similarity")
    radio = next(r for r in at.radio if r.key == "sim_table")
    assert radio.value == "the lesson's toy table"
    assert "the lesson's toy table (the Train screen's reference run)" in texts(at)


def test_similarity_on_glove(glove):
    at = open_screen("similarity", sim_table=GLOVE)
    want = cos(glove.vector("cat"), glove.vector("dog"))
    assert metric(at, "cosine of the two rows") == f"{want:.3f}"    # NumPy's cosine of the file's rows
    assert metric(at, "numbers per row") == "50"
    near = next(d.value for d in at.dataframe if "nearest to cat" in d.value.columns)
    E = np.asarray(glove.E, np.float64)
    u = E[glove.index["cat"]]
    sims = E @ u / (np.linalg.norm(E, axis=1) * np.linalg.norm(u))
    best = [j for j in np.argsort(-sims, kind="stable") if j != glove.index["cat"]][:5]
    assert near["nearest to cat"].tolist() == [f"{glove.labels[j]} {sims[j]:.2f}" for j in best]
    assert_clean(at)


def test_similarity_on_smollm2_gives_the_word_its_space(smollm2):
    at = open_screen("similarity", sim_table=SMOLLM2)
    want = cos(smollm2.vector(" cat"), smollm2.vector(" dog"))
    assert metric(at, "cosine of the two rows") == f"{want:.3f}"
    assert metric(at, "numbers per row") == "576"


def test_similarity_unknown_word_is_a_message(glove):
    at = open_screen("similarity", sim_table=GLOVE, sim_word_b="dgo")
    assert "not in the vocabulary" in texts(at) and "dog" in texts(at)
    assert_clean(at)


def test_projections_real_map_on_glove(glove):
    from core.projection import pca
    at = open_screen("projections", proj_source=GLOVE, proj_real_find="water")
    assert_clean(at)
    assert metric(at, "words on the map") == "5,000"
    X = np.asarray(glove.E[:5000], np.float64)
    p = pca(X, k=2)                                       # the core's SVD PCA, not the screen's eigh route
    assert metric(at, "spread the map keeps") == f"{100 * p.explained.sum():.0f}%"
    # the found word's 10 nearest by brute-force cosine among the 5,000 words, and whether the
    # map (the SVD PCA's coordinates) keeps each among its 10 nearest points
    i = glove.index["water"]
    sims = X @ X[i] / (np.linalg.norm(X, axis=1) * np.linalg.norm(X[i]))
    near = [j for j in np.argsort(-sims, kind="stable") if j != i][:10]
    d = np.linalg.norm(p.coords - p.coords[i], axis=1)
    d[i] = np.inf
    on_map = set(np.argsort(d, kind="stable")[:10].tolist())
    table = next(f.value for f in at.dataframe if "nearest by cosine" in f.value.columns)
    assert table["nearest by cosine"].tolist() == [glove.labels[j] for j in near]
    assert table["on the map"].tolist() == ["near" if j in on_map else "far" for j in near]
    assert len(at.get("deck_gl_json_chart")) == 1


def test_projections_word_outside_the_map_is_a_message(glove):
    assert glove.index["cat"] >= 5000                   # GloVe's 5,451st word
    at = open_screen("projections", proj_source=GLOVE, proj_real_find="cat")
    assert "not among the first 5,000 rows" in texts(at)
    at = open_screen("projections", proj_source=GLOVE, proj_real_find="watr")
    assert "not in the vocabulary" in texts(at)
    assert_clean(at)


def brute_analogy(table, words, a, b, c):
    """b - a + c over these words' unit rows by NumPy, the question's words left out."""
    U = np.asarray([table.vector(w) for w in words], np.float64)
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    ix = {w: i for i, w in enumerate(words)}
    t = U[ix[b]] - U[ix[a]] + U[ix[c]]
    sims = U @ t / np.linalg.norm(t)
    for w in (a, b, c):
        sims[ix[w]] = -np.inf
    return words[int(np.argmax(sims))]


def test_analogies_on_glove_score_the_same_questions(glove):
    from core.relations import RELATIONS, relation_questions
    at = open_screen("analogies", ana_table=GLOVE)
    assert_clean(at)
    vocab_caption = next(c.value for c in at.caption if c.value.startswith(GLOVE))
    assert "Nothing is trained here" in vocab_caption
    scores = next(d.value for d in at.dataframe if "questions" in d.value.columns)
    # every word of the relations is a GloVe word: the 30 questions of each relation, answered by
    # brute force among the made-up text's words that GloVe has
    text_words = [w for w in sorted({w for r in RELATIONS.values() for pair in r[2] for w in pair[:2]} |
                                    {w for r in RELATIONS.values() for side in r[:2] for w in side})]
    assert all(w in glove for w in text_words)
    answers = at.markdown
    shown_words = next(s for s in at.selectbox if s.key == "ana_a").options
    assert "man" in shown_words
    for name in RELATIONS:
        qs = relation_questions(name)
        row = scores[scores["questions"] == name].iloc[0]
        assert row["b - a + c"].endswith(f"of {len(qs)}")
    words = vocab_words(at)
    qs = relation_questions("country - capital")
    right = sum(brute_analogy(glove, words, a, b, c) == d for a, b, c, d in qs)
    assert scores[scores["questions"] == "country - capital"].iloc[0]["b - a + c"] == f"{right} of {len(qs)}"
    found = brute_analogy(glove, words, "man", "woman", "king")
    assert any(f"≈ **{found}**" in m.value for m in answers)


def vocab_words(at) -> list[str]:
    """The words the screen's real table holds: the 'From' choice of the direction panel lists them all."""
    return list(next(s for s in at.selectbox if s.key == "ana_axis_a").options)


def test_own_vectors_on_glove_commonest_words(glove):
    at = open_screen("own_vectors", own_table=GLOVE)
    assert_clean(at)
    assert metric(at, "rows") == "300"
    assert metric(at, "numbers per row") == "50"
    word = next(s for s in at.selectbox if s.key.startswith("own_word_"))
    assert word.options[:3] == glove.labels[:3]                 # GloVe's frequency order: the , .
    first = word.value
    E = np.asarray(glove.E[:300], np.float64)
    i = glove.labels.index(first)
    sims = E @ E[i] / (np.linalg.norm(E, axis=1) * np.linalg.norm(E[i]))
    best = [j for j in np.argsort(-sims, kind="stable") if j != i][:5]
    near = next(d.value for d in at.dataframe if list(d.value.columns) == ["word", "cosine"])
    assert near["word"].tolist() == [glove.labels[j] for j in best]
    np.testing.assert_allclose(near["cosine"], sims[best], atol=1e-6)


def test_own_vectors_on_smollm2_uses_the_words_with_their_space(glove, smollm2):
    at = open_screen("own_vectors", own_table=SMOLLM2)
    assert_clean(at)
    words = next(s for s in at.selectbox if s.key.startswith("own_word_")).options
    assert len(words) == 300
    assert all(" " + w in smollm2 for w in words)              # each is one SmolLM2 token " w"
    assert words == [w for w in glove.labels[:600] if " " + w in smollm2][:300]


@pytest.mark.parametrize("screen, target", [
    ("lookup", "real_table"),             # "GPT-2's rows have 768 numbers"
    ("similarity", "real_table"),         # dense rows: cat near dog, far from car
    ("tokens", "real_table"),             # one row for " bank"
    ("tokens", "real_tokenizers"),        # " bank" and "bank" are different ids
    ("limits", "real_context"),           # the same row by the river and at the lender
    ("analogies", "real_words"),
    ("parameters", "real_table"),
])
def test_lesson_claims_link_to_the_real_views(screen, target):
    at = open_screen(screen)
    pages = [e.proto.page for e in at.get("page_link")]
    assert any(p.endswith(target) for p in pages), pages


def _plain_chart_points(at):
    """The points of the Projections screen's plain (no WebGL) chart: one frame per layer."""
    import json

    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df
    found = []
    for chart in at.get("vega_lite_chart"):
        spec = json.loads(chart.proto.spec)
        frames = {d.name: convert_arrow_bytes_to_pandas_df(d.data.data) for d in chart.proto.datasets}
        layers = [frames[layer["data"]["name"]] for layer in spec.get("layer", []) if "data" in layer]
        if layers and {"word", "x", "y"} <= set(layers[0].columns):
            found.append(layers)
    assert len(found) <= 1
    return found[0] if found else None


def test_projections_plain_chart_draws_the_maps_points_without_webgl(glove):
    """The map's fallback for a browser without WebGL: the same 5,000 points as the core's
    map (the SVD PCA's coordinates, up to each axis's sign), and the found word with its 10
    nearest words (brute-force cosine), labelled."""
    from core.projection import pca
    at = open_screen("projections", proj_source=GLOVE, proj_real_find="water", proj_real_draw="Plain chart (no WebGL)")
    assert_clean(at)
    assert len(at.get("deck_gl_json_chart")) == 0
    dots, marked, labels = _plain_chart_points(at)
    assert len(dots) == 5000 and dots["word"].tolist() == glove.labels[:5000]
    p = pca(np.asarray(glove.E[:5000], np.float64), k=2)
    for axis, col in ((0, "x"), (1, "y")):
        shown_, want = dots[col].to_numpy(), p.coords[:, axis] / np.abs(p.coords).max()
        sign = np.sign(shown_ @ want)                        # PCA fixes an axis only up to its sign
        assert np.allclose(sign * shown_, want, atol=1e-4)
    X = np.asarray(glove.E[:5000], np.float64)
    i = glove.index["water"]
    sims = X @ X[i] / (np.linalg.norm(X, axis=1) * np.linalg.norm(X[i]))
    near = [j for j in np.argsort(-sims, kind="stable") if j != i][:10]
    assert marked["word"].tolist() == ["water"] + [glove.labels[j] for j in near]
    assert labels["word"].tolist() == marked["word"].tolist()


def test_projections_webgl_map_draws_the_plain_charts_points_in_pixels(glove):
    """The WebGL map's deck.gl spec: the same points as the plain chart and the table under it
    (y up in all three: the view does not flip y), and dots sized in pixels. pydeck turns a bare
    string into an accessor, so radius_units="pixels" became "@@=pixels" and deck.gl drew
    nothing (seen in Chromium)."""
    import json
    query = dict(proj_source=GLOVE, proj_real_find="water")
    deck = json.loads(open_screen("projections", **query).get("deck_gl_json_chart")[0].proto.json)
    assert [v["flipY"] for v in deck["views"]] == [False]
    scatter = [layer for layer in deck["layers"] if layer["@@type"] == "ScatterplotLayer"]
    assert len(scatter) == 2 and all(layer["radiusUnits"] == "pixels" for layer in scatter)
    assert scatter[0]["getPosition"] == "@@=[x, y]"
    on_deck = np.array([[d["x"], d["y"]] for d in scatter[0]["data"]])
    at = open_screen("projections", **query, proj_real_draw="Plain chart (no WebGL)")
    dots = _plain_chart_points(at)[0]
    assert np.allclose(on_deck, dots[["x", "y"]].to_numpy())
    table = next(f.value for f in at.dataframe if {"row", "word", "x", "y"} <= set(f.value.columns))
    scale = np.abs(table[["x", "y"]].to_numpy()).max()
    assert np.allclose(on_deck, table[["x", "y"]].to_numpy() / scale, atol=1e-6)
    assert [d["word"] for d in scatter[1]["data"]][0] == "water"


def test_projections_webgl_map_is_the_default(glove):
    at = open_screen("projections", proj_source=GLOVE)
    assert len(at.get("deck_gl_json_chart")) == 1
    assert _plain_chart_points(at) is None


def _intro(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("A table of many columns"))


def test_projections_intro_says_what_is_drawn(glove):
    """A real table is drawn once, by PCA; a toy table by PCA and t-SNE at each chosen perplexity
    (the intro counts them), never "four ways" for a real table."""
    real = _intro(open_screen("projections", proj_source=GLOVE))
    assert "drawn once, by PCA" in real and "four ways" not in real and "t-SNE" not in real
    at = open_screen("projections", proj_source="The lesson's 33 words")
    assert "drawn four ways: by PCA, and by t-SNE at each perplexity" in _intro(at)
    at.multiselect(key="proj_perplexities").set_value([10]).run()
    assert "drawn two ways: by PCA, and by t-SNE at the perplexity you picked" in _intro(at)
    at.multiselect(key="proj_perplexities").set_value([]).run()
    assert "drawn by PCA only" in _intro(at)
    assert_clean(at)
    assert at.title[0].value.startswith("8. Projections") and len(at.title) == 1


def test_projections_turns_off_the_tsne_settings_on_a_real_table(glove):
    """A real table is drawn by PCA only: its t-SNE perplexities and seed are shown switched off,
    and switched on again for a toy table."""
    for source, off in ((GLOVE, True), ("The lesson's 33 words", False)):
        at = open_screen("projections", proj_source=source)
        assert_clean(at)
        assert at.multiselect(key="proj_perplexities").disabled is off
        assert [t.disabled for t in at.text_input if t.label == "t-SNE seed"] == [off]


def test_projections_plain_chart_in_the_dark_theme_is_recoloured_with_its_text_alternative(glove):
    """The plain map is drawn as every other chart: on the dark page its spec gets the dark
    background, and a hidden image label, the chart's summary, comes just before it."""
    import json

    from streamlit.dataframe_util import convert_arrow_bytes_to_pandas_df

    from lab_ui.widgets.theme import BACKGROUND
    for dark in (True, False):
        query = dict(proj_source=GLOVE, proj_real_draw="Plain chart (no WebGL)", **({"theme": "dark"} if dark else {}))
        at = open_screen("projections", **query)
        assert_clean(at)
        layered = [c for c in at.get("vega_lite_chart") if "layer" in json.loads(c.proto.spec)]
        assert len(layered) == 1                                 # the plain map is the screen's one layered chart
        rows = [len(convert_arrow_bytes_to_pandas_df(d.data.data)) for d in layered[0].proto.datasets]
        assert 5000 in rows                                      # its points, sent beside the spec
        spec = json.loads(layered[0].proto.spec)
        assert spec.get("config", {}).get("background") == (BACKGROUND if dark else None)
        alts = [h.proto.body for h in at.get("html") if 'class="chart-alt"' in h.proto.body]
        assert any('aria-label="Scatter map. Its numbers (row, word, x, y)' in a for a in alts), alts
