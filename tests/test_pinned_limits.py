"""Where the core's size limits lie, on both sides, and the first bad id a message names:
pinned where mutation testing (docs/quality.md, section 4) found a limit that could move by
one, or a message that could name the wrong id.

Limits of millions of numbers are lowered with monkeypatch where a function reads its
module's limit when called, so a test reaches them with a small table.
"""
import numpy as np
import pytest

from core import embedding, honesty
from core.embedding import init_table, lookup, one_hot
from core.tsne import MAX_POINTS, tsne


def refused(call, message, kind=ValueError):
    with pytest.raises(kind) as caught:
        call()
    assert str(caught.value) == message


def test_the_bad_id_named_is_the_one_outside_even_next_to_id_0():
    W = np.zeros((5, 2))
    refused(lambda: lookup(W, [0, 5]), "Token id 5 is outside the vocabulary (0 to 4).", IndexError)
    refused(lambda: one_hot([0, 3], 3), "Token id 3 is outside the vocabulary (0 to 2).", IndexError)
    refused(lambda: lookup(W, [0, -2]), "Token id -2 is outside the vocabulary (0 to 4).", IndexError)
    refused(lambda: lookup(W, [0.5]), "Token ids must be whole numbers.", IndexError)


def test_a_table_of_exactly_the_entry_limit_is_built(monkeypatch):
    monkeypatch.setattr(embedding, "MAX_TABLE", 6)
    assert init_table(2, 3).shape == (2, 3)
    refused(lambda: init_table(7, 1), "A 7 x 1 table would hold 7 numbers; at most 6 are allowed here.")


def test_neighbour_overlap_of_exactly_the_row_limit(monkeypatch):
    monkeypatch.setattr(honesty, "MAX_ROWS", 3)
    X = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0]])
    assert honesty.neighbour_overlap(X, X[:, :1], k=1).k == 1
    refused(lambda: honesty.neighbour_overlap(np.eye(4), np.eye(4), k=1),
            "Neighbours of 4 rows need an n x n matrix; at most 3 rows.")


def test_tsne_takes_exactly_its_largest_table():
    # At the limits the table is accepted, so the next check (the perplexity) speaks.
    perplexity_message = "Perplexity is an effective number of neighbours: it must be at least 1."
    refused(lambda: tsne(np.zeros((MAX_POINTS, 1)), perplexity=0.5), perplexity_message)
    too_many = f"Exact t-SNE works on every pair of points (n^2 per step): at most {MAX_POINTS:,} points here; "
    refused(lambda: tsne(np.zeros((MAX_POINTS + 1, 1)), perplexity=0.5), too_many + f"this table has {MAX_POINTS + 1:,}.")
    # 2**24 numbers (128 MiB): three rows as wide as that allows, without storing them.
    widest = np.broadcast_to(np.float32(0), (4, 2**22))
    refused(lambda: tsne(widest, perplexity=0.5), perplexity_message)
    wider = np.broadcast_to(np.float32(0), (3, 2**24 // 3 + 1))
    refused(lambda: tsne(wider, perplexity=0.5), too_many + "this table has 3.")
