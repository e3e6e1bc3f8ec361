"""The Kidd games in words (found by `client.story.games.words_for` from the engine package's name)."""

from __future__ import annotations

from client.story.verbs import VerbWords

__all__ = ["WORDS", "KiddWords"]


class KiddWords(VerbWords):
    def phrase(self, verb: str, args: list[str]) -> str | None:
        if verb == "enter":
            return f"enters a stone on field {args[0]}"
        if verb == "step":
            return f"steps from field {args[0]} to field {args[1]}"
        if verb == "move" and len(args) >= 2:
            steps = len(args) - 1
            return f"walks from field {args[0]} to field {args[-1]} ({steps} step{'s' * (steps != 1)})"
        if verb == "free":
            return f"puts the freed stone on exit field {args[0]}"
        if verb == "pass":
            return "passes (no move and no entry possible)"
        return None


WORDS = KiddWords
