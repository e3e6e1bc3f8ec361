"""Helpers for the session tests: `netplay host/join` (or tests/support/session_peer.py) in child processes,
each with its own NETPLAY_HOME, their output in files (a chatty game must never block on a full
pipe), every wait bounded, and every process killed at the end of the test whatever happened."""

from __future__ import annotations

import contextlib
import itertools
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from replays.audit import Verdict, audit_file
from support.cpuclock import Budget, children, finished

ROOT = Path(__file__).resolve().parents[2]
CLI = (sys.executable, "-m", "client.cli")
PEER = (sys.executable, str(Path(__file__).with_name("session_peer.py")))


_HASH_SEEDS = itertools.count(101)


class Proc:
    """A peer process. Every process gets a hash seed of its own, so peers in one game never share
    one: lockstep must not depend on Python's str/bytes hashing (set or dict order)."""

    def __init__(self, args: Sequence[str], home: Path, tag: str, prefix: Sequence[str] = (),
                 stdin: str | None = None, preexec: Callable[[], None] | None = None):
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.home, self.tag = home, tag
        self.out_path = home / f"{tag}.out"
        self.err_path = home / f"{tag}.err"
        self.hash_seed = next(_HASH_SEEDS)
        env = dict(os.environ, NETPLAY_HOME=str(home), PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1",
                   PYTHONHASHSEED=str(self.hash_seed))
        with open(self.out_path, "ab") as out, open(self.err_path, "ab") as err:
            self.proc = subprocess.Popen([*prefix, *args], stdout=out, stderr=err, env=env, cwd=str(ROOT),
                                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                         preexec_fn=lambda: _as_a_person_starts_it(preexec))
        if stdin is not None:
            self.proc.stdin.write(stdin.encode())
            self.proc.stdin.close()

    @property
    def out(self) -> str:
        return self.out_path.read_text(errors="replace")

    @property
    def err(self) -> str:
        return self.err_path.read_text(errors="replace")

    def describe(self) -> str:
        return (f"--- {self.tag} (status {self.proc.poll()}) stdout:\n{self.out[-3000:]}\n--- {self.tag} stderr:\n"
                f"{self.err[-3000:]}")

    def address(self, timeout: float = 20.0) -> str:
        """The `join with: netplay join ADDRESS` a host prints, waited for until the host (with its
        descendants) and this process spent `timeout` seconds of CPU: a busy machine makes the wait longer
        on the clock, not in work (tests/support/cpuclock.py); only a hang meets the cap on the clock."""
        budget = Budget(timeout, (self.proc.pid,), wall_cap=max(120.0, 6 * timeout))
        while not budget.over():
            m = re.search(r"join with: netplay join (\S+)", self.out)
            if m:
                return m.group(1)
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
            budget.pids = (self.proc.pid, *children(self.proc.pid))
        raise AssertionError(f"no address from {self.tag} ({budget.spent():.1f} s of CPU spent)\n{self.describe()}")

    def wait(self, timeout: float = 60.0) -> int:
        """The process's exit status, once it ends; AssertionError once it (with its descendants) and this
        process spent `timeout` seconds of CPU, or on a hang (a cap on the clock far above that)."""
        try:
            return finished(self.proc, timeout, wall_cap=max(300.0, 5 * timeout))
        except AssertionError as exc:
            raise AssertionError(f"{self.tag}: {exc}\n{self.describe()}") from None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)


def _as_a_person_starts_it(then: Callable[[], None] | None) -> None:
    """In the child before it runs: Ctrl-C (SIGINT) does what it does for a command typed at a terminal. A shell
    starts a background job with SIGINT ignored, and a child inherits that: a test run from a background job
    (a CI script, `./scripts/test &`) would otherwise send SIGINT to a peer that cannot hear it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if then is not None:
        then()


@contextlib.contextmanager
def processes() -> Iterator[list[Proc]]:
    """A list to put started processes in; all of them are killed when the block ends."""
    procs: list[Proc] = []
    try:
        yield procs
    finally:
        for p in procs:
            p.kill()


def cli_host(tmp: Path, game: str, *extra: str, tag: str = "host", prefix: Sequence[str] = ()) -> Proc:
    home = tmp / tag
    return Proc([*CLI, "host", game, "--bind", "127.0.0.1", "--port", "0", "--no-advertise", "--no-fsync",
                 "--replay-dir", str(home / "replays"), *extra], home, tag, prefix)


def cli_join(tmp: Path, address: str | None, *extra: str, tag: str = "join", prefix: Sequence[str] = ()) -> Proc:
    home = tmp / tag
    where = [address] if address else []
    return Proc([*CLI, "join", *where, "--no-fsync", "--replay-dir", str(home / "replays"), *extra], home, tag,
                prefix)


def peer(tmp: Path, role: str, target: str, *extra: str, tag: str,
         preexec: Callable[[], None] | None = None) -> Proc:
    home = tmp / tag
    return Proc([*PEER, role, target, "--home", str(home), "--replay-dir", str(home / "replays"), *extra], home, tag,
                preexec=preexec)


def replays_of(proc: Proc) -> list[Path]:
    return sorted((proc.home / "replays").glob("*.npr"))


def verdict(path: Path) -> Verdict:
    return audit_file(path)


def same_result(paths: Sequence[Path]) -> Verdict:
    """Audit every file; they must agree on status and result. Returns the first verdict."""
    verdicts = [verdict(p) for p in paths]
    first = verdicts[0]
    for v in verdicts[1:]:
        assert (v.status, v.result, v.blame, v.frames) == (first.status, first.result, first.blame, first.frames), (
            f"{first.path}: {first.status} {first.result} / {v.path}: {v.status} {v.result}")
    return first


GAME_PEER = (sys.executable, str(Path(__file__).with_name("game_peer.py")))


def deck_peer(tmp: Path, role: str, *extra: str, tag: str, prefix: Sequence[str] = ()) -> Proc:
    """A peer of tests/support/game_peer.py (Toy Deck unless `--game` says otherwise) with its own home."""
    home = tmp / tag
    return Proc([*GAME_PEER, role, *extra, "--home", str(home), "--replay-dir", str(home / "replays")], home, tag,
                prefix)
