"""core.export: the CSV files byte for byte and the recreate-the-run snippet, pinned exactly (details
mutation testing found loose: docs/quality.md)."""

import numpy as np

from core.corpus import GUIDE_TEXT
from core.export import coords_csv, projector_tsv, snippet, table_csv
from core.skipgram import SkipGramConfig


def test_csv_files_are_exact():
    E = np.array([[1.0, -0.25], [3.5, 2e-12]])
    assert coords_csv(E, ["cat", "x,y"]) == 'word,x,y\ncat,1,-0.25\n"x,y",3.5,2e-12\n'
    assert coords_csv(E[:, :1], ["Xa", 'say "hi"'], names=("a", "b")) == 'word,a\nXa,1\n"say ""hi""",3.5\n'
    assert table_csv(E, ["X", "b\nc"]) == 'word,dim_0,dim_1\nX,1,-0.25\n"b\nc",3.5,2e-12\n'
    vectors, meta = projector_tsv(E, ["a\tb", "c\nd"])
    assert vectors == "1\t-0.25\n3.5\t2e-12\n" and meta == "a b\nc d\n"


def test_snippet_for_another_text_and_a_capped_vocabulary():
    code = snippet(SkipGramConfig(d_model=3, lr=0.2, steps=10, seed=5), 4, "a b a c", max_vocab=300)
    assert "text = 'a b a c'\n" in code and "GUIDE_TEXT  #" not in code
    assert "Corpus.from_text(text, window=4, max_vocab=300)" in code
    assert "SkipGramConfig(\n    d_model=3, lr=0.2, steps=10,\n    seed=5, init_std=0.1,\n)\n" in code
    code = snippet(SkipGramConfig(), 2, GUIDE_TEXT)
    assert "text = GUIDE_TEXT  # the lesson's 33 words\n" in code
    assert "Corpus.from_text(text, window=2)\n" in code


def test_the_snippet_leaves_out_replay_only_settings():
    from core.corpus import GUIDE_TEXT
    from core.export import snippet
    from core.skipgram import SkipGramConfig

    text = snippet(SkipGramConfig(snapshot_every=10), 2, GUIDE_TEXT)
    assert "snapshot_every" not in text and "seed=" in text
