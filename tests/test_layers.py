"""The layering of docs/design.md, checked from the code's own imports: client -> netplay -> replays ->
engines, bots -> engines, and only the client (and the tests) import bots. Read with `ast`, so nothing is
imported or run to check it."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: how high each layer sits; an import may only point to the same layer or a lower one
RANK = {"engines": 0, "replays": 1, "netplay": 2, "client": 3}
PACKAGES = (*RANK, "bots")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, top-level package) of every absolute import in a module, plus `__import__` calls as '?'."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module.split(".")[0]))
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "__import__":
            found.append((node.lineno, "?"))
    return found


def _violations() -> list[str]:
    bad = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = path.relative_to(ROOT)
            for line, target in _imports(path):
                if target == "?":
                    bad.append(f"{where}:{line}: __import__ hides an import from this check")
                elif target == "bots" and package not in ("bots", "client"):
                    bad.append(f"{where}:{line}: only client/ imports bots/")
                elif package == "bots" and target in RANK and target != "engines":
                    bad.append(f"{where}:{line}: bots/ may import engines/ only, not {target}/")
                elif package in RANK and target in RANK and RANK[target] > RANK[package]:
                    bad.append(f"{where}:{line}: {package}/ imports {target}/, a layer above it")
    return bad


def test_imports_point_down_the_layers():
    assert _violations() == []


def test_the_check_sees_a_wrong_arrow(tmp_path, monkeypatch):
    module = tmp_path / "engines" / "upward.py"
    module.parent.mkdir()
    module.write_text("from netplay import session\nimport bots\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = _violations()
    assert any("engines/ imports netplay/" in v for v in found) and any("only client/" in v for v in found)
