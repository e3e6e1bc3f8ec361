"""What a person sees of the session's time at a moment: every seat's clock, as pure queries on the machine at
a time the caller gives (the shell passes its clock; a test or the simulator its own), so what a table shows
is what the machine's ticks decide at that time, never a second computation beside them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from netplay.deadlines import DECISIONS
from netplay.protocol.state import Phase

__all__ = ["Clocked", "SeatClock", "seat_clocks"]


class Clocked(Protocol):
    """What of a machine the clocks read: a session's (netplay/protocol/core.py `Machine`), or what the spectators
    see of the host's (netplay/protocol/spectators.py `SpectatorsHost`)."""

    book: Any
    deadlines: Any

    @property
    def phase(self) -> Phase: ...


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's time as this peer's clock counts it, for a table: `left_s`, what is left of its move
    clock (None: the game has no move clock); `running`, whether its decision is awaited now (the clock
    runs); `limit_s`, what is left of the limit on the decision awaited now (None: no such limit, or not
    this seat's decision). Figures are this peer's: another peer's clock may differ by the network delay."""

    seat: int
    left_s: float | None
    running: bool
    limit_s: float | None = None


def seat_clocks(machine: Clocked, now: float) -> list[SeatClock]:
    """Every seat's clock at `now` ([] outside a game)."""
    book, deadlines = machine.book, machine.deadlines
    if book is None or deadlines is None or machine.phase is not Phase.PLAY:
        return []
    ledger = book.ledger
    nxt = None if ledger.closed else ledger.awaited()
    out = []
    for seat in range(ledger.players):
        running = nxt is not None and nxt[1] == seat and nxt[0] in DECISIONS
        left = deadlines.allowance(seat, now)
        limit = deadlines.decision_left(seat, now) if running else None
        out.append(SeatClock(seat, None if left is None else max(0.0, left), running,
                             None if limit is None else max(0.0, limit)))
    return out
