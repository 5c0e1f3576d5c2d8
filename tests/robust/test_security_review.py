"""Static checks behind docs/reliability.md's security review: they fail if a later change
adds an unbounded cache, raw HTML from a new place, or a network or disk write at run time.
The rules walk the syntax tree (tests/static_rules.py); the second half proves each rule
catches the wrong code it is there for."""
from pathlib import Path

import pytest

from tests.static_rules import check_source, check_tree

ROOT = Path(__file__).resolve().parents[2]


def _rules(findings):
    return sorted({f.rule for f in findings})


def test_the_app_and_core_break_no_rule():
    findings = check_tree(ROOT)
    assert not findings, "\n".join(map(str, findings))


def test_the_review_reads_every_source_file():
    files = sorted((ROOT / "app").rglob("*.py")) + sorted((ROOT / "core").rglob("*.py"))
    assert len(files) > 20
    # every cache in the app is seen by the walker (and judged bounded)
    texts = "".join(p.read_text() for p in files)
    assert texts.count("@st.cache_data(") >= 5 and texts.count("@st.cache_resource") >= 2


def test_raw_html_comes_only_from_the_escaping_helper():
    """The chips are the one raw-HTML output, built only from html.escape'd token text."""
    chips = (ROOT / "app/lab_ui/widgets/chips.py").read_text()
    assert not check_source(chips, "app/lab_ui/widgets/chips.py")
    unescaped = chips.replace("html.escape(visible(t.text))", "visible(t.text)")
    assert _rules(check_source(unescaped, "app/lab_ui/widgets/chips.py")) == ["html"]


BAD = {
    "a module-level f-string holding data as HTML": """
import streamlit as st
import os
INK = os.environ.get("INK", "")
CSS = f"<style>p {{ color: {INK}; }}</style>"
st.html(CSS)
""",
    "bare cache_data decorator": """
import streamlit as st
@st.cache_data
def f(x): return x
""",
    "cache_data with parentheses but no bound": """
import streamlit as st
@st.cache_data(show_spinner=False)
def f(x): return x
""",
    "cache_data with max_entries=None": """
import streamlit as st
@st.cache_data(max_entries=None)
def f(x): return x
""",
    "cache_data called as a function": """
import streamlit as st
def f(x): return x
g = st.cache_data(f)
""",
    "cache_data under another alias of streamlit": """
import streamlit as stl
@stl.cache_data
def f(x): return x
""",
    "cache_data imported by name": """
from streamlit import cache_data
@cache_data
def f(x): return x
""",
    "cache_data kept in a variable": """
import streamlit as st
memo = st.cache_data
""",
    "cache_resource on a function with arguments": """
import streamlit as st
@st.cache_resource
def load(path): return path
""",
    "cache_resource with parentheses, arguments and no max_entries": """
import streamlit as st
@st.cache_resource(show_spinner=False)
def load(path, *, mode="r"): return path
""",
    "raw HTML from user text": """
import streamlit as st
st.markdown(f"<b>{st.text_input('x')}</b>", unsafe_allow_html=True)
""",
    "raw HTML with a computed flag": """
import streamlit as st
flag = True
st.markdown("<b>hi</b>", unsafe_allow_html=flag)
""",
    "st.html": """
import streamlit as st
st.html("<script>alert(1)</script>")
""",
    "components.html": """
import streamlit.components.v1 as components
components.html("<script></script>")
""",
    "urllib": "import urllib.request\nurllib.request.urlopen('http://x')\n",
    "urllib.request beside urllib.parse": "from urllib.parse import urlencode\nfrom urllib.request import urlopen\n",
    "requests": "import requests\n",
    "socket": "from socket import create_connection\n",
    "http.client": "import http.client\n",
    "open for writing": "open('out.txt', 'w').write('x')\n",
    "open for writing by keyword": "open('out.txt', mode='a')\n",
    "open with a computed mode": "m = 'w'\nopen('out.txt', m)\n",
    "Path.write_text": "from pathlib import Path\nPath('x').write_text('y')\n",
    "Path.open for writing": "from pathlib import Path\nPath('x').open('wb')\n",
    "np.save": "import numpy as np\nnp.save('x.npy', np.zeros(2))\n",
    "np.savetxt": "import numpy as np\nnp.savetxt('x.txt', np.zeros(2))\n",
    "DataFrame.to_csv(path)": "import pandas as pd\npd.DataFrame().to_csv('x.csv')\n",
    "DataFrame.to_parquet": "import pandas as pd\npd.DataFrame().to_parquet('x')\n",
    "json.dump": "import json\njson.dump({}, fh)\n",
    "os.remove": "import os\nos.remove('x')\n",
    "shutil.copy": "import shutil\nshutil.copy('a', 'b')\n",
    "tempfile": "import tempfile\ntempfile.mkdtemp()\n",
}


def _expected_rule(name: str) -> str:
    if "cache" in name:
        return "cache"
    return "html" if "HTML" in name or "html" in name else "io"


@pytest.mark.parametrize("name", list(BAD))
def test_each_rule_catches_its_wrong_code(name):
    findings = check_source(BAD[name])
    assert _rules(findings) == [_expected_rule(name)], f"the review missed: {name}: {findings}"


GOOD = {
    "urllib.parse only handles text": "from urllib.parse import urlencode\nurlencode({'a': 1})\n",
    "bounded cache_data": """
import streamlit as st
@st.cache_data(max_entries=8, show_spinner=False)
def f(x): return x
""",
    "cache_data with a ttl": """
import streamlit as st
@st.cache_data(ttl=600)
def f(x): return x
""",
    "cache_data called with bounds": """
import streamlit as st
def f(x): return x
g = st.cache_data(max_entries=4)(f)
""",
    "cache_resource on a zero-argument loader": """
import streamlit as st
@st.cache_resource(show_spinner=False)
def load(): return 1
@st.cache_resource
def load2(): return 2
""",
    "cache_resource with max_entries": """
import streamlit as st
@st.cache_resource(max_entries=2)
def load(path): return path
""",
    "a style sheet built from the module's own colour constants": """
import streamlit as st
INK = "#111"
CSS = f"<style>p {{ color: {INK}; }}</style>"
st.html(CSS)
""",
    "chips through the helper": """
import streamlit as st
from lab_ui.widgets.chips import chips_html
st.markdown(chips_html([]), unsafe_allow_html=True)
""",
    "reading files and text outputs": """
import pandas as pd
from pathlib import Path
open('x').read(); open('x', 'rb').read(); Path('x').read_text(); Path('x').open()
csv = pd.DataFrame().to_csv(index=False)
'a-b'.replace('-', '+'); [1].copy()
""",
}


@pytest.mark.parametrize("name", list(GOOD))
def test_allowed_code_passes(name):
    findings = check_source(GOOD[name])
    assert not findings, "\n".join(map(str, findings))
