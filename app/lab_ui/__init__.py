"""Chart and widget helpers shared by the screens (imported as ``lab_ui``: ``streamlit run app``
puts app/ on sys.path, and the editable install of pyproject.toml maps ``lab_ui`` here for
everything else)."""
from pathlib import Path

APP_DIR = Path(__file__).resolve().parent.parent   # app/: the router, its icon, and this package
ROOT = APP_DIR.parent                              # the checkout
