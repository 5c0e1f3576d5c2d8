"""AppTest: the Train screen's tabs (Replay, Compare, Negative sampling, Export,
and the word-groups result) show core's numbers for their own inputs."""
import numpy as np
import pytest

from core import budget
from core.corpus import GUIDE_TEXT, Corpus
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.generated import ambiguous_position, generate_corpus, group_recovery
from lab_ui.widgets.presets import SOFTMAX_SETTINGS
from lab_ui.screens.train.train_controls import TRAIN_VOCAB_CAP
from core.negsampling import NegSamplingConfig, compare_objectives
from core.projection import aligned_frames, pca
from core.similarity import cosine_matrix, nearest
from core.skipgram import SkipGramConfig, loss_floor, train
from core.vectors import Vectors
from tests.app.conftest import assert_clean, open_screen
from tests.app.values import (assert_close, chart_titled, charts, charts_with, download, download_holds, has_number,
                              metric, move, table, text_with, texts)

REPLAY, COMPARE, OBJECTIVES, EXPORT = ("Replay training", "Compare runs",
                                       "Negative sampling", "Export")


def run(text=GUIDE_TEXT, d_model=4, lr=0.5, window=2, steps=3000, seed=0):
    corpus = Corpus.from_text(text, window=window, max_vocab=TRAIN_VOCAB_CAP)
    return corpus, train(corpus, SkipGramConfig(d_model=d_model, lr=lr, steps=steps, seed=seed,
                                                 snapshot_every=max(1, steps // 60)))


@pytest.mark.parametrize("step", [None, 0, 1250])
def test_replay_frame_shows_its_own_step(step):
    at = open_screen("train", train_tab=REPLAY)
    if step is not None:
        at.select_slider(key="train_replay_step").set_value(step).run()
        assert_clean(at)
    corpus, r = run()
    frames = aligned_frames(r.snapshots, r.snapshot_steps)
    shown = at.select_slider(key="train_replay_step").value
    assert shown == (3000 if step is None else step)
    i = list(frames.steps).index(shown)
    head = text_with(at, r"\*\*Step ")
    assert has_number(head, shown, 0) and has_number(head, r.losses[shown], 3)
    assert has_number(head, 100 * frames.kept[i], 0)
    xy = table(at, "x")
    assert list(xy["word"]) == corpus.vocab
    assert_close(xy[["x", "y"]].to_numpy(), frames.coords[i])
    pts = charts_with(at, "x")[0].rows("x").set_index("word").loc[corpus.vocab]
    assert_close(pts[["x", "y"]].to_numpy(), frames.coords[i])
    S = cosine_matrix(r.snapshots[i])
    heat = table(at, "word", "cat")
    assert_close(heat[corpus.vocab].to_numpy(), S)
    cells = charts_with(at, "cosine")[0].rows("cosine")
    idx = {w: j for j, w in enumerate(corpus.vocab)}
    assert_close(cells["cosine"], [S[idx[a], idx[b]] for a, b in zip(cells["row"], cells["column"])])


CMP = {"defaults": {}, "d_model": {"d": 3}, "window": {"w": 4}, "lr": {"lr": 0.2}}


@pytest.mark.parametrize("name", list(CMP))
def test_compare_runs_are_each_computed_from_their_own_settings(name):
    c = CMP[name]
    keys = {"d": ("slider", "train_cmp_d_model"), "w": ("slider", "train_cmp_window"),
            "lr": ("select_slider", "train_cmp_lr")}
    at = move(open_screen("train", train_tab=COMPARE), *[(*keys[k], v) for k, v in c.items()],
              ("selectbox", "train_cmp_word", "dog"))
    corpus_a, a = run()
    corpus_b, b = run(d_model=c.get("d", 4), window=c.get("w", 2), lr=c.get("lr", 0.5))    # B starts as A
    assert metric(at, "A, final loss") == f"{a.final_loss:.3f}"
    assert metric(at, "B, final loss") == f"{b.final_loss:.3f}"
    delta = [m for m in at.metric if m.label == "B, final loss"][0].proto.delta
    if "w" in c or not c:   # different floors (no "vs A" on the losses), or B is A (nothing to compare)
        assert not delta
    else:
        assert has_number(delta, b.final_loss - a.final_loss, 3)
    curves = table(at, "step")
    names = [col for col in curves.columns if col != "step"]
    assert names[0].startswith("A:") and names[1].startswith("B:")
    assert_close(curves[names[0]].to_numpy()[: len(a.losses)], a.losses)
    assert_close(curves[names[1]].to_numpy()[: len(b.losses)], b.losses)
    lines = charts(at)[0].rows("step")
    for line, r in zip(names, (a, b)):
        pts = lines[lines["line"] == line]
        assert_close(pts["loss"], r.losses[pts["step"].to_numpy()])
    floors = [d for d in charts(at)[0].data.values() if "step" not in d.columns][0]
    assert_close(sorted(floors["loss"]), sorted({loss_floor(corpus_a), loss_floor(corpus_b)}))
    nn = table(at, "A: neighbour")
    dog = corpus_a.vocab.index("dog")
    for col, r in (("A", a), ("B", b)):
        want = nearest(r.E, dog, k=5)
        assert list(nn[f"{col}: neighbour"]) == [corpus_a.vocab[j] for j, _ in want], col
        assert_close(nn[f"{col}: cosine"], [x for _, x in want], 2)


@pytest.mark.parametrize("k, epochs", [(None, None), (3, 40)])
def test_objectives_table(k, epochs):
    at = open_screen("train", train_tab=OBJECTIVES)
    if k is not None:
        at.slider(key="train_ns_negatives").set_value(k).run()
        at.slider(key="train_ns_epochs").set_value(epochs).run()
    assert_clean(at)
    k, epochs = k or 5, epochs or 100
    corpus = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    cmp = compare_objectives(corpus, SkipGramConfig(),
                             NegSamplingConfig(d_model=4, lr=1.0, epochs=epochs, batch_size=64,
                                               negatives=k, seed=0))
    t = table(at, "objective")
    assert list(t["objective"]) == ["full softmax", f"negative sampling, K = {k}"]
    assert_close(t["cross-entropy (one scale)"], [cmp.softmax_loss, cmp.negsampling_loss], 3)
    assert list(t["words scored per pair"]) == [cmp.softmax_scores_per_pair, cmp.negsampling_scores_per_pair]
    assert cmp.negsampling_scores_per_pair == k + 1 and cmp.softmax_scores_per_pair == corpus.V
    caption = text_with(at, r"50,257")
    assert has_number(caption, cmp.negsampling_scores_per_pair, 0)
    assert has_number(caption, 50_257 // cmp.negsampling_scores_per_pair, 0)


def test_objectives_with_the_generated_groups():
    at = open_screen("train", train_source="Word groups (generated)", train_tab=OBJECTIVES,
                     train_d_model="8", train_steps="250")
    assert_clean(at)
    g = generate_corpus()
    corpus = Corpus.from_text(g.text, window=2, max_vocab=TRAIN_VOCAB_CAP)
    epochs = 10 if corpus.n_pairs > 2000 else 100
    cmp = compare_objectives(corpus, SkipGramConfig(d_model=8, steps=250),
                             NegSamplingConfig(d_model=8, lr=1.0, epochs=epochs, batch_size=64,
                                               negatives=5, seed=0), groups=g.groups)
    t = table(at, "objective")
    assert_close(t["group recovery"], [cmp.softmax_recovery.overall, cmp.negsampling_recovery.overall], 3)
    assert_close(t["cross-entropy (one scale)"], [cmp.softmax_loss, cmp.negsampling_loss], 3)


@pytest.mark.parametrize("query", [{}, {"train_d_model": "6", "train_window": "3", "train_lr": "0.2",
                                        "train_steps": "500", "train_seed": "4"}])
def test_export_files_hold_this_run(query):
    at = open_screen("train", train_tab=EXPORT, **query)
    s = dict(d_model=int(query.get("train_d_model", 4)), lr=float(query.get("train_lr", 0.5)),
             window=int(query.get("train_window", 2)), steps=int(query.get("train_steps", 3000)),
             seed=int(query.get("train_seed", 0)))
    corpus, r = run(**s)
    vectors, meta = projector_tsv(r.E, corpus.vocab)
    assert download_holds(download(at, "Table (CSV)"), table_csv(r.E, corpus.vocab), "text/csv",
                          "embedding_table.csv")
    assert download_holds(download(at, "vectors.tsv"), vectors, "text/tab-separated-values", "vectors.tsv")
    assert download_holds(download(at, "metadata.tsv"), meta, "text/tab-separated-values", "metadata.tsv")
    assert download_holds(download(at, "PCA coordinates (CSV)"), coords_csv(pca(r.E, k=2).coords, corpus.vocab),
                          "text/csv", "pca_coordinates.csv")
    code = snippet(SkipGramConfig(d_model=s["d_model"], lr=s["lr"], steps=s["steps"], seed=s["seed"]),
                   s["window"], GUIDE_TEXT)
    assert at.code[0].value == code.rstrip("\n")      # st.code drops the last newline
    assert download_holds(download(at, "Download the snippet"), code, "text/x-python", "recreate_run.py")
    # the snippet, run, recreates the exported table
    scope: dict = {}
    exec(code, scope)
    E = next(v for v in scope.values() if hasattr(v, "E")).E
    np.testing.assert_array_equal(E, r.E)


def test_groups_result_on_the_generated_text():
    s = SOFTMAX_SETTINGS
    at = open_screen("train", train_source="Word groups (generated)", train_d_model=str(s.d_model),
                     train_lr=str(s.lr), train_steps=str(s.steps))
    assert_clean(at)
    g = generate_corpus()
    corpus, r = run(text=g.text, d_model=s.d_model, lr=s.lr, steps=s.steps)
    rec = group_recovery(Vectors(corpus.vocab, r.E), g.groups, k=3)
    pos = ambiguous_position(Vectors(corpus.vocab, r.E), g.groups, g.ambiguous, *g.ambiguous_groups)
    assert metric(at, "group recovery (k = 3)") == f"{rec.overall:.2f}"
    assert metric(at, "by pure chance") == f"{rec.chance:.2f}"
    a, b = g.ambiguous_groups
    assert metric(at, f"“{g.ambiguous}”: cos to {a} / {b}") == f"{pos.centroid_a:.2f} / {pos.centroid_b:.2f}"
    per_word = table(at, "nearest group words")
    assert list(per_word["word"]) == list(rec.per_word)
    assert_close(per_word["recovery"], list(rec.per_word.values()))
    bars = charts_with(at, "recovery")[0].rows("recovery")
    assert list(bars["group"]) == list(rec.per_group)
    assert_close(bars["recovery"], list(rec.per_group.values()))
    bank = table(at, "group", "cosine")
    assert list(bank["group"]) == list(pos.to_centroid)
    assert_close(bank["cosine"], list(pos.to_centroid.values()))


@pytest.mark.parametrize("settings, verdict", [
    ({}, "leans to the river meaning"),                                   # the screen's own defaults
    ({"d_model": 12, "lr": 1.0, "steps": 2000}, "leans to the money meaning"),    # the text's settings
    ({"d_model": 2, "lr": 1.0, "steps": 2000}, "fully in neither")])
def test_the_bank_caption_reads_the_bars(settings, verdict):
    """The sentence under the "bank vs each group's centre" bars says which centre is closest and
    whether the row leans to a meaning, from the bars' own cosines (it once said "between the two,
    fully in neither" beside river 0.91, money 0.74)."""
    from core.senses import sense_lean
    query = {f"train_{k}": str(v) for k, v in settings.items()}
    at = open_screen("train", train_source="Word groups (generated)", **query)
    assert_clean(at)
    bars = table(at, "group", "cosine")
    cos = dict(zip(bars["group"], bars["cosine"]))
    caption = text_with(at, "has one row for both its meanings")
    closest = sorted(cos, key=lambda g: -cos[g])[:3]
    assert ", then ".join(f"{g} ({cos[g]:.2f})" for g in closest) in caption
    assert verdict in caption
    gap = cos["river"] - cos["money"]
    assert ("fully in neither" in caption) == (abs(gap) <= 0.05)
    if abs(gap) > 0.05:
        assert f"leans to the {'river' if gap > 0 else 'money'} meaning" in caption
    g = generate_corpus()
    defaults = SkipGramConfig()
    corpus, r = run(text=g.text, d_model=settings.get("d_model", defaults.d_model), lr=settings.get("lr", defaults.lr),
                    steps=settings.get("steps", defaults.steps))
    lean = sense_lean(ambiguous_position(Vectors(corpus.vocab, r.E), g.groups, g.ambiguous, *g.ambiguous_groups))
    assert lean.ranking[0][0] == closest[0] and lean.gap == pytest.approx(gap)


@pytest.mark.parametrize("window_b", [2, 3, 1])
def test_compare_runs_with_different_windows_compares_distances_above_the_floors(window_b):
    """B's window sets B's floor (window 3: about 2.05 against 1.70 for A's window 2), so the
    screen compares each run's distance above its own floor, and says so; with one window the
    two losses compare directly."""
    at = move(open_screen("train", train_tab=COMPARE), ("slider", "train_cmp_window", window_b))
    assert_clean(at)
    corpus_a, a = run()
    corpus_b, b = run(window=window_b)               # B starts as A: only its window moved
    floor_a, floor_b = loss_floor(corpus_a), loss_floor(corpus_b)
    labels = [m.label for m in at.metric]
    if window_b == 2:
        assert "B, above its floor" not in labels
        assert not [t for t in texts(at) if "different floors" in t]
        return
    gap_a, gap_b = a.final_loss - floor_a, b.final_loss - floor_b
    assert metric(at, "A, above its floor") == f"{gap_a:.3f}"
    assert metric(at, "B, above its floor") == f"{gap_b:.3f}"
    delta = [m for m in at.metric if m.label == "B, above its floor"][0].proto.delta
    assert has_number(delta, gap_b - gap_a, 3)
    said = text_with(at, "different floors")
    for value in (floor_a, floor_b, gap_a, gap_b):
        assert has_number(said, value, 3), (value, said)
    assert f"different windows (2 and {window_b})" in said
    assert f"B ends {'closer to' if gap_b < gap_a else 'further from'} its floor than A" in said


@pytest.mark.parametrize("source, query", [("Word groups (generated)", {}),
                                           ("Word groups (generated)", {"train_d_model": "12", "train_lr": "1.0",
                                                                         "train_steps": "2000"}),
                                           (None, {"train_d_model": "8"})])
def test_pca_reading_shares_add_up_and_match_the_title(source, query):
    """The PCA caption's two shares and the lost rest add up to 100%, the kept share is the one in
    the picture's title, and each is within 1 point of core's exact share (it once read 39% and 31%,
    "the other 29%")."""
    import re
    at = open_screen("train", **({"train_source": source} if source else {}), **query)
    assert_clean(at)
    reading = text_with(at, r"PCA lays the")
    first, second = (float(x) for x in re.search(r"([\d.]+)% and ([\d.]+)% of the spread", reading).groups())
    rest = float(re.search(r"other ([\d.]+)% is lost", reading).group(1))
    kept = int(re.search(r"keeps (\d+)%", chart_titled(at, "This flat picture keeps").title).group(1))
    assert round(first + second) == kept
    assert first + second + rest == pytest.approx(100)
    text = generate_corpus().text if source else GUIDE_TEXT
    corpus, r = run(text=text, d_model=int(query.get("train_d_model", 4)), lr=float(query.get("train_lr", 0.5)),
                    steps=int(query.get("train_steps", 3000)))
    e = pca(r.E, k=2).explained
    for shown, exact in ((first, e[0]), (second, e[1]), (rest, 1 - e.sum())):
        assert abs(shown - 100 * exact) <= 1


def test_the_objectives_table_shows_three_decimals_in_every_row():
    """1.713 beside 1.890, not beside 1.89: the loss and seconds columns have one format."""
    import json
    at = open_screen("train", train_tab=OBJECTIVES)
    assert_clean(at)
    frame = [d for d in at.dataframe if "objective" in d.value.columns][0]
    config = json.loads(frame.proto.columns)
    for column in ("cross-entropy (one scale)", "seconds"):
        assert config[column]["type_config"]["format"] == "%.3f", column
    assert config["_index"]["hidden"] is True                  # no 0, 1 row numbers beside the names
    shown = ["%.3f" % x for x in frame.value["cross-entropy (one scale)"]]
    assert shown[0] == "1.713" and all(len(s.split(".")[1]) == 3 for s in shown)


def test_objectives_say_so_when_only_the_softmax_run_blew_up():
    """A learning rate of 20 blows the softmax run up; negative sampling has its own (1.0)."""
    at = open_screen("train", train_tab=OBJECTIVES, train_lr="20.0")
    assert_clean(at)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    cmp = compare_objectives(corpus, SkipGramConfig(lr=20.0),
                             NegSamplingConfig(d_model=4, lr=1.0, epochs=100, batch_size=64, negatives=5, seed=0))
    assert cmp.softmax.diverged and not cmp.negsampling.diverged
    assert any("One of the two runs blew up" in e.value for e in at.error)
    assert not [d for d in at.dataframe if "objective" in d.value.columns]


def test_objectives_refuse_what_does_not_fit_and_say_what_would():
    at = open_screen("train", train_source="Word groups (generated)", train_tab=OBJECTIVES, train_d_model="8",
                     train_ns_negatives="20", train_ns_epochs="100")
    assert_clean(at)
    corpus = Corpus.from_text(generate_corpus().text, window=2, max_vocab=TRAIN_VOCAB_CAP)
    softmax = budget.skipgram_work(corpus.V, 8, SkipGramConfig().steps)
    work = softmax + budget.negsampling_work(corpus.V, corpus.n_pairs, 8, 20, 100)
    assert work > budget.BUDGET
    most = budget.max_negsampling_epochs(corpus.V, corpus.n_pairs, 8, 20, budget.BUDGET - softmax)
    assert 0 < most < 100
    refusal = " ".join(w.value for w in at.warning)
    assert f"at most {most:,} epochs with K = 20" in refusal and "Nothing was trained." in refusal
    assert not [d for d in at.dataframe if "objective" in d.value.columns]


def test_objectives_train_both_runs_from_the_seed_above():
    at = open_screen("train", train_tab=OBJECTIVES, train_seed="3", train_d_model="5")
    assert_clean(at)
    corpus = Corpus.from_text(GUIDE_TEXT, window=2, max_vocab=TRAIN_VOCAB_CAP)
    cmp = compare_objectives(corpus, SkipGramConfig(seed=3, d_model=5),
                             NegSamplingConfig(d_model=5, lr=1.0, epochs=100, batch_size=64, negatives=5, seed=3))
    other = compare_objectives(corpus, SkipGramConfig(seed=3, d_model=5),
                               NegSamplingConfig(d_model=5, lr=1.0, epochs=100, batch_size=64, negatives=5, seed=0))
    assert round(other.negsampling_loss, 3) != round(cmp.negsampling_loss, 3)    # the seed shows
    t = table(at, "objective")
    assert_close(t["cross-entropy (one scale)"], [cmp.softmax_loss, cmp.negsampling_loss], 3)


def test_run_b_s_width_goes_up_to_32():
    at = open_screen("train", train_tab=COMPARE)
    assert (at.slider(key="train_cmp_d_model").min, at.slider(key="train_cmp_d_model").max) == (1, 32)
