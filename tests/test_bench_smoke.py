"""The trainer benchmark's own pieces: corpus sizes, determinism, and its correctness check.

No timings are asserted here (benchmarks are scripts that print tables).
"""
import numpy as np
import pytest

from bench.corpora import SPECS, make_corpus, synthetic_text
from bench.trainer import main as bench_main
from bench.trainers import loss_and_grads_loop, train_loop, train_pairs
from core.corpus import GUIDE_TEXT, Corpus
from tests.conftest import ROOT
from core.skipgram import SkipGramConfig, init_params, loss_and_grads, train


@pytest.mark.parametrize("spec", SPECS[1:], ids=lambda s: s.name)
def test_synthetic_corpus_has_the_asked_sizes(spec):
    corpus = make_corpus(spec)
    assert len(corpus.ids) == spec.n_tokens
    assert corpus.V == spec.n_words
    assert corpus.window == spec.window


def test_synthetic_text_is_deterministic_and_seeded():
    assert synthetic_text(300, 40, seed=3) == synthetic_text(300, 40, seed=3)
    assert synthetic_text(300, 40, seed=3) != synthetic_text(300, 40, seed=4)
    words = synthetic_text(300, 40).split()
    counts = sorted((words.count(w) for w in set(words)), reverse=True)
    assert counts[0] > 5 * counts[-1]  # Zipf-like: a few frequent words, many rare ones


def test_reference_corpus_is_the_lesson_text():
    assert make_corpus(SPECS[0]).words == GUIDE_TEXT.split()


def test_per_pair_loop_gradients_equal_the_core():
    corpus = Corpus.from_text(GUIDE_TEXT)
    E, W = init_params(corpus.V, SkipGramConfig())
    loss, dE, dW = loss_and_grads_loop(E, W, corpus.inputs, corpus.targets)
    loss_c, dE_c, dW_c = loss_and_grads(E, W, corpus.cooccurrence)
    assert loss == pytest.approx(loss_c, abs=1e-12)
    np.testing.assert_allclose(dE, dE_c, rtol=0, atol=1e-15)
    np.testing.assert_allclose(dW, dW_c, rtol=0, atol=1e-15)


@pytest.mark.parametrize("trainer", [train_loop, train_pairs])
def test_benchmark_trainers_equal_the_core_after_two_steps(trainer):
    corpus = Corpus.from_text(GUIDE_TEXT)
    config = SkipGramConfig(steps=2)
    E, W, losses = trainer(corpus, config)
    core = train(corpus, config)
    np.testing.assert_allclose(E, core.E, rtol=0, atol=1e-12)
    np.testing.assert_allclose(W, core.W, rtol=0, atol=1e-12)
    np.testing.assert_allclose(losses, core.losses[:2], rtol=0, atol=1e-12)


def test_per_pair_loop_equals_the_core_on_a_synthetic_corpus():
    corpus = Corpus.from_text(synthetic_text(200, 30, seed=1), window=3)
    config = SkipGramConfig(steps=2, d_model=5)
    E, W, _ = train_loop(corpus, config)
    core = train(corpus, config)
    np.testing.assert_allclose(E, core.E, rtol=0, atol=1e-12)
    np.testing.assert_allclose(W, core.W, rtol=0, atol=1e-12)


def test_benchmark_refuses_a_trainer_that_disagrees(monkeypatch):
    """The script's own check must fail loudly, not print a wrong table."""
    import bench.trainer as bt

    def off_by_a_bit(corpus, config):
        E, W, losses = train_loop(corpus, config)
        return E + 1e-6, W, losses

    monkeypatch.setattr(bt, "SPECS", SPECS[:1])
    monkeypatch.setitem(bt.TRAINERS, "loop", off_by_a_bit)
    monkeypatch.setitem(bt.STEPS, "reference",
                        {"core": (2, 2), "loop": (2, 2), "pairs": (2, 2), "torch": (2, 2)})
    with pytest.raises(SystemExit, match="MISMATCH.*reference/loop"):
        bench_main(["--quick", "--no-torch"])


