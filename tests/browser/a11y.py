"""Accessibility checks on the page now on show, shared by the browser tests.

* ``axe_findings(page)``: axe-core (bundled by ``axe-playwright-python``, injected into the page,
  no network) run with the WCAG 2.0/2.1/2.2 A and AA rules and axe's best practices; one line
  per rule that fails, with its impact and how many elements fail it.
* ``serious(findings)``: the lines that fail a test: every critical or serious finding, and any
  moderate or minor one not listed in ``ALLOWED`` with its reason.
* ``heading_skips(page)``: headings that skip a level (an h3 right under the h1).
* ``chart_contrast(page)``, ``page_text_contrast(page)``: contrast computed from the drawn colours.
"""
from __future__ import annotations

from dataclasses import dataclass

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = {"critical", "serious"}

# Moderate or minor findings that remain, each with why it is left (rule id -> reason).
ALLOWED: dict[str, str] = {
    "empty-table-header": "Streamlit's table grid: the corner cell above the row labels has no text "
                          "(minor; the row labels themselves are read)",
    "presentation-role-conflict": "Streamlit's file uploader: its drop zone <section> carries an "
                                  "aria-label but no role (minor; the upload button inside is labelled)",
}


@dataclass(frozen=True)
class Finding:
    rule: str
    impact: str
    nodes: int
    example: str

    def __str__(self) -> str:
        return f"{self.impact} {self.rule}: {self.nodes} element(s), e.g. {self.example}"


def axe_findings(page, context: str | None = None) -> list[Finding]:
    """axe-core's violations on the page (or inside the ``context`` selector)."""
    from axe_playwright_python.sync_playwright import Axe

    result = Axe().run(page, context=context, options={"runOnly": AXE_TAGS, "resultTypes": ["violations"]})
    out = []
    for v in result.response["violations"]:
        node = v["nodes"][0]
        summary = " ".join(node.get("failureSummary", "").split())[:200]
        out.append(Finding(v["id"], v.get("impact") or "minor", len(v["nodes"]), f"{node['target']} ({summary})"))
    return out


def serious(findings: list[Finding]) -> list[Finding]:
    """The findings a screen may not have: critical or serious, or moderate/minor and not allowed."""
    return [f for f in findings if f.impact in BLOCKING or f.rule not in ALLOWED]


# WCAG 2.2 contrast ratios: text 4.5:1 (1.4.3), large text (>= 24 px, or >= 18.66 px bold) and
# the graphical marks a chart is read by 3:1 (1.4.11).
TEXT_RATIO, LARGE_RATIO, MARK_RATIO = 4.5, 3.0, 3.0
SMALLEST_CHART_TEXT = 11    # px: a number or label smaller than this is not readable on a projector

