"""Export formats and the aligned replay frames."""
import csv
import io

import numpy as np

from core.corpus import GUIDE_TEXT, Corpus
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.projection import aligned_frames, pca
from core.skipgram import SkipGramConfig, train


def test_csv_round_trip_with_awkward_words():
    E = np.random.default_rng(0).normal(size=(3, 4))
    vocab = ["cat", 'say "hi"', "a,b"]
    rows = list(csv.reader(io.StringIO(table_csv(E, vocab))))
    assert rows[0] == ["word", "dim_0", "dim_1", "dim_2", "dim_3"]
    assert [r[0] for r in rows[1:]] == vocab
    np.testing.assert_allclose(np.array([r[1:] for r in rows[1:]], float), E, rtol=1e-9)


def test_projector_files_line_up():
    E = np.random.default_rng(0).normal(size=(5, 3))
    vectors, metadata = projector_tsv(E, list("abcde"))
    np.testing.assert_allclose(np.loadtxt(io.StringIO(vectors), delimiter="\t"), E, rtol=1e-9)
    assert metadata.splitlines() == list("abcde")
    assert len(coords_csv(E[:, :2], list("abcde")).splitlines()) == 6


def test_snippet_recreates_the_run():
    config = SkipGramConfig(d_model=3, lr=0.2, steps=50, seed=4)
    namespace = {}
    exec(snippet(config, 1, GUIDE_TEXT), namespace)
    expected = train(Corpus.from_text(GUIDE_TEXT, window=1), config)
    np.testing.assert_array_equal(namespace["E"], expected.E)


def test_replay_frames_do_not_flip():
    r = train(Corpus.from_text(GUIDE_TEXT), SkipGramConfig(steps=600, snapshot_every=20))
    frames = aligned_frames(r.snapshots, r.snapshot_steps)
    assert frames.coords.shape == (31, 12, 2)
    np.testing.assert_allclose(frames.coords[-1], pca(r.E).coords)
    # each frame is a rotation of its own PCA picture: distances are unchanged
    for snap, c in zip(r.snapshots, frames.coords):
        own = pca(snap).coords
        d_own = np.linalg.norm(own[:, None] - own[None], axis=-1)
        d_aligned = np.linalg.norm(c[:, None] - c[None], axis=-1)
        np.testing.assert_allclose(d_aligned, d_own, atol=1e-12)
    # late frames move smoothly: no sign flips between neighbouring frames
    jumps = [np.abs(frames.coords[i + 1] - frames.coords[i]).max() for i in range(15, 30)]
    assert max(jumps) < 0.5 * np.abs(frames.coords[-1]).max()