# The table headers each benchmark prints, against the tables the docs show. A header written as
# an f-string of constants only (``f"{'run':58} {'ratio':>6}"``) is evaluated from the module's
# source, so a renamed, added or re-aligned column fails here without running the benchmark.
DOC_TABLES = {                   # module -> the page that shows its latest table
    "arrival": "performance.md",
    "budget": "reliability.md",
    "paste": "reliability.md",
    "hostile": "reliability.md",
    "blas_threads": "performance.md",
    "streamlit_floor": "performance.md",
    "startup_memory": "performance.md",
    "word2vec_recipe": "word2vec.md",
    "real_models": "performance.md",
    "real_screens": "performance.md",
}


def constant_headers(module: str) -> list[str]:
    """The lines of every f-string in bench/<module>.py whose fields are all string constants."""
    import ast

    tree = ast.parse((ROOT / "bench" / f"{module}.py").read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr) and any(isinstance(v, ast.FormattedValue) for v in node.values):
            fields = [v for v in node.values if isinstance(v, ast.FormattedValue)]
            if all(isinstance(f.value, ast.Constant) and isinstance(f.value.value, str)
                   and (f.format_spec is None or all(isinstance(p, ast.Constant) for p in f.format_spec.values))
                   for f in fields):
                text = eval(compile(ast.Expression(node), module, "eval"))     # constants only
                lines += [line.rstrip() for line in text.split("\n") if line.strip()]
    return lines


@pytest.mark.parametrize("module", sorted(DOC_TABLES))
def test_every_benchmark_prints_the_columns_its_doc_shows(module):
    headers = constant_headers(module)
    assert headers, f"bench/{module}.py prints no header of constants"
    doc = {line.rstrip() for line in (ROOT / "docs" / DOC_TABLES[module]).read_text(encoding="utf-8").splitlines()}
    shown = [h for h in headers if h in doc]
    assert shown, f"none of bench.{module}'s table headers is in docs/{DOC_TABLES[module]}: {headers}"


def test_a_moved_column_is_noticed(tmp_path, monkeypatch):
    """The check above fails when a header changes: a column renamed in a copy of a module."""
    import tests.test_bench_smoke as me

    source = (ROOT / "bench" / "budget.py").read_text(encoding="utf-8").replace("'measured s'", "'measured'")
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "budget.py").write_text(source, encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "reliability.md").write_text((ROOT / "docs" / "reliability.md").read_text(encoding="utf-8"),
                                                      encoding="utf-8")
    monkeypatch.setattr(me, "ROOT", tmp_path)
    with pytest.raises(AssertionError, match="none of bench.budget's table headers"):
        me.test_every_benchmark_prints_the_columns_its_doc_shows("budget")


def test_the_ratio_table_shows_a_dash_for_a_part_of_the_class_with_no_action():
    """A class shorter than the warm-up has no "after warm-up" actions: a dash, not "nans"/"nanx"."""
    from bench.classroom_floor import ratio_table

    nan = float("nan")
    table = ratio_table({"whole class": 9.15, "after warm-up (30 s on)": nan},
                        {"whole class": 2.28, "after warm-up (30 s on)": nan})
    assert "nan" not in table
    assert table.splitlines()[1].split() == ["whole", "class", "9.15s", "2.28s", "4.0x"]
    assert table.splitlines()[2].split()[-3:] == ["-", "-", "-"]


HELPERS = {"gensim_worker": "run by bench.word2vec inside .venv-gensim",
           "corpora": "the trainer benchmark's corpora; `python -m bench.corpora` only lists them"}


def test_the_docs_name_every_benchmark_and_no_retired_one():
    """Every benchmark script (a bench module with a __main__) is named in performance.md, word2vec.md or
    reliability.md, and every ``bench.X`` the docs and the README name is a module that exists."""
    import re

    pages = {p.name: p.read_text(encoding="utf-8") for p in [*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]}
    scripts = {p.stem for p in (ROOT / "bench").glob("*.py") if "__main__" in p.read_text(encoding="utf-8")}
    assert {"trainer", "budget", "classroom", "attack"} <= scripts
    reference = pages["performance.md"] + pages["reliability.md"] + pages["word2vec.md"]
    missing = sorted(m for m in scripts - set(HELPERS) if f"bench.{m}" not in reference)
    assert missing == [], f"benchmarks named on neither page: {missing}"
    named = {m for text in pages.values() for m in re.findall(r"\bbench\.([a-z_0-9]+)", text)}
    retired = sorted(m for m in named if not (ROOT / "bench" / f"{m}.py").exists())
    assert retired == [], f"the docs name bench modules that do not exist: {retired}"