# Every chart drawn as SVG (the handout's renderer; the screen draws the same spec on a canvas):
# the colour of each text and mark as drawn (its fill or stroke, times its opacities, over what
# lies under it: the heatmap cell under a number, else the page's background), its contrast
# ratio, and one line per element that is below its ratio. Heatmap cells themselves are not
# marks here: their colour *is* the value (white at 0 on a diverging scale), which the
# numbers on them and the table behind the chart give in words.
CHART_CONTRAST_JS = """([textRatio, largeRatio, markRatio, smallest]) => {
  const parse = s => { const m = (s || '').match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(',').map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = c => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const over = (c, a, bg) => ({r: c.r * a + bg.r * (1 - a), g: c.g * a + bg.g * (1 - a), b: c.b * a + bg.b * (1 - a)});
  const alpha = (el, prop) => { let a = 1;
    for (let e = el; e && e.tagName && e.tagName.toLowerCase() !== 'svg'; e = e.parentElement) {
      const s = getComputedStyle(e); a *= Number(s.opacity || 1); }
    return a * Number(getComputedStyle(el)[prop] || 1); };
  const pageBg = el => { for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor); if (c && c.a > 0) return c; }
    return {r: 255, g: 255, b: 255, a: 1}; };
  const hex = c => '#' + [c.r, c.g, c.b].map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
  const out = [];
  const charts = Array.from(document.querySelectorAll("[data-testid='stVegaLiteChart']"))
    .filter(c => c.parentElement.checkVisibility());
  charts.forEach((chart, k) => {
    const svg = chart.querySelector('svg.marks'); if (!svg) return;
    const bg = pageBg(chart);
    const heat = svg.querySelector('linearGradient') !== null;
    const cells = heat ? Array.from(svg.querySelectorAll('.mark-rect.role-mark path'))
      .map(c => ({box: c.getBoundingClientRect(), el: c})) : [];
    const titleEl = svg.querySelector('.role-title-text text');
    const name = `chart ${k + 1}` + (titleEl ? ` "${titleEl.textContent.slice(0, 50)}"` : '');
    const seen = new Set();
    const report = line => { if (!seen.has(line)) { seen.add(line); out.push(line); } };
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim() || !t.checkVisibility()) continue;
      const s = getComputedStyle(t), c = parse(s.fill); if (!c) continue;
      const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700 || s.fontWeight === 'bold';
      const r = t.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      let under = bg;
      if (t.closest('.role-mark'))            // a number on a heatmap cell: the cell under it
        for (const {box: b, el: cell} of cells) {
          if (cx >= b.left && cx <= b.right && cy >= b.top && cy <= b.bottom) {
            const f = parse(getComputedStyle(cell).fill); if (f) under = over(f, alpha(cell, 'fillOpacity'), bg); break; } }
      const a = alpha(t, 'fillOpacity') * c.a;
      if (a === 0) continue;                     // a label Vega hid (it would overlap another)
      const drawn = over(c, a, under);
      const need = (size >= 24 || (bold && size >= 18.66)) ? largeRatio : textRatio;
      const got = ratio(drawn, under);
      if (got < need - 1e-9)
        report(`${name}: text "${t.textContent.slice(0, 20)}" ${hex(drawn)} on ${hex(under)} ` +
               `is ${got.toFixed(2)}:1 (needs ${need}:1)`);
      if (size < smallest) report(`${name}: text "${t.textContent.slice(0, 20)}" is ${size} px (smallest ${smallest} px)`);
    }
    for (const m of svg.querySelectorAll('.role-mark path, .role-mark line')) {
      const g = m.closest('.role-mark'); const cls = g.getAttribute('class') || '';
      if (heat && cls.includes('mark-rect')) continue;
      const s = getComputedStyle(m);
      const fill = s.fill !== 'none' ? parse(s.fill) : null, stroke = s.stroke !== 'none' ? parse(s.stroke) : null;
      const c = (cls.includes('mark-line') || cls.includes('mark-rule') || !fill) ? stroke : fill;
      const a = c === stroke ? alpha(m, 'strokeOpacity') : alpha(m, 'fillOpacity');
      if (!c || c.a === 0 || a === 0) continue;
      const got = ratio(over(c, a * c.a, bg), bg);
      if (got < markRatio - 1e-9) report(`${name}: ${cls.split(' ')[0]} ${hex(over(c, a * c.a, bg))} ` +
                                         `on ${hex(bg)} is ${got.toFixed(2)}:1 (needs ${markRatio}:1)`);
    }
  });
  return out;
}"""


def chart_contrast(page) -> list[str]:
    """Every chart text and mark below its contrast ratio (or too small), one line each."""
    return page.evaluate(CHART_CONTRAST_JS, [TEXT_RATIO, LARGE_RATIO, MARK_RATIO, SMALLEST_CHART_TEXT])


# Every chart drawn on the page and its text alternative: the hidden image label (role="img",
# its ARIA label the chart's summary, lab_ui.widgets.charts.summary) in the page element just
# before the chart's (lab_ui.widgets.common.text_alternative). Vega's own label reaches the page on
# SVG charts only, not on the canvas the screen draws.
CHART_LABELS_JS = """() => Array.from(document.querySelectorAll("[data-testid='stVegaLiteChart']"))
  .filter(c => c.parentElement.checkVisibility())
  .map(c => { const box = c.closest("[data-testid='stElementContainer']");
    const before = box ? box.previousElementSibling : null;
    const alt = before ? before.querySelector(".chart-alt[role='img'][aria-label]") : null;
    return alt ? alt.getAttribute('aria-label') : ''; })"""


def unlabelled_charts(page) -> list[str]:
    """One line per drawn chart without a text alternative."""
    labels = page.evaluate(CHART_LABELS_JS)
    return [f"chart {i + 1} of {len(labels)} has no ARIA label" for i, label in enumerate(labels)
            if "table below the chart" not in label]


