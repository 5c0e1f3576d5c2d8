"""Several app processes behind nginx, with sticky sessions, on this machine.

Streamlit keeps each student's session (widget values, the websocket) inside the process
that served it, so a balancer must send every request of one browser to the same
process. nginx does it here without any paid module: the first request of a browser
is hashed on its random request id, which nginx hands back as the ``lab_route`` cookie;
every later request (the websocket, an upload) carries that cookie and hashes to the same
replica. Websocket upgrades are passed through, and idle sockets are kept for a lesson.

    python -m deploy.serve --address 0.0.0.0            # a class: one replica per core, port 8600
    python -m deploy.serve --replicas 2 --port 8600      # Ctrl-C stops everything

Each replica is ``streamlit run app`` on its own loopback port; nginx listens on
``--port`` (on ``--address``). Before it says the cluster is ready, each replica is visited
once (``deploy.warm``: the Train screen at its starting settings), so its imports, its compiled
pages and the lesson's run are ready before the first student arrives. Nothing is shared between
replicas and none of them writes to disk; every cache is bounded per process (docs/deploy.md).
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from deploy.warm import first_visit

ROOT = Path(__file__).resolve().parent.parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
TEMPLATE = Path(__file__).with_name("nginx.conf.template")
START_TIMEOUT_S = 90


def cores() -> int:
    """The cores this process may use (the class command starts one replica on each)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                 # not Linux
        return max(1, os.cpu_count() or 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    """Running replicas and the nginx in front of them."""
    url: str
    replicas: list[subprocess.Popen]
    replica_ports: list[int]
    nginx: subprocess.Popen
    workdir: Path
    logs: list[Path] = field(default_factory=list)

    def stop(self) -> None:
        for proc in [self.nginx, *self.replicas]:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in [self.nginx, *self.replicas]:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=10)


def nginx_config(port: int, replica_ports: list[int], workdir: Path, address: str = "127.0.0.1") -> str:
    servers = "\n".join(f"        server 127.0.0.1:{p};" for p in replica_ports)
    return (TEMPLATE.read_text().replace("{{PORT}}", str(port)).replace("{{SERVERS}}", servers)
            .replace("{{RUN}}", str(workdir)).replace("{{ADDRESS}}", address))


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return r.read().strip() == b"ok"
    except OSError:
        return False


def start(replicas: int = 2, port: int | None = None, root: Path = ROOT, address: str = "127.0.0.1",
          warm: bool = True) -> Cluster:
    """Start ``replicas`` app processes and nginx; return when all answer (and, with ``warm``,
    once each replica has served its first visit: ``deploy.warm``)."""
    if not Path(NGINX).exists():
        raise RuntimeError("nginx is not installed (Debian: apt-get install nginx-light)")
    workdir = Path(tempfile.mkdtemp(prefix="embedding-lab-deploy-"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    procs, ports, logs = [], [], []
    for i in range(replicas):
        p = free_port()
        log = workdir / f"replica-{i}.log"
        with open(log, "wb") as out:
            procs.append(subprocess.Popen(
                [sys.executable, "-P", "-m", "streamlit", "run", "app", "--server.headless", "true",
                 "--server.port", str(p), "--server.address", "127.0.0.1"],
                cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT))
        ports.append(p)
        logs.append(log)
    port = port or free_port()
    conf = workdir / "nginx.conf"
    conf.write_text(nginx_config(port, ports, workdir, address))
    nginx = subprocess.Popen([NGINX, "-p", str(workdir), "-c", str(conf)],
                             stdout=subprocess.DEVNULL, stderr=open(workdir / "nginx.out", "wb"))
    cluster = Cluster(f"http://127.0.0.1:{port}", procs, ports, nginx, workdir, logs)
    deadline = time.monotonic() + START_TIMEOUT_S
    targets = [f"http://127.0.0.1:{p}" for p in ports] + [cluster.url]
    while not all(_healthy(t) for t in targets):
        if time.monotonic() > deadline or any(p.poll() is not None for p in [nginx, *procs]):
            cluster.stop()
            raise RuntimeError("the replicas or nginx did not start; logs in " + str(workdir))
        time.sleep(0.2)
    if warm:
        try:
            with ThreadPoolExecutor(len(ports)) as pool:     # each replica on a core of its own
                list(pool.map(first_visit, [f"http://127.0.0.1:{p}" for p in ports]))
        except Exception:
            cluster.stop()
            raise
    return cluster


def main() -> None:
    ap = argparse.ArgumentParser(description="Run N replicas of the app behind nginx.")
    ap.add_argument("--replicas", type=int, default=cores(),
                    help=f"app processes (default: one per core, here {cores()})")
    ap.add_argument("--port", type=int, default=8600, help="where nginx listens")
    ap.add_argument("--address", default="127.0.0.1",
                    help="where nginx listens: 0.0.0.0 for a class on the room's network")
    args = ap.parse_args()
    if not 1 <= args.replicas <= 16:
        ap.error("between 1 and 16 replicas")
    t0 = time.perf_counter()
    cluster = start(args.replicas, args.port, address=args.address)
    where = cluster.url if args.address == "127.0.0.1" else f"http://ADDRESS:{args.port} (this machine's address)"
    print(f"{args.replicas} replicas on ports {cluster.replica_ports}, each warm; ready after "
          f"{time.perf_counter() - t0:.1f} s; open {where}", flush=True)
    try:
        while all(p.poll() is None for p in [cluster.nginx, *cluster.replicas]):
            time.sleep(1)
        print("a process exited; stopping the rest")
    except KeyboardInterrupt:
        pass
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
