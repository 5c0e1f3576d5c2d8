"""The real-model screens' own work, warm: a typed sentence -> tokens, rows and nearest tokens.

    .venv/bin/python -m bench.real_screens

Target (issue 27): a typed sentence -> tokens, rows and nearest tokens painted < 300 ms warm.
This prints the part the server does, in one process with the model loaded: the core call
(``core.token_rows.look_up``) and the whole script run of screen 7b (the router and the screen,
through Streamlit's AppTest, which draws nothing); the browser's own drawing comes on top
(``bench.browser_latency --cases real`` measures key press -> painted through a real server).
Medians of several runs after one untimed run; wall time and CPU time (on a busy machine the CPU
time is what the work itself costs).
"""
from __future__ import annotations

import sys
from pathlib import Path

from bench.real_models import warm

ROOT = Path(__file__).resolve().parent.parent
TEXTS = {"The cat sat on the": "the lesson's sentence (5 tokens)",
         "He sat on the river bank. She got a bank loan by the river, " * 3: "a 3-line text (~45 tokens)"}


def main() -> None:
    from threadpoolctl import threadpool_limits

    from core.pretrained import load_table
    from core.token_rows import look_up
    from core.tokenizer import encoding

    sys.path.insert(0, str(ROOT / "app"))
    from streamlit.testing.v1 import AppTest

    table, enc = load_table("smollm2-135m"), encoding("smollm2-135m")
    print(f"{'warm, medians':<58} {'wall ms':>8} {'CPU ms':>7}  target")
    with threadpool_limits(1):                  # as the server runs (app/streamlit_app.py)
        for text, label in TEXTS.items():
            w, c = warm(lambda t=text: look_up(table, enc, t), rounds=10)
            print(f"{'look_up: ' + label:<58} {w:>8.1f} {c:>7.1f}")
        at = AppTest.from_file(str(ROOT / "app" / "streamlit_app.py"), default_timeout=120)
        at.run()
        at.switch_page("lab_ui/screens/real_table.py").run()
        texts = iter(list(TEXTS) * 20)

        def rerun():
            at.text_area(key="rt_text").input(next(texts)).run()
        w, c = warm(rerun, rounds=8)
        print(f"{'script run of screen 7b after a typed text (AppTest)':<58} {w:>8.1f} {c:>7.1f}  < 300 ms painted")


if __name__ == "__main__":
    main()
