"""Chart and widget helpers shared by the screens (imported as ``lab_ui``: ``streamlit run app``
puts app/ on sys.path, and the editable install of pyproject.toml maps ``lab_ui`` here for
everything else)."""
