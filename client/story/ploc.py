"""Ploc in words (found by `client.story.games.words_for` from the engine package's name)."""

from __future__ import annotations

from client.story.words import Entry, Words, _cap, second_person
from engines.core import HIDDEN, State

__all__ = ["WORDS", "PlocWords"]


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
            predicate = self.named(text[len(colour) + 1:])
            if seat == self.me:
                predicate = second_person(predicate)
            return [Entry(_cap(f"{self.who(seat)} {predicate}"), seat)]
        return super().play(before, after, seat, action, secret)

    def chance(self, before: State, after: State, chance, value) -> list[Entry]:
        label = chance.label
        if label.startswith("starting seat of match") and isinstance(value, int):
            match = label.rsplit(" ", 1)[-1]
            return [Entry(_cap(f"{self.who(value)} {'start' if value == self.me else 'starts'} match {match}"), value,
                          "chance")]
        return super().chance(before, after, chance, value)


WORDS = PlocWords
