"""Shared by the whole suite. `core` and `lab_ui` (app/lab_ui/) import from the editable install
that the README's command makes (`-e .` in requirements.txt)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
