"""Writing a trained table out: CSV, the Embedding Projector's two TSV files, and a
snippet of Python that recreates the run. Plain text formatting, no maths."""
from __future__ import annotations

from dataclasses import fields

import numpy as np

from core.corpus import GUIDE_TEXT
from core.skipgram import SkipGramConfig


def table_csv(E: np.ndarray, vocab: list[str]) -> str:
    """One line per word: ``word,dim_0,dim_1,...`` with a header.

    >>> print(table_csv(np.array([[1.0, 0.5]]), ["cat"]), end="")
    word,dim_0,dim_1
    cat,1,0.5
    """
    header = "word," + ",".join(f"dim_{j}" for j in range(E.shape[1]))
    rows = [f"{_csv_field(w)}," + ",".join(f"{x:.10g}" for x in row) for w, row in zip(vocab, E)]
    return "\n".join([header, *rows]) + "\n"


def coords_csv(coords: np.ndarray, vocab: list[str], names=("x", "y")) -> str:
    """Projected coordinates, one line per word."""
    header = "word," + ",".join(names[: coords.shape[1]])
    rows = [f"{_csv_field(w)}," + ",".join(f"{x:.10g}" for x in row) for w, row in zip(vocab, coords)]
    return "\n".join([header, *rows]) + "\n"


def projector_tsv(E: np.ndarray, vocab: list[str]) -> tuple[str, str]:
    """The Embedding Projector's ``vectors.tsv`` (numbers only, tab-separated, one row per
    word) and ``metadata.tsv`` (one word per line, no header for a single column).

    >>> v, m = projector_tsv(np.array([[1.0, 2.0], [3.0, 4.0]]), ["a", "b"])
    >>> v.splitlines(), m.splitlines()
    (['1\\t2', '3\\t4'], ['a', 'b'])
    """
    vectors = "\n".join("\t".join(f"{x:.10g}" for x in row) for row in E) + "\n"
    metadata = "\n".join(w.replace("\t", " ").replace("\n", " ") for w in vocab) + "\n"
    return vectors, metadata


def snippet(config: SkipGramConfig, window: int, text: str, max_vocab: int | None = None) -> str:
    """Python that recreates the run with this package's core: every setting of ``config``
    that changes the trained table (fields marked ``replay_only`` are left out), three a line,
    and each comment on a line of its own: for the lesson's text no line is longer than 48
    characters, so the code box of an 853 px screen shows every line whole.

    >>> print("\\n".join(snippet(SkipGramConfig(), 2, GUIDE_TEXT).splitlines()[5:9]))
    config = SkipGramConfig(
        d_model=4, lr=0.5, steps=3000,
        seed=0, init_std=0.1,
    )
    """
    cap = f", max_vocab={max_vocab}" if max_vocab else ""
    text_line = ("text = GUIDE_TEXT  # the lesson's 33 words" if text == GUIDE_TEXT
                 else f"text = {text!r}")
    args = [f"{f.name}={getattr(config, f.name)!r}" for f in fields(config)
            if not f.metadata.get("replay_only")]
    settings = "".join(f"    {', '.join(args[i:i + 3])},\n" for i in range(0, len(args), 3))
    return f'''from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train

{text_line}
corpus = Corpus.from_text(text, window={window}{cap})
config = SkipGramConfig(
{settings})
result = train(corpus, config)
# the loss before and after training
print(result.losses[0], result.losses[-1])
# the trained table: row i is corpus.vocab[i]
E = result.E
'''


def _csv_field(word: str) -> str:
    if any(ch in word for ch in ',"\n'):
        return '"' + word.replace('"', '""') + '"'
    return word
