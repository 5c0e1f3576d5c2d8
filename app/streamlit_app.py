"""Embedding Lab: the router. Page config, the navigation, and nothing else."""
import sys
from pathlib import Path

# `streamlit run app` puts only app/ on sys.path; the core package lives beside it.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

from ui.presenter import LESSON, next_button, presenting, top_bar  # noqa: E402

# A local icon file: a Material or emoji page icon makes the browser fetch it from the internet.
st.set_page_config(page_title="Embedding Lab", page_icon=str(Path(__file__).parent / "icon.png"),
                   layout="wide")

pages = {file: st.Page(file, title=title, icon=icon, default=(i == 0))
         for i, (file, title, icon) in enumerate(LESSON)}
files = list(pages)
# Presenter mode hides the sidebar navigation: Previous / Next buttons take its place.
pg = st.navigation({"Start": [pages[files[0]]], "The lesson": [pages[f] for f in files[1:]]},
                   position="hidden" if presenting() else "sidebar")
current = next(f for f, p in pages.items() if p.url_path == pg.url_path)
top_bar(current)
pg.run()
next_button(current)
