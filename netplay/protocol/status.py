"""The status line a front end shows, asked of a machine at a time: a pure query, like the seats' clocks
(clocks.py) and the claim countdowns (`Claims.claim_in`).

Why here and not in the shell: the words depend only on the machine's state and the time (the phase, the
wait under way and its countdown, whose frame is awaited, an open claim), so the simulator and a test can
ask them of a machine driven on a fake clock, and the shell cannot drift from what the machine will do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from netplay import wire
from netplay.deadlines import AUTOMATIC
from netplay.protocol.state import Phase

if TYPE_CHECKING:
    from netplay.protocol.core import Machine

__all__ = ["countdown", "part_words", "status_line"]

#: what a seat's program sends by itself, in a player's words (issue 34, item 9: the status said "waiting for
#: Anna's chain"); `{}` is the seat's name
_PARTS = {
    "open": "waiting for {}'s commitments",
    "chain": "waiting for {}'s share of the dice",
    "shuffle": "waiting for {} to shuffle",
    "strip": "waiting for {}'s key to a dealt card",
    "peek": "waiting for {}'s key to a card looked at",
    "show": "waiting for {}'s key to a card shown",
    "reveal": "waiting for {} to reveal a choice",
    "seed": "waiting for {}'s secrets of the game (for the audit)",
    "final": "waiting for {} to sign the result",
}


def part_words(kind: str, who: str) -> str:
    """The status while seat `who`'s program owes an automatic frame of `kind`."""
    return _PARTS.get(kind, "waiting for {}'s " + kind).format(who)


def countdown(machine: Machine, now: float) -> tuple[str, float] | None:
    """The wait under way outside a game: (what this peer waits for, the seconds left at `now` before it
    leaves); None when there is none (netplay/protocol/waits.py)."""
    wait = machine.waiting()
    return None if wait is None else (wait.what, wait.left(now))


def status_line(machine: Machine, now: float) -> str:
    """One line for the person at `now`: the outcome once there is one, else the wait, whose turn it is, or
    the claim open."""
    if machine.outcome is not None:
        return machine.outcome.message
    wait = countdown(machine, now)
    counting = "" if wait is None else f"waiting for {wait[0]}: {wait[1]:.0f} s left"
    if machine.phase is Phase.LOBBY:
        return counting or "waiting for the other players"
    if machine.phase is Phase.OVER:
        return ("game over; rematch?" if not machine.rematch_asked
                else "waiting for the others to agree to a rematch") + (f"; {counting}" if counting else "")
    book = machine.book
    if book is None:
        return counting or "waiting for the other players"
    if counting and book.seq == -1:
        return counting
    ledger = book.ledger
    nxt = ledger.awaited()
    if nxt is None:
        return "game over"
    kind, seat = nxt
    claim = ledger.claim
    if ledger.status == "claimed" and claim is not None:
        if book.holds(claim.blamed):
            return f"seat {claim.claimant} claims you withheld your {claim.kind}: answering"
        return f"seat {claim.claimant} claims seat {claim.blamed} withheld its {claim.kind}: waiting for its answer"
    if book.holds(seat) and seat != book.seat and kind not in AUTOMATIC:
        return f"seat {seat}'s move (on this machine)"
    if seat == book.seat:
        if kind in AUTOMATIC:
            return "sending"
        game = machine.game
        if game is not None and game.awaiting(ledger.state).kind == "simultaneous":
            return "your choice (the others choose at the same time)"
        return "your move"
    names = machine.names
    who = wire.clip(names[seat], 64) if seat < len(names) else f"seat {seat}"
    if kind in AUTOMATIC:
        return part_words(kind, who)
    return f"waiting for {who} (seat {seat}) to choose"
