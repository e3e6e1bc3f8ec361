"""What a table just told that deserves a sound (client/sounds.py plays it): the table's state after each
update goes in (`TableState`, read from the controller by an `Observer`), the cues of what changed since the
last one come out, each once per event. Nothing here plays, draws or knows a rule: a dice roll is a new
roll in the chronicle, an attack a new chronicle entry of kind "alarm", an offer the view's `offer` with
the person among the seats still to answer it (both Catans).

Only what happens while the table is open is news: a chronicle seen for the first time (the table
opening on a game under way, a rematch) brings no roll and no attack of its past, and a table opened on
a finished game plays no end. What waits on the person now (their turn, an offer to answer) is told at
once, since that is what they need to hear.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from client.sounds import Cue
from client.story.words import Entry

__all__ = ["CLOCK_CUE_S", "CueWatcher", "Observer", "TableState"]

CLOCK_CUE_S = 10      # the person's own running clock ticks aloud for its last this many seconds


@dataclass(frozen=True, slots=True)
class TableState:
    """What the cues are decided from, as one update of the table left it.

    `entries` is the chronicle's list itself (not a copy: the watcher reads only what was added), `story`
    the chronicle's identity (another one: its past is not news), `offer` the identity of a trade offer
    that waits on the person's answer, `clock_s` the person's own running clock (or the limit on the
    decision awaited, whichever is nearer), None when untimed or not running."""

    me: int | None
    my_turn: bool
    story: int | None = None
    entries: Sequence[Entry] = ()
    rolls: int = 0
    offer: Hashable | None = None
    clock_s: float | None = None
    ended: bool = False


class Observer:
    """Reads a `TableState` from a table's controller and chronicle (client/story/record.py) after each of
    its updates. The view (for an offer) is read again only when the game moved on: at rest a table
    updates 20 times a second, and a Catan view costs more than the rest of the update."""

    def __init__(self) -> None:
        self._progress: Hashable = object()
        self._offer: Hashable | None = None

    def __call__(self, ctl: Any, chronicle: Any, my_turn: bool) -> TableState:
        me = ctl.seat
        fed = chronicle.events_fed if chronicle is not None else None    # (every step of the game, told or not)
        progress = (ctl.progress() if hasattr(ctl, "progress") else len(ctl.log), fed, me)
        if progress != self._progress:
            self._progress, self._offer = progress, _offer(ctl, me)
        clock_s = None
        read = getattr(ctl, "clocks", None)
        for clock in read() if read is not None else ():
            if clock.seat == me and clock.running:
                near = [t for t in (clock.left_s, getattr(clock, "limit_s", None)) if t is not None]
                clock_s = min(near) if near else None
        ended = ctl.ending() is not None
        if chronicle is None:
            return TableState(me, my_turn, offer=self._offer, clock_s=clock_s, ended=ended)
        return TableState(me, my_turn, id(chronicle), chronicle.entries, len(chronicle.rolls), self._offer, clock_s,
                          ended)


def _offer(ctl: Any, me: int | None) -> Hashable | None:
    """The identity of the trade offer that waits on `me`'s answer (the view's `offer`, with `me` among
    the seats still to answer it), None when there is none."""
    view = ctl.view() if ctl.game is not None else {}
    if not isinstance(view, dict) or not isinstance(view.get("offer"), dict) or me is None:
        return None
    if me not in (view.get("pending") or ()):
        return None
    return (view.get("round"), view.get("turn"), view.get("offers_made"))   # a turn's second offer: another one


class CueWatcher:
    """Turns successive `TableState`s into cues, each event once: a turn, an offer, a second of the
    clock, an end is told when it begins, not for as long as it lasts.

    The person's turn is told when the game waits on them again after another seat played (or at the
    first look): a step that follows their own move (the dice after their roll, a network table waiting
    for the host to sequence the move) is not a new turn and says nothing."""

    def __init__(self) -> None:
        self._seen: TableState | None = None
        self._read = 0                  # entries of the chronicle `_seen.story` looked at
        self._others_moved = True       # another seat played since the person's turn last ended
        self._tick: int | None = None   # the clock's whole second last ticked

    def update(self, now: TableState) -> list[Cue]:
        before, self._seen = self._seen, now
        cues: list[Cue] = []
        fresh: Sequence[Entry] = ()
        if before is None or before.story != now.story:
            self._read = len(now.entries)       # a chronicle seen for the first time: its past is no news
            self._others_moved = True           # ... and a new game (a rematch) starts with news of a turn
            rolled = False
        else:
            fresh = now.entries[self._read:]
            self._read = len(now.entries)
            rolled = now.rolls > before.rolls
        if any(e.seat is not None and e.seat != now.me and e.kind in ("move", "secret") for e in fresh):
            self._others_moved = True
        if rolled:
            cues.append(Cue.ROLL)
        if any(e.kind == "alarm" for e in fresh):
            cues.append(Cue.BARBARIANS)
        # hot seat: the screen shown to another person here is that person's turn whatever came before
        handed = before is not None and before.me != now.me
        was_mine = before is not None and before.my_turn and not handed
        offered = now.offer is not None and (before is None or now.offer != before.offer)
        # (an offer's chime says that the game waits on the person: not two sounds on top of each other)
        if now.my_turn and not was_mine and (self._others_moved or handed or now.story is None) and not offered:
            cues.append(Cue.YOUR_TURN)
        if now.my_turn:
            self._others_moved = False      # from here on, only another seat's move makes a new turn
        if offered:
            cues.append(Cue.OFFER)
        cues += self._clock(now.clock_s)
        if now.ended and before is not None and not before.ended:
            cues.append(Cue.END)
        return cues

    def _clock(self, left_s: float | None) -> list[Cue]:
        """A tick for each whole second of the person's last CLOCK_CUE_S, once each."""
        if left_s is None or not 0 <= left_s < CLOCK_CUE_S:
            self._tick = None
            return []
        second = int(left_s)
        if second == self._tick:
            return []
        self._tick = second
        return [Cue.CLOCK]
