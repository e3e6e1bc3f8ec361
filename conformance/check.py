"""Run a replay verifier on every replay vector and compare what it says with what the vectors expect.

    python -m conformance.check --verifier "CMD ... {file}" [--vectors DIR] [--jobs N] [--only NAME ...]

`{file}` in the command stands for the vector's file(s): one argument per file (a vector of several
seats' copies passes them all in one invocation, as `netplay replay verify A B` takes them). For every
vector the verifier's exit status must be the expected one; its standard output must be the verdicts in
the JSON schema of `netplay replay verify --json` (docs/replay-format.md "Verdicts"), whose `verdict`,
`frame` (and, where the vector names them, `dispute.rule` and `blame`; where it says `"disputed": false`,
that the verdict carries no dispute and no blame; for several files the first entry of `forks`) must match
too. `--exit-only` compares exit statuses alone, for a verifier without JSON.
`--batch` verifies every single-file vector in one invocation (much faster where starting the verifier
is slow) and takes each file's exit status from its verdict's `exit` field; vectors of several files
still run one invocation each. Files of one game given together are also compared as copies of that
game, so a batch run ignores `forks` of single files.

Standard library only, so that it runs beside any implementation: point it at the vectors directory of
a netplay checkout (default: the docs/vectors next to this file). Exit status 0 when every vector
passes, 1 otherwise, 2 for a usage error. docs/conformance.md explains the kit.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_VECTORS = Path(__file__).resolve().parent.parent / "docs" / "vectors"
TOKEN = "{file}"


@dataclass
class Outcome:
    name: str
    ok: bool
    problems: list[str] = field(default_factory=list)
    exit: int | None = None
    output: str = ""


def command(template: str, files: list[str]) -> list[str]:
    """The verifier's argv for `files`: a `{file}` argument becomes one argument per file; `{file}` inside
    a longer argument takes the single file; with no `{file}` the files are appended."""
    parts = shlex.split(template)
    if not parts:
        raise ValueError("the verifier command is empty")
    if not any(TOKEN in p for p in parts):
        return [*parts, *files]
    argv: list[str] = []
    for part in parts:
        if part == TOKEN:
            argv += files
        elif TOKEN in part:
            if len(files) != 1:
                raise ValueError(f"{part!r} can take one file, this vector has {len(files)}")
            argv.append(part.replace(TOKEN, files[0]))
        else:
            argv.append(part)
    return argv


def _verdicts(stdout: str) -> list[dict[str, Any]] | None:
    try:
        value = json.loads(stdout)
    except ValueError:
        return None
    if isinstance(value, dict):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        return None
    return value


def _same(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def _pick(verdicts: list[dict[str, Any]], path: str, index: int) -> dict[str, Any] | None:
    for verdict in verdicts:
        if isinstance(verdict.get("path"), str) and _same(verdict["path"], path):
            return verdict
    return verdicts[index] if index < len(verdicts) else None


def compare_one(expect: dict[str, Any], verdict: dict[str, Any] | None) -> list[str]:
    """What differs between one file's expected and reported verdict ([] when it matches)."""
    if verdict is None:
        return ["no verdict for this file in the verifier's JSON"]
    problems = []
    for key in ("verdict", "frame"):
        if verdict.get(key) != expect[key]:
            problems.append(f"{key}: expected {expect[key]!r}, got {verdict.get(key)!r}")
    if expect.get("rule") is not None:
        dispute = verdict.get("dispute")
        rule = dispute.get("rule") if isinstance(dispute, dict) else None
        if rule != expect["rule"]:
            problems.append(f"dispute.rule: expected {expect['rule']!r}, got {rule!r}")
    if expect.get("blame") is not None and verdict.get("blame") != expect["blame"]:
        problems.append(f"blame: expected {expect['blame']!r}, got {verdict.get('blame')!r}")
    if "disputed" in expect:
        disputed = verdict.get("dispute") is not None or verdict.get("blame") is not None
        if disputed != expect["disputed"]:
            problems.append("expected no dispute and no blame (the bytes are rejected, not disputed), got "
                            f"dispute {verdict.get('dispute')!r}, blame {verdict.get('blame')!r}"
                            if not expect["disputed"] else "expected a dispute, got none")
    return problems


def compare_group(expect: dict[str, Any], verdicts: list[dict[str, Any]], paths: list[str]) -> list[str]:
    """Several copies of one game verified together: each verdict, and the first fork found."""
    problems = []
    got = [_pick(verdicts, p, i) for i, p in enumerate(paths)]
    statuses = [None if v is None else v.get("verdict") for v in got]
    if statuses != expect["verdicts"]:
        problems.append(f"verdicts: expected {expect['verdicts']}, got {statuses}")
    forks = [f for v in got if v is not None for f in (v.get("forks") or []) if isinstance(f, dict)]
    want = expect.get("fork")
    if want is None and forks:
        problems.append(f"no fork expected, got {forks[0]}")
    elif want is not None:
        if not forks:
            problems.append(f"a fork at frame {want['frame']} expected, none reported")
        elif (forks[0].get("frame"), forks[0].get("blame")) != (want["frame"], want["blame"]):
            problems.append(f"fork: expected frame {want['frame']} blame {want['blame']}, got frame "
                            f"{forks[0].get('frame')} blame {forks[0].get('blame')}")
    return problems


