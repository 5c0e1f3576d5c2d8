"""Chart and widget helpers shared by the screens (imported as ``lab_ui``: ``streamlit run app``
puts app/ on sys.path, and pyproject.toml does the same for the tests)."""
