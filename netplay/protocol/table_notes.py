"""What a spectator is shown of the table beside the frames (the host's side; the spectator's is
`netplay/protocol/watching.py`): every seat's clock as the host counted it when each frame became the last, and,
when the header lets the spectators hear it (`Spectating.chat`), the players' chat, each line with the frame that
was the last when it was said.

Why by frame: a spectator sees the game `delay` frames behind the players, so what it is shown of the clocks and
the chat must be as late as the frames, or a spectator who talks to a player would hear in time what the delay
keeps from it. So a line said while frame t was the last goes out only with (or after) the release of frame t,
and the clocks shown with frame k are those of the moment frame k became the last.

Both are the host's word, unsigned: shown, never evidence (docs/security.md, "Spectators"). Bounded: at most
`MAX_LINES` chat lines are kept for spectators who come later (the oldest go first), and one `table` message
carries at most `wire.MAX_TABLE_CHAT` lines (the rest go with the next).
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

from netplay import wire
from netplay.protocol.clocks import SeatClock

__all__ = ["TableNotes", "Said", "MAX_LINES", "clock_ms"]

MAX_LINES = 4096      # chat lines kept for the spectators (a late one gets the newest of them)


@dataclass(frozen=True, slots=True)
class Said:
    """A chat line as a spectator is shown it: the frame that was the last when it was said, who, what."""

    frame: int
    seat: int
    text: str

    def value(self) -> list:
        return [self.frame, self.seat, self.text]


def clock_ms(clocks: list[SeatClock]) -> tuple[int | None, ...]:
    """Each seat's clock left in whole ms (None: the game has no move clock), as the `table` message says it."""
    return tuple(None if c.left_s is None else max(0, int(c.left_s * 1000)) for c in clocks)


@dataclass(slots=True)
class TableNotes:
    """The clocks at every frame so far, and the chat said at the table, kept for the spectators."""

    #: per frame number: each seat's clock (ms) when it became the last; () where the game had no clocks yet
    clocks: list[tuple[int | None, ...]] = field(default_factory=list)
    said: list[Said] = field(default_factory=list)
    #: lines dropped from the front of `said` (so a watcher's index into the chat stays right: `pending`)
    forgotten: int = 0

    def frame(self, seq: int, clocks: tuple[int | None, ...]) -> None:
        """Frames up to `seq` are sequenced, and `clocks` is the table's clocks now (what every frame not yet
        noted became the last at, as far as this host's ticks can tell)."""
        while len(self.clocks) <= seq:
            self.clocks.append(clocks)

    def heard(self, tip: int, seat: int, text: str) -> None:
        """A line said at the table while frame `tip` was the last (-1: before the first, shown with frame 0)."""
        self.said.append(Said(max(0, tip), seat, wire.clip(text)))
        if len(self.said) > MAX_LINES:
            drop = len(self.said) - MAX_LINES
            del self.said[:drop]
            self.forgotten += drop

    def first_line(self, from_seq: int) -> int:
        """The number of the first line a spectator watching from frame `from_seq` is owed (lines numbered from
        the first ever said, forgotten ones included)."""
        return self.forgotten + bisect_left([s.frame for s in self.said], from_seq)

    def pending(self, next_line: int, through: int) -> tuple[list[Said], int]:
        """The lines from number `next_line` said at frames up to `through` (at most one message's worth), and
        the number of the line after them."""
        start = max(next_line, self.forgotten) - self.forgotten
        out = []
        for line in self.said[start:start + wire.MAX_TABLE_CHAT]:
            if line.frame > through:
                break
            out.append(line)
        return out, self.forgotten + start + len(out)

    def clocks_at(self, seq: int) -> tuple[int | None, ...]:
        return self.clocks[seq] if 0 <= seq < len(self.clocks) else ()
