"""`Narrator`: the story of one game as one knowledge state knew it (see client/story/__init__.py)."""

from __future__ import annotations

from typing import Any

from client.story.games import words_for
from client.story.words import Entry, Words
from engines.core import Awaiting, Game, State

__all__ = ["Narrator"]


class Narrator:
    """The story of one game as one knowledge state knew it; `feed` each application in order."""

    def __init__(self, game: Game, state: State, names: list[str], me: int | None = None, all_known: bool = False):
        self.game = game
        self.state = state
        self.words: Words = words_for(game, names, me, all_known)
        self.entries: list[Entry] = []
        self._setup_said = False

    def feed(self, kind: str, seat: int | None, value: Any, position: int = -1,
             waiting: Awaiting | None = None) -> list[Entry]:
        """One application: a chance value (`seat` its private owner or None) or `seat`'s action, with
        HIDDEN for what this knowledge does not have. Returns the new lines (also kept in `entries`)."""
        game, before = self.game, self.state
        waiting = waiting or game.awaiting(before)
        if kind == "chance":
            self.state = after = game.chance(before, value)
            chance = waiting.chance
            if chance is None:
                return []
            if self.words.setup(chance):
                if self._setup_said:
                    return []
                self._setup_said = True
                out = [Entry("The board is laid out at random", None, "chance")]
            else:
                out = self.words.chance(before, after, chance, value)
        else:
            self.state = after = game.play(before, seat, value)
            out = self.words.play(before, after, seat, value, waiting.secret)
        out = [Entry(e.text, e.seat, e.kind, position) for e in out]
        self.entries += out
        return out
