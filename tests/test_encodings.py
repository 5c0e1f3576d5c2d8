"""core.tokenizer.encoding: the real tokenizers, against tiktoken's own encodings (built by
tiktoken_ext's constructors from the same ranks files), the lesson's GPT-2 ids, and SmolLM2's ids
from the reference implementation (transformers' GGUF tokenizer; tests/fixtures/real_model_reference.json)."""
import gzip
import hashlib
import importlib.util
import json
from pathlib import Path

import pytest
import tiktoken
import tiktoken_ext.openai_public as openai_public

from core.encodings import OPENAI, EncodingUnavailable, byte_alphabet, token_label
from core.tokenizer import ENCODINGS, encoding
from tests.real_models import get

REFERENCE = json.loads((Path(__file__).parent / "fixtures" / "real_model_reference.json").read_text())
TEXTS = ["The cat sat on the", "He sat on the river bank.", "She got a bank loan.", "naïve café — 日本語 🙂",
         "In 2024, 12345 cats can't   fly!\n\n\tDon't they?  ", "<|endoftext|> is text here", ""]


def test_gpt2_gives_the_lessons_ids():
    enc = encoding("gpt2")
    assert enc.encode(" bank") == [3331] and enc.encode(" cat") == [3797] and enc.encode(" Cat") == [5181]
    assert enc.encode("He sat on the river bank.") == [1544, 3332, 319, 262, 7850, 3331, 13]
    assert enc.encode("She got a bank loan.") == [3347, 1392, 257, 3331, 8063, 13]
    assert enc.encode("The cat sat on the") == [464, 3797, 3332, 319, 262]


def _tiktoken_own(name, monkeypatch, tmp_path):
    """tiktoken's own constructor for ``name``, with its download replaced by bpe-openai's file,
    unzipped and read by tiktoken's own loader (after checking tiktoken's own expected hash)."""
    from tiktoken.load import load_tiktoken_bpe

    folder = Path(importlib.util.find_spec("bpe_openai").submodule_search_locations[0]) / "data"
    plain = tmp_path / f"{name}.tiktoken"
    plain.write_bytes(gzip.decompress((folder / OPENAI[name][0]).read_bytes()))
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")                  # no cache written anywhere

    def local(url, expected_hash):
        assert hashlib.sha256(plain.read_bytes()).hexdigest() == expected_hash
        return load_tiktoken_bpe(str(plain), expected_hash)

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", local)
    return tiktoken.Encoding(**getattr(openai_public, name)())


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_openai_encodings_equal_tiktokens_own(name, monkeypatch, tmp_path):
    ours = get(encoding, name)
    theirs = _tiktoken_own(name, monkeypatch, tmp_path)
    assert ours.tiktoken._pat_str == theirs._pat_str
    assert ours.tiktoken._special_tokens == theirs._special_tokens and ours.n_vocab == theirs.n_vocab
    for text in TEXTS:
        ids = theirs.encode(text, disallowed_special=())
        assert ours.encode(text) == ids and ours.decode(ids) == text


def test_known_ids_of_the_openai_encodings():
    assert get(encoding, "cl100k_base").encode(" bank") == [6201]
    assert get(encoding, "o200k_base").encode(" bank") == [6922]


def test_smollm2_tokenizer_matches_the_reference_implementation():
    enc = get(encoding, "smollm2-135m")
    for case in REFERENCE["smollm2_ids"]:
        assert enc.encode(case["text"]) == case["ids"], case["text"]
        assert enc.decode(case["ids"]) == case["text"]
    assert enc.encode(" bank") == [5461] and enc.n_vocab == 49_152


def test_special_tokens_typed_by_a_user_are_plain_text():
    for name in ENCODINGS:
        enc = get(encoding, name)
        ids = enc.encode("<|endoftext|>")
        assert len(ids) > 1 and enc.decode(ids) == "<|endoftext|>"


def test_an_unknown_tokenizer_is_a_clear_error():
    with pytest.raises(ValueError, match="Unknown tokenizer 'llama-9'; the tokenizers are gpt2, cl100k_base"):
        encoding("llama-9")
    assert issubclass(EncodingUnavailable, RuntimeError)


def test_the_byte_alphabet_is_gpt2s():
    """GPT-2's published bytes_to_unicode: 188 printable bytes stand for themselves, the rest
    from U+0100 in byte order; a GGUF token's label is its bytes as text."""
    a = byte_alphabet()
    assert sum(a[b] == chr(b) for b in range(256)) == 188 and a[0] == "Ā" and a[0xAD] == "Ń"
    assert token_label("ĠĠ") == "  " and token_label("Ċ") == "\n" and token_label("ðŁĻĤ") == "🙂"
