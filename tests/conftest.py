"""Shared by the whole suite. `core` and `lab_ui` (app/lab_ui/) import from the editable install
that the README's command makes (`-e .` in requirements.txt)."""
import os
from pathlib import Path

# Every app the suite starts (AppTest here, servers it launches) skips the warm-up's lesson grid
# (160 runs in worker processes): tests/app/test_warmup.py trains a small one on purpose.
os.environ.setdefault("EMBEDDING_LAB_LESSON_GRID", "0")

ROOT = Path(__file__).resolve().parent.parent

# Run once by hand in a throwaway venv with torch (see its docstring); never imported by the suite.
collect_ignore = ["fixtures/make_real_model_reference.py"]
