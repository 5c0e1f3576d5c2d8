"""Layout checks for the classroom viewports, run in the page itself.

``layout_problems(page)`` returns one line per problem (an empty list when the screen holds):

* a metric whose value is cut off (any element of ``stMetricValue`` with
  ``scrollWidth > clientWidth``: Streamlit truncates with an ellipsis and raises nothing);
* a chart whose drawing (the SVG or canvas Vega-Lite paints) reaches outside its column's box;
* a table (``st.dataframe``) whose columns do not fit its box, so part of it scrolls out of sight;
* the main area scrolling sideways (``stMain``'s ``scrollWidth > clientWidth``);
* two content blocks whose boxes overlap (element containers, each measured together with
  whatever it draws, so a chart spilling into the next column overlaps that column's blocks);
  a screen's controls bar (``lab_ui.widgets.layout.controls_bar``) is left out: it stays under the
  header by design, over whatever scrolls beneath it.

Elements hidden in closed tabs and expanders are skipped. These checks need a real browser at the
real viewport: none of them shows in AppTest.
"""
from __future__ import annotations

TOLERANCE_PX = 2

LAYOUT_JS = """
(tol) => {
  const out = [];
  const visible = el => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  const name = el => {
    const lab = el.querySelector("[data-testid='stMetricLabel'], .stHeading, p, summary");
    const t = (lab ? lab.innerText : el.innerText || '').trim().split('\\n')[0].slice(0, 50);
    return `${el.dataset.testid || el.className.split(' ')[0]} "${t}"`;
  };
  // 1. metric values cut off
  for (const v of document.querySelectorAll("[data-testid='stMetricValue']")) {
    if (!visible(v)) continue;
    for (const el of [v, ...v.querySelectorAll('*')]) {
      if (el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
        const m = v.closest("[data-testid='stMetric']");
        out.push(`metric value cut off: ${name(m)} shows "${v.innerText.trim()}" in ` +
                 `${el.clientWidth} px but needs ${el.scrollWidth} px`);
        break;
      }
    }
  }
  // 2. charts inside their column
  for (const c of document.querySelectorAll("[data-testid='stVegaLiteChart']")) {
    if (!visible(c)) continue;
    const col = c.closest("[data-testid='stColumn']") || c.closest("[data-testid='stMainBlockContainer']");
    if (!col) continue;
    const g = c.querySelector('svg.marks, canvas') || c;
    const r = g.getBoundingClientRect(), b = col.getBoundingClientRect();
    if (r.right > b.right + tol || r.left < b.left - tol) {
      const title = (c.querySelector('.role-title-text') || {}).textContent || '';
      out.push(`chart "${title.slice(0, 50)}" (${Math.round(r.width)} px wide) sticks out of its ` +
               `column (${Math.round(b.left)}..${Math.round(b.right)} px) by ` +
               `${Math.round(Math.max(r.right - b.right, b.left - r.left))} px`);
    }
  }
  // 2b. tables whose columns do not fit their box (a class cannot scroll them)
  for (const d of document.querySelectorAll("[data-testid='stDataFrame']")) {
    if (!visible(d)) continue;
    const sc = d.querySelector('.dvn-scroller');
    if (sc && sc.scrollWidth > sc.clientWidth + 1) {
      const head = Array.from(d.querySelectorAll('th, [role=columnheader]')).map(h => h.innerText.trim()).slice(0, 4);
      out.push(`table (${head.join(', ') || d.innerText.trim().slice(0, 40)}) is cut off: its columns need ` +
               `${sc.scrollWidth} px, it shows ${sc.clientWidth} px`);
    }
  }
  // 3. the main area scrolls sideways
  const main = document.querySelector("[data-testid='stMain']");
  if (main && main.scrollWidth > main.clientWidth + 1)
    out.push(`the main area scrolls sideways: scrollWidth ${main.scrollWidth} > clientWidth ${main.clientWidth}`);
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${window.innerWidth}`);
  // 4. overlapping content blocks (leaf element containers, with what they draw)
  const blocks = [];
  for (const e of document.querySelectorAll("[data-testid='stMain'] [data-testid='stElementContainer']")) {
    if (!visible(e)) continue;
    if (e.querySelector("[data-testid='stElementContainer']")) continue;  // not a leaf
    if (e.closest("[class*='st-key-bar_']")) continue;   // a controls bar floats over what scrolls under it
    let r = e.getBoundingClientRect();
    let box = {l: r.left, r: r.right, t: r.top, b: r.bottom};
    for (const g of e.querySelectorAll('svg.marks, canvas')) {
      const q = g.getBoundingClientRect();
      box = {l: Math.min(box.l, q.left), r: Math.max(box.r, q.right),
             t: Math.min(box.t, q.top), b: Math.max(box.b, q.bottom)};
    }
    if (box.r - box.l < 1 || box.b - box.t < 1) continue;
    blocks.push([e, box]);
  }
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const [ea, a] = blocks[i], [eb, b] = blocks[j];
      const w = Math.min(a.r, b.r) - Math.max(a.l, b.l), h = Math.min(a.b, b.b) - Math.max(a.t, b.t);
      if (w > tol && h > tol)
        out.push(`${name(ea)} and ${name(eb)} overlap by ${Math.round(w)} x ${Math.round(h)} px`);
    }
  }
  return out;
}
"""


def layout_problems(page) -> list[str]:
    """Everything about the current layout that fails the classroom checks."""
    return page.evaluate(LAYOUT_JS, TOLERANCE_PX)
