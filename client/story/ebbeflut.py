"""Ebbe & Flut in words (found by `client.story.games.words_for` from the engine package's name)."""

from __future__ import annotations

from client.story.verbs import VerbWords
from client.story.words import Entry, _cap
from engines.core import HIDDEN, State

__all__ = ["WORDS", "EbbeFlutWords"]


def _cell(word: str) -> str:
    """Ebbe & Flut's `r4c5` as "row 4, column 5"."""
    if word[:1] == "r" and "c" in word:
        row, _, col = word[1:].partition("c")
        if row.isdigit() and col.isdigit():
            return f"row {row}, column {col}"
    return word


class EbbeFlutWords(VerbWords):
    stack = ""   # the stack of the draw under way (the card drawn is told with it)

    def phrase(self, verb: str, args: list[str]) -> str | None:
        if verb == "draw":
            self.stack = args[0]
            return ""
        if verb == "place":
            return f"places the card at {_cell(args[0])}"
        if verb == "push":
            return f"pushes the card at {_cell(args[0])} {args[1]}"
        if verb == "end":
            return "ends the turn"
        return None

    def chance(self, before: State, after: State, chance, value) -> list[Entry]:
        """A draw by the card drawn (`E:B2`, as the board names it), not by its place among the undrawn."""
        held = self.game.view(after, None).get("held") or []
        drawn = [(seat, card) for seat, card in enumerate(held) if card and card not in
                 (self.game.view(before, None).get("held") or [None] * len(held))]
        if chance.kind == "pick" and len(drawn) == 1 and value is not HIDDEN:
            seat, card = drawn[0]
            stack = f" from stack {self.stack}" if self.stack else ""
            who = "You draw" if seat == self.me else f"{_cap(self.who(seat))} draws"
            return [Entry(f"{who} {card}{stack}", seat, "move")]
        return super().chance(before, after, chance, value)


WORDS = EbbeFlutWords
