import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The app's screens import `ui` (from app/) and `core` (from the root), as under `streamlit run app`.
for p in (ROOT, ROOT / "app"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
