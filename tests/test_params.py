"""The parameter figures of docs/lesson.md section 7."""
import pytest

from core.params import (CALCULATOR_MAX_D_MODEL, CALCULATOR_MAX_VOCAB, PRESETS, crossover_d_model, embedding_params,
                         gpt2_params, layer_params, memory_bytes, preset, share)


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


def test_parameter_helpers_bounds_and_messages():
    V, d = CALCULATOR_MAX_VOCAB, CALCULATOR_MAX_D_MODEL
    assert embedding_params(1, 1) == 1 and embedding_params(V, d) == V * d
    with pytest.raises(ValueError, match=r"^Vocabulary size must be a whole number from 1 to 10,000,000\.$"):
        embedding_params(0, 4)
    with pytest.raises(ValueError, match=r"^d_model must be a whole number from 1 to 1,000,000\.$"):
        embedding_params(5, CALCULATOR_MAX_D_MODEL + 1)
    assert memory_bytes(10) == 40                          # fp32 by default
    assert share(3, 1) == 3.0
    with pytest.raises(ValueError, match=r"^The model's total must be positive\.$"):
        share(1, 0)
    with pytest.raises(KeyError, match="No preset called 'GPT-5'."):
        preset("GPT-5")
    assert layer_params(768) == 12 * 768 * 768 and layer_params(1) == 12
    assert crossover_d_model(50_257) == 50_257 / 12
