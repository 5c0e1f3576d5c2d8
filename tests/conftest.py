"""Shared by the whole suite. `core` and `lab_ui` (app/lab_ui/) import from the editable install
that the README's command makes (`-e .` in requirements.txt)."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run once by hand in a throwaway venv with torch (see its docstring); never imported by the suite.
collect_ignore = ["fixtures/make_real_model_reference.py"]
