"""A Windows checkout, server paths in messages, and no outside request at start (issue 19)."""
import subprocess
from pathlib import Path

import pytest

from core.tokenizer import RANKS_PATH, RANKS_SHA256, TokenizerUnavailable, gpt2
from tests.conftest import ROOT


def test_gitattributes_keep_the_bundled_data_byte_exact():
    out = subprocess.run(["git", "check-attr", "text", "binary", "--", "core/data/gpt2.tiktoken"],
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "text: unset" in out and "binary: set" in out, out


def test_a_crlf_checkout_reads_the_same_ranks(tmp_path):
    """What Git for Windows (core.autocrlf=true) would write without .gitattributes."""
    crlf = tmp_path / "gpt2.tiktoken"
    crlf.write_bytes(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    enc, ref = gpt2(crlf), gpt2()
    assert enc.encode(" bank") == ref.encode(" bank") == [3331]
    assert enc._mergeable_ranks == ref._mergeable_ranks
    assert enc.decode(ref.encode("Hello, world! Ünïcödé 🐱")) == "Hello, world! Ünïcödé 🐱"


def test_mixed_line_endings_read_the_same_ranks(tmp_path):
    lines = RANKS_PATH.read_bytes().split(b"\n")
    mixed = b"".join(line + (b"\r\n" if i % 2 else b"\n") for i, line in enumerate(lines[:-1]))
    f = tmp_path / "gpt2.tiktoken"
    f.write_bytes(mixed)
    assert gpt2(f).encode(" bank") == [3331]


def test_any_other_change_is_still_refused(tmp_path):
    data = bytearray(RANKS_PATH.read_bytes().replace(b"\n", b"\r\n"))
    data[100] ^= 1
    f = tmp_path / "gpt2.tiktoken"
    f.write_bytes(bytes(data))
    with pytest.raises(TokenizerUnavailable, match="damaged"):
        gpt2(f)


@pytest.mark.parametrize("make", ["missing", "damaged", "folder"])
def test_messages_never_show_server_paths(tmp_path, make):
    f = tmp_path / "deep" / "secret-server-folder" / "gpt2.tiktoken"
    f.parent.mkdir(parents=True)
    if make == "damaged":
        f.write_bytes(b"garbage 0\n")
    elif make == "folder":
        f.mkdir()
    with pytest.raises(TokenizerUnavailable) as info:
        gpt2(f, RANKS_SHA256)
    message = str(info.value)
    assert "gpt2.tiktoken" in message
    assert str(tmp_path) not in message and "secret-server-folder" not in message
    assert "/" not in message.split("(git checkout")[0], message


def test_the_bundled_file_is_named_relative_to_the_repository(monkeypatch):
    import core.tokenizer as tok
    monkeypatch.setattr(Path, "read_bytes", lambda self: (_ for _ in ()).throw(
        PermissionError(13, "Permission denied")))
    with pytest.raises(TokenizerUnavailable) as info:
        tok.gpt2()
    assert "core/data/gpt2.tiktoken" in str(info.value)
    assert str(ROOT) not in str(info.value)
    assert "Permission denied" in str(info.value)


def test_the_readmes_install_makes_core_and_lab_ui_importable_anywhere(tmp_path):
    """The README's command installs this checkout (``-e .`` in requirements.txt), so `core` and
    `lab_ui` import with no path set and outside the repository, as `streamlit run app` (which
    puts only app/ on the path) and the worker processes need; and from this checkout's files."""
    import os
    import sys
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONSTARTUP")}
    out = subprocess.run([sys.executable, "-P", "-c", "import core, lab_ui; print(core.__file__); print(lab_ui.__file__)"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, "not installed: run pip install -r requirements.txt in the checkout\n" + out.stderr[-1500:]
    core_file, lab_ui_file = (Path(line) for line in out.stdout.split())
    assert core_file == ROOT / "core" / "__init__.py"
    assert lab_ui_file == ROOT / "app" / "lab_ui" / "__init__.py"


# --- no outside request at start -------------------------------------------------------------

class RecordingProxy:
    """A local HTTP(S) proxy that answers nothing and records every request line it gets."""

    def __init__(self):
        import socket
        import threading
        self.requests: list[str] = []
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(2)
                try:
                    first = conn.recv(4096).split(b"\r\n", 1)[0].decode(errors="replace")
                except OSError:
                    first = "(connection without a request line)"
                self.requests.append(first)
                try:
                    conn.sendall(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass

    def close(self):
        self.sock.close()


def _start_and_load(cwd: Path, script: str, proxy: RecordingProxy, seconds: float = 6.0) -> str:
    """Start ``streamlit run`` with every proxy variable pointing at ``proxy``, load the
    app's page and health endpoint, wait ``seconds``, stop it; return its output."""
    import os
    import sys
    import time
    import urllib.request

    from bench.browser import free_port, stop_server

    port = free_port()
    env = {k: v for k, v in os.environ.items()
           if k.lower() not in ("no_proxy", "http_proxy", "https_proxy", "all_proxy", "pythonpath")}
    env.update(HTTP_PROXY=proxy.url, HTTPS_PROXY=proxy.url, http_proxy=proxy.url,
               https_proxy=proxy.url, ALL_PROXY=proxy.url, NO_PROXY="", no_proxy="")
    proc = subprocess.Popen([sys.executable, "-P", "-m", "streamlit", "run", script,
                             "--server.port", str(port), "--server.headless", "true"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))   # we talk to it directly
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if direct.open(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                    break
            except OSError:
                time.sleep(0.3)
        else:
            pytest.fail("the server did not start")
        direct.open(f"http://127.0.0.1:{port}/", timeout=10).read()
        time.sleep(seconds)       # Streamlit's external-IP lookup runs right after start
    finally:
        stop_server(proc)
    return proc.stdout.read().decode(errors="replace") if proc.stdout else ""


def test_starting_the_app_makes_no_outside_request():
    proxy = RecordingProxy()
    try:
        output = _start_and_load(ROOT, "app", proxy)
    finally:
        proxy.close()
    assert proxy.requests == [], proxy.requests
    assert "External URL" not in output


def test_the_proxy_would_have_seen_streamlits_default_lookup(tmp_path):
    """The control: the same start without our config (a bare app in an empty folder) does
    ask an outside host, so the test above can fail."""
    (tmp_path / "bare.py").write_text("import streamlit as st\nst.write('hi')\n")
    proxy = RecordingProxy()
    try:
        _start_and_load(tmp_path, "bare.py", proxy, seconds=4.0)
    finally:
        proxy.close()
    assert any("checkip" in r for r in proxy.requests), proxy.requests