def run_vector(vector: dict[str, Any], root: Path, template: str, exit_only: bool, timeout: float) -> Outcome:
    paths = [str((root / f).resolve()) for f in vector["files"]]
    expect = vector["expect"]
    try:
        argv = command(template, paths)
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, ValueError) as exc:
        return Outcome(vector["name"], False, [f"cannot run the verifier: {exc}"])
    except subprocess.TimeoutExpired:
        return Outcome(vector["name"], False, [f"the verifier took longer than {timeout:g} s"])
    problems = []
    if done.returncode != expect["exit"]:
        problems.append(f"exit status: expected {expect['exit']}, got {done.returncode}")
    if not exit_only:
        verdicts = _verdicts(done.stdout)
        if verdicts is None:
            problems.append("the verifier's output is not the JSON of docs/replay-format.md \"Verdicts\" (use "
                            "--exit-only for a verifier without it)")
        elif len(paths) == 1:
            problems += compare_one(expect, _pick(verdicts, paths[0], 0))
        else:
            problems += compare_group(expect, verdicts, paths)
    tail = (done.stdout.strip().splitlines() or [""])[-1][:200] + " " + done.stderr.strip()[-300:]
    return Outcome(vector["name"], not problems, problems, done.returncode, tail.strip())


def run_batch(vectors: list[dict[str, Any]], root: Path, template: str, timeout: float) -> list[Outcome]:
    """Every single-file vector in one invocation; each file's exit status from its JSON verdict."""
    paths = [str((root / v["files"][0]).resolve()) for v in vectors]
    try:
        done = subprocess.run(command(template, paths), capture_output=True, text=True, timeout=timeout * 4,
                              check=False)
    except (OSError, ValueError) as exc:
        return [Outcome(v["name"], False, [f"cannot run the verifier: {exc}"]) for v in vectors]
    except subprocess.TimeoutExpired:
        return [Outcome(v["name"], False, ["the batch run took too long"]) for v in vectors]
    verdicts = _verdicts(done.stdout)
    if verdicts is None:
        return [Outcome(v["name"], False, ["the verifier's output is not the JSON of docs/replay-format.md "
                                           f"\"Verdicts\" ({done.stderr.strip()[-200:]})"]) for v in vectors]
    worst = max(v["expect"]["exit"] for v in vectors)
    outcomes = []
    for index, (vector, path) in enumerate(zip(vectors, paths, strict=True)):
        verdict = _pick(verdicts, path, index)
        problems = compare_one(vector["expect"], verdict)
        if verdict is not None and verdict.get("exit") != vector["expect"]["exit"]:
            problems.append(f"exit: expected {vector['expect']['exit']}, got {verdict.get('exit')!r}")
        outcomes.append(Outcome(vector["name"], not problems, problems, None if verdict is None else
                                verdict.get("exit")))
    if done.returncode < worst:
        outcomes.append(Outcome("(batch exit status)", False, [f"the batch run exited {done.returncode}, below "
                                                                f"the worst file's {worst}"], done.returncode))
    return outcomes


def load(vectors: Path) -> list[dict[str, Any]]:
    index = json.loads((vectors / "replays.json").read_text())
    return index["vectors"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.check", description=__doc__.split("\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="example: python -m conformance.check --verifier "
                                            "\"netplay replay verify --json {file}\" --jobs 4")
    parser.add_argument("--verifier", required=True, help=f"the command to run; {TOKEN} stands for the file(s)")
    parser.add_argument("--vectors", type=Path, default=DEFAULT_VECTORS, help="the vectors directory "
                        "(default: docs/vectors of this checkout)")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="run only these vectors (names or groups)")
    parser.add_argument("--jobs", type=int, default=1, help="run this many verifiers at once")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per verifier run")
    parser.add_argument("--exit-only", action="store_true", help="compare exit statuses only (no JSON)")
    parser.add_argument("--batch", action="store_true", help="verify every single-file vector in one run")
    parser.add_argument("--list", action="store_true", help="list the vectors and what they expect, then stop")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    args = parser.parse_args(argv)
    try:
        vectors = load(args.vectors)
    except (OSError, ValueError, KeyError) as exc:
        print(f"cannot read the vectors in {args.vectors}: {exc}", file=sys.stderr)
        return 2
    if args.only:
        wanted = set(args.only)
        vectors = [v for v in vectors if v["name"] in wanted or v.get("group") in wanted]
        unknown = wanted - {v["name"] for v in vectors} - {v.get("group") for v in vectors}
        if unknown:
            print(f"no such vector or group: {', '.join(sorted(unknown))}", file=sys.stderr)
            return 2
    if args.list:
        for v in vectors:
            print(f"{v['name']:32} {json.dumps(v['expect'])}")
        return 0
    if args.batch and args.exit_only:
        print("--batch needs the verifier's JSON (it reads each file's exit status from it)", file=sys.stderr)
        return 2
    batched = [v for v in vectors if args.batch and len(v["files"]) == 1]
    single = [v for v in vectors if v not in batched]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        outcomes = list(pool.map(lambda v: run_vector(v, args.vectors, args.verifier, args.exit_only,
                                                       args.timeout), single))
    if batched:
        outcomes = run_batch(batched, args.vectors, args.verifier, args.timeout) + outcomes
    failed = [o for o in outcomes if not o.ok]
    if args.json:
        print(json.dumps({"passed": len(outcomes) - len(failed), "failed": len(failed),
                          "results": [{"name": o.name, "ok": o.ok, "problems": o.problems, "exit": o.exit}
                                      for o in outcomes]}, indent=1))
    else:
        for o in outcomes:
            print(f"{'PASS' if o.ok else 'FAIL'} {o.name}")
            for problem in o.problems:
                print(f"     {problem}")
            if o.problems and o.output:
                print(f"     (verifier said: {o.output})")
        print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed, of {len(vectors)} replay vectors")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
