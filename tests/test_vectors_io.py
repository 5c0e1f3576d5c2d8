"""core.vectors_io: the Projector's two files read back, and every bad file refused clearly."""
import numpy as np
import pytest

from core.export import projector_tsv
from core.vectors_io import MAX_BYTES, MAX_DIMS, MAX_ROWS, VectorsError, read_metadata, read_projector, read_vectors
from tests.refusal import refused


def test_round_trip_of_the_export():
    rng = np.random.default_rng(0)
    E = rng.normal(size=(7, 5))
    vocab = ["the", "cat", "sat", "on", "a", "b", "c"]
    vectors, metadata = projector_tsv(E, vocab)
    back = read_projector(vectors.encode(), metadata.encode())
    np.testing.assert_allclose(back.E, E, rtol=1e-9)           # written with 10 significant digits
    assert back.words == vocab and back.renamed == 0


def test_windows_line_ends_a_byte_order_mark_and_no_metadata():
    back = read_projector("\ufeff1\t2\r\n3\t4\r\n".encode("utf-8"))
    np.testing.assert_array_equal(back.E, [[1, 2], [3, 4]])
    assert back.words == ["row 0", "row 1"]


def test_metadata_with_several_columns_has_a_header():
    assert read_metadata("word\tcount\ncat\t3\ndog\t2\n") == ["cat", "dog"]
    assert read_metadata("cat\ndog\n") == ["cat", "dog"]


def test_repeated_and_blank_labels_are_kept_apart():
    back = read_projector("1\n2\n3\n4\n", "x\nx\n\nx\n")
    assert back.words == ["x", "x (2)", "(blank)", "x (3)"] and back.renamed == 2


@pytest.mark.parametrize("vectors, metadata, message", [
    ("1\t2\n3\n", None, "line 2 has 1 numbers, but line 1 has 2"),
    ("1\t2\n3\tcat\n", None, "line 2, column 2: 'cat' is not a number"),
    ("1\tnan\n", None, "line 1, column 2: 'nan' is not a finite number"),
    ("1\tinf\n", None, "not a finite number"),
    ("", None, "vectors.tsv is empty"),
    ("1\n2\n", "a\n", "1 labels but vectors.tsv has 2 rows"),
    ("1\n", "", "metadata.tsv is empty"),
    (b"1\t\xff\n", None, "byte 3 cannot be read as UTF-8 or UTF-16"),
])
def test_bad_files_say_what_and_where(vectors, metadata, message):
    with pytest.raises(VectorsError, match=message):
        read_projector(vectors, metadata)


def test_huge_files_are_refused_before_parsing():
    with pytest.raises(VectorsError, match=f"limit is {MAX_BYTES:,}"):
        read_vectors(b"1\n" * (MAX_BYTES // 2 + 1))
    with pytest.raises(VectorsError, match=f"limit is {MAX_ROWS:,}"):
        read_vectors("1\n" * (MAX_ROWS + 1))
    with pytest.raises(VectorsError, match=f"limit is {MAX_DIMS:,}"):
        read_vectors("\t".join(["1"] * (MAX_DIMS + 1)))


def test_vector_files_limits_and_messages_word_for_word():
    from core.vectors_io import VectorsError, read_metadata, read_projector, read_vectors

    def no(call, message):
        refused(call, message, VectorsError)

    no(lambda: read_vectors(b"1\n" * 2_500_000 + b"2"), "vectors.tsv is 5,000,001 bytes; the limit is 5,000,000.")
    no(lambda: read_vectors("1\n" * 2_500_000 + "2"), "vectors.tsv is 5,000,001 characters; the limit is 5,000,000.")
    for exactly_the_limit in (b"1\n" * 2_500_000, "1\n" * 2_500_000):     # read, then refused for its rows
        no(lambda x=exactly_the_limit: read_vectors(x), "vectors.tsv has 2,500,000 rows; the limit is 5,000.")
    no(lambda: read_vectors("1\n" * 5001), "vectors.tsv has 5,001 rows; the limit is 5,000.")
    assert read_vectors("1\n" * 5000).shape == (5000, 1)
    no(lambda: read_vectors("\t".join(["1"] * 1025)), "vectors.tsv has 1,025 numbers per row; the limit is 1,024.")
    assert read_vectors("\t".join(["1"] * 1024)).shape == (1, 1024)
    no(lambda: read_vectors(" \n\n"), "vectors.tsv is empty.")
    no(lambda: read_vectors("1\t2\n3\n"),
       "vectors.tsv line 2 has 1 numbers, but line 1 has 2: every row needs the same count (ragged rows).")
    no(lambda: read_vectors("1 2\t3"), "vectors.tsv line 1, column 1: '1 2' is not a number.")
    no(lambda: read_vectors("1\t" + "x" * 20), "vectors.tsv line 1, column 2: 'xxxxxxxxxxxxxxxxxxxx' is not a number.")
    no(lambda: read_vectors("y" * 21), "vectors.tsv line 1, column 1: 'yyyyyyyyyyyyyyyyyyyy...' is not a number.")
    assert read_vectors("1\t2\r3\t4\r\n5\t6").tolist() == [[1, 2], [3, 4], [5, 6]]   # old Mac and Windows ends
    assert read_vectors("\ufeff1\t2".encode()).tolist() == [[1, 2]]                  # a byte-order mark
    no(lambda: read_metadata(b"cat\n\xff"), "metadata.tsv is not UTF-8 text (byte 4 cannot be read).")
    no(lambda: read_metadata("x" * 5_000_001), "metadata.tsv is 5,000,001 characters; the limit is 5,000,000.")
    no(lambda: read_metadata(""), "metadata.tsv is empty.")
    assert read_metadata("word\tcount\nnew york\t3\nparis\t1\n") == ["new york", "paris"]
    no(lambda: read_projector("1\n2\n", "cat\n"),
       "metadata.tsv has 1 labels but vectors.tsv has 2 rows: they must match one to one.")