def chart_labels(page) -> list[str]:
    """The text alternative of every drawn chart, in page order ('' for a chart without one)."""
    return page.evaluate(CHART_LABELS_JS)


# Every text of the page outside the charts (whose own check is above) and its contrast with
# the colour painted behind it: the text's colour times its opacities over the first opaque
# background of its ancestors, each half-transparent background on the way laid over it.
# axe-core leaves a text "incomplete" (not failed) when it cannot tell its background, e.g. over
# a half-transparent one; this check decides those too. An ancestor's box counts only where the
# text's centre lies inside it. Tables are drawn on a canvas (their
# colours are Streamlit's theme's) and are left out, like the charts.
PAGE_TEXT_JS = """([textRatio, largeRatio]) => {
  const parse = s => { const m = (s || '').match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lin = v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const lum = c => 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const over = (c, a, bg) => ({r: c.r * a + bg.r * (1 - a), g: c.g * a + bg.g * (1 - a), b: c.b * a + bg.b * (1 - a)});
  const hex = c => '#' + [c.r, c.g, c.b].map(v => Math.round(v).toString(16).padStart(2, '0')).join('');
  const behind = el => { const layers = [], t = el.getBoundingClientRect();
    const cx = t.left + t.width / 2, cy = t.top + t.height / 2;
    let scrolled = false;
    for (let e = el; e && e.nodeType === 1; e = e.parentElement) {
      const s = getComputedStyle(e), b = e.getBoundingClientRect();
      // a box the text is drawn outside of (a slider's value over its thumb) is not behind it;
      // from the page's scrolling box up, every box is (the text may be scrolled out of view)
      scrolled = scrolled || (/(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1);
      if (!scrolled && e !== el && (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom)) continue;
      const c = parse(s.backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; } }
    let bg = {r: 255, g: 255, b: 255};
    for (const c of layers.reverse()) bg = over(c, c.a, bg);
    return bg; };
  const opacity = el => { let a = 1; for (let e = el; e && e.nodeType === 1; e = e.parentElement)
    a *= Number(getComputedStyle(e).opacity || 1); return a; };
  const out = [], seen = new Set();
  const skip = "svg, canvas, [data-testid='stDataFrame'], [data-testid='stVegaLiteChart'], " +
               "[data-testid='stDeckGlJsonChart'], .chip, [aria-hidden='true'], style, script";
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest(skip)) continue;
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2 || r.bottom < 0 || r.right < 0 || r.left > innerWidth) continue;
    const s = getComputedStyle(el), c = parse(s.color); if (!c) continue;
    const bg = behind(el), drawn = over(c, c.a * opacity(el), bg);
    const size = parseFloat(s.fontSize), bold = Number(s.fontWeight) >= 700;
    const need = (size >= 24 || (bold && size >= 18.66)) ? largeRatio : textRatio;
    const got = ratio(drawn, bg);
    const text = el.textContent.trim().slice(0, 30);
    const part = el.closest('[data-testid]'), where = part ? ` in ${part.getAttribute('data-testid')}` : '';
    const line = `text "${text}"${where} ${hex(drawn)} on ${hex(bg)} is ${got.toFixed(2)}:1 (needs ${need}:1)`;
    if (got < need - 1e-9 && !seen.has(line)) { seen.add(line); out.push(line); }
  }
  return out;
}"""


def page_text_contrast(page) -> list[str]:
    """Every text outside charts and tables below its contrast ratio, one line each."""
    return page.evaluate(PAGE_TEXT_JS, [TEXT_RATIO, LARGE_RATIO])


# The page's headings in order, each with its level: a heading more than one level below the one
# before it skips a level (WCAG 1.3.1; axe's heading-order rule), e.g. an h3 right under the h1.
HEADINGS_JS = """() => Array.from(document.querySelectorAll("[data-testid='stMain'] :is(h1, h2, h3, h4, h5, h6)"))
  .filter(h => h.checkVisibility() && h.textContent.trim())
  .map(h => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)])"""


def heading_skips(page) -> list[str]:
    """One line per heading that is more than one level below the heading before it (the
    first heading must be the h1)."""
    out, last = [], 0
    for level, text in page.evaluate(HEADINGS_JS):
        if level > last + 1:
            out.append(f'h{level} "{text}" comes after ' + (f"an h{last}" if last else "no h1"))
        last = level
    return out
