"""A spectator's shell: its transport to the host (the same CurveZMQ handshake as a joiner's) around the
spectator's state machine (netplay/protocol/watching.py), and its copy of the game on disk.

    session = WatchSession(identity, "192.168.1.5:7000", out=None)   # the copy under the user's replays dir
    outcome = session.run(on_line=print)

The copy is written by the same replay writer as a player's file (each record flushed, and fsync'd unless
`fsync=False`), so a crash loses nothing; `netplay replay verify` audits it. Coming back: with `out` naming an
existing copy of this host's game, the frames in it are checked again and the spectator asks the host for the
frames after them (`watch [.., from_seq]`); the file is appended to, from its last whole record.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from netplay import paths, wire
from netplay.identity import Identity, KeyChanged, KnownPeers
from netplay.protocol import effects as fx
from netplay.protocol.core import EXIT_FAILED, Outcome
from netplay.protocol.watching import Prefix, WatchMachine
from netplay.session import version
from netplay.transport import JoinTransport, Refused
from replays import codec
from replays.ledger import Dispute, Rejected
from replays.reader import read_replay
from replays.releases import spectator_record
from replays.writer import SUFFIX, ReplayWriter, replay_filename

log = logging.getLogger("netplay.session")

__all__ = ["WatchSession", "GONE_S", "copy_filename"]

GONE_S = 30.0        # the host lost for this long: the spectator leaves (the copy stays, resumable)


def copy_filename(header) -> str:
    """A spectator's copy is named like a player's replay, marked: ..._3f2a9c01.spectator.npr."""
    return replay_filename(header)[: -len(SUFFIX)] + ".spectator" + SUFFIX


def _fresh(path: Path) -> Path:
    """`path`, or where a copy of that game already is (a spectator that left and watches again from the start
    without naming its copy), the same name numbered: ..._3f2a9c01-2.spectator.npr."""
    stem = path.name[: -len(".spectator" + SUFFIX)]
    n = 1
    while path.exists() and n < 1000:
        n += 1
        path = path.with_name(f"{stem}-{n}.spectator{SUFFIX}")
    return path


class WatchSession:
    def __init__(self, identity: Identity, address: str, *, out: str | Path | None = None,
                 replay_dir: str | Path | None = None, known_peers: KnownPeers | None = None,
                 connect_timeout_s: float = 10.0, fsync: bool = True):
        self.identity, self.address, self.fsync = identity, address, fsync
        self.out = Path(out) if out is not None else None
        self.replay_dir = Path(replay_dir) if replay_dir is not None else None
        self.writer: ReplayWriter | None = None
        self.path: Path | None = None
        prefix = self._prefix()
        try:
            self.transport: JoinTransport | None = JoinTransport(identity, address, known_peers,
                                                                 connect_timeout_s=connect_timeout_s)
        except BaseException:
            if self.writer is not None:      # a copy we were to continue: left as it was
                self.writer.close()
            raise
        try:
            self.machine = WatchMachine(identity, self.transport.host_key, version=version(), prefix=prefix)
        except (Rejected, Dispute, ValueError) as exc:   # the copy's own frames do not check: not ours to go on
            self.transport.close()
            raise ValueError(f"cannot continue {self.out}: {exc}") from None
        self._gen, self._up = self.transport.generation, False

    def _prefix(self) -> Prefix | None:
        """The copy already at `out` (a spectator coming back), read and continued from its last whole record."""
        if self.out is None or not self.out.exists():
            return None
        try:
            replay = read_replay(self.out)
        except (codec.FormatError, OSError) as exc:
            raise ValueError(f"cannot continue {self.out}: {getattr(exc, 'reason', exc)}") from None
        if replay.spectator != self.identity.public_key:
            raise ValueError(f"{self.out} is not this identity's spectator's copy: give another --out")
        records = 2 + len(replay.frames) + len(replay.releases) + len(replay.certs)
        self.writer = ReplayWriter.resume(self.out, replay.end, records, self.fsync)
        self.path = self.out
        return Prefix(replay.header, replay.frames, [r for _, r in replay.releases])

    # ------------------------------------------------------------------------------ the loop

    def run(self, on_line=None) -> Outcome:
        """Watch until the game is over, the host refuses or leaves, or it is gone for `GONE_S`."""
        machine = self.machine
        try:
            while machine.outcome is None:
                self.step(on_line)
            return machine.outcome
        finally:
            self.close()

    def step(self, on_line=None, timeout_ms: int = 100) -> None:
        transport, machine = self.transport, self.machine
        assert transport is not None, "the session is closed"
        try:
            messages = transport.poll(timeout_ms)
        except (Refused, KeyChanged) as exc:
            machine.outcome = Outcome(EXIT_FAILED, str(exc))
            return
        now = time.monotonic()
        if transport.generation != self._gen or transport.connected != self._up:
            if self._up:
                machine.unlinked(now, transport.host_key, "silent")
            self._gen, self._up = transport.generation, transport.connected
            if transport.connected:
                machine.linked(now, transport.host_key, transport.host_name or "")
        for data in messages:
            machine.receive(now, transport.host_key, data)
            self._carry_out(on_line)
            if machine.outcome is not None:
                return
        machine.tick(now)
        self._carry_out(on_line)
        if machine.gone_at is not None and now - machine.gone_at > GONE_S and machine.outcome is None:
            machine.outcome = Outcome(EXIT_FAILED, f"the host is gone (no answer for {GONE_S:g} s); the copy stops at "
                                                   f"frame {machine.held}")

    def _carry_out(self, on_line) -> None:
        for effect in self.machine.drain():
            if isinstance(effect, fx.Send):
                if self.transport is not None:
                    self.transport.send(effect.data)
            elif isinstance(effect, fx.Say):
                if on_line is not None:
                    on_line(effect.line)
            elif isinstance(effect, fx.OpenReplay):
                if self.writer is None:
                    folder = self.replay_dir if self.replay_dir is not None else paths.replays_dir()
                    self.path = self.out if self.out is not None else _fresh(folder / copy_filename(effect.header))
                    self.writer = ReplayWriter(self.path, effect.header, sync=self.fsync)
                    self.writer.append_record(spectator_record(self.identity.public_key))
            elif isinstance(effect, fx.Write) and self.writer is not None and effect.frame is not None:
                self.writer.append(effect.frame, *effect.records)

    def close(self) -> None:
        transport, self.transport = self.transport, None
        if transport is not None:
            try:
                if transport.connected:
                    transport.send(wire.pack("bye", "the spectator left"))
            finally:
                transport.close()
        if self.writer is not None:
            self.writer.close()
