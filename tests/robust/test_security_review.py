"""Static checks behind docs/reliability.md's security review: they fail if a later change
adds an unbounded cache, raw HTML from a new place, or a network or disk write at run time."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "app").rglob("*.py")) + sorted((ROOT / "core").rglob("*.py"))


def test_every_data_cache_is_bounded():
    for path in SOURCES:
        for call in re.findall(r"@st\.cache_data\(([^)]*)\)", path.read_text()):
            assert "max_entries" in call, f"{path.name}: st.cache_data without max_entries"


def test_raw_html_only_where_reviewed():
    users = {p.relative_to(ROOT).as_posix() for p in SOURCES
             if "unsafe_allow_html=True" in p.read_text() or re.search(r"\.html\(", p.read_text())}
    # chips: built from html.escape'd text only; paste_guard: a fixed script (issue 19) that
    # sets maxlength on text boxes, with no user data in it
    assert users == {"app/app_pages/tokens.py", "app/ui/paste_guard.py"}
    guard = (ROOT / "app/ui/paste_guard.py").read_text()
    assert guard.count(".html(") == 1 and "st.html(_SCRIPT, " in guard
    chips = (ROOT / "app/ui/chips.py").read_text()
    assert "html.escape(visible(t.text))" in chips


def test_nothing_fetches_or_writes_at_run_time():
    banned = re.compile(r"\b(requests|urllib|http\.client|socket|httpx)\b|open\([^)]*['\"][wa]|"
                        r"\.write_(text|bytes)\(|to_csv\(['\"]")
    for path in SOURCES:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if line.strip().startswith("#"):
                continue
            assert not banned.search(line), f"{path.name}:{n}: {line.strip()}"
