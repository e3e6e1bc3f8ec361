"""Which `Words` tells which game (the generic one unless a game has its own)."""

from __future__ import annotations

from client.story.words import Entry, Words, _cap, second_person
from engines.core import HIDDEN, Game, State


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


def _cell(word: str) -> str:
    """Ebbe & Flut's `r4c5` as "row 4, column 5"."""
    if word[:1] == "r" and "c" in word:
        row, _, col = word[1:].partition("c")
        if row.isdigit() and col.isdigit():
            return f"row {row}, column {col}"
    return word


def _cards(text: str) -> str:
    """`fire,fire,sailor` as "fire, fire and sailor"."""
    items = [c for c in text.split(",") if c]
    return ", ".join(items[:-1]) + " and " + items[-1] if len(items) > 1 else "".join(items)


def _slot(word: str) -> str:
    """Turning Tides' cannon slot `5out` as "zone 5 (out)"."""
    side = "out" if word.endswith("out") else "in"
    return f"zone {word[:-len(side)]} ({side})"


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


def words_for(game: Game, names: list[str], me: int | None, all_known: bool = False) -> Words:
    if game.id in ("catan", "catan-ck"):
        from client.story.catan import CatanWords

        return CatanWords(game, names, me, all_known)
    kinds = {"ploc": PlocWords, "turning-tides": TidesWords, "loyal-captain": KiddWords,
             "quedah-merchant": KiddWords, "madagaskar": KiddWords, "ebbe-flut": EbbeFlutWords,
             "ebbe-flut-solo": EbbeFlutWords}
    return kinds.get(game.id, Words)(game, names, me, all_known)
