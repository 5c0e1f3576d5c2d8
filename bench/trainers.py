"""What a user would write instead of ``core.skipgram.train``: the same math, other code.

Every trainer here starts from ``core.skipgram.init_params`` and makes ``config.steps``
full-batch gradient-descent updates ``E -= lr * dE; W -= lr * dW`` on the mean
cross-entropy over all (centre, context) pairs, so after the same number of steps it must
hold the same ``E`` and ``W`` as the core (to float64 rounding). The benchmark checks that.

* ``train_loop``:  the literal per-pair Python loop of docs/lesson.md section 5.
* ``train_pairs``: the vectorised per-pair version (``core.skipgram.loss_and_grads_pairs``),
  one row per pair instead of one per word.
* ``train_torch``: PyTorch on the CPU, ``nn.Embedding`` + bias-free ``nn.Linear`` +
  ``F.cross_entropy`` on the full batch, ``torch.optim.SGD``; float64.
"""
from __future__ import annotations

import os

import numpy as np

from core.corpus import Corpus
from core.skipgram import SkipGramConfig, init_params, loss_and_grads_pairs

TORCH_INSTALL = ".venv/bin/pip install torch==2.13.0"
"""How to get PyTorch for the benchmark (a CPU wheel; torch is not a dependency of the app)."""


def loss_and_grads_loop(E: np.ndarray, W: np.ndarray, inputs: np.ndarray, targets: np.ndarray):
    """Mean cross-entropy and its gradients, one (centre c, context t) pair at a time.

    For each pair::

        x = E[c]; z = x @ W; p = softmax(z); loss -= log p[t]
        dz = (p - onehot(t)) / N;  dW += outer(x, dz);  dE[c] += dz @ W.T

    Parameters
    ----------
    E : ndarray of shape (V, d)
    W : ndarray of shape (d, V)
    inputs, targets : int ndarrays of shape (N,)

    Returns
    -------
    loss : float
    dE : ndarray of shape (V, d)
    dW : ndarray of shape (d, V)
    """
    N = len(inputs)
    dE = np.zeros_like(E)                 # (V, d)
    dW = np.zeros_like(W)                 # (d, V)
    loss = 0.0
    for c, t in zip(inputs.tolist(), targets.tolist()):
        x = E[c]                          # (d,) the centre word's row
        z = x @ W                         # (V,) logits
        z = z - z.max()                   # (V,) shifted for a stable exp
        e = np.exp(z)                     # (V,)
        s = e.sum()
        loss += np.log(s) - z[t]          # -log softmax(z)[t]
        dz = e / s                        # (V,) softmax
        dz[t] -= 1.0                      # softmax - onehot(t)
        dz /= N
        dW += np.outer(x, dz)             # (d, V)
        dE[c] += dz @ W.T                 # (d,) scatter into the centre word's row
    return float(loss / N), dE, dW


def _descend(grad_fn, corpus: Corpus, config: SkipGramConfig):
    """``config.steps`` updates from the core's initialisation with ``grad_fn(E, W)``."""
    E, W = init_params(corpus.V, config)  # (V, d), (d, V)
    losses = []
    for _ in range(config.steps):
        loss, dE, dW = grad_fn(E, W)
        losses.append(loss)
        E, W = E - config.lr * dE, W - config.lr * dW
    return E, W, np.array(losses)


def train_loop(corpus: Corpus, config: SkipGramConfig):
    """Train with the per-pair Python loop; returns ``(E, W, losses)``.

    ``losses[k]`` is the loss before update k, so ``losses[0]`` matches the core's.

    >>> from core.corpus import GUIDE_TEXT
    >>> E, W, losses = train_loop(Corpus.from_text(GUIDE_TEXT), SkipGramConfig(steps=1))
    >>> round(float(losses[0]), 3)
    2.487
    """
    return _descend(lambda E, W: loss_and_grads_loop(E, W, corpus.inputs, corpus.targets),
                    corpus, config)


def train_pairs(corpus: Corpus, config: SkipGramConfig):
    """Train with the vectorised per-pair gradients; returns ``(E, W, losses)``."""
    return _descend(lambda E, W: loss_and_grads_pairs(E, W, corpus.inputs, corpus.targets),
                    corpus, config)


def torch_or_none():
    """The ``torch`` module, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    return torch


def train_torch(corpus: Corpus, config: SkipGramConfig):
    """Train with PyTorch on the CPU in float64; returns ``(E, W, losses)`` as NumPy arrays.

    ``nn.Linear`` stores its weight as (out, in), so it holds ``W.T``.
    """
    torch = torch_or_none()
    if torch is None:
        raise RuntimeError(f"PyTorch is not installed; install it with: {TORCH_INSTALL}")
    from torch import nn
    from torch.nn import functional as F

    torch.set_num_threads(os.cpu_count() or 1)
    E, W = init_params(corpus.V, config)  # (V, d), (d, V)
    emb = nn.Embedding(corpus.V, config.d_model, dtype=torch.float64)
    out = nn.Linear(config.d_model, corpus.V, bias=False, dtype=torch.float64)
    with torch.no_grad():
        emb.weight.copy_(torch.from_numpy(E))      # (V, d)
        out.weight.copy_(torch.from_numpy(W.T))    # (V, d) = W.T
    opt = torch.optim.SGD([emb.weight, out.weight], lr=config.lr)
    inputs = torch.from_numpy(corpus.inputs)       # (N,)
    targets = torch.from_numpy(corpus.targets)     # (N,)
    losses = []
    for _ in range(config.steps):
        opt.zero_grad(set_to_none=True)
        loss = F.cross_entropy(out(emb(inputs)), targets)  # (N, d) -> (N, V) -> mean CE
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return (emb.weight.detach().numpy().copy(), out.weight.detach().numpy().T.copy(),
            np.array(losses))


def memory_bytes(trainer: str, V: int, d: int, N: int) -> int:
    """Rough peak working memory of one training step, in bytes (float64).

    The core holds a few (V, V) arrays; the per-pair versions a few (N, V) arrays (the
    logits, their softmax and its gradient); the loop only one (V,) row at a time.
    """
    per_item = 8
    sizes = {
        "core": 5 * V * V,                     # C, Z, logP, exp, dZ
        "loop": V * d * 4 + 4 * V,             # E, W, dE, dW and a few (V,) rows
        "pairs": 4 * N * V + N * d,            # Z, logP, exp, dz and X
        "torch": 4 * N * V + N * d,            # logits, log-softmax, their grads, X
    }
    return per_item * (sizes[trainer] + 4 * V * d)


def available_memory() -> int:
    """``MemAvailable`` from /proc/meminfo in bytes (a large number where it is unknown)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 1 << 50
