"""A game's chronicle for a table or the replay viewer: the story in words (`client.story`), every
roll of the dice (`client.dice`), and, where the game has signed frames, the proof of each roll
recomputed from them (`replays.proof`). Built incrementally, one application at a time, from:

- a replay (`from_stepper`): the Stepper's events as one view mode knew them;
- a local game (`LocalController`): the referee's steps, as the person's seat knows them;
- a networked game (`NetController.record_since`): the shown seat's ledger, its frames and events.
"""

from __future__ import annotations

import logging
from typing import Any

from client.dice import Roll
from client.names import seat_names
from client.story.narrator import Narrator
from client.story.words import Entry
from engines.core import HIDDEN, Game, State
from replays.proof import ChanceProof, Proofs

__all__ = ["Chronicle", "LiveChronicle", "from_stepper"]

log = logging.getLogger("netplay.client")


class Chronicle:
    def __init__(self, game: Game, state: State, names: list[str], me: int | None = None,
                 session: bytes | None = None, players: int = 0, all_known: bool = False):
        self.game = game
        self.narrator = Narrator(game, state, names, me, all_known)
        self.me = me
        self.rolls: list[Roll] = []
        self.proofs: Proofs | None = Proofs(session, players) if session is not None else None
        self.events_fed = 0
        self.broken = ""   # why the log stopped following the game ("" while it follows)
        self._last_seat: int | None = None

    @property
    def entries(self) -> list[Entry]:
        return self.narrator.entries

    @property
    def state(self) -> State:
        return self.narrator.state

    def feed(self, kind: str, seat: int | None, value: Any, position: int = -1, event: Any = None) -> None:
        self.events_fed += 1
        if self.broken:
            return
        narrator = self.narrator
        try:
            waiting = self.game.awaiting(narrator.state)
            before = narrator.state
            narrator.feed(kind, seat, value, position, waiting)
        except Exception as exc:   # a bug in the words must never take the table down: the log says so
            log.warning("the game's log stops at application %d", self.events_fed, exc_info=exc)
            self.broken = f"{type(exc).__name__}: {exc}"
            narrator.entries.append(Entry(f"(the log cannot follow the game from here: {self.broken})", None,
                                          "note", position))
            return
        if kind == "play":
            self._last_seat = seat
            return
        chance = waiting.chance
        if chance is not None and chance.kind == "dice" and value is not HIDDEN and isinstance(value, tuple):
            roller = narrator.words.roller(before, self._last_seat)
            self.rolls.append(Roll(len(self.rolls) + 1, position, roller, value, chance.sides, chance.label, event))

    def feed_event(self, event: Any, value: Any) -> None:
        """A ledger event, with the value this chronicle's knowledge has of it."""
        self.feed(event.kind, event.seat, value, event.at, event)

    def read_frames(self, frames: list) -> None:
        if self.proofs is not None:
            self.proofs.read(frames)

    def proof(self, roll: Roll) -> ChanceProof | str:
        """The proof of a roll, or why there is none."""
        if self.proofs is None or roll.event is None:
            return "a game on this machine alone: its dice come from a local seed, with nobody to prove them to"
        try:
            found = self.proofs.proof(roll.event)
        except Exception as exc:   # frames this client cannot read as a proof: say so, never crash
            return f"the proof cannot be computed from these frames ({type(exc).__name__}: {exc})"
        return found if found is not None else "no proof for this kind of chance"


def from_stepper(stepper, mode: str) -> Chronicle:
    """The chronicle of a whole replay as `mode` knew it ("revealed", "spectator", "seat N")."""
    header = stepper.header
    me = int(mode[5:]) if mode.startswith("seat ") else None
    start = stepper.game.start(header.players, header.option_dict)
    chronicle = Chronicle(stepper.game, start, seat_names(header.seats), me, header.session, header.players,
                          all_known=mode == "revealed")
    chronicle.read_frames(stepper.frames)
    for event, move in zip(stepper.events, stepper.moves(mode), strict=True):
        chronicle.feed_event(event, move.action)   # the value as `mode` knew it (HIDDEN where it did not)
    return chronicle


class LiveChronicle:
    """The chronicle of the game a table shows, kept up to date from its controller each frame."""

    def __init__(self) -> None:
        self.chronicle: Chronicle | None = None
        self._key: tuple = ()
        self._by_seat: dict[Any, Chronicle] = {}

    def update(self, ctl) -> Chronicle | None:
        record_since = getattr(ctl, "record_since", None)
        if record_since is not None:
            return self._networked(ctl, record_since)
        referee = getattr(ctl, "referee", None)
        if referee is None:
            return self.chronicle
        return self._local(ctl, referee)

    def _local(self, ctl, referee) -> Chronicle:
        key = (id(referee), ctl.seat)
        chronicle = self._by_seat.get(key)
        if chronicle is None:
            self._by_seat = {}   # a rematch: a new referee, a new story
            origin = getattr(ctl, "origin", None)
            start = origin if origin is not None else ctl.game.start(ctl.players, ctl.options)
            chronicle = self._by_seat[key] = Chronicle(ctl.game, start, ctl.names, ctl.seat)
        me = ctl.seat
        for step in referee.steps[chronicle.events_fed:]:
            waiting = ctl.game.awaiting(chronicle.state)
            value = step.value
            if step.kind == "chance":
                owner = waiting.chance.private_to if waiting.chance is not None else None
                if owner is not None and owner != me:
                    value = HIDDEN
            elif waiting.kind == "simultaneous" and waiting.secret and step.seat != me:
                value = HIDDEN
            chronicle.feed(step.kind, step.seat, value)
        self.chronicle = chronicle
        return chronicle

    def _networked(self, ctl, record_since) -> Chronicle | None:
        probe = record_since(0, 0, peek=True)
        if probe is None:
            return self.chronicle
        header, seat, _, _ = probe
        key = (header.session, header.hash, seat)
        chronicle = self._by_seat.get(key)
        if chronicle is None:
            if self._by_seat and next(iter(self._by_seat))[:2] != key[:2]:
                self._by_seat = {}   # a new game (a rematch)
            game = ctl.game
            chronicle = self._by_seat[key] = Chronicle(game, game.start(header.players, header.option_dict),
                                                       ctl.names, seat, header.session, header.players)
        got = record_since(chronicle.proofs.frames_read, chronicle.events_fed)
        if got is not None:
            _, _, frames, events = got
            chronicle.read_frames(frames)
            for event in events:
                chronicle.feed_event(event, event.value)
        self.chronicle = chronicle
        return chronicle
