"""core.sgns: the noise distribution and table, the block loss and window updates at their edges,
pinned exactly (details mutation testing found loose: docs/quality.md)."""

import numpy as np
import pytest

from core.sgns import noise_distribution


def test_the_noise_distribution_raises_counts_to_three_quarters_by_default():
    ids = np.array([0] * 16 + [1])                             # counts 16 and 1: 16 ** 0.75 = 8
    np.testing.assert_allclose(noise_distribution(ids, 3), [8 / 9, 1 / 9, 0.0], rtol=1e-12)


def test_sigmoid_values_dtype_and_no_overflow_warning():
    import math
    import warnings

    import numpy as np

    from core.sgns import sigmoid

    s = np.array([-2.0, 0.0, 1.0, 3.0])
    expected = [1 / (1 + math.exp(2.0)), 0.5, 1 / (1 + math.exp(-1.0)), 1 / (1 + math.exp(-3.0))]
    assert sigmoid(s).tolist() == pytest.approx(expected, rel=1e-15)
    assert sigmoid(s.astype(np.float32)).dtype == np.float32
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # exp(1000) overflows: no warning may escape
        assert sigmoid(np.array([-1000.0, 1000.0])).tolist() == [0.0, 1.0]


def test_noise_distribution_has_a_share_for_every_word_even_unseen_last_ones():
    import numpy as np

    from core.sgns import noise_distribution

    q = noise_distribution(np.array([0, 0, 0, 0, 1]), 4, power=0.5)      # words 2 and 3 never occur
    assert q.tolist() == pytest.approx([2 / 3, 1 / 3, 0.0, 0.0], abs=1e-15) and len(q) == 4


def test_block_loss_uses_the_given_buffers_and_survives_overflow_in_each_precision():
    import warnings

    import numpy as np

    from core.sgns import BlockBuffers, block_loss_and_grads

    rng = np.random.default_rng(0)
    X, U, w = rng.normal(size=(2, 1, 3)), rng.normal(size=(2, 3, 3)), np.ones((2, 1, 3))
    want = block_loss_and_grads(X, U, w)
    buffers = BlockBuffers(5, 1, 3, 3, np.float64)              # room for more blocks than given
    loss, dX, dU = block_loss_and_grads(X, U, w, buffers=buffers)
    assert loss == pytest.approx(want[0], rel=1e-12) and dX.shape == (2, 1, 3) and dU.shape == (2, 3, 3)
    assert np.shares_memory(dX, buffers.dX) and np.shares_memory(dU, buffers.dU)
    # the true word scored -1000: sigma(-1000) underflows to 0 and its log is clamped at the
    # smallest normal number of the precision: -log(tiny) = 708.40 (float64) or 87.34 (float32)
    X = np.array([[[10.0, 0.0]]])
    U = np.array([[[-100.0, 0.0]]])
    for dtype, floor in ((np.float64, 708.3964185322641), (np.float32, 87.33654475055310)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss, dX, dU = block_loss_and_grads(X.astype(dtype), U.astype(dtype), np.ones((1, 1, 1), dtype))
        assert loss == pytest.approx(floor, rel=1e-6) and dX.dtype == dU.dtype == dtype


def test_noise_table_entries_by_hand():
    import numpy as np

    from core.sgns import noise_table

    assert noise_table(np.array([1, 1]), size=4).tolist() == [0, 0, 1, 1]      # entries at 1/8, 3/8, ...
    assert noise_table(np.array([1, 1]), size=3).tolist() == [0, 1, 1]         # 1/2 sits on the boundary
    assert noise_table(np.array([0, 5]), size=4).tolist() == [1, 1, 1, 1]      # never a word never seen
    # q ~ count ** power: 1 : 9 is 1/4 : 3/4 at power 0.5 but 0.16 : 0.84 at the default 0.75
    assert noise_table(np.array([1, 9]), power=0.5, size=8).tolist() == [0, 0, 1, 1, 1, 1, 1, 1]
    assert noise_table(np.array([1, 9]), size=8).tolist() == [0, 1, 1, 1, 1, 1, 1, 1]
    assert len(noise_table(np.array([1, 1]))) == 1_000_000                     # at least a million
    assert len(noise_table(np.ones(20_000))) == 2_000_000                      # or 100 per word


def test_window_updates_clamp_a_hopeless_question_and_keep_quiet_on_overflow():
    import math
    import warnings

    import numpy as np

    from core.sgns import window_updates

    # one context, the true word scored -1000 and a negative scored 0: sigma(-1000) underflows
    # to 0 and its log is clamped at the smallest normal number, -log(tiny) = 708.40 (float64)
    # or 87.34 (float32); the negative costs ln 2
    X, U = np.array([[[10.0]]]), np.array([[[-100.0], [0.0]]])
    for dtype, floor in ((np.float64, 708.3964185322641), (np.float32, 87.33654475055310)):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            loss, dX, dU = window_updates(X.astype(dtype), U.astype(dtype), np.ones((1, 1, 2), dtype),
                                          scale=np.array([1.0], dtype))
        assert loss == pytest.approx(floor + math.log(2), rel=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_every_work_array_of_a_block_is_in_the_runs_precision(dtype):
    from core.sgns import BlockBuffers

    buffers = BlockBuffers(2, 3, 4, 5, dtype)
    arrays = {name: getattr(buffers, name) for name in ("S", "tmp", "dX", "dU", "gram", "copy")}
    assert {name: a.dtype for name, a in arrays.items()} == dict.fromkeys(arrays, np.dtype(dtype))
    assert {name: a.shape for name, a in arrays.items()} == {
        "S": (2, 3, 4), "tmp": (2, 3, 4), "dX": (2, 3, 5), "dU": (2, 4, 5), "gram": (2, 3, 3), "copy": (2, 3, 5)}
    assert BlockBuffers(1, 1, 1, 1).S.dtype == np.float32                 # word2vec's precision by default


def test_scatter_add_refuses_a_target_it_cannot_flatten():
    from core.sgns import scatter_add

    target = np.zeros((4, 3))[:, :2]                              # a column slice: not C-contiguous
    with pytest.raises(ValueError) as caught:
        scatter_add(target, np.array([0]), np.ones((1, 2)))
    assert str(caught.value) == "scatter_add needs a C-contiguous target (it updates a flat view)."
    assert not target.any()
