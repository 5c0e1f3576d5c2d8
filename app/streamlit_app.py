"""Embedding Lab: the router. Page config, the navigation, and nothing else."""
import sys
from pathlib import Path

# `streamlit run app` puts only app/ on sys.path; the core package lives beside it.
ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy  # noqa: E402,F401  (loads the BLAS library, so that the limit below reaches it)
import streamlit as st  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402


@st.cache_resource(show_spinner=False)
def one_blas_thread_per_product():
    """Every session runs its script in a thread of its own, so a busy server already has
    its parallelism; a BLAS library that also starts a thread per core for every matrix
    product makes those threads fight (a 1,000-word training step ran 12x slower on two
    busy cores). Once per server process: BLAS and OpenMP use one thread each."""
    return threadpool_limits(limits=1)


one_blas_thread_per_product()

# A local icon file: a Material or emoji page icon makes the browser fetch it from the internet.
st.set_page_config(page_title="Embedding Lab", page_icon=str(Path(__file__).parent / "icon.png"),
                   layout="wide")

pg = st.navigation({
    "Start": [st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True)],
    "The lesson": [
        st.Page("app_pages/lookup.py", title="1. Lookup", icon=":material/table_rows:"),
        st.Page("app_pages/similarity.py", title="2. Similarity", icon=":material/explore:"),
        st.Page("app_pages/train.py", title="3. Train", icon=":material/model_training:"),
        st.Page("app_pages/gradients.py", title="4. Gradients", icon=":material/gradient:"),
        st.Page("app_pages/parameters.py", title="5. Parameters", icon=":material/calculate:"),
        st.Page("app_pages/limits.py", title="6. Limits", icon=":material/block:"),
        st.Page("app_pages/tokens.py", title="7. Tokens: bank", icon=":material/toll:"),
        st.Page("app_pages/projections.py", title="8. Projections", icon=":material/scatter_plot:"),
    ],
})
pg.run()
