"""Token chips: each token as a small coloured box with its id underneath.

Every piece of token text goes through ``html.escape`` before it enters the HTML,
so ``<script>`` typed by a user is shown as those characters, never run.
"""
from __future__ import annotations

import html
from collections import Counter

# Light backgrounds keep black text readable on a projector (Paul Tol's "light" and "pale"
# schemes). Colours go to ids in order of first appearance, so the first 12 distinct ids of a
# text all look different; the same id always gets the same colour.
CHIP_COLOURS = ["#77AADD", "#EE8866", "#44BB99", "#EEDD88", "#FFAABB", "#99DDFF",
                "#BBCC33", "#CCBBEE", "#AAAA00", "#FFCCCC", "#DDDDDD", "#CCDDAA"]
VISIBLE = {" ": "·", "\n": "↵", "\t": "→", "\r": "␍"}

CSS = """
<style>
.chips {line-height: 3.6em; font-size: 1.15rem;}
.chip {display: inline-block; margin: 2px 3px; padding: 0 6px; border-radius: 6px;
       font-family: ui-monospace, monospace; line-height: 1.5em; text-align: center;
       vertical-align: top; color: #111;}
.chip .id {display: block; font-size: 0.7em; color: #222; line-height: 1.2em;}
.chip.repeat {outline: 3px solid #222;}
</style>
"""


def colours_for(ids) -> dict[int, str]:
    """A colour per distinct id, in order of first appearance (cycling after 12)."""
    out: dict[int, str] = {}
    for i in ids:
        if i not in out:
            out[i] = CHIP_COLOURS[len(out) % len(CHIP_COLOURS)]
    return out


def visible(text: str) -> str:
    """Spaces, tabs and newlines as visible marks (· → ↵)."""
    return "".join(VISIBLE.get(ch, ch) for ch in text)


def chips_html(tokens) -> str:
    """HTML for a row of chips; ids that occur more than once get a dark outline."""
    counts = Counter(t.id for t in tokens)
    colour = colours_for(t.id for t in tokens)
    parts = []
    for t in tokens:
        cls = "chip repeat" if counts[t.id] > 1 else "chip"
        label = html.escape(visible(t.text))
        parts.append(f'<span class="{cls}" style="background:{colour[t.id]}" '
                     f'title="id {t.id}">{label}<span class="id">{t.id}</span></span>')
    return CSS + '<div class="chips">' + "".join(parts) + "</div>"


def hide_css(keys: list[str]) -> str:
    """A style sheet that hides the page elements with these keys (Streamlit gives a keyed
    element the class ``st-key-<key>``): a lesson link's ``hide=``. Keys are letters, digits,
    ``_`` and ``-`` only (``lab_ui.lesson.links`` checks), and escaped again here."""
    return ("<style>" + ", ".join(f".st-key-{html.escape(k)}" for k in keys)
            + " {display: none !important;}</style>")


# A chart's text alternative for screen readers: an element with role="img" and the chart's
# summary as its ARIA label, right before the chart, clipped to nothing on screen and taken out
# of the page's flow (no gap between the blocks). A fixed style; the label is escaped.
ALT_STYLE = ("<style>[data-testid='stElementContainer']:has(.chart-alt) { position: absolute !important; "
             "width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }</style>")


def image_label_html(text: str) -> str:
    """A hidden image label for a chart, its text escaped.

    >>> image_label_html('a <b> "c"').endswith('role="img" aria-label="a &lt;b&gt; &quot;c&quot;"></div>')
    True
    """
    return ALT_STYLE + f'<div class="chart-alt" role="img" aria-label="{html.escape(text, quote=True)}"></div>'
