"""Embedding Lab: the router. Page config, the navigation, and nothing else: the screens are
listed once, in ``lab_ui.screens.registry``; the server process is tuned by ``lab_ui.server.process``."""
from pathlib import Path

import streamlit as st

from lab_ui.lesson import links
from lab_ui.lesson.handout import handout, handout_link, tables_switch
from lab_ui.lesson.presenter import next_button, presenting, top_bar
from lab_ui.server.process import tune
from lab_ui.server.warmup import wait_while_warming
from lab_ui.screens.registry import SCREENS
from lab_ui.screens.train.train_controls import BOUND as TRAIN_BOUND, OLD_TAB_NAMES

tune()      # once per server process (after the imports above: it freezes them)

# A local icon file: a Material or emoji page icon makes the browser fetch it from the internet.
st.set_page_config(page_title="Embedding Lab", page_icon=str(Path(__file__).parent / "icon.png"),
                   layout="wide")
wait_while_warming()    # a page opened as the server starts waits for the lesson's runs, under a bar

pages = {s.file: st.Page(s.file, title=s.title, icon=s.icon, default=(i == 0)) for i, s in enumerate(SCREENS)}
files = list(pages)
# Presenter mode hides the sidebar navigation: Previous / Next buttons take its place.
# One flat list, no section headings: Streamlit draws a section's heading inside the list's <ul>,
# which screen readers and axe-core's list/listitem rules refuse (docs/classroom.md, "Accessibility").
pg = st.navigation([pages[f] for f in files],
                   position="hidden" if presenting() or handout() else "sidebar",
                   expanded=True)   # every screen listed: no "View more" between a class and screen 10
current = next(f for f, p in pages.items() if p.url_path == pg.url_path)
links.follow_renames({"train_tab": OLD_TAB_NAMES})
link = links.given()        # a lesson link's settings, before the screen reads them
slot = st.container()       # its notices, if the screen cannot use some of them
links.apply_hide(slot)
if handout():               # printing: the screen alone, in one column
    pg.run()
else:
    top_bar(current)
    if not presenting():
        tables_switch(st.sidebar)
    pg.run()
    if not presenting():    # presenter mode keeps the sidebar closed
        handout_link(st.sidebar)
        links.builder(st.sidebar, current)
    next_button(current)
links.notice(slot, link, skip=set(TRAIN_BOUND))   # the Train screen words its own notice
