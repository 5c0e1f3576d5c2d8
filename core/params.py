"""How big is the embedding table? Pure arithmetic on Python integers (no overflow,
nothing allocated).

    table parameters = |V| * d_model

With an *untied* output projection (``lm_head``) the model holds a second
``|V| x d_model`` matrix; with *weight tying* (GPT-2) it reuses the table, so it
costs nothing extra. The table grows linearly with ``d_model``; each transformer
layer holds about ``12 * d_model^2`` parameters (attention 4 d^2, MLP 8 d^2), so
the table's share of the model shrinks as models grow.
"""
from __future__ import annotations

from dataclasses import dataclass

BYTES_PER_PARAM = {"fp32": 4, "fp16": 2, "bf16": 2, "int8": 1}
GPT2_VOCAB_SIZE = 50_257
"""Tokens in GPT-2's vocabulary: 256 bytes, 50,000 merges and <|endoftext|> (docs/lesson.md
section 1). GPT-3 uses the same tokenizer (Brown et al., 2020, section 2.1)."""
CALCULATOR_MAX_VOCAB = 10_000_000
"""Largest vocabulary the parameter arithmetic accepts (no model comes near it)."""
CALCULATOR_MAX_D_MODEL = 1_000_000
"""Largest width the parameter arithmetic accepts."""


@dataclass(frozen=True)
class Preset:
    """A released model with its published vocabulary, width and parameter count."""

    name: str
    vocab_size: int
    d_model: int
    n_layers: int
    total_params: int   # as published (exact for GPT-2 checkpoints, rounded for GPT-3)
    tied: bool
    source: str


PRESETS = [
    Preset("GPT-2 small", GPT2_VOCAB_SIZE, 768, 12, 124_439_808, True, "Radford et al., 2019"),
    Preset("GPT-2 medium", GPT2_VOCAB_SIZE, 1024, 24, 354_823_168, True, "Radford et al., 2019"),
    Preset("GPT-2 large", GPT2_VOCAB_SIZE, 1280, 36, 774_030_080, True, "Radford et al., 2019"),
    Preset("GPT-2 XL", GPT2_VOCAB_SIZE, 1600, 48, 1_557_611_200, True, "Radford et al., 2019"),
    Preset("GPT-3 Small", GPT2_VOCAB_SIZE, 768, 12, 125_000_000, True, "Brown et al., 2020, Table 2.1"),
    Preset("GPT-3 XL", GPT2_VOCAB_SIZE, 2048, 24, 1_300_000_000, True, "Brown et al., 2020, Table 2.1"),
    Preset("GPT-3 6.7B", GPT2_VOCAB_SIZE, 4096, 32, 6_700_000_000, True, "Brown et al., 2020, Table 2.1"),
    Preset("GPT-3 13B", GPT2_VOCAB_SIZE, 5140, 40, 13_000_000_000, True, "Brown et al., 2020, Table 2.1"),
    Preset("GPT-3 175B", GPT2_VOCAB_SIZE, 12_288, 96, 175_000_000_000, True, "Brown et al., 2020, Table 2.1"),
]
"""Released models, each with the source of its published figures."""


def preset(name: str) -> Preset:
    """Look a preset up by name.

    >>> preset("GPT-2 XL").d_model
    1600
    """
    for p in PRESETS:
        if p.name == name:
            return p
    raise KeyError(f"No preset called {name!r}.")


def _check(vocab_size: int, d_model: int) -> None:
    for value, label, top in ((vocab_size, "Vocabulary size", CALCULATOR_MAX_VOCAB),
                              (d_model, "d_model", CALCULATOR_MAX_D_MODEL)):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= top:
            raise ValueError(f"{label} must be a whole number from 1 to {top:,}.")


def embedding_params(vocab_size: int, d_model: int, tied: bool = True) -> int:
    """Parameters in the embedding table, plus the output projection if untied.

    >>> embedding_params(50_257, 768)
    38597376
    >>> embedding_params(50_257, 768, tied=False)
    77194752
    """
    _check(vocab_size, d_model)
    return vocab_size * d_model * (1 if tied else 2)


def share(part: int, total: int) -> float:
    """``part / total`` as a fraction.

    >>> round(100 * share(embedding_params(50_257, 768), 124_439_808), 1)
    31.0
    """
    if total <= 0:
        raise ValueError("The model's total must be positive.")
    return part / total


def memory_bytes(n_params: int, dtype: str = "fp32") -> int:
    """Bytes to store ``n_params`` numbers in ``dtype`` (fp32, fp16, bf16, int8).

    >>> memory_bytes(38_597_376, "fp16")
    77194752
    """
    return n_params * BYTES_PER_PARAM[dtype]


def gpt2_params(vocab_size: int, d_model: int, n_layers: int, n_ctx: int = 1024) -> int:
    """Total parameters of a GPT-2-style model with a tied output projection.

    table ``V d`` + positions ``n_ctx d`` + per layer (two LayerNorms ``4d``,
    attention ``4 d^2 + 4 d``, MLP ``8 d^2 + 5 d``) = ``12 d^2 + 13 d``, + final LayerNorm ``2d``.

    >>> gpt2_params(50_257, 768, 12)
    124439808
    """
    d = d_model
    return vocab_size * d + n_ctx * d + n_layers * (12 * d * d + 13 * d) + 2 * d


def layer_params(d_model: int) -> int:
    """About ``12 d^2`` parameters per transformer layer (attention 4 d^2, MLP 8 d^2).

    >>> layer_params(768)
    7077888
    """
    return 12 * d_model * d_model


def crossover_d_model(vocab_size: int) -> float:
    """The width where one layer (12 d^2) outweighs the whole table (|V| d): d = |V| / 12.

    >>> round(crossover_d_model(50_257))
    4188
    """
    return vocab_size / 12
