"""The parameter figures of docs/lesson.md section 7."""
import pytest

from core.params import (PRESETS, embedding_params, gpt2_params, memory_bytes, preset, share)


def test_gpt2_small():
    p = preset("GPT-2 small")
    n = embedding_params(p.vocab_size, p.d_model)
    assert n == 38_597_376
    assert p.total_params == 124_439_808
    assert f"{100 * share(n, p.total_params):.1f}%" == "31.0%"


def test_largest_gpt3():
    p = preset("GPT-3 175B")
    n = embedding_params(p.vocab_size, p.d_model)
    assert n == 617_558_016
    assert f"{100 * share(n, p.total_params):.2f}%" == "0.35%"


@pytest.mark.parametrize("p", [p for p in PRESETS if p.name.startswith("GPT-2")], ids=str)
def test_gpt2_published_totals_follow_from_the_architecture(p):
    assert gpt2_params(p.vocab_size, p.d_model, p.n_layers) == p.total_params


def test_share_shrinks_as_models_grow():
    shares = [share(embedding_params(p.vocab_size, p.d_model), p.total_params)
              for p in PRESETS if p.name.startswith("GPT-3")]
    assert shares == sorted(shares, reverse=True)


def test_xl_width():
    assert preset("GPT-2 XL").d_model == 1600


def test_untied_doubles_and_memory():
    assert embedding_params(50_257, 768, tied=False) == 2 * 38_597_376
    assert memory_bytes(38_597_376, "fp32") == 154_389_504
    assert memory_bytes(38_597_376, "int8") == 38_597_376


@pytest.mark.parametrize("v,d", [(0, 768), (10**12, 768), (50_257, 0), (-3, 4), (1.5, 4)])
def test_out_of_range_sizes_are_refused(v, d):
    with pytest.raises(ValueError, match="must be a whole number"):
        embedding_params(v, d)
