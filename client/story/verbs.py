"""`VerbWords`: the words of a game whose actions read well from their verbs (Turning Tides, the Kidd games,
Ebbe & Flut), shared so that each game's own module holds only its phrases."""

from __future__ import annotations

from client.story.words import Entry, Words, _cap, second_person
from engines.core import State

__all__ = ["VerbWords"]


class VerbWords(Words):
    """Games whose actions read well from their verbs: `phrase` gives the sentence's predicate (for a
    player named in the third person) from the action's words, "" for no line (the chance after it
    tells it), or None to keep the engine's words."""

    def phrase(self, verb: str, args: list[str]) -> str | None:
        return None

    def play(self, before: State, after: State, seat: int, action, secret: bool) -> list[Entry]:
        if isinstance(action, str) and action:
            verb, *args = action.split(" ")
            try:
                text = self.phrase(verb, args)
            except (IndexError, ValueError):
                text = None
            if text == "":
                return []   # the chance that follows tells it
            if text:
                if seat == self.me:   # "You put", not "You puts"
                    text = second_person(text)
                return [Entry(_cap(f"{self.who(seat)} {text}"), seat)]
        return super().play(before, after, seat, action, secret)
