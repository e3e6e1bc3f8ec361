"""Turning Tides in words (found by `client.story.games.words_for` from the engine package's name)."""

from __future__ import annotations

from client.story.verbs import VerbWords

__all__ = ["WORDS", "TidesWords"]


def _cards(text: str) -> str:
    """`fire,fire,sailor` as "fire, fire and sailor"."""
    items = [c for c in text.split(",") if c]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _slot(word: str) -> str:
    """Turning Tides' cannon slot `5out` as "zone 5 (out)"."""
    side = "out" if word.endswith("out") else "in"
    return f"zone {word[:-len(side)]} ({side})"


class TidesWords(VerbWords):
    def phrase(self, verb: str, args: list[str]) -> str | None:
        if verb == "pick":
            return f"picks {args[0]}"
        if verb == "sailor":
            return f"puts a sailor on zone {args[0]}"
        if verb == "cannon":
            return f"puts a cannon in zone {args[0]} ({args[1]})"
        if verb == "move" and args[0] in ("captain", "sailor"):
            unit = "the captain" if args[0] == "captain" else "a sailor"
            return f"moves {unit} from zone {args[1]} to zone {args[2]}"
        if verb == "move" and args[0] == "cannon":
            return f"moves a cannon from {_slot(args[1])} to {_slot(args[2])}"
        if verb == "navigate":
            return {"ahead": "sails one step ahead", "back": "sails one step back",
                    "initiative": "takes the initiative"}.get(args[0])
        if verb == "swing":
            return f"swings from zone {args[0]} onto the enemy ship"
        if verb == "fire":
            return f"fires from zone {args[0]}"
        if verb == "promote":
            return f"promotes a sailor on zone {args[0]}: the captain takes its place"
        if verb == "exchange":
            if args == ["none"]:
                return "keeps the exchange cards as they are"
            return f"exchanges {_cards(args[0])} for {_cards(args[2])}"
        if verb == "damage":
            return f"sets aside {_cards(args[0])} as damage"
        return None


WORDS = TidesWords
