"""Make the browser itself cut an over-long paste, before it lays the text out.

Streamlit 1.67 hands ``max_chars`` to its own change handler, which *rejects* a longer
value only after the browser has inserted and laid out the whole paste: 90 KB of short
lines kept the Tokens tab busy for 19 s, a megabyte for minutes (``python -m bench.paste``).
The textarea element itself gets no ``maxlength``. This script gives every text box one,
so the browser cuts a paste at the limit before inserting it (1.3 s for the same 90 KB).

The script is a fixed string: no user text ever reaches it. It reaches every text box of
every screen, with no exception: the limits are at least the server-side ``max_chars`` of
every box (which still applies). The Train screen's own-text box once had a larger cap of
its own and no guard: 300 KB pasted there froze the tab for 104 s. It now takes what the
Tokens box takes, and longer texts (word2vec reads megabytes) come in as a file.
"""
from __future__ import annotations

import streamlit as st

TEXT_AREA_LIMIT = 20_000     # the largest max_chars of a text area (Tokens)
TEXT_INPUT_LIMIT = 4_000     # the largest max_chars of a one-line box

# A plain literal (no formatting): the security review accepts raw HTML from a fixed string only.
_SCRIPT = """<span id="paste-guard"></span>
<style>[data-testid="stElementContainer"]:has(#paste-guard) { display: none; }</style>
<script>
(() => {
  if (window.__embeddingLabPasteGuard) return;
  window.__embeddingLabPasteGuard = true;
  const apply = () => {
    for (const [sel, limit] of [['[data-testid="stTextArea"] textarea', 20000],
                                ['[data-testid="stTextInput"] input', 4000]]) {
      for (const el of document.querySelectorAll(sel)) {
        if (el.maxLength !== limit) el.maxLength = limit;
      }
    }
  };
  new MutationObserver(apply).observe(document.body, {childList: true, subtree: true});
  apply();
})();
</script>"""
assert f"', {TEXT_AREA_LIMIT}]" in _SCRIPT and f"', {TEXT_INPUT_LIMIT}]" in _SCRIPT


def install() -> None:
    """Add the script once per page run (it installs its observer only once per tab). Its
    element hides itself (``display: none``), so it takes no room on the screen; it is
    not in the sidebar, which presenter mode hides."""
    st.html(_SCRIPT, unsafe_allow_javascript=True)
