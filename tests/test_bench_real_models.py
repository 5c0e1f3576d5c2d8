"""bench.real_models: its sentence is the 30 tokens the target names, and a cold run reports
its times and memory from a fresh process."""
from bench.real_models import SENTENCE_30, cold, warm
from tests.real_models import get


def test_the_forward_pass_sentence_has_30_tokens():
    from core.contextual import model
    tokens, _ = get(model).wordpiece.encode(SENTENCE_30, 256)
    assert len(tokens) == 30


def test_a_cold_run_reports_time_and_memory():
    r = cold("x = bytearray(50 * 2**20)")                      # 50 MiB, held at the end
    assert set(r) == {"wall", "cpu", "rss_mib", "peak_mib"}
    assert r["wall"] > 0 and r["rss_mib"] >= 50 and r["peak_mib"] >= r["rss_mib"] - 1


def test_warm_gives_the_median_wall_and_cpu_times_of_the_runs():
    calls = []
    wall, cpu = warm(lambda: calls.append(sum(range(20_000))), rounds=5)
    assert len(calls) == 6 and wall > 0 and cpu >= 0
