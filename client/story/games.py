"""Which `Words` tells which game (the generic one unless a game has its own)."""

from __future__ import annotations

from client.story.words import Entry, Words, _cap
from engines.core import HIDDEN, Game, State

_SECOND = {"goes": "go", "does": "do", "has": "have"}


class PlocWords(Words):
    """Ploc's engine names a team by its colour ("red rerolls die 3"): the player's name instead,
    the colour kept for the athletes on the board ("a yellow athlete is laid down")."""

    COLOURS = ("yellow", "red")

    def play(self, before: State, after: State, seat: int, action, secret: bool) -> list[Entry]:
        if action is HIDDEN:
            return super().play(before, after, seat, action, secret)
        text = self.game.describe(before, seat, action)
        colour = self.COLOURS[seat] if 0 <= seat < len(self.COLOURS) else ""
        if colour and text.startswith(colour + " "):
            mine = seat == self.me
            verb, _, rest = text[len(colour) + 1:].partition(" ")
            if mine:
                verb = _SECOND.get(verb) or (verb[:-2] if verb.endswith(("shes", "ches", "sses")) else
                                             verb[:-1] if verb.endswith("s") else verb)
            return [Entry(_cap(f"{self.who(seat)} {verb} {self.named(rest)}".strip()), seat)]
        return super().play(before, after, seat, action, secret)


    def chance(self, before: State, after: State, chance, value) -> list[Entry]:
        label = chance.label
        if label.startswith("starting seat of match") and isinstance(value, int):
            match = label.rsplit(" ", 1)[-1]
            return [Entry(_cap(f"{self.who(value)} {'start' if value == self.me else 'starts'} match {match}"), value,
                          "chance")]
        return super().chance(before, after, chance, value)


def words_for(game: Game, names: list[str], me: int | None, all_known: bool = False) -> Words:
    if game.id in ("catan", "catan-ck"):
        from client.story.catan import CatanWords

        return CatanWords(game, names, me, all_known)
    if game.id == "ploc":
        return PlocWords(game, names, me, all_known)
    return Words(game, names, me, all_known)
