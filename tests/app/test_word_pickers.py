"""AppTest: the Train screen's word pickers. The lesson's 12 words are picked with one click
(a row of buttons, ``st.pills``); a bigger vocabulary keeps the dropdown. Either way the
keys and a lesson link's words are the same, and the pickers are never empty. (That a pick
goes into the page's address is the browser's work: tests/browser/test_browser_train.py.)"""
from core.similarity import cosine_matrix, nearest
from lab_ui.widgets.pickers import PILL_WORDS
from tests.app.conftest import assert_clean, metric, open_screen
from tests.app.test_values_train import reference
from tests.app.values import table

KEYS = ("train_word", "train_w1", "train_w2")


def keyed(widgets) -> set[str]:
    return {w.key for w in widgets if w.key in KEYS}


def test_the_lessons_words_are_buttons_and_a_link_picks_them():
    at = open_screen("train", train_word="mat", train_w1="log", train_w2="the")
    assert keyed(at.button_group) == set(KEYS) and not keyed(at.selectbox)
    corpus, r = reference()
    assert corpus.V <= PILL_WORDS
    idx = {w: i for i, w in enumerate(corpus.vocab)}
    assert at.button_group(key="train_word").value == "mat"
    assert all(at.button_group(key=k).proto.required for k in KEYS)   # a word cannot be clicked off
    nn = table(at, "neighbour")
    assert list(nn["neighbour"]) == [corpus.vocab[j] for j, _ in nearest(r.E, idx["mat"], k=5)]
    S = cosine_matrix(r.E)
    assert metric(at, "cos(log, the)") == f"{S[idx['log'], idx['the']]:.2f}"


def test_a_pick_changes_the_cosine():
    at = open_screen("train")
    at.button_group(key="train_w2").set_value("mat").run()
    assert_clean(at)
    assert any(m.label == "cos(cat, mat)" for m in at.metric)


def test_a_picker_is_never_empty():
    at = open_screen("train")
    at.button_group(key="train_word").set_value(None).run()       # what a deselection would send
    assert_clean(at)
    corpus, r = reference()
    nn = table(at, "neighbour")
    want = nearest(r.E, corpus.vocab.index("cat"), k=5)           # the default word's neighbours
    assert list(nn["neighbour"]) == [corpus.vocab[j] for j, _ in want]


def test_a_bigger_vocabulary_keeps_the_dropdown_with_the_same_keys():
    at = open_screen("train", train_source="Word groups (generated)")
    assert metric(at, "vocabulary").replace(",", "").isdigit()
    assert int(metric(at, "vocabulary").replace(",", "")) > PILL_WORDS
    assert keyed(at.selectbox) == set(KEYS) and not keyed(at.button_group)
    before = list(table(at, "neighbour")["neighbour"])
    word = next(w for w in at.selectbox(key="train_word").options if w not in before + ["cat"])
    at.selectbox(key="train_word").set_value(word).run()
    assert_clean(at)
    after = list(table(at, "neighbour")["neighbour"])
    assert word not in after and after != before                  # the new word's neighbours


def test_a_picked_word_missing_from_a_new_bigger_text_falls_back_to_the_default():
    at = open_screen("train")
    at.button_group(key="train_word").set_value("mat").run()
    text = " ".join(f"alpha{i} beta{i} gamma{i}" for i in range(8)) + " the cat sat"
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.text_area(key="train_text").input(text).run()
    assert_clean(at)
    assert keyed(at.selectbox) == set(KEYS)
    assert at.selectbox(key="train_word").value == "cat"          # "mat" is not in this text
    at.run()                                                      # and the next run is clean too
    assert_clean(at)
