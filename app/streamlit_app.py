"""Embedding Lab: the router. Page config, the navigation, and nothing else."""
import sys
from pathlib import Path

# `streamlit run app` puts only app/ on sys.path; the core package lives beside it.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import streamlit as st  # noqa: E402

st.set_page_config(page_title="Embedding Lab", page_icon="🔢", layout="wide")

pg = st.navigation({
    "Start": [st.Page("app_pages/home.py", title="Home", icon="🏠", default=True)],
    "The lesson": [
        st.Page("app_pages/lookup.py", title="1. Lookup", icon="🔎"),
        st.Page("app_pages/similarity.py", title="2. Similarity", icon="📐"),
        st.Page("app_pages/train.py", title="3. Train", icon="🏋️"),
        st.Page("app_pages/gradients.py", title="4. Gradients", icon="🎯"),
        st.Page("app_pages/parameters.py", title="5. Parameters", icon="🧮"),
        st.Page("app_pages/limits.py", title="6. Limits", icon="🚧"),
        st.Page("app_pages/tokens.py", title="7. Tokens: bank", icon="🏦"),
    ],
})
pg.run()
