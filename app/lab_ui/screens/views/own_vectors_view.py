"""Pieces of the "Your own vectors" screen (lab_ui/screens/own_vectors.py): reading the two files,
and the lesson's own table as an example."""
from __future__ import annotations

import zlib

import streamlit as st

from lab_ui.server.runs import run
from core.run import RunRequest
from core.corpus import GUIDE_TEXT, GUIDE_WINDOW
from core.export import projector_tsv
from core.skipgram import SkipGramConfig
from core.vectors_io import Vectors, read_projector

PICTURE_ROWS = 300       # rows drawn in the pictures and the heatmap's limit below
HEATMAP_ROWS = 30


@st.cache_data(max_entries=4, show_spinner="Reading the files...")
def parsed(vectors: bytes, metadata: bytes | None) -> Vectors:
    """The two files as a table (a VectorsError says what is wrong with them)."""
    return read_projector(vectors, metadata)


def lesson_files() -> tuple[bytes, bytes]:
    """The Train screen's reference run, written exactly as its Export tab writes it."""
    r = run(RunRequest("softmax", GUIDE_TEXT, SkipGramConfig(), GUIDE_WINDOW))
    vectors, metadata = projector_tsv(r.E, r.vocab)
    return vectors.encode(), metadata.encode()


def table_key(words: list[str]) -> str:
    """A short name for a table, so that the word choices start afresh when a new table comes in."""
    return f"{zlib.crc32(chr(10).join(words).encode()):08x}"
