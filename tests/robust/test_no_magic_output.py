"""Streamlit's "magic" writes any bare expression of a screen file onto the page: a string
meant as a comment becomes text above the title. Only docstrings are allowed."""
import ast
from pathlib import Path

from lab_ui import APP_DIR
from lab_ui.screens.registry import SCREENS

ROOT = Path(__file__).resolve().parents[2]


def bare_expressions(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, stmt in enumerate(body):
            docstring = i == 0 and isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
            if isinstance(stmt, ast.Expr) and not isinstance(stmt.value, (ast.Call, ast.Await)) and not docstring:
                found.append(stmt.lineno)
    return found


def test_screens_have_no_bare_expressions():
    bad = {str(p.relative_to(ROOT)): lines for p in sorted(APP_DIR / s.file for s in SCREENS)
           + [ROOT / "app" / "streamlit_app.py"] if (lines := bare_expressions(p))}
    assert not bad, f"bare expressions that Streamlit would print on the page: {bad}"


def test_the_check_catches_a_documenting_string(tmp_path):
    f = tmp_path / "screen.py"
    f.write_text('"""doc"""\nX = 1\n"""what X is"""\n')
    assert bare_expressions(f) == [3]
