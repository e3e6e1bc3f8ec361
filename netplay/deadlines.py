"""When a peer may claim that another seat withheld its frame, by this peer's own clock.

The ledger has no clock; the deadlines are agreed before the game (the header's `Terms`), so every
peer computes the same ones, each by its own clock (the times passed in are this peer's):
- a frame that needs no decision (open, chain, shuffle, strip, peek, show, reveal, seed, final) is due
  `frame` after it became awaited, plus what is left of its seat's lateness allowance; every such frame
  that takes longer than `frame` uses the excess up, and beyond the allowance the excess is owed (the
  next frames are due that much sooner), so one seat adds at most its allowance plus `frame` per frame
  to a game, plus the claim's skew once, not per frame (format 2.0 terms: due the reveal timeout after
  it became awaited);
- a decision (act, commit) is due at the agreed limit per decision and when the seat's move clock
  runs out, whichever comes first; with neither ("untimed", chosen by name) it is never due while the
  seat is here. The clock's increment is credited for a seat's first `CREDITED_DECISIONS` decisions of
  a game (netplay/gameclock.py: no engine bounds a game's length, so this caps a seat's clock per game).
  A decision later than its limit (within the claims' skew, before any claim) is sequenced, but its
  excess is owed, as for automatic frames: the clock's overdraft stays spent, and every excess over the
  limit per decision makes that seat's later decisions due that much sooner, so the skew counts once per
  seat and game, not once per decision (issue 32, N8);
- a seat known to be gone (its connection lost) is due the reveal timeout after it left, at the latest.

A claim does not restart the clock of the frame it names: the same frame stays awaited (as the claim's
answer) on the same deadline, so claiming early buys the claimed seat nothing and costs it nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from replays.header import Terms

__all__ = ["AUTOMATIC", "CREDITED_DECISIONS", "DECISIONS", "Deadlines"]

#: the kinds that need no decision
AUTOMATIC = frozenset({"open", "chain", "shuffle", "strip", "peek", "show", "reveal", "seed", "final"})
DECISIONS = frozenset({"act", "commit"})
#: how many of a seat's decisions per game earn the clock's increment: past them it plays on what is left
CREDITED_DECISIONS = 500


@dataclass(slots=True)
class Deadlines:
    """This peer's timing of the awaited frame, of every seat's move clock and lateness allowance."""

    terms: Terms
    players: int
    slot: tuple[int, str, int] | None = None     # (frame number, kind, seat) of the awaited frame
    since: float = 0.0                           # when it became awaited, by this peer's clock
    used: list[float] = field(default_factory=list)    # per seat: decision seconds spent (move clock)
    decided: list[int] = field(default_factory=list)   # per seat: decisions made
    late: list[float] = field(default_factory=list)    # per seat: seconds of lateness used (automatic frames)
    over: list[float] = field(default_factory=list)    # per seat: decision seconds beyond the limit per decision
    gone: dict[int, float] = field(default_factory=dict)   # seat -> since when it is known to be gone

    def __post_init__(self) -> None:
        self.used = [0.0] * self.players
        self.decided = [0] * self.players
        self.late = [0.0] * self.players
        self.over = [0.0] * self.players

    @property
    def timeout(self) -> float:
        """The reveal timeout: how long a seat may be gone (format 2.0: also every automatic frame's)."""
        return self.terms.reveal_timeout_ms / 1000

    @property
    def frame(self) -> float:
        return self.terms.frame_limit_ms / 1000

    def moved(self, seq: int, awaited: tuple[str, int] | None, now: float, frames: Sequence[Any] | None = None) -> None:
        """The ledger now awaits `awaited` as frame `seq`: charge the time the previous awaited frame took
        to its seat (decision time to the move clock, automatic time beyond `frame` to the lateness
        allowance) and start timing the next frame. Frames that are only timeout claims in between, after
        which the same frame is still awaited, change nothing. `frames` (the ledger's) tell how many
        decisions that seat made meanwhile (a peer may apply several frames in one step); without them,
        any frame after an awaited decision counts as one decision."""
        slot = None if awaited is None else (seq, awaited[0], awaited[1])
        if slot == self.slot:
            return
        last = self.slot
        if (last is not None and slot is not None and slot[1:] == last[1:] and frames is not None and seq > last[0]
                and all(f.kind == "timeout" for f in frames[last[0]:seq])):
            self.slot = slot    # a claim in between: the same frame, on the same deadline
            return
        if last is not None and seq > last[0]:
            elapsed = now - self.since
            seat = last[2]
            if last[1] in DECISIONS:
                self.used[seat] += elapsed
                if self.terms.move_ms is not None:
                    self.over[seat] += max(0.0, elapsed - self.terms.move_ms / 1000)
                if frames is None:
                    self.decided[seat] += 1
                else:
                    self.decided[seat] += sum(1 for f in frames[last[0]:seq] if f.kind in DECISIONS and f.seat == seat)
            elif frames is None or any(f.seat == seat and f.kind == last[1] for f in frames[last[0]:seq]):
                self.late[seat] += max(0.0, elapsed - self.frame)
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
        return self._credit(seat) - spent

    def _credit(self, seat: int) -> float:
        """Seconds `seat`'s move clock was given so far: the stock and the increments it earned."""
        clock = self.terms.clock
        assert clock is not None, "a move clock's credit is asked only under a move clock"
        return clock[0] / 1000 + min(self.decided[seat], CREDITED_DECISIONS) * clock[1] / 1000

    def move_limit(self, seat: int) -> float:
        """Seconds `seat` has for one decision under the limit per decision: the limit less what its earlier
        decisions took beyond it (owed, as an overdrawn lateness allowance is: a seat late within the claims'
        skew at every decision gains the skew once per game, not once per decision)."""
        move = self.terms.move_ms
        assert move is not None, "a decision's limit is asked only under a limit per decision"
        return max(0.0, move / 1000 - self.over[seat])

    def lateness_left(self, seat: int) -> float:
        """Seconds of `seat`'s lateness allowance left (automatic frames later than `frame`)."""
        return max(0.0, self.terms.lateness_ms / 1000 - self.late[seat])

    def decision_left(self, seat: int, now: float) -> float | None:
        """Seconds left of the decision awaited now from `seat` under the limit per decision (None: no limit,
        or not its decision)."""
        move = self.terms.move_ms
        if move is None or self.slot is None or self.slot[1] not in DECISIONS or self.slot[2] != seat:
            return None
        return self.move_limit(seat) - (now - self.since)

    def due(self, kind: str, seat: int) -> float | None:
        """When (this peer's clock) a claim against `seat`'s `kind` frame, the awaited one, becomes due;
        None: not at all (an untimed decision of a seat that is here)."""
        gone = self.gone.get(seat)
        away = None if gone is None else max(gone, self.since) + self.timeout
        if kind not in DECISIONS:
            # an overdrawn allowance is owed: a claim's tolerance (the claims' skew) is spent once per game
            due = self.since + self.frame + self.terms.lateness_ms / 1000 - self.late[seat]
            return due if away is None else min(due, away)
        limits = [] if away is None else [away]
        if self.terms.move_ms is not None:
            limits.append(self.since + self.move_limit(seat))
        if self.terms.clock is not None:
            limits.append(self.since + self._credit(seat) - self.used[seat])
        return min(limits) if limits else None

    def remaining(self, kind: str, seat: int, now: float) -> float | None:
        """Seconds until a claim against `seat`'s `kind` frame (the awaited one) is due by this peer's
        clock (<= 0: due now); None: not at all now (an untimed decision of a seat that is here)."""
        due = self.due(kind, seat)
        return None if due is None else due - now
