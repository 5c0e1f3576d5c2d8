"""A server's first visit, made by the start-up script instead of by the first student.

A fresh ``streamlit run app`` imports the app and its libraries on its first session, and the
app then prepares the lesson's run (``lab_ui.server.warmup``). When a class opens the link in the same
second, forty sessions wait behind that. ``first_visit(url)`` opens one session of Streamlit's
own websocket protocol (what a browser tab speaks), asks for the Train screen at its starting
settings and waits until its script run has finished; then the server is warm.

    python -m deploy.warm http://127.0.0.1:8501     # warm a server that is already running

Only Streamlit's own dependencies are used (the websockets client, Streamlit's protobufs)."""
from __future__ import annotations

import asyncio
import sys
import time

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

FIRST_PAGE = "train"


async def _visit(base: str, page: str, timeout: float) -> None:
    from websockets.asyncio.client import connect

    url = base.replace("http://", "ws://", 1).rstrip("/") + "/_stcore/stream"
    async with connect(url, subprotocols=["streamlit"], max_size=None, open_timeout=timeout,
                       ping_interval=None) as ws:
        msg = BackMsg()
        msg.rerun_script.page_name = page
        msg.rerun_script.context_info.url = f"{base.rstrip('/')}/{page}"
        await ws.send(msg.SerializeToString())
        deadline = time.monotonic() + timeout
        while True:
            frame = await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.monotonic()))
            if isinstance(frame, str):
                continue
            fwd = ForwardMsg()
            fwd.ParseFromString(frame)
            if fwd.WhichOneof("type") == "script_finished":
                return


def first_visit(base: str, page: str = FIRST_PAGE, timeout: float = 120.0) -> float:
    """Open ``page`` once on the server at ``base`` (``http://host:port``) and wait until its
    run has finished; return the seconds it took."""
    t0 = time.perf_counter()
    asyncio.run(_visit(base, page, timeout))
    return time.perf_counter() - t0


if __name__ == "__main__":
    print(f"warm after {first_visit(sys.argv[1] if len(sys.argv) > 1 else 'http://127.0.0.1:8501'):.1f} s")
