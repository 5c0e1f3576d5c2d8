"""Each constant once, by meaning: no module-level constant name holds two values in core/ and
app/ (a limit that differs by purpose has two names that say so, e.g. ``MAX_D_MODEL`` for the
lesson's trainers and ``WORD2VEC_MAX_D_MODEL`` for real text). Found by reading the source
(an AST scan), not by importing it."""
from __future__ import annotations

import ast
import operator
from collections import defaultdict
from pathlib import Path

from tests.conftest import ROOT

_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow}


def literal(node: ast.expr):
    """The value of a constant expression (``5_000``, ``2**24``, ``(2, 4, 8)``, ``-1``), else
    ValueError: names, calls and the like are not constants of their own."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(literal(e) for e in node.elts)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -literal(node.operand)
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](literal(node.left), literal(node.right))
    raise ValueError(ast.dump(node))


def constants(folders: list[Path]) -> dict[str, dict[str, set[str]]]:
    """UPPER_CASE name -> repr of each value it is given at module level -> the files."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for folder in folders:
        for path in sorted(folder.rglob("*.py")):
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.Assign):
                    targets, value = node.targets, node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    targets, value = [node.target], node.value
                else:
                    continue
                for target in targets:
                    if isinstance(target, ast.Name) and target.id.isupper():
                        try:
                            found[target.id][repr(literal(value))].add(str(path.relative_to(folder.parent)))
                        except ValueError:
                            pass
    return found


def twice(folders: list[Path]) -> dict[str, dict[str, set[str]]]:
    return {name: values for name, values in constants(folders).items() if len(values) > 1}


def test_no_constant_name_has_two_values():
    clashes = twice([ROOT / "core", ROOT / "app"])
    assert not clashes, "\n".join(f"{name}: " + "; ".join(f"{v} in {', '.join(sorted(files))}" for v, files in values.items())
                                  for name, values in clashes.items())


def test_the_scan_finds_a_name_with_two_values(tmp_path):
    """The control: the scan sees through underscores, powers and tuples, and ignores names
    assigned from other names or calls, and lower-case names."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("MAX_ROWS = 5_000\nLIMIT = 2**24\nWIDTHS = (2, 4)\nx = 1\n")
    (tmp_path / "pkg" / "b.py").write_text("MAX_ROWS = 5000\nLIMIT = 2**25\nWIDTHS = [2, 4]\nx = 2\n"
                                           "from a import MAX_ROWS as OTHER\nALIAS = OTHER\nMADE = int('3')\n")
    (tmp_path / "pkg" / "c.py").write_text("ALIAS = 7\nMADE = 3\n")
    assert twice([tmp_path / "pkg"]) == {"LIMIT": {repr(2**24): {"pkg/a.py"}, repr(2**25): {"pkg/b.py"}}}
