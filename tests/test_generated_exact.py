"""core.generated: the generated text's defaults, the ambiguous word's position, group recovery, pinned
exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.corpus import Corpus
from core.generated import ambiguous_position, generate_corpus, group_recovery


def test_ambiguous_position_values_fields_and_messages():
    E = np.array([[2.0, 0.0], [0.0, 3.0], [1.0, 1.0], [0.0, 0.0], [-1.0, 2.0]])
    vocab = ["a", "b", "w", "z", "q"]
    groups = {"x": ["a", "q"], "y": ["b"], "empty": ["z"]}
    p = ambiguous_position(E, vocab, groups, "w", "x", "y")
    u = E[2] / np.linalg.norm(E[2])
    cx = (E[0] / 2 + E[4] / np.sqrt(5)) / 2                 # centroid of the unit rows of group x
    assert p.word == "w" and p.group_a == "x" and p.group_b == "y"
    assert p.centroid_a == pytest.approx(u @ cx / np.linalg.norm(cx), abs=1e-12)
    assert p.centroid_b == pytest.approx(u @ np.array([0.0, 1.0]), abs=1e-12)
    assert p.to_centroid["empty"] == 0.0                  # a zero centroid has no direction
    assert p.members_a == pytest.approx(np.mean([u @ [1, 0], u @ (E[4] / np.sqrt(5))]), abs=1e-12)
    assert p.members_b == pytest.approx(u @ [0, 1], abs=1e-12)
    assert set(p.to_members) == {"x", "y", "empty"}
    with pytest.raises(KeyError, match="'nope' is not in the vocabulary"):
        ambiguous_position(E, vocab, groups, "nope", "x", "y")
    with pytest.raises(KeyError, match="'g' is not a group"):
        ambiguous_position(E, vocab, groups, "w", "x", "g")


def test_generated_corpus_trains_on_a_window_of_two():
    g = generate_corpus()
    assert g.corpus().n_pairs == Corpus.from_text(g.text, window=2).n_pairs
    assert g.corpus(3).n_pairs == Corpus.from_text(g.text, window=3).n_pairs


def test_the_generated_text_uses_seed_zero_by_default():
    assert generate_corpus(60).text == generate_corpus(60, seed=0).text != generate_corpus(60, seed=1).text


def test_group_recovery_against_a_loop():
    rng = np.random.default_rng(3)
    vocab = [f"w{i}" for i in range(9)]
    E = rng.normal(size=(9, 3))
    E[4] = E[3]                                     # a tie: broken by the order of the groups
    groups = {"a": ["w0", "w3", "w4"], "b": ["w1", "w2", "w5"], "c": ["w6", "w8"]}
    words = [w for m in groups.values() for w in m]
    label = {w: g for g, m in groups.items() for w in m}
    U = E / np.linalg.norm(E, axis=1, keepdims=True)
    r = group_recovery(E, vocab, groups)
    assert r.k == 3
    for w in words:
        i = vocab.index(w)
        others = sorted((o for o in words if o != w), key=lambda o: (-(U[i] @ U[vocab.index(o)]), words.index(o)))
        assert r.neighbours[w] == others[:3]
        assert r.per_word[w] == sum(label[o] == label[w] for o in others[:3]) / 3
    assert r.overall == np.mean(list(r.per_word.values()))
    assert r.chance == (3 * 2 + 3 * 2 + 2 * 1) / (8 * 7)
    assert group_recovery(E, vocab, groups, k=7).k == 7
    with pytest.raises(ValueError, match=r"^k must be from 1 to 7 \(the number of other group words\)\.$"):
        group_recovery(E, vocab, groups, k=8)
    with pytest.raises(KeyError, match=r"group words not in the vocabulary: \['zz'\]"):
        group_recovery(E, vocab, {"a": ["w0", "zz"], "b": ["w1", "w2"]})
    assert group_recovery(E, vocab, {"a": ["w0", "w1"], "b": ["w2", "w3"]}, k=1).chance == pytest.approx(1 / 3)
