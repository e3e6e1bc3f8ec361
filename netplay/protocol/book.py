"""This peer's copy of one game, as the state machine holds it: one ledger per seat the peer plays (each
with that seat's own secrets and knowledge, as if it were a peer of its own: a bot or a person at one
seat never sees another local seat's cards), the frames in order, the host's certificate of each (games
of three seats or more) and which frames this peer recorded alone, without the sequencer (its own
contest, or its own claim, when the host passed nothing on).

Every frame a peer applies goes through `Book.accept`: the shared validator (`replays.ledger`) of every
local seat. Writing the replay file is the shell's (the machine emits `Write` right after `accept`), so
the book does no I/O; `path` is where the shell writes it, kept for what a UI shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engines.core import HIDDEN, Game, Result
from replays.frames import Frame
from replays.header import Header
from replays.ledger import Dispute, Ledger, SeatSecrets

if TYPE_CHECKING:
    from pathlib import Path  # an annotation only: the shell writes the file, the book only names it

__all__ = ["Book"]


@dataclass(frozen=True, slots=True)
class Accepted:
    """A frame as this peer's copy accepted it, with what its words for the log need (`Book.lines`): the
    state before it and the ledger events it made. Returned by `Book.accept` to the caller that writes and
    announces the frame, rather than parked in the book for a later call to pick up."""

    frame: Frame
    before: Any
    events: tuple


class Book:
    """See the module docstring. `seat` and `ledger` are the first local seat's."""

    def __init__(self, header: Header, secrets: SeatSecrets | Sequence[SeatSecrets], game: Game | None = None):
        held = [secrets] if isinstance(secrets, SeatSecrets) else sorted(secrets, key=lambda s: s.seat)
        self.header = header
        self.secrets = held[0]
        self.seat = held[0].seat
        self.ledgers: dict[int, Ledger] = {}
        for one in held:
            self.ledgers[one.seat] = Ledger(header, one, game if game is not None else
                                            (self.ledgers[self.seat].game if self.ledgers else None))
        self.ledger = self.ledgers[self.seat]
        self.seats: tuple[int, ...] = tuple(self.ledgers)
        self.game = self.ledger.game
        #: per frame: the host's certificate that sequenced it (b"" in a two-seat game, or where none came)
        self.certs: list[bytes] = []
        #: frame numbers this peer recorded alone (never sequenced by the host)
        self.local: set[int] = set()
        self.path: Path | None = None

    def holds(self, seat: int) -> bool:
        return seat in self.ledgers

    def ledger_for(self, seat: int) -> Ledger:
        return self.ledgers[seat]

    @property
    def frames(self) -> list[Frame]:
        return self.ledger.frames

    @property
    def seq(self) -> int:
        """The last accepted frame's number (-1 before the first)."""
        return len(self.ledger.frames) - 1

    @property
    def last_hash(self) -> bytes:
        return self.ledger.last_hash

    @property
    def result(self) -> Result | None:
        return self.ledger.result

    def accept(self, frame: Frame | bytes, cert: bytes = b"", local: bool = False) -> Accepted:
        """Validate and apply one frame in every local seat's ledger. Rejected leaves everything as it was;
        Dispute halts the ledgers with the frame kept as evidence (it is signed and in the chain: the shell
        writes it too, from `evidence()`)."""
        before = len(self.ledger.events)
        state = self.ledger.state
        try:
            accepted = self.ledger.accept(frame)
            for seat, ledger in self.ledgers.items():   # the other seats this peer holds see it too
                if seat != self.seat:   # as built, when this seat built it (it skips the checks just made)
                    ledger.accept(frame if isinstance(frame, Frame) and frame.checked is not None else accepted)
        except Dispute:
            if self.evidence() is not None:
                self.certs.append(cert)
            raise
        self.certs.append(cert)
        if local:
            self.local.add(accepted.seq)
        return Accepted(accepted, state, tuple(self.ledger.events[before:]))

    def evidence(self) -> Frame | None:
        """The frame a dispute halted a ledger on (it is in that ledger's chain), if any."""
        halted = [led for led in self.ledgers.values() if led.status == "disputed" and led.frames]
        return halted[0].frames[-1] if halted else None

    def sequenced(self, seq: int) -> bool:
        return 0 <= seq < len(self.ledger.frames) and seq not in self.local

    @classmethod
    def rebuild(cls, header: Header, frames: Sequence[Frame], certs: Sequence[bytes],
                secrets: SeatSecrets | Sequence[SeatSecrets], game: Game | None = None) -> Book:
        """The book of a peer that comes back: every frame of its replay accepted again with its own
        secrets (its own commitments are recovered from its seeds). Raises what the ledger raises."""
        book = cls(header, secrets, game)
        for n, frame in enumerate(frames):
            for ledger in book.ledgers.values():
                ledger.accept(frame)
            book.certs.append(certs[n] if n < len(certs) else b"")
        return book

    # ------------------------------------------------------------------------------ words

    def lines(self, accepted: Accepted) -> list[str]:
        """What an accepted frame did, in words, for the log (kept off the accepting path)."""
        return self._describe(accepted.frame, accepted.before, accepted.events)

    def _describe(self, frame: Frame, state: Any, events: Sequence) -> list[str]:
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


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)