def test_floor_app_draws_the_shape_its_address_asks_for():
    """bench.streamlit_floor's synthetic page: n elements of five kinds and the charts asked
    for; with change=1 every element shows the slider's value, with change=0 only the first."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "bench" / "floor_app.py"), default_timeout=30)
    at.query_params.update({"n": "10", "charts": "3", "change": "1"})
    at.run()
    assert not at.exception
    assert len(at.caption) == 2 + 2 * 2          # kinds 0 and 4 (a caption, a pair of captions), twice
    assert len(at.markdown) >= 2 and len(at.metric) == 2 and len(at.subheader) == 2
    assert len(at.get("vega_lite_chart")) == 3
    at.slider(key="floor_value").set_value(7).run()
    assert [m.value for m in at.metric] == ["7", "7"]
    at.query_params.update({"change": "0"})
    at.run()
    assert [m.value for m in at.metric] == ["4", "4"]     # only element 0 follows the slider
    assert "the value is 7" in at.caption[0].value


def test_the_floor_class_times_every_rerun_of_its_sessions():
    """bench.classroom_floor: two sessions on the floor page, all at once; every planned
    action is timed (an open, then slider moves every 5-15 s), with no error."""
    import random

    from bench.classroom_floor import floor_plan, ratio_table, run_floor, summary

    plans = [floor_plan(12, random.Random(r), 0) for r in (0.1, 0.2)]
    assert all(p[0] == 0 and all(5 <= b - a <= 15 for a, b in zip(p, p[1:])) for p in plans)
    students, _, _ = run_floor(2, 12, seed=0, arrival=0)
    assert [e for s in students for e in s.errors] == []
    planned = floor_plan(12, random.Random(random.Random(0).random()), 0)   # student 0's plan
    assert len(students[0].latencies) == len(planned) >= 2
    p95 = summary(students, 0)
    assert p95["whole class"] > 0
    assert "2.0x" in ratio_table({k: 2 * v for k, v in p95.items() if v == v}, p95)


def test_the_session_benchmark_times_each_script_run_in_its_own_thread():
    """bench.session_cpu: one CPU time per script run (a first Train page), from the script's
    thread, with each page compiled once; Streamlit's methods are put back after."""
    from streamlit.runtime.scriptrunner import script_runner

    from bench.session_cpu import ScriptClock, first_page, where

    original = script_runner.ScriptRunner._run_script
    clock = ScriptClock()
    try:
        first_page(None)
        first_page(None)
    finally:
        clock.close()
    assert script_runner.ScriptRunner._run_script is original
    assert len(clock.seconds) == 2 and all(s > 0 for s in clock.seconds)
    assert [where(str(ROOT / "core" / "run.py")), where(str(ROOT / "app" / "x.py")),
            where("/v/site-packages/streamlit/x.py"), where("/usr/lib/json.py")] == \
        ["core", "app", "Streamlit", "the rest"]


def test_the_co_tenant_keeps_one_core_busy_only_while_its_block_runs():
    """bench.machine.co_tenant (bench.classroom --co-tenant, bench.blas_threads): a second
    process burns CPU while the block runs and is gone after it; busy=False starts nothing."""
    import time

    from bench.browser import tree_cpu
    from bench.machine import co_tenant
    with co_tenant(False) as none:
        assert none is None
    with co_tenant() as proc:
        assert proc is not None and proc.is_alive()
        deadline, cpu_s = time.monotonic() + 60, 0.0
        while cpu_s < 0.5 and time.monotonic() < deadline:    # however loaded the machine is
            time.sleep(0.1)
            cpu_s = tree_cpu(proc.pid)[0]                     # its own utime + stime
        assert cpu_s >= 0.5, cpu_s            # it really computes
    assert not proc.is_alive()
