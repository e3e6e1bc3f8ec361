"""`netplay/protocol/` is the session's sans-I/O core (docs/architecture.md): its machines are fed inputs
(messages, the time, decisions) and return effects, and the shells (`netplay/session.py`, `host.py`,
`joiner.py`) do the sockets, the clock and the disk. That only holds while no module the protocol
imports reaches I/O, so this reads every module of `netplay/protocol/` with `ast`, follows its imports
through the project (replays/, engines/, the rest of netplay/) and lists every place that reaches an
I/O module, an `open(...)` call or one of the shells.

What counts as I/O: sockets and ZeroMQ, polling, threads and processes, the file system (`os`, `pathlib`,
`io`, `shutil`, `tempfile`, `sqlite3`, `open`), the clock (`time`), the screen (`pygame`), discovery
(`zeroconf`), and logging's handlers and config (they open files and sockets). `logging` itself is
allowed: a log line is an observation, never an input, so the machines stay the same function of their
inputs whatever the shell does with it. Imports under `if TYPE_CHECKING:` do not run and are not counted.

Where today's code reaches I/O, `KNOWN` names the place and why, so that the list is the lead's to shrink
rather than hidden: a new place fails the test, and so does an entry that is no longer true. For `os`,
`time` and `threading` the attribute used is named (`os.urandom`), so allowing one use does not allow the
whole module."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: the project's own top-level packages: imports of these are followed, all others are checked by name
PROJECT = frozenset({"engines", "replays", "netplay", "client", "bots", "simulator", "conformance", "benchmarks"})
IO_MODULES = frozenset({
    "socket", "zmq", "select", "selectors", "threading", "concurrent", "multiprocessing", "subprocess", "signal",
    "os", "time", "pathlib", "io", "shutil", "tempfile", "sqlite3", "fcntl", "mmap", "resource",
    "asyncio", "ssl", "http", "urllib", "pygame", "zeroconf", "logging.handlers", "logging.config",
})
#: the shells and the modules only they may use: the protocol must not reach them even without I/O of its own
SHELLS = frozenset({"netplay.transport", "netplay.session", "netplay.host", "netplay.joiner", "netplay.paths",
                    "netplay.discovery"})

#: module -> (why it is reached today, what of I/O it uses): each one the lead's to keep or remove
KNOWN_BY_MODULE = {
    # entropy, not I/O: fresh seeds and nonces for signatures (no file, socket or clock); kept
    "replays.crypto": ("random_bytes: os.urandom only, entropy rather than I/O", {"os.urandom"}),
    # replays.deck checks shuffles on a thread pool (compute, not I/O) sized by the CPUs this process may use; kept
    "replays.parallel": ("the pool that checks shuffles in parallel: compute, not I/O",
                         {"concurrent.futures.ThreadPoolExecutor", "concurrent.futures.wait", "os.cpu_count",
                          "os.getpid", "os.sched_getaffinity", "threading.Lock", "threading.local"}),
}
KNOWN = {(module, target) for module, (_, targets) in KNOWN_BY_MODULE.items() for target in targets}


@dataclass(frozen=True, slots=True)
class Reach:
    module: str      # the project module that imports it (or calls open)
    target: str      # what it reaches: an I/O module (with the attribute used), "open()" or a shell
    line: int


def module_file(root: Path, name: str) -> Path | None:
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _io_name(name: str) -> str | None:
    """The I/O module `name` (a dotted import) belongs to, or None."""
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        if ".".join(parts[:k]) in IO_MODULES:
            return ".".join(parts[:k])
    return None


def _imports(tree: ast.Module) -> list[tuple[str, str | None, int]]:
    """(module imported, name bound for `import M` or None, line) for every import that runs, and
    ("open()", None, line) for every call of the builtin open."""
    found: list[tuple[str, str | None, int]] = []

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if _type_checking(node.test):
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            for alias in node.names:
                found.append((alias.name, alias.asname or alias.name.split(".")[0], node.lineno))

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            assert node.level == 0 and node.module, f"line {node.lineno}: relative import"
            for alias in node.names:
                found.append((f"{node.module}.{alias.name}", None, node.lineno))

        def visit_Call(self, node: ast.Call) -> None:
            if isinstance(node.func, ast.Name) and node.func.id == "open":
                found.append(("open()", None, node.lineno))
            self.generic_visit(node)

    Visitor().visit(tree)
    return found


def _attributes(tree: ast.Module, bound: str) -> set[str]:
    """The attributes used of the name `bound` (`os` -> {"urandom"}), so one use is named, not the module."""
    return {node.attr for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == bound}


def reaches(root: Path, start: list[str]) -> list[Reach]:
    """Everything I/O that the modules `start` reach through the project's imports (a shell reached is
    listed and not followed: reaching it is the finding)."""
    out: list[Reach] = []
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = module_file(root, name)
        if path is None:
            continue
        parts = name.split(".")
        todo += [".".join(parts[:k]) for k in range(1, len(parts))]   # a package's __init__ runs first
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target, bound, line in _imports(tree):
            if target == "open()":
                out.append(Reach(name, target, line))
                continue
            if target.split(".")[0] in PROJECT:
                shell = next((s for s in SHELLS if target == s or target.startswith(s + ".")), None)
                if shell is not None:
                    out.append(Reach(name, shell, line))
                else:
                    todo.append(target if module_file(root, target) else target.rpartition(".")[0])
                continue
            io = _io_name(target)
            if io is None:
                continue
            if bound is None or "." in target:     # `from os import urandom`, `import concurrent.futures`
                out.append(Reach(name, target, line))
            else:
                used = _attributes(tree, bound)
                out += [Reach(name, f"{io}.{attr}", line) for attr in sorted(used)] or [Reach(name, io, line)]
    return out


def protocol_modules(root: Path) -> list[str]:
    return [f"netplay.protocol.{path.stem}" for path in sorted((root / "netplay" / "protocol").glob("*.py"))]


def test_the_protocol_reaches_no_io_but_the_known_places() -> None:
    found = reaches(ROOT, protocol_modules(ROOT))
    assert found, "nothing followed: the protocol's modules were not found"
    new = sorted({f"{r.module}:{r.line} reaches {r.target}" for r in found if (r.module, r.target) not in KNOWN})
    assert not new, "netplay/protocol/ must not reach I/O (docs/architecture.md); new:\n" + "\n".join(new)


def test_every_known_place_is_still_there() -> None:
    """An entry of KNOWN that no longer holds is removed, so the list only ever says what is true."""
    found = {(r.module, r.target) for r in reaches(ROOT, protocol_modules(ROOT))}
    stale = sorted(f"{module} -> {target}" for module, target in KNOWN if (module, target) not in found)
    assert not stale, "no longer reached, remove from KNOWN: " + ", ".join(stale)


@pytest.mark.parametrize(("source", "reached"), [
    ("import socket\n", "socket"),
    ("import zmq\nzmq.Context()\n", "zmq.Context"),
    ("import os\nos.listdir('.')\n", "os.listdir"),
    ("from time import monotonic\n", "time.monotonic"),
    ("import logging.handlers\n", "logging.handlers"),
    ("def f(p):\n    return open(p).read()\n", "open()"),
    ("def f():\n    import subprocess\n", "subprocess"),
    ("from netplay.transport import HostTransport\n", "netplay.transport"),
    ("from netplay import session\n", "netplay.session"),
    ("from netplay.helper import x\n", "threading.Thread"),          # through another project module
])
def test_a_bad_import_is_caught(tmp_path: Path, source: str, reached: str) -> None:
    protocol = tmp_path / "netplay" / "protocol"
    protocol.mkdir(parents=True)
    (tmp_path / "netplay" / "__init__.py").write_text("")
    (tmp_path / "netplay" / "helper.py").write_text("import threading\nx = threading.Thread\n")
    (protocol / "pure.py").write_text("import logging\nfrom typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    import socket\n")
    assert reaches(tmp_path, protocol_modules(tmp_path)) == [], "logging and TYPE_CHECKING imports are allowed"
    (protocol / "bad.py").write_text(source)
    assert reached in {r.target for r in reaches(tmp_path, protocol_modules(tmp_path))}
