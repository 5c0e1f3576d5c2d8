"""Input parsing rules and the bounded, read-only run cache of the app."""
import pytest

from core.corpus import GUIDE_TEXT, Corpus
from core.skipgram import SkipGramConfig, train
from lab_ui.widgets.parse import InputError, parse_ids, parse_matrix, parse_vector
from lab_ui.server.runs import RunCache


def test_vector():
    assert parse_vector("[1, 2, 2]").tolist() == [1, 2, 2]
    assert parse_vector("1 2;3").tolist() == [1, 2, 3]


@pytest.mark.parametrize("bad,msg", [("", "empty"), ("1, two", "not a number"),
                                     ("nan", "finite"), ("-inf", "finite"), ("1e400", "finite"),
                                     ("1e9", "too large"), (",".join(["1"] * 65), "at most")])
def test_bad_vectors(bad, msg):
    with pytest.raises(InputError, match=msg):
        parse_vector(bad)


def test_matrix():
    assert parse_matrix("1,2\n3,4\n\n5,6").shape == (3, 2)
    with pytest.raises(InputError, match="different lengths"):
        parse_matrix("1,2\n3")
    with pytest.raises(InputError, match="at most 16"):
        parse_matrix("\n".join(["1"] * 17))


def test_ids():
    assert parse_ids("15, 824, 391", 50_257).tolist() == [15, 824, 391]
    for bad, msg in (("1.5", "whole number"), ("50257", "outside"), ("-1", "outside"),
                     ("x", "whole number"), ("", "empty"), ("9" * 40, "whole number")):
        with pytest.raises(InputError, match=msg):
            parse_ids(bad, 50_257)


def _result(seed):
    return train(Corpus.from_text(GUIDE_TEXT), SkipGramConfig(steps=5, seed=seed))


def test_run_cache_is_bounded_and_read_only():
    cache = RunCache(max_entries=3)
    for seed in range(5):
        cache.put(("k", seed), _result(seed))
    assert len(cache) == 3
    assert cache.get(("k", 0)) is None and cache.get(("k", 4)) is not None
    r = cache.get(("k", 4))
    with pytest.raises(ValueError):
        r.E[0, 0] = 1.0          # no session can change a shared result


def test_run_cache_byte_bound():
    one = _result(0)
    size = sum(a.nbytes for a in (one.E, one.W, one.losses, one.snapshot_steps, one.snapshots))
    cache = RunCache(max_entries=100, max_bytes=int(2.5 * size))
    for seed in range(6):
        cache.put(("k", seed), _result(seed))
    assert len(cache) == 2 and cache.nbytes <= 2.5 * size


def test_plain_escapes_markdown_and_directives():
    from lab_ui.widgets.common import plain
    out = plain("![x](http://evil/) <b>hi</b> :red[alarm] $x$ `c`")
    # A run Markdown could autolink is shown inside a code span (literal text); the rest is
    # escaped. (Before issue 19 every run was only escaped, which autolinking survives.)
    assert out.startswith("` ![x](http://evil/) ` ")
    rest = out.split("` ", 2)[2]
    for raw in ("![", "](", "<b>", ":red[", "$x$", "`c`"):
        assert raw not in rest
    assert plain("cat dog") == "cat dog"


def test_a_word_is_quoted_once_per_server_and_a_long_text_is_not_kept():
    # A word picker formats each of its words a few times per rerun of every session.
    from lab_ui.widgets import common
    common._plain_word.cache_clear()
    assert [common.plain(w) for w in ("c*t", "c*t", 7, "c*t")] == ["c\\*t", "c\\*t", "7", "c\\*t"]
    assert common._plain_word.cache_info()[:2] == (2, 2)            # 2 hits, 2 quoted ("c*t", "7")
    long = "*" * (common.SHORT_TEXT + 1)
    assert common.plain(long) == "\\*" * (common.SHORT_TEXT + 1)
    assert common._plain_word.cache_info().currsize == 2            # quoted, not kept



def test_sessions_asking_for_a_run_another_session_is_training_wait_for_it(monkeypatch):
    """A class opening the lesson at once: the first session trains, the others wait for
    its result instead of training the same run again."""
    import threading
    import time
    from lab_ui.server import runs
    cache, key, done = RunCache(), ("text", 2, None, "config"), _result(0)
    assert cache.claim(key) is None                     # the first session trains
    waited = []
    other = threading.Thread(target=lambda: waited.append(runs._claim(cache, key)))
    other.start()
    time.sleep(0.2)
    assert waited == []                                 # still waiting for the first
    cache.put(key, done)
    cache.release(key)
    other.join(5)
    assert waited == [False] and cache.get(key) is done  # it did not train: it reads the result
    assert cache.claim(key) is None                     # released: a later claim trains again
    monkeypatch.setattr(runs, "SHARED_WAIT_SECONDS", 0.05)
    started = time.monotonic()
    assert runs._claim(cache, key) is False             # the trainer is slow: wait no longer
    assert time.monotonic() - started < 2
