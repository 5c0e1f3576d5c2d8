"""The embedding table: initialisation, lookup, and its sparse gradient.

The table ``W_E`` has shape ``(V, d_model)``; row ``i`` is the vector of token ``i``.

Lookup is a matrix product with one-hot rows, ``one_hot(i) @ W_E = W_E[i]``, but
real code skips the product and *gathers* the rows: ``W_E[ids]``.

Backward: since ``X[b, t] = W_E[ids[b, t]]``, the gradient for row ``k`` is

    dW_E[k] = sum over positions (b, t) with ids[b, t] == k of dX[b, t]

and exactly zero for every row that was not used (a *scatter-add*).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.checks import MAX_TABLE, IdError, array, indices, number, whole

GPT2_INIT_STD = 0.02
"""Standard deviation of GPT-2's embedding initialisation (Radford et al., 2019)."""
# The largest table (or one-hot block) these functions build is MAX_TABLE (core.checks):
# 33,554,432 numbers, 256 MiB in float64 (GPT-2's 50,257 x 4 toy table is 201,028; 50,257 x 768
# would need a float32 tool).


def init_table(vocab_size: int, d_model: int, std: float = GPT2_INIT_STD,
               rng: np.random.Generator | int | None = 0) -> np.ndarray:
    """A table of small Gaussian noise, ``W_E ~ N(0, std^2)``.

    Returns
    -------
    ndarray of shape (vocab_size, d_model)

    >>> init_table(3, 2, std=0.02, rng=0).shape
    (3, 2)
    """
    V, d = whole(vocab_size, "vocab_size", 1), whole(d_model, "d_model", 1)
    std = number(std, "std", 0)
    _check_size(V * d, f"A {V:,} x {d:,} table")
    if isinstance(rng, bool) or not (rng is None or isinstance(rng, (int, np.integer, np.random.Generator))):
        raise TypeError("rng must be a seed (a whole number), a numpy Generator or None.")
    rng = np.random.default_rng(rng)
    return rng.normal(0.0, std, (V, d))


def lookup(table: np.ndarray, ids) -> np.ndarray:
    """Gather rows: ids of shape (B, T) -> vectors of shape (B, T, d_model).

    Raises IndexError with a plain message for an id outside ``0..V-1``.

    >>> W = np.array([[1, 2], [3, 4], [5, 6]])
    >>> lookup(W, [[1, 2]])
    array([[[3, 4],
            [5, 6]]])
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError("The table must have two dimensions (one row per token).")
    ids = _check_ids(ids, table.shape[0])
    _check_size(ids.size * table.shape[1], "The looked-up vectors")
    return table[ids]  # (*ids.shape, d_model)


def one_hot(ids, vocab_size: int) -> np.ndarray:
    """One-hot rows: ids of shape (...) -> array of shape (..., vocab_size).

    >>> one_hot([1], 3)
    array([[0., 1., 0.]])
    """
    V = whole(vocab_size, "vocab_size", 1)
    ids = _check_ids(ids, V)
    _check_size(ids.size * V, f"{ids.size:,} one-hot rows of width {V:,}")
    out = np.zeros(ids.shape + (V,))                           # (..., V), never a (V, V) eye
    np.put_along_axis(out, ids[..., None], 1.0, axis=-1)
    return out


def one_hot_lookup(table: np.ndarray, ids) -> np.ndarray:
    """The same lookup done the slow way: ``one_hot(ids) @ table``.

    >>> W = np.array([[1, 2], [3, 4], [5, 6]])
    >>> one_hot_lookup(W, [1])
    array([[3., 4.]])
    """
    return one_hot(ids, table.shape[0]) @ table  # (..., V) @ (V, d) -> (..., d)


def lookup_backward(ids, grad_out: np.ndarray, vocab_size: int) -> np.ndarray:
    """Gradient of the loss for the whole table, by scatter-add.

    Parameters
    ----------
    ids : array of shape (B, T)
    grad_out : ndarray of shape (B, T, d_model)
        Upstream gradient dL/dX for each position.

    Returns
    -------
    ndarray of shape (vocab_size, d_model)
        Row k is the sum of ``grad_out`` over the positions holding id k; other rows are 0.

    >>> lookup_backward([[2, 0, 2]], np.ones((1, 3, 2)), 4)
    array([[1., 1.],
           [0., 0.],
           [2., 2.],
           [0., 0.]])
    """
    V = whole(vocab_size, "vocab_size", 1)
    ids = _check_ids(ids, V)
    grad_out = array(grad_out, "grad_out", ids.ndim + 1)
    if grad_out.shape[:-1] != ids.shape:
        raise ValueError(f"grad_out must have shape {ids.shape} + (d_model,); got {grad_out.shape}.")
    d = grad_out.shape[-1]
    _check_size(V * d, f"A {V:,} x {d:,} gradient")
    grad = np.zeros((vocab_size, d))  # (V, d)
    np.add.at(grad, ids.reshape(-1), grad_out.reshape(-1, d))  # repeated ids accumulate
    return grad


@dataclass(frozen=True)
class SGDUpdate:
    """Result of one SGD step on the table."""

    table: np.ndarray          # (V, d) the table after the step
    changed_rows: np.ndarray   # (n_changed,) sorted ids of rows that moved


def sgd_step(table: np.ndarray, grad: np.ndarray, lr: float) -> SGDUpdate:
    """Plain SGD, ``W <- W - lr * dW``; reports which rows changed.

    >>> u = sgd_step(np.zeros((4, 2)), lookup_backward([[1]], np.ones((1, 1, 2)), 4), 0.1)
    >>> u.changed_rows
    array([1])
    """
    lr = number(lr, "The learning rate", 0)
    table, grad = np.asarray(table, dtype=np.float64), np.asarray(grad, dtype=np.float64)
    if table.shape != grad.shape:
        raise ValueError(f"The gradient's shape {grad.shape} must match the table's {table.shape}.")
    new = table - lr * grad  # (V, d)
    changed = np.flatnonzero(np.any(new != table, axis=1))
    return SGDUpdate(new, changed)


def example_upstream(T: int, d_model: int, seed: int = 1) -> np.ndarray:
    """Stand-in upstream gradients dL/dX for one sentence, ``N(0, 1)`` draws of shape (1, T, d_model).

    >>> example_upstream(3, 4).shape
    (1, 3, 4)
    """
    T, d = whole(T, "T", 1, 100_000), whole(d_model, "d_model", 1, 4096)
    _check_size(T * d, "The upstream gradient")
    return np.random.default_rng(whole(seed, "seed", 0)).normal(0.0, 1.0, (1, T, d))


def rows_touched(grad: np.ndarray) -> np.ndarray:
    """Ids of the rows of a gradient that are not all zero.

    >>> rows_touched(np.array([[0.0, 0], [0, 2], [0, 0]]))
    array([1])
    """
    return np.flatnonzero(np.any(grad != 0, axis=1))


def _check_ids(ids, vocab_size: int) -> np.ndarray:
    """Whole numbers in 0..V-1 (IdError, a ValueError and IndexError, otherwise)."""
    try:
        return indices(ids, "Token ids", vocab_size)
    except IdError as err:
        A = np.asarray(ids)
        if "outside" in str(err):
            bad = int(A.min()) if A.min() < 0 else int(A.max())
            raise IdError(f"Token id {bad} is outside the vocabulary (0 to {vocab_size - 1}).") from None
        raise IdError("Token ids must be whole numbers.") from None


def _check_size(n: int, what: str) -> None:
    if n > MAX_TABLE:
        raise ValueError(f"{what} would hold {n:,} numbers; at most {MAX_TABLE:,} are allowed here.")
