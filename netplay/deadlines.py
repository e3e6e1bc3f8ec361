"""When a peer may claim that another seat withheld its frame, by this peer's own clock.

The ledger has no clock; the deadlines are agreed before the game (the header's `Terms`), so every
peer computes the same ones, each by its own clock:
- a frame that needs no decision (open, chain, reveal, seed, final) is due within the reveal timeout T
  of when it became awaited;
- a decision (act, commit) is untimed without a move clock, unless the deciding seat is known to be
  gone: then it is due T after it left (a host knows its joiners' connections, a joiner its host's);
- with a move clock, a seat's decisions share its allowance (initial + increment per decision made);
  the deadline of a decision is the allowance left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replays.header import Terms

__all__ = ["AUTOMATIC", "DECISIONS", "Deadlines"]

#: the kinds that need no decision
AUTOMATIC = frozenset({"open", "chain", "shuffle", "strip", "peek", "show", "reveal", "seed", "final"})
DECISIONS = frozenset({"act", "commit"})


@dataclass(slots=True)
class Deadlines:
    """This peer's timing of the awaited frame, and of every seat's move clock."""

    terms: Terms
    players: int
    slot: tuple[int, str, int] | None = None     # (frame number, kind, seat) of the awaited frame
    since: float = 0.0                           # when it became awaited, by this peer's clock
    used: list[float] = field(default_factory=list)    # per seat: decision seconds spent (move clock)
    decided: list[int] = field(default_factory=list)   # per seat: decisions made
    gone: dict[int, float] = field(default_factory=dict)   # seat -> since when it is known to be gone

    def __post_init__(self) -> None:
        self.used = [0.0] * self.players
        self.decided = [0] * self.players

    @property
    def timeout(self) -> float:
        return self.terms.reveal_timeout_ms / 1000

    def moved(self, seq: int, awaited: tuple[str, int] | None, now: float, frames: Sequence[Any] | None = None) -> None:
        """The ledger now awaits `awaited` as frame `seq`: charge the time spent on the awaited decision to
        its seat's clock and start timing the next frame. `frames` (the ledger's) tell whether that seat
        made its decision meanwhile: only a decision earns the increment, not a timeout claim against it,
        after which the same seat's decision is still awaited (as the claim's answer) on the same clock.
        Several decisions of that seat applied in one step (a joiner receives frames in batches) each earn
        it. Without `frames`, any frame after an awaited decision counts as one decision."""
        slot = None if awaited is None else (seq, awaited[0], awaited[1])
        if slot == self.slot:
            return
        last = self.slot
        if last is not None and last[1] in DECISIONS and seq > last[0]:
            self.used[last[2]] += now - self.since
            if frames is None:
                self.decided[last[2]] += 1
            else:   # every decision of that seat since (a peer may apply several frames in one step)
                seat = last[2]
                self.decided[seat] += sum(1 for f in frames[last[0]:seq] if f.kind in DECISIONS and f.seat == seat)
        self.slot, self.since = slot, now

    def left(self, seat: int, now: float) -> None:
        self.gone.setdefault(seat, now)

    def back(self, seat: int) -> None:
        self.gone.pop(seat, None)

    def allowance(self, seat: int, now: float) -> float | None:
        """Seconds of `seat`'s move clock left now (None without a clock)."""
        clock = self.terms.clock
        if clock is None:
            return None
        spent = self.used[seat]
        if self.slot is not None and self.slot[1] in DECISIONS and self.slot[2] == seat:
            spent += now - self.since
        return clock[0] / 1000 + self.decided[seat] * clock[1] / 1000 - spent

    def remaining(self, kind: str, seat: int, now: float) -> float | None:
        """Seconds until a claim against `seat`'s `kind` frame (the awaited one) is due by this peer's
        clock (<= 0: due now); None: not at all now (an untimed decision of a seat that is here)."""
        if kind not in DECISIONS:
            return self.timeout - (now - self.since)
        left = self.allowance(seat, now)
        gone = self.gone.get(seat)
        away = None if gone is None else self.timeout - (now - max(gone, self.since))
        if left is None:
            return away
        return left if away is None else min(left, away)
