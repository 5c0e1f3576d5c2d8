"""Shared by the whole suite. pyproject.toml puts the root (for `core`) and app/ (for `lab_ui`)
on sys.path, as `streamlit run app` does."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run once by hand in a throwaway venv with torch (see its docstring); never imported by the suite.
collect_ignore = ["fixtures/make_real_model_reference.py"]
