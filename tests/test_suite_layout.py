"""The layout of the suite (issue 31): tests/ holds the test modules, conftest.py (the shared fixtures)
and busy.py (run by path, as the README says); every helper lives in the package tests/support/, which
holds no tests, and its docstring names each of its modules. No test module imports another test module,
and no helper imports one either. Read with `ast`, so nothing is imported or run to check it."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
#: the modules that may sit beside the tests without being tests
BESIDE = {"conftest.py", "busy.py"}


def _imported(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every absolute import, and of every import by name (`importlib.import_module`,
    `__import__`) of a constant string, anywhere in the module."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        elif (isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in
              ("import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def _problems(tests: Path) -> list[str]:
    bad = []
    support = tests / "support"
    for path in sorted(tests.glob("*.py")):
        if not path.name.startswith("test_") and path.name not in BESIDE:
            bad.append(f"tests/{path.name}: a helper beside the tests (it belongs in tests/support/)")
    init = support / "__init__.py"
    listed = (ast.get_docstring(ast.parse(init.read_text())) or "") if init.is_file() else ""
    if not init.is_file():
        bad.append("tests/support/__init__.py is missing")
    for path in sorted(support.glob("*.py")):
        if path.name.startswith("test_"):
            bad.append(f"tests/support/{path.name}: a test module among the helpers")
        elif path.name != "__init__.py" and f"- {path.stem}:" not in listed:
            bad.append(f"tests/support/{path.name}: not listed in tests/support/__init__.py's docstring")
    for path in [*sorted(tests.glob("*.py")), *sorted(support.glob("*.py"))]:
        where = path.relative_to(tests.parent).as_posix()
        for line, module in _imported(path):
            top = module.split(".")[0]
            if top.startswith("test_") or (top == "support" and module.split(".")[-1].startswith("test_")):
                bad.append(f"{where}:{line}: imports the test module {module} (shared code belongs in tests/support/)")
    return bad


def test_no_test_module_imports_another_and_the_helpers_live_in_support() -> None:
    assert _problems(TESTS) == []


def test_the_layout_check_sees_a_cross_import_and_a_stray_helper(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    (tests / "support").mkdir(parents=True)
    (tests / "support" / "__init__.py").write_text('"""Helpers.\n\n- kit: the kit\n"""\n')
    (tests / "support" / "kit.py").write_text("X = 1\n")
    (tests / "support" / "unlisted.py").write_text("def f():\n    import test_b\n")
    (tests / "conftest.py").write_text("")
    (tests / "busy.py").write_text("")
    (tests / "helpers.py").write_text("")
    (tests / "test_a.py").write_text("import importlib\n\nfrom test_b import thing\n\n\ndef test_x():\n"
                                     "    from support.kit import X\n    importlib.import_module('test_c')\n")
    (tests / "test_b.py").write_text("thing = 1\n")
    found = _problems(tests)
    assert found == [
        "tests/helpers.py: a helper beside the tests (it belongs in tests/support/)",
        "tests/support/unlisted.py: not listed in tests/support/__init__.py's docstring",
        "tests/test_a.py:3: imports the test module test_b (shared code belongs in tests/support/)",
        "tests/test_a.py:8: imports the test module test_c (shared code belongs in tests/support/)",
        "tests/support/unlisted.py:2: imports the test module test_b (shared code belongs in tests/support/)",
    ], found
