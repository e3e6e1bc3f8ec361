"""The words of moves: an `Entry` of the story, and `Words`, the generic way to tell a game's moves
(the engine's `describe` with the player named once); a game may subclass it (client/story/games.py).
No pygame here."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engines.core import HIDDEN, Chance, Game, State

__all__ = ["Entry", "Words", "name_seats", "second_person", "who"]

_SEAT = re.compile(r"\bseat (\d+)\b")
_YOUR = re.compile(r"^([a-z][a-z ]*?) of you\b")
# the subject an engine puts first: "seat 1 ", "seat 1: ", "Gold (seat 0): ", "seat 0 (Ebbe): ", "solo: "
_SUBJECT = re.compile(r"^(?:seat (?P<a>\d+) \([^)]*\): |[\w' -]+ \(seat (?P<b>\d+)\): |seat (?P<c>\d+): |"
                      r"seat (?P<d>\d+) (?=[a-z])|solo: )")


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the story. `kind`: "move", "roll", "gain" (production, a steal), "secret" (a choice
    or a draw another seat keeps to itself), "alarm" (an attack), "chance" (other outcomes), "note"."""

    text: str
    seat: int | None = None
    kind: str = "move"
    position: int = -1   # in a replay: the frame index where it happened (the viewer jumps there)


def name_seats(text: str, names: list[str], me: int | None = None) -> str:
    """Every "seat N" in `text` as the player's name ("you" for `me`)."""
    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        return who(seat, names, me)
    return _SEAT.sub(name, text)


def who(seat: int | None, names: list[str], me: int | None = None) -> str:
    if seat is None:
        return "the game"
    if me is not None and seat == me:
        return "you"
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat}"


_IRREGULAR = {"goes": "go", "does": "do", "has": "have"}


def second_person(predicate: str) -> str:
    """A predicate said of "you": "builds a road" as "build a road", "passes" as "pass"."""
    verb, _, rest = predicate.partition(" ")
    verb = _IRREGULAR.get(verb) or (verb[:-2] if verb.endswith(("shes", "ches", "sses", "xes")) else
                                    verb[:-1] if verb.endswith("s") else verb)
    return f"{verb} {rest}".strip()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Words:
    """The words of one game's moves: the engine's `describe`, its subject replaced by the player's
    name; chance outcomes by their label. Games override `play` and `chance` for better words."""

    def __init__(self, game: Game, names: list[str], me: int | None, all_known: bool = False):
        self.game, self.names, self.me = game, names, me
        self.all_known = all_known   # a replay's revealed view: every secret may be named

    def who(self, seat: int | None) -> str:
        return who(seat, self.names, self.me)

    def named(self, text: str) -> str:
        return name_seats(text, self.names, self.me)

    def play(self, before: State, after: State, seat: int, action: Any, secret: bool) -> list[Entry]:
        if action is HIDDEN:
            return [Entry(_cap(f"{self.who(seat)} {'choose' if seat == self.me else 'chooses'} in secret"), seat,
                          "secret")]
        try:
            text = self.game.describe(before, seat, action)
        except Exception:   # a describe that trips over an unusual state: the action's own text
            text = f"seat {seat}: {action}"
        return [Entry(self.sentence(seat, text, str(action)), seat)]

    def sentence(self, seat: int, text: str, action: str) -> str:
        """The engine's line with the player named once, at the front."""
        match = _SUBJECT.match(text)
        if match is not None:
            rest = text[match.end():]
            colon = text[match.end() - 2:match.end()] == ": "
            subject = next((g for g in match.groups() if g is not None), None)
            owner = int(subject) if subject is not None else seat
            return _cap(f"{self.who(owner)}{':' if colon else ''} {self.named(rest)}")
        return _cap(f"{self.who(seat)}: {self.named(text or action)}")

    def chance(self, before: State, after: State, chance: Chance, value: Any) -> list[Entry]:
        label = chance.label or {"dice": "roll", "pick": "draw", "deal": "card"}.get(chance.kind, chance.kind)
        owner = chance.private_to
        if chance.kind == "show":
            source = self.who(chance.source)
            return [Entry(f"{_cap(self.who(owner))} {'look' if owner == self.me else 'looks'} at {source}'s hand"
                          + ("" if owner == self.me or owner is None else " in secret"), owner, "secret")]
        if owner is not None and (value is HIDDEN or chance.kind != "dice"):
            mine = owner == self.me   # a pick's number means nothing to a player: the board shows the card
            return [Entry(f"{_cap(self.who(owner))} {'draw' if mine else 'draws'} "
                          f"{'a card (only you see it)' if mine else 'in secret'}", owner, "secret")]
        shown = ", ".join(str(v) for v in value) if isinstance(value, (tuple, list)) else str(value)
        kind = "roll" if chance.kind == "dice" else "chance"
        label = _YOUR.sub(r"your \1", self.named(label.split(":")[0]))   # "team dice of you" -> "your team dice"
        for name in self.names:   # "team dice of bob (red)" -> "bob's team dice (red)"
            owned = re.match(rf"^(.+?) of {re.escape(name)}\b(.*)$", label) if name else None
            if owned:
                label = f"{name}'s {owned.group(1)}{owned.group(2)}"
                break
        return [Entry(_cap(f"{label}: {shown}"), owner, kind)]

    def roller(self, state: State, last_seat: int | None) -> int | None:
        """Who rolls the dice about to be rolled in `state` (by default the seat that moved last)."""
        return last_seat

    def setup(self, chance: Chance) -> bool:
        """Whether `chance` lays out the board (said once, not one line per tile)."""
        return False
