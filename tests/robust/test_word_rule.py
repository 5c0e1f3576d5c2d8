"""The Unicode word rule (core.corpus), script by script (issue 19).

Before the rule, combining marks, zero-width non-joiners and length-changing case
mappings cut words into fragments that were trained and exported without a word."""
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.corpus import GUIDE_TEXT, Corpus, normalise, text_changes, split_words
from core.skipgram import train


@pytest.mark.parametrize("script,text,words", [
    # Devanagari: virama (U+094D) and vowel signs are marks (Mn/Mc), inside the word.
    ("Devanagari", "नमस्ते दुनिया, हिन्दी भाषा", ["नमस्ते", "दुनिया", "हिन्दी", "भाषा"]),
    # Arabic with harakat (fatha, kasra, damma, shadda, sukun: Mn).
    ("Arabic", "كَتَبَ الطَّالِبُ الدَّرْسَ.", ["كَتَبَ", "الطَّالِبُ", "الدَّرْسَ"]),
    # Thai: vowel and tone marks are Mn; runs between spaces stay whole.
    ("Thai", "ภาษาไทย สวัสดี", ["ภาษาไทย", "สวัสดี"]),
    # Persian: the zero-width non-joiner is part of the word.
    ("Persian", "من می\u200cخواهم کتاب\u200cها را بخوانم", ["من", "می\u200cخواهم", "کتاب\u200cها", "را", "بخوانم"]),
    # Turkish dotted capital I: default folding gives i + U+0307, kept in one word.
    ("Turkish", "İstanbul ISTANBUL", ["i\u0307stanbul", "istanbul"]),
    # Decomposed accents read as the precomposed letters.
    ("decomposed", "Cafe\u0301 café CAFÉ", ["café", "café", "café"]),
    # Case folding that changes length.
    ("German", "Straße STRASSE straẞe", ["strasse", "strasse", "strasse"]),
    ("Greek", "ΟΔΟΣ οδος οδοσ", ["οδοσ", "οδοσ", "οδοσ"]),
    # Emoji (with their ZWJ sequences and skin tones) separate words and are dropped.
    ("emoji", "cat🐱dog 👩\u200d💻 coder 👍🏽 ❤️ 1\ufe0f\u20e3", ["cat", "dog", "coder", "1"]),
    # Mixed text: every script keeps its words; apostrophes and hyphens join.
    ("mixed", "The naïve café-owner said „Grüß Gott“ and नमस्ते — don't 123!",
     ["the", "naïve", "café-owner", "said", "grüss", "gott", "and", "नमस्ते", "don't", "123"]),
    # Compatibility forms: ligatures and full-width letters.
    ("compatibility", "ﬁsh ＡＢＣ", ["fish", "abc"]),
])
def test_words_per_script(script, text, words):
    assert split_words(text) == [unicodedata.normalize("NFC", w) for w in words], script


def test_no_word_starts_or_ends_with_a_joiner():
    for w in split_words("\u200cab\u200c \u200dcd\u200d -x- 'y' a\u200c\u200cb"):
        assert w[0] not in "\u200c\u200d'-" and w[-1] not in "\u200c\u200d'-", w


def test_reference_text_is_unchanged():
    assert split_words(GUIDE_TEXT) == GUIDE_TEXT.split()
    corpus = Corpus.from_text(GUIDE_TEXT)
    assert len(corpus.words) == 33 and corpus.V == 12
    r = train(corpus)
    assert round(float(r.losses[0]), 3) == 2.487 and round(float(r.losses[-1]), 3) == 1.713
    assert not text_changes(GUIDE_TEXT)


def test_text_changes_reports_what_was_rewritten_or_dropped():
    c = text_changes("ﬁsh Straße 🐱 e\u0301 ok")
    assert ("ﬁ", "fi") in c.normalised and ("ß", "ss") in c.normalised
    assert ("e\u0301", "é") in c.normalised
    assert c.dropped == ["🐱"] and c.n_dropped == 1
    assert not text_changes("plain ascii, with punctuation!")


def test_the_train_screen_warns_when_text_was_changed():
    from tests.app.conftest import assert_clean, open_screen, texts
    at = open_screen("train")
    at.radio(key="train_source").set_value("Paste your own text").run()
    at.text_area(key="train_text").input("ﬁsh and chips 🐟 Straße fish and chips").run()
    assert_clean(at)
    notes = texts(at)
    assert "fi" in notes and "ss" in notes and "🐟" in notes


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_words_are_normalised_and_made_of_word_characters(text):
    for w in split_words(text):
        assert w == normalise(w)                              # idempotent
        assert unicodedata.category(w[0])[0] in "LN"
        assert unicodedata.category(w[-1])[0] in "LMN"
    assert split_words(normalise(text)) == split_words(text)       # normalising first changes nothing
