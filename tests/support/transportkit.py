"""The transport tests' tools, shared by the flood, idle, fuzz and discovery tests: short heartbeats,
`Run` (drives an in-process host, records its events, echoes b"echo:" messages like the peer script),
conditions over those events, and a joiner in a child process (tests/support/transport_peer.py) whose
key is known before it starts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from netplay.identity import Identity
from netplay.transport import HostTransport, Incoming
from support.cpuclock import Budget
from support.nethelpers import Peer

HB = 0.2          # heartbeat for these tests; a peer is gone after HB * LIVE seconds of silence
LIVE = 3


class Run:
    """Drives the in-process host: polls, records events, echoes b"echo:" messages like the peer script.
    `until` waits for a condition over the events seen since the previous `until` returned; pass
    `run.turn` as `during=` while waiting on a child, so the host keeps answering heartbeats."""

    def __init__(self, host: HostTransport, echo: bool = True):
        self.host, self.echo, self.events, self.mark = host, echo, [], 0

    def turn(self, timeout_ms: int = 5) -> None:
        for ev in self.host.poll(timeout_ms):
            self.events.append(ev)
            if self.echo and ev.kind == "message" and ev.data.startswith(b"echo:"):
                self.host.send(ev.peer, ev.data)

    def until(self, cond: Callable[[list[Incoming]], bool], timeout: float = 10.0,
              pids: tuple[int, ...] | None = None) -> list[Incoming]:
        """Bounded by `timeout` CPU seconds of this process and its children (or only `pids` of them): a
        busy machine stretches the wait on the clock, not the work (tests/support/cpuclock.py); or by a hang's
        cap on the clock."""
        budget = Budget(timeout, pids, wall_cap=max(60.0, 10 * timeout))
        while not cond(self.events[self.mark:]):
            if budget.over():
                raise AssertionError(f"host did not see the expected events within {timeout} s of CPU "
                                     f"({budget.spent():.1f} s spent); saw {self.events[self.mark:]}")
            self.turn(50)
        new, self.mark = self.events[self.mark:], len(self.events)
        return new


def has(kind: str, key: bytes | None = None, data: bytes | None = None) -> Callable[[list[Incoming]], bool]:
    return lambda evs: any(e.kind == kind and (key is None or e.peer == key) and (data is None or e.data == data)
                           for e in evs)


def eventually(cond: Callable[[], bool], during: Callable[[], object], timeout: float = 5.0) -> None:
    """Wait (bounded: `timeout` CPU seconds of this process and its children, or a hang's cap on the
    clock) until `cond()` holds, calling `during` meanwhile (the host keeps polling)."""
    budget = Budget(timeout, wall_cap=max(60.0, 10 * timeout))
    while not cond():
        assert not budget.over(), f"not within {timeout} s of CPU"
        during()


def joiner(address: str, home: Path, name: str = "jo", *extra: str) -> Peer:
    return Peer(["join", address, "--home", str(home), "--name", name, "--heartbeat", str(HB),
                 "--liveness", str(LIVE), "--lifetime", "600", *extra])   # a guard against an orphan only


def key_of(home: Path, name: str) -> bytes:
    """The joiner child loads (or makes) its key from `home/keys`; make it first to know it."""
    return Identity.load(home / "keys", name=name).public_key
