"""Two app processes behind nginx: sessions stick to one replica, spread over both, and
every session shows its own numbers. Also a short run of the classroom load test itself.

Needs Debian's nginx (``.ci/run`` installs it). Without it the tests skip, unless
``EMBEDDING_LAB_REQUIRE_NGINX=1`` (set by ``.ci/run``), in which case they fail.
"""
import asyncio
import os
from concurrent.futures import ThreadPoolExecutor
import random
import urllib.request
from pathlib import Path

import pytest

from bench import classroom, classroom_report
from deploy import serve

pytestmark = pytest.mark.slow


def run_async(coro):
    """Run a coroutine to the end in a thread of its own (the browser tests' Playwright
    keeps an event loop running in the main thread for the whole session)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture(scope="module")
def cluster():
    if not Path(serve.NGINX).exists():
        if os.environ.get("EMBEDDING_LAB_REQUIRE_NGINX") == "1":
            pytest.fail("nginx is required here (apt-get install nginx-light)", pytrace=False)
        pytest.skip("nginx is not installed: apt-get install nginx-light to run these tests")
    c = serve.start(replicas=2)
    yield c
    c.stop()


def _get(url: str, cookie: str | None = None) -> tuple[str, str]:
    req = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    with urllib.request.urlopen(req, timeout=10) as r:
        return r.headers.get("X-Replica", ""), (r.headers.get("Set-Cookie") or "").split(";")[0]


def test_a_browser_sticks_to_its_replica_and_new_browsers_spread(cluster):
    replica_of = {}
    # 12 new browsers, each without a cookie (more, up to 40, while only one replica has any:
    # nginx routes a new browser at random, so 12 in a row on one replica is rare, not impossible)
    while len(replica_of) < 12 or len(set(replica_of.values())) < 2 and len(replica_of) < 40:
        replica, cookie = _get(cluster.url + "/")
        assert cookie.startswith("lab_route=") and replica
        replica_of[cookie] = replica
    assert len(set(replica_of.values())) == 2, replica_of     # both replicas get browsers
    for cookie, replica in replica_of.items():                # and each browser keeps its own
        assert _get(cluster.url + "/_stcore/health", cookie)[0] == replica


def test_sessions_through_nginx_show_their_own_figures(cluster):
    async def one(s: classroom.Student, ws):
        i = s.index
        try:
            sess = classroom.Session(ws, cluster.url)
            d, w = 2 + i % 5, 1 + i % 3
            shown = await sess.run("train", f"train_d_model={d}&train_window={w}&train_seed={i}")
            moved = await sess.run("train", "", {"train_d_model": d + 1, "train_window": w,
                                                 "train_seed": i})
            return s.replica, shown, moved, (d, w)
        finally:
            await ws.close()

    async def all_sessions():
        # At least six sessions, and more until both replicas have one: nginx routes a new
        # browser at random, so six in a row land on one replica in about 3% of runs.
        opened = []
        while len(opened) < 6 or len({s.replica for s, _ in opened}) < 2 and len(opened) < 20:
            s = classroom.Student(len(opened))
            opened.append((s, await classroom.open_session(cluster.url, s)))
        return await asyncio.gather(*(one(s, ws) for s, ws in opened))

    results = run_async(all_sessions())
    for i, (_replica, shown, moved, (d, w)) in enumerate(results):
        assert not shown["errors"] and not moved["errors"]
        assert classroom.losses_shown(shown) == classroom.expected(d, w, i)
        assert classroom.losses_shown(moved) == classroom.expected(d + 1, w, i)
    assert len({r for r, *_ in results}) == 2


def test_the_classroom_load_test_runs_and_checks_every_figure(cluster):
    students, heavies, memory, wall = run_async(classroom.classroom(
        cluster.url, n=3, heavy=0, seconds=12, pids=[p.pid for p in cluster.replicas], seed=1))
    assert sum(s.checked for s in students) >= 3          # every student opened Train at least
    assert all(not s.errors and not s.crosstalk for s in students), [
        (s.errors, s.crosstalk) for s in students]
    assert memory and all(m > 0 for _, m in memory)
    table = classroom_report.report(students, heavies, memory, wall, 12)
    assert "cross-talk (wrong figures)" in table and "students per replica" in table


def test_a_plan_is_seeded_and_keeps_its_settings_in_range():
    a = classroom.plan(3, 180, random.Random(5))
    assert a == classroom.plan(3, 180, random.Random(5))
    assert a[0][1] == "open" and all(5 <= t2 - t1 <= 15 for (t1, *_), (t2, *_) in zip(a[1:], a[2:]))
    for _, what, value in a:
        if what == "d_model":
            assert 1 <= value <= 16
        elif what == "window":
            assert 1 <= value <= 5


def test_students_arrive_spread_over_the_arrival_time_or_all_at_once():
    rng = random.Random(7)
    spread = [classroom.plan(i, 180, random.Random(rng.random()), arrival=60)[0] for i in range(40)]
    opens = sorted(t for t, what, _ in spread)
    assert all(what == "open" for _, what, _ in spread)
    assert 0 <= opens[0] < 10 and 50 < opens[-1] <= 60      # the class keeps arriving for a minute
    at_once = [classroom.plan(i, 180, random.Random(i), arrival=0)[0][0] for i in range(40)]
    assert at_once == [0.0] * 40
    assert classroom_report.warmup(0) == classroom_report.WARMUP_S and classroom_report.warmup(60) == 60


def test_the_nginx_config_names_every_replica_and_passes_websockets(tmp_path):
    conf = serve.nginx_config(8600, [9001, 9002, 9003], tmp_path)
    assert conf.count("server 127.0.0.1:900") == 3
    assert "listen 127.0.0.1:8600" in conf and "proxy_set_header Upgrade $http_upgrade" in conf
    assert "hash $lab_route consistent" in conf and "{{" not in conf
    room = serve.nginx_config(8600, [9001], tmp_path, address="0.0.0.0")
    assert "listen 0.0.0.0:8600" in room and "server 127.0.0.1:9001" in room   # replicas stay on loopback


def test_the_first_visit_warms_a_fresh_server(tmp_path):
    """deploy.warm: one session on Train, finished before it returns: the fresh server (only
    Streamlit loaded, about 55 MiB) has imported the app and trained the lesson's run after it."""
    from bench.browser import launch_server, stop_server, tree_rss, wait_healthy
    from deploy.warm import first_visit

    proc, base = launch_server(tmp_path / "server.log")
    try:
        wait_healthy(proc, base, tmp_path / "server.log")
        idle = tree_rss(proc.pid)[0]
        assert first_visit(base) > 0
        assert tree_rss(proc.pid)[0] > idle + 40 * 2**20
        log = (tmp_path / "server.log").read_text(errors="replace")
        assert "Traceback" not in log and "warming up the lesson's run failed" not in log
    finally:
        stop_server(proc)


def test_the_report_gives_the_p95_of_each_30_seconds():
    s = classroom.Student(0)
    s.latencies, s.action_times = [1.0, 2.0, 3.0, 4.0], [1.0, 40.0, 45.0, 70.0]
    assert classroom_report.per_window([s], 100) == "1.00 2.95 4.00 s"
