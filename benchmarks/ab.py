"""Per move against the last release: the session benchmark's per-move p50 and commit-reveal step p50
(benchmarks/session.py) measured on this code and on the last release in the same run, in alternating
rounds, with the ratio this code / the release.

The release is commit 714952b, the last one before the session became a state machine (issue 37). Its
tree is exported from this repository's history (`git archive`) into a temporary directory, removed
afterwards. Each side runs in a child process of its own (the same driver, which imports that tree's
own `benchmarks.session` and calls its `measure`), with only that tree on the path; the children
alternate (this code first in odd rounds, the release first in even ones) so that the machine's drift
hits both alike. Without git, or without the commit (a tarball, a shallow clone), the group is skipped
with the reason. `python -m benchmarks.ab [ROUNDS]` prints the figures.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from benchmarks.measure import Figure, fmt_value

ROOT = Path(__file__).resolve().parent.parent
#: the last release: the last commit before the session became a state machine (issue 37)
RELEASE = "714952b"

#: run in each tree (cwd and PYTHONPATH that tree): its own session benchmark, one JSON line out
DRIVER = """
import json, sys
import netplay
from benchmarks import session
move = session.measure(session.MOVE_GAME, "move", int(sys.argv[1]), 20)
step = session.measure(session.STEP_GAME, "step", int(sys.argv[2]), 10)
print(json.dumps({"netplay": netplay.__file__, "move": move, "step": step}))
"""


def export(commit: str, into: str) -> str | None:
    """Write `commit`'s tree into the directory `into`; the reason it cannot be done, or None."""
    git = shutil.which("git")
    if git is None:
        return "git is not installed"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([git, "-C", str(ROOT), *args], capture_output=True, timeout=120, check=False)
    top = run("rev-parse", "--show-toplevel")
    if top.returncode != 0 or Path(top.stdout.decode().strip()).resolve() != ROOT.resolve():
        return f"{ROOT} is not a git checkout (no history to take {commit} from)"
    found = run("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}")
    if found.returncode != 0:
        return f"commit {commit} is not in this checkout's history (a shallow clone?)"
    archive = run("archive", "--format=tar", found.stdout.decode().strip())
    if archive.returncode != 0:
        return f"git archive {commit} failed: {archive.stderr.decode(errors='replace').strip()[-200:]}"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(into, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return None


def measure(tree: Path, move_games: int, step_games: int) -> dict:
    """One child process in `tree`: its own session benchmark's per-move and step figures."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", DRIVER, str(move_games), str(step_games)], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=900, check=False)
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        raise RuntimeError(f"the session benchmark in {tree} failed ({out.returncode}): {out.stderr[-2000:]}")
    result = json.loads(lines[-1])
    if not Path(result["netplay"]).resolve().is_relative_to(tree.resolve()):
        raise RuntimeError(f"the benchmark in {tree} imported netplay from {result['netplay']}")
    return result


def figures(runs: int = 5, quick: bool = False, say=print, commit: str = RELEASE) -> list[Figure]:
    """`runs` rounds, each one child process of this code and one of `commit`, in alternating order."""
    base = f"the same figure at {commit} (the last release: before the state machines), in the same round"
    move = Figure("ab", f"per move p50 vs the last release (madagaskar: this code / {commit})", "us", baseline=base)
    step = Figure("ab", f"commit-reveal step p50 vs the last release (turning-tides: this code / {commit})", "us",
                  baseline=base)
    old_move = Figure("ab", f"per move p50 at {commit} (madagaskar)", "us")
    old_step = Figure("ab", f"commit-reveal step p50 at {commit} (turning-tides)", "us")
    move_games, step_games = (1, 1) if quick else (8, 2)
    with tempfile.TemporaryDirectory(prefix="netplay-bench-release-") as tmp:
        reason = export(commit, tmp)
        if reason is not None:
            say(f"  skipped: {reason}")
            return []
        trees = {"this code": ROOT, commit: Path(tmp)}
        for round_ in range(runs):
            order = list(trees) if round_ % 2 == 0 else list(reversed(trees))
            got = {name: measure(trees[name], move_games, step_games) for name in order}
            new, old = got["this code"], got[commit]
            move.add(new["move"]["p50_us"], old["move"]["p50_us"])
            step.add(new["step"]["p50_us"], old["step"]["p50_us"])
            old_move.add(old["move"]["p50_us"])
            old_step.add(old["step"]["p50_us"])
            say(f"  round {round_ + 1} ({' first, then '.join(order)}): per move this code "
                f"{fmt_value(new['move']['p50_us'], 'us')}, {commit} {fmt_value(old['move']['p50_us'], 'us')}; "
                f"a step {fmt_value(new['step']['p50_us'], 'us')}, {fmt_value(old['step']['p50_us'], 'us')} "
                f"({new['move']['n']} and {old['move']['n']} moves, {new['step']['n']} and {old['step']['n']} steps)")
    out = [move, step, old_move, old_step]
    for fig in out:
        say(f"  {fig.line()}")
    return out


if __name__ == "__main__":
    figures(runs=int(sys.argv[1]) if len(sys.argv) > 1 else 2, quick=True)
