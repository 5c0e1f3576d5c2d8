"""The screens: one script per screen, which Streamlit runs (listed in ``registry``), the
Train screen in a folder of its own, and ``views``: pieces of one screen each."""
