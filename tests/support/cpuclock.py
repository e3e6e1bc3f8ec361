"""Clocks a pass/fail test may bound: what other processes on a busy machine do not lengthen.

A wall-clock bound fails on a loaded laptop on timing alone (issue 27 item 15), so the tests bound:

- CPU time (`Spent.cpu`: this thread's CPU seconds): a slow or quadratic computation, whatever the load;
- blocked time (`Spent.blocked`: seconds this thread slept on a socket, a lock, a timer; Linux's
  /proc/thread-self/schedstat says how long the thread ran and how long it waited, runnable, for a
  core: the rest of the wall time it was blocked). Waiting for a core is not blocking, so a handler
  that must never wait is caught waiting however busy the machine is;
- the CPU seconds of a whole wait (`Budget`): this process and the child processes it waits on,
  which a loaded machine spreads over more wall time but does not increase. A wait that nobody
  works on (a hang) spends no CPU: a generous wall cap ends it.

Figures of speed (frames per second, messages per second) belong in scripts/bench (benchmarks/).
tests/busy.py makes a machine busy to show a test passes all the same.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

_SCHEDSTAT = Path("/proc/thread-self/schedstat")
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _ran_and_queued() -> tuple[float, float] | None:
    """(seconds this thread ran, seconds it waited for a core), or None where Linux does not say."""
    try:
        ran, queued, _ = _SCHEDSTAT.read_text().split()
    except (OSError, ValueError):
        return None
    return int(ran) / 1e9, int(queued) / 1e9


@dataclass(slots=True)
class Spent:
    """What one stretch of code cost this thread: `cpu` seconds computing, `blocked` seconds asleep
    (0.0 where the system does not say)."""

    cpu: float = 0.0
    blocked: float = 0.0


class measure:  # noqa: N801 (a context manager read as a phrase: `with measure() as spent`)
    """`with measure() as spent:` ... then `spent.cpu`, `spent.blocked` (this thread)."""

    def __enter__(self) -> Spent:
        self.spent = Spent()
        self._wall, self._cpu, self._sched = time.perf_counter(), time.thread_time(), _ran_and_queued()
        return self.spent

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self._wall
        self.spent.cpu = time.thread_time() - self._cpu
        sched = _ran_and_queued()
        if sched is not None and self._sched is not None:
            ran, queued = sched[0] - self._sched[0], sched[1] - self._sched[1]
            self.spent.blocked = max(0.0, wall - ran - queued)


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a live process has used so far; 0.0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / _TICK   # utime, stime (fields 14 and 15 of stat)


def children(pid: int | str = "self") -> tuple[int, ...]:
    """The live descendants of a process (by default this one: a test's peers and the bots they
    started), read from Linux's /proc (none elsewhere)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in task.read_text().split()]
        except (OSError, ValueError):
            continue
    return tuple(found) + tuple(grandchild for child in found for grandchild in children(child))


class Budget:
    """A wait bounded by the CPU it costs: `seconds` of CPU of this process and of the processes it
    waits on together (`pids`, or by default whichever descendants it has when asked: a peer started
    during the wait counts from its start), or `wall_cap` seconds on the clock (a hang: nobody
    works, nothing is spent). `over()` says when to give up; `spent()` what it cost so far."""

    def __init__(self, seconds: float, pids: tuple[int, ...] | None = None, wall_cap: float = 300.0):
        self.seconds, self.pids = seconds, pids
        self._own = time.process_time()
        self._theirs = {pid: process_cpu(pid) for pid in (children() if pids is None else pids)}
        self._cap = time.monotonic() + wall_cap

    def spent(self) -> float:
        pids = children() if self.pids is None else self.pids
        theirs = sum(max(0.0, process_cpu(pid) - self._theirs.get(pid, 0.0)) for pid in pids)
        return time.process_time() - self._own + theirs

    def over(self) -> bool:
        return self.spent() > self.seconds or time.monotonic() > self._cap


def finished(proc: subprocess.Popen, seconds: float, wall_cap: float = 250.0) -> int:
    """Wait for `proc` to end: its return code, or AssertionError once it and its descendants (and
    this process) spent `seconds` of CPU, or `wall_cap` seconds passed on the clock (a hang)."""
    budget = Budget(seconds, (proc.pid, *children(proc.pid)), wall_cap)
    while True:
        try:
            return proc.wait(0.2)
        except subprocess.TimeoutExpired:
            budget.pids = (proc.pid, *children(proc.pid))
            if budget.over():
                raise AssertionError(f"still running after {budget.spent():.1f} s of CPU") from None


def until(predicate: Callable[[], object], seconds: float, wall_cap: float = 300.0, step_s: float = 0.02) -> bool:
    """Wait until `predicate()` holds: True, or False once this process and its descendants spent `seconds`
    of CPU (a busy machine stretches the wait on the clock, not in work) or `wall_cap` passed (a hang)."""
    budget = Budget(seconds, wall_cap=wall_cap)
    while not budget.over():
        if predicate():
            return True
        time.sleep(step_s)
    return bool(predicate())


def run(args: Sequence[str], seconds: float, wall_cap: float | None = None,
        **popen: Any) -> subprocess.CompletedProcess:
    """`subprocess.run(args, capture_output=True, text=True)` bounded by the CPU the command spends (`seconds`,
    with its descendants) rather than by the clock; a hang meets `wall_cap` (default: ten times `seconds`,
    at least 300 s) and raises AssertionError with what the command printed so far."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(list(args), stdout=out, stderr=err, stdin=subprocess.DEVNULL, **popen)
        try:
            code = finished(proc, seconds, wall_cap if wall_cap is not None else max(300.0, 10 * seconds))
        except AssertionError as exc:
            proc.kill()
            proc.wait(10)
            out.seek(0)
            err.seek(0)
            printed = out.read().decode(errors="replace")[-3000:], err.read().decode(errors="replace")[-3000:]
            command = " ".join(map(str, args))
            raise AssertionError(f"{command}: {exc}\nstdout:\n{printed[0]}\nstderr:\n{printed[1]}") from None
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(list(args), code, out.read().decode(errors="replace"),
                                           err.read().decode(errors="replace"))
