"""One game as one peer holds it: the ledger of its seat and the replay file it writes.

Everything a peer accepts goes through `Transcript.accept`: the shared validator (`replays.ledger`) first,
then the replay file, so a frame is on disk before anyone is told it was applied (the session acks or
relays only after `accept` returned). A frame the ledger disputes is written too: it is signed and in
the chain, so it is the evidence an auditor needs.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from engines.core import HIDDEN, Game, Result
from netplay import paths
from replays.frames import Frame
from replays.header import Header
from replays.ledger import Dispute, Ledger, SeatSecrets
from replays.reader import Cert, read_replay
from replays.writer import ReplayWriter

log = logging.getLogger("netplay.session")


class ResumeError(Exception):
    """A saved game that cannot be continued; the message says why."""


class Transcript:
    """This peer's copy of one game: one ledger per seat it holds (each with that seat's own secrets
    and knowledge, as if it were a peer of its own: a bot or a person at one seat never sees another
    local seat's cards) and the one replay file. `seat` and `ledger` are the first local seat's."""

    def __init__(self, header: Header, secrets: SeatSecrets | list[SeatSecrets], writer: ReplayWriter,
                 game: Game | None = None):
        held = [secrets] if isinstance(secrets, SeatSecrets) else sorted(secrets, key=lambda s: s.seat)
        self.header = header
        self.secrets = held[0]
        self.seat = held[0].seat
        self.writer = writer
        self.ledgers: dict[int, Ledger] = {}
        for one in held:
            self.ledgers[one.seat] = Ledger(header, one, game if game is not None else
                                            (self.ledgers[self.seat].game if self.ledgers else None))
        self.ledger = self.ledgers[self.seat]
        self.seats: tuple[int, ...] = tuple(self.ledgers)
        self.game = self.ledger.game
        self._last: tuple | None = None

    def holds(self, seat: int) -> bool:
        return seat in self.ledgers

    def ledger_for(self, seat: int) -> Ledger:
        return self.ledgers[seat]

    @classmethod
    def create(cls, header: Header, secrets: SeatSecrets | list[SeatSecrets], replay_dir: str | os.PathLike | None,
               fsync: bool = True, game: Game | None = None) -> Transcript:
        writer = ReplayWriter.in_dir(replay_dir if replay_dir is not None else paths.replays_dir(), header, sync=fsync)
        return cls(header, secrets, writer, game)

    @classmethod
    def resume(cls, path: str | os.PathLike, secrets: SeatSecrets | list[SeatSecrets], fsync: bool = True,
               game: Game | None = None) -> Transcript:
        """Rebuild this seat's ledger from its own replay file and continue writing it."""
        try:
            replay = read_replay(path)
        except (OSError, ValueError) as exc:
            raise ResumeError(f"cannot read the replay {path}: {exc}") from None
        if replay.malformed is not None:   # never cut it off: those bytes are someone's evidence
            raise ResumeError(f"the replay {path} holds a record that is no frame: {replay.notes[-1]}")
        writer = ReplayWriter.resume(path, replay.end, 1 + len(replay.frames), fsync)
        transcript = cls(replay.header, secrets, writer, game)
        try:
            for frame in replay.frames:
                for ledger in transcript.ledgers.values():
                    ledger.accept(frame)
        except Exception as exc:
            transcript.close()
            raise ResumeError(f"the replay {path} does not replay cleanly: {exc}") from None
        if replay.torn:
            log.warning("resuming %s: %s", path, replay.torn)
        return transcript

    @property
    def path(self) -> Path:
        return self.writer.path

    @property
    def seq(self) -> int:
        """The last accepted frame's number (-1 before the first)."""
        return len(self.ledger.frames) - 1

    @property
    def last_hash(self) -> bytes:
        return self.ledger.last_hash

    def accept(self, frame: Frame | bytes, cert: Cert | None = None) -> Frame:
        """Validate, apply and write one frame (with the host's certificate that sequenced it, on a
        joiner); `lines()` then says what happened (kept off this path, which every move waits for).

        Rejected leaves everything as it was; Dispute halts the ledger after writing the evidence."""
        before = len(self.ledger.events)
        state = self.ledger.state
        try:
            accepted = self.ledger.accept(frame)
            for seat, ledger in self.ledgers.items():   # the other seats this peer holds see it too
                if seat != self.seat:
                    ledger.accept(accepted)
        except Dispute:
            halted = [led for led in self.ledgers.values() if led.status == "disputed" and led.frames]
            if halted:   # the frame is signed and in the chain: the evidence goes into the replay
                self.writer.append(halted[0].frames[-1], *(() if cert is None else (cert.value(),)))
            raise
        records = () if cert is None else (cert.value(),)
        self.writer.append(frame if isinstance(frame, bytes) else accepted, *records)
        self._last = (accepted, state, before)
        return accepted

    def lines(self) -> list[str]:
        """What the last accepted frame did, in words, for the log."""
        if self._last is None:
            return []
        frame, state, before = self._last
        self._last = None
        return self._describe(frame, state, self.ledger.events[before:])

    def _describe(self, frame: Frame, state: Any, events: list) -> list[str]:
        lines = []
        for event in events:
            if event.kind == "chance":
                label = f"{event.chance.label} " if event.chance is not None and event.chance.label else ""
                if event.chance is not None and event.chance.kind == "show":   # a look at a hand
                    source = event.chance.source
                    if event.seat == self.seat and len(self.ledgers) == 1:
                        lines.append(f"you look at seat {source}'s hand: {_show(event.value)} (secret)")
                    else:
                        lines.append(f"seat {event.seat} looks at seat {source}'s hand in secret")
                elif event.seat is None:
                    lines.append(f"chance: {label}{_show(event.value)}")
                elif event.seat == self.seat and len(self.ledgers) == 1:
                    lines.append(f"you draw {label}{_show(event.value)} (secret)")
                elif event.seat in self.ledgers:
                    lines.append(f"seat {event.seat} (on this machine) draws {label}in secret")
                else:
                    lines.append(f"seat {event.seat} draws {label}in secret")
            elif event.value is HIDDEN:
                lines.append(f"seat {event.seat} has chosen in secret")
            else:
                try:
                    lines.append(self.game.describe(state, event.seat, event.value))
                except Exception:  # a describe that trips over an unusual state must not stop the game
                    lines.append(f"seat {event.seat}: {event.value}")
        if frame.kind == "commit" and not events:
            lines.append(f"seat {frame.seat} has chosen")
        elif frame.kind == "timeout":
            lines.append(f"seat {frame.seat} claims that seat {frame.body[0]} withheld its {frame.body[1]} frame")
        elif frame.kind == "contest":
            lines.append(f"seat {frame.seat} contests the timeout claim: {frame.body[0]}")
        elif frame.kind == "final" and self.ledger.status == "complete":
            lines.append("result co-signed by every seat")
        return lines

    @property
    def result(self) -> Result | None:
        return self.ledger.result

    def close(self) -> None:
        self.writer.close()


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)
