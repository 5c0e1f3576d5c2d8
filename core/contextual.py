"""Contextual vectors: all-MiniLM-L6-v2's forward pass (a 6-layer BERT, 384 wide) in NumPy.

A static table gives a token one row whatever surrounds it. The layers above the table mix
every position with the others, so the vector they output for " bank" depends on the sentence.
This module computes those vectors from the model's own weights (``model.safetensors``, read
with safetensors' NumPy API; no torch), following BERT (Devlin et al., 2019) exactly:

    x_0  = LayerNorm(W_tok[ids] + W_pos[0..n-1] + W_type[0])                  (n, 384)
    for each of the 6 layers:
        q, k, v = x W_q + b_q, x W_k + b_k, x W_v + b_v, split in 12 heads    (12, n, 32) each
        A    = softmax(q k^T / sqrt(32))                                       (12, n, n)
        x    = LayerNorm(x + concat_heads(A v) W_o + b_o)                      (n, 384)
        x    = LayerNorm(x + GELU(x W_1 + b_1) W_2 + b_2)                      (n, 384), W_1 (384, 1536)
    GELU(z) = z * (1 + erf(z / sqrt(2))) / 2       (config.json: "hidden_act": "gelu", the exact one)
    LayerNorm(x) = (x - mean) / sqrt(var + 1e-12) * gamma + beta, over each row

The sentence vector of all-MiniLM-L6-v2 is the mean of the last layer's rows, scaled to length 1
(its ``1_Pooling`` and ``Normalize`` modules).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from core.pretrained import checked, load_table, reader_module
from core.wordpiece import WordPiece

MAX_TOKENS = 256         # sentence_bert_config.json "max_seq_length": longer text is cut
_erf = np.frompyfunc(math.erf, 1, 1)   # the exact error function, element by element


@dataclass(frozen=True)
class Bert:
    """The model's weights and settings (HF ``BertModel`` names; Linear weights stored (out, in))."""
    weights: dict[str, np.ndarray]
    heads: int
    layers: int
    eps: float
    wordpiece: WordPiece


@lru_cache(maxsize=None)
def model() -> Bert:
    """all-MiniLM-L6-v2 loaded once per process (hashes checked by core.pretrained)."""
    file = checked("minilm-l6", "model.safetensors")
    weights = reader_module("safetensors.numpy").load_file(file)        # name -> array, float32
    config = json.loads(checked("minilm-l6", "config.json").read_text())
    if config["hidden_act"] != "gelu":
        raise ValueError(f"Only BERT's exact GELU is written here, not {config['hidden_act']!r}.")
    table = load_table("minilm-l6")
    weights["embeddings.word_embeddings.weight"] = table.E              # one copy of the table (45 MiB)
    wordpiece = WordPiece(table.labels)
    return Bert(weights, config["num_attention_heads"], config["num_hidden_layers"], config["layer_norm_eps"],
                wordpiece)


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """``(x - mean) / sqrt(var + eps) * gamma + beta`` over the last axis: (n, d) -> (n, d).

    >>> layer_norm(np.array([[1.0, 3.0]]), np.ones(2), np.zeros(2), 0.0)
    array([[-1.,  1.]])
    """
    mean = x.mean(axis=-1, keepdims=True)                             # (n, 1)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)              # (n, 1) biased, as torch
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def gelu(z: np.ndarray) -> np.ndarray:
    """``z * (1 + erf(z / sqrt 2)) / 2``, the exact GELU (Hendrycks & Gimpel, 2016).

    >>> gelu(np.array([-1.0, 0.0, 1.0])).round(4)
    array([-0.1587,  0.    ,  0.8413])
    """
    return z * (1.0 + np.asarray(_erf(z / math.sqrt(2.0)), dtype=z.dtype)) / 2.0


def softmax(s: np.ndarray) -> np.ndarray:
    """Row-wise softmax over the last axis, shifted by the row maximum (no overflow)."""
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def forward(bert: Bert, ids: list[int]) -> np.ndarray:
    """The last hidden states for token ids ``ids`` (with [CLS] and [SEP]): (n,) -> (n, 384)."""
    w = bert.weights

    def dense(x: np.ndarray, name: str) -> np.ndarray:                # x W^T + b
        return x @ w[f"{name}.weight"].T + w[f"{name}.bias"]

    def norm(x: np.ndarray, name: str) -> np.ndarray:
        return layer_norm(x, w[f"{name}.weight"], w[f"{name}.bias"], bert.eps)

    n = len(ids)
    x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:n]
         + w["embeddings.token_type_embeddings.weight"][0])              # (n, d)
    x = norm(x, "embeddings.LayerNorm")
    d = x.shape[1]
    h, dh = bert.heads, d // bert.heads
    for i in range(bert.layers):
        p = f"encoder.layer.{i}"
        q, k, v = (dense(x, f"{p}.attention.self.{m}").reshape(n, h, dh).transpose(1, 0, 2)
                   for m in ("query", "key", "value"))                    # (h, n, dh) each
        A = softmax(q @ k.transpose(0, 2, 1) / math.sqrt(dh))             # (h, n, n)
        heads = (A @ v).transpose(1, 0, 2).reshape(n, d)                  # (n, d) heads side by side
        x = norm(x + dense(heads, f"{p}.attention.output.dense"), f"{p}.attention.output.LayerNorm")
        inner = gelu(dense(x, f"{p}.intermediate.dense"))                 # (n, 1536)
        x = norm(x + dense(inner, f"{p}.output.dense"), f"{p}.output.LayerNorm")
    return x


def contextual_vectors(text: str) -> tuple[list[str], np.ndarray]:
    """MiniLM's contextual vectors of ``text``: its WordPiece tokens (with ``[CLS]`` and ``[SEP]``,
    at most ``MAX_TOKENS``) and the last layer's rows, shape (n, 384), float32.

    For example (with the model installed)::

        tokens, H = contextual_vectors("The river bank.")
        tokens, H.shape         # (['[CLS]', 'the', 'river', 'bank', '.', '[SEP]'], (6, 384))
    """
    if not isinstance(text, str):
        raise TypeError(f"The text must be a string, not {type(text).__name__}.")
    bert = model()
    tokens, ids = bert.wordpiece.encode(text, MAX_TOKENS)
    return tokens, forward(bert, ids)


def sentence_vector(text: str) -> np.ndarray:
    """all-MiniLM-L6-v2's sentence vector: the mean of the rows, scaled to length 1, shape (384,)."""
    _, H = contextual_vectors(text)
    mean = H.mean(axis=0)                                                 # (384,)
    return mean / max(float(np.linalg.norm(mean)), 1e-12)               # sentence-transformers' Normalize
