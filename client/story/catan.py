"""Catan and Cities & Knights in words, as players say them: corners and roads by the hexes they touch
("the 6-ore-8-grain corner"), hexes by number and resource, cards and resources by name, what each
roll produced, what a steal took (named for the thief and the victim, "a card" for the others), and a
barbarian attack announced (cities against knights, who loses what). Presentation only: everything is
read from the public views before and after an application and from the action's own text.
"""

from __future__ import annotations

import re
from typing import Any

from client.story.words import Entry, Words, _cap, second_person
from engines.catan.board import EDGES, NODE_HEXES
from engines.catan.cards import DEV_CARDS, RESOURCES
from engines.catan_ck.cards import DECKS, NAMES, PROGRESS
from engines.core import HIDDEN, Chance, State

_TERRAIN_RESOURCE = {"hills": "brick", "forest": "lumber", "pasture": "wool", "fields": "grain", "mountains": "ore"}
_CARD_WORDS = {"roadbuilding": "road building", "yearofplenty": "year of plenty", "victorypoint": "victory point",
               "resourcemonopoly": "resource monopoly", "trademonopoly": "trade monopoly",
               "mastermerchant": "master merchant", "merchantfleet": "merchant fleet",
               "commercialharbor": "commercial harbor"}
_GATES = {"trade": "yellow (trade)", "politics": "blue (politics)", "science": "green (science)"}   # city gates
_LEVELS = {1: "basic", 2: "strong", 3: "mighty"}
_TERM = re.compile(r"^(\d+)([a-z]+)$")
_SETUP = ("terrain of", "harbour type", "spiral start")


def card_words(card: str) -> str:
    return _CARD_WORDS.get(card, card)


def and_list(items: list[str]) -> str:
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def cards_text(text: str) -> str:
    """`3brick+1lumber` as "3 brick and 1 lumber"."""
    terms = []
    for term in text.split("+"):
        match = _TERM.match(term)
        terms.append(f"{match.group(1)} {card_words(match.group(2))}" if match else term)
    return and_list(terms)


def counts_text(counts: list[int], names: tuple[str, ...]) -> str:
    return and_list([f"{k} {names[i]}" for i, k in enumerate(counts) if k > 0])


class Places:
    """The board's places in words, for one layout (a random board is known once laid out)."""

    def __init__(self, view: dict):
        self.hexes: list[str | None] = []
        self.numbers: list[int] = []
        for h in view.get("hexes", []):
            terrain, number = h.get("terrain"), h.get("number")
            if terrain is None:
                self.hexes.append(None)
            elif terrain == "desert":
                self.hexes.append("desert")
            else:
                resource = _TERRAIN_RESOURCE.get(terrain, terrain)
                self.hexes.append(f"{number}-{resource}" if number else resource)
            self.numbers.append(number or 0)
        self.harbours: dict[int, str] = {}
        for harbour in view.get("harbours", []):
            kind = harbour.get("type")
            if kind is None:
                continue
            words = "3:1 harbour" if kind == "3:1" else f"2:1 {kind} harbour"
            for n in harbour.get("nodes", []):
                self.harbours[int(n)] = words

    def _land(self, hexes) -> list[str]:
        land = [h for h in hexes if h < len(self.hexes) and self.hexes[h] is not None]
        land.sort(key=lambda h: (self.numbers[h] == 0, self.numbers[h], h))
        return [self.hexes[h] for h in land]

    def hex(self, h: int) -> str:
        name = self.hexes[h] if 0 <= h < len(self.hexes) else None
        return "the desert" if name == "desert" else f"the {name} hex" if name else f"hex {h}"

    def corner(self, n: int) -> str:
        if not 0 <= n < len(NODE_HEXES):
            return f"corner {n}"
        land = self._land(NODE_HEXES[n])
        coast = " coast" if len(land) < 3 else ""
        harbour = f" by the {self.harbours[n]}" if n in self.harbours else ""
        return f"the {'-'.join(land) or 'sea'}{coast} corner{harbour}"

    def road(self, e: int) -> str:
        if not 0 <= e < len(EDGES):
            return f"road {e}"
        a, b = EDGES[e]
        land = self._land(set(NODE_HEXES[a]) & set(NODE_HEXES[b]))
        if len(land) == 2:
            return f"the road between the {land[0]} and the {land[1]}"
        return f"the road on the coast of the {land[0]}" if land else f"the road at {self.corner(a)}"


def _int(word: str) -> int | None:
    return int(word) if word.isdigit() else None


class CatanWords(Words):
    """Catan and C&K (the C&K verbs beside the base ones)."""

    def __init__(self, game, names, me, all_known: bool = False):
        super().__init__(game, names, me, all_known)
        self.ck = game.id == "catan-ck"
        self.resources: tuple[str, ...] = NAMES if self.ck else RESOURCES
        self._places: tuple[tuple, Places] | None = None

    # ------------------------------------------------------------------ helpers
    def places(self, view: dict) -> Places:
        key = tuple((h.get("terrain"), h.get("number")) for h in view.get("hexes", ()))
        if self._places is None or self._places[0] != key:
            self._places = (key, Places(view))
        return self._places[1]

    def does(self, seat: int | None, third: str, second: str | None = None) -> str:
        """`Ann builds` / `You build`."""
        if seat is not None and seat == self.me:
            return f"You {second if second is not None else second_person(third)}"
        return f"{_cap(self.who(seat))} {third}"

    def view(self, state: State) -> dict:
        return self.game.view(state, None)

    # ------------------------------------------------------------------ moves
    def play(self, before: State, after: State, seat: int, action: Any, secret: bool) -> list[Entry]:
        if action is HIDDEN or not isinstance(action, str):
            return super().play(before, after, seat, action, secret)
        words = action.split(" ")
        verb, args = words[0], words[1:]
        view = self.view(before)
        text = self._move(view, seat, verb, args, before, after)
        entries = [] if text == "" else [Entry(text, seat)] if text is not None else \
            super().play(before, after, seat, action, secret)
        if self.ck and verb == "commit":
            entries += self._attack(view, self.view(after))
        return entries

    def _move(self, view: dict, seat: int, verb: str, args: list[str], before: State, after: State) -> str | None:
        """The sentence for one action ("" for none: the chance after it says it), None to fall back
        on the engine's words."""
        places = self.places(view)
        first = _int(args[0]) if args else None
        node_verbs = {"settle": ("builds a settlement on {}", "build a settlement on {}"),
                      "city": ("builds a city on {}", "build a city on {}"),
                      "wall": ("builds a city wall on {}", "build a city wall on {}"),
                      "metropolis": ("builds a metropolis on {}", "build a metropolis on {}"),
                      "activate": ("activates the knight on {}", "activate the knight on {}"),
                      "chase": ("chases the robber away with the knight on {}",
                                "chase the robber away with the knight on {}"),
                      "pillage": ("loses the city on {} to the barbarians", "lose the city on {} to the barbarians"),
                      "retreat": ("moves the displaced knight to {}", "move the displaced knight to {}"),
                      "desert": ("removes the knight on {} (deserter)", "remove the knight on {} (deserter)"),
                      "recruit": ("places a knight on {}", "place a knight on {}")}
        if verb in node_verbs and first is not None:
            third, second = node_verbs[verb]
            return self.does(seat, third.format(places.corner(first)), second.format(places.corner(first)))
        if verb in ("knight", "promote") and first is not None:
            level = (self.view(after).get("knights", {}).get(str(first)) or [None, 0])[1]
            kind = _LEVELS.get(level, "")
            if verb == "knight":
                return self.does(seat, f"recruits a {kind} knight on {places.corner(first)}".replace("a  ", "a "),
                                 f"recruit a {kind} knight on {places.corner(first)}".replace("a  ", "a "))
            return self.does(seat, f"promotes the knight on {places.corner(first)} to {kind}",
                             f"promote the knight on {places.corner(first)} to {kind}")
        if verb in ("knightmove", "displace") and len(args) == 2 and all(a.isdigit() for a in args):
            a, b = places.corner(int(args[0])), places.corner(int(args[1]))
            if verb == "knightmove":
                return self.does(seat, f"moves the knight on {a} to {b}", f"move the knight on {a} to {b}")
            return self.does(seat, f"moves the knight on {a} to {b}, displacing the knight there",
                             f"move the knight on {a} to {b}, displacing the knight there")
        if verb == "road" and first is not None:
            free = " (free)" if view.get("step") == "free-road" else ""
            return self.does(seat, f"builds {places.road(first)}{free}", f"build {places.road(first)}{free}")
        if verb == "robber" and args and args[0][:1] == "h" and args[0][1:].isdigit():
            where = places.hex(int(args[0][1:]))
            return self.does(seat, f"moves the robber to {where}", f"move the robber to {where}")
        if verb == "steal" and first is not None:
            waiting = self.game.awaiting(after)
            if waiting.kind == "chance" and waiting.chance is not None and waiting.chance.label == "card stolen":
                return ""  # the draw says who took what
            return self.does(seat, f"robs {self.who(first)}, who has no card to take",
                             f"rob {self.who(first)}, who has no card to take")
        if verb == "discard" and args:
            return self.does(seat, f"discards {cards_text(args[0])}", f"discard {cards_text(args[0])}")
        if verb == "trade" and len(args) == 3:
            return self.does(seat, f"trades {cards_text(args[0])} with the bank for {cards_text(args[2])}",
                             f"trade {cards_text(args[0])} with the bank for {cards_text(args[2])}")
        if verb == "offer" and len(args) >= 5:
            to = "everybody" if args[4] == "all" else self.who(_int(args[4]))
            return self.does(seat, f"offers {cards_text(args[0])} for {cards_text(args[2])} to {to}",
                             f"offer {cards_text(args[0])} for {cards_text(args[2])} to {to}")
        if verb in ("accept", "decline") and not args:
            return self.does(seat, f"{verb}s the offer", f"{verb} the offer")
        if verb == "confirm" and first is not None:
            offer = view.get("offer") or {}
            give, get = offer.get("give"), offer.get("get")
            deal = f" {cards_text(give)} for {cards_text(get)}" if give and get else ""
            return self.does(seat, f"trades{deal} with {self.who(first)}", f"trade{deal} with {self.who(first)}")
        if verb == "cancel":
            return self.does(seat, "withdraws the offer", "withdraw the offer")
        if verb == "end":
            return self.does(seat, "ends the turn", "end the turn")
        if verb == "roll":
            return ""   # the dice say it, with the roller
        if verb == "buy":
            return self.does(seat, "buys a development card", "buy a development card")
        if verb == "claim" and first is not None:
            shown = f", showing {first} victory point card{'s' * (first != 1)}" if first else ""
            return self.does(seat, f"claims victory{shown}", f"claim victory{shown}")
        if verb == "reveal" and first is not None:
            if first == 0:
                return self.does(seat, "has no victory point card to show", "have no victory point card to show")
            return self.does(seat, f"shows {first} victory point card{'s' * (first != 1)}",
                             f"show {first} victory point card{'s' * (first != 1)}")
        if verb == "reveal" and args:
            return self.does(seat, f"shows {card_words(args[0])} (a victory point)",
                             f"show {card_words(args[0])} (a victory point)")
        if verb == "play" and args:
            return self._card(view, places, seat, args)
        if verb == "improve" and args:
            level = (self.view(after).get("levels") or [{}] * (seat + 1))[seat].get(args[0])
            at = f" to level {level}" if level else ""
            return self.does(seat, f"improves {args[0]}{at}", f"improve {args[0]}{at}")
        if verb == "pick" and args:
            return self.does(seat, f"picks a {args[0]} progress card", f"pick a {args[0]} progress card")
        if verb == "bury" and args:
            return self.does(seat, f"puts {card_words(args[0])} under its deck", f"put {card_words(args[0])} "
                             "under its deck")
        if verb == "take" and args:
            return self.does(seat, f"takes {card_words(args[0])}", f"take {card_words(args[0])}")
        if verb == "keep":
            return self.does(seat, "keeps the card", "keep the card")
        if verb == "skip":
            return self.does(seat, "passes", "pass")
        if verb == "aqueduct" and args:
            return self.does(seat, f"takes 1 {args[0]} (aqueduct)", f"take 1 {args[0]} (aqueduct)")
        if verb in ("give", "show") and args:
            return self.does(seat, f"{verb}s {cards_text(args[0])}", f"{verb} {cards_text(args[0])}")
        if verb == "commit":
            nodes = [places.corner(int(a)) for a in args if a.isdigit()]
            if not nodes:
                return self.does(seat, "sends no knight against the barbarians",
                                 "send no knight against the barbarians")
            return self.does(seat, f"sends the knight{'s' * (len(nodes) > 1)} on {and_list(nodes)} against the "
                             "barbarians", f"send the knight{'s' * (len(nodes) > 1)} on {and_list(nodes)} against "
                             "the barbarians")
        return None

    def _card(self, view: dict, places: Places, seat: int, args: list[str]) -> str:
        card, rest = args[0], args[1:]
        name = card_words(card)
        extra = ""
        if card == "knight" and not self.ck:
            name = "a knight"
        elif card in ("monopoly", "resourcemonopoly", "trademonopoly") and rest:
            extra = f" on {rest[0]}"
        elif card == "yearofplenty" and rest:
            extra = f" for {cards_text(rest[0])}"
        elif card in ("spy", "deserter", "saboteur") and rest and rest[0].isdigit():
            extra = f" on {self.who(int(rest[0]))}"
        elif card in ("engineer", "medicine", "intrigue", "diplomat") and rest and rest[0].isdigit():
            n = int(rest[0])
            extra = f" on {places.road(n) if card == 'diplomat' else places.corner(n)}"
        elif card in ("merchant",) and rest and rest[0][1:].isdigit():
            extra = f" by {places.hex(int(rest[0][1:]))}"
        elif card == "inventor" and len(rest) == 2 and all(r[1:].isdigit() for r in rest):
            extra = f", swapping the numbers of {places.hex(int(rest[0][1:]))} and {places.hex(int(rest[1][1:]))}"
        elif card == "alchemist" and len(rest) == 2:
            extra = f", setting the dice to red {rest[0]} and white {rest[1]}"
        elif card == "smith" and rest:
            extra = f" on {and_list([places.corner(int(r)) for r in rest if r.isdigit()])}"
        elif card == "crane" and rest:
            extra = f" ({rest[0]})"
        elif card == "merchantfleet" and rest:
            extra = f" for {rest[0]}"
        elif card == "mastermerchant" and len(rest) == 2 and rest[0].isdigit():
            extra = f", taking {cards_text(rest[1])} from {self.who(int(rest[0]))}"
        elif card not in ("knight", "roadbuilding", "victorypoint") and rest:
            extra = " " + " ".join(rest)
        return self.does(seat, f"plays {name}{extra}", f"play {name}{extra}")

    # ------------------------------------------------------------------ chance
    def roller(self, state: State, last_seat: int | None) -> int | None:
        active = self.view(state).get("active")
        return active if isinstance(active, int) else last_seat

    def setup(self, chance: Chance) -> bool:
        return chance.label.startswith(_SETUP)

    def chance(self, before: State, after: State, chance: Chance, value: Any) -> list[Entry]:
        label = chance.label
        if chance.kind == "dice" and value is not HIDDEN:
            return self._roll(before, after, chance, value)
        if label == "card stolen":
            return self._stolen(before, after)
        if chance.kind == "deal":
            owner = chance.private_to
            if self.ck:
                deck = chance.deck
                if value is HIDDEN:
                    return [Entry(f"{self.does(owner, f'draws a {deck} progress card')}", owner, "secret")]
                card = card_words(PROGRESS[value]) if 0 <= value < len(PROGRESS) else str(value)
                return [Entry(self.does(owner, f"draws {card} ({deck})", f"draw {card} ({deck})"), owner, "secret")]
            if value is HIDDEN:
                return []   # the purchase said it; the card stays its owner's
            card = card_words(DEV_CARDS[value]) if 0 <= value < len(DEV_CARDS) else str(value)
            return [Entry(self.does(owner, f"draws {card}", f"draw {card}"), owner, "secret")]
        return super().chance(before, after, chance, value)

    def _roll(self, before: State, after: State, chance: Chance, value: tuple) -> list[Entry]:
        b, a = self.view(before), self.view(after)
        roller = b.get("active")
        if len(value) == 3:
            red, white, event = value
            gate = "ship" if event <= 3 else f"{_GATES[DECKS[event - 4]]} gate"
            text = self.does(roller, f"rolls {red + white} (red {red}, white {white}); event die: {gate}",
                             f"roll {red + white} (red {red}, white {white}); event die: {gate}")
        elif len(value) == 2:
            text = self.does(roller, f"rolls {sum(value)} ({value[0]} + {value[1]})",
                             f"roll {sum(value)} ({value[0]} + {value[1]})")
        else:
            event = value[0]
            gate = "ship" if event <= 3 else f"{_GATES[DECKS[event - 4]]} gate"
            text = f"Event die (alchemist): {gate}"
        out = [Entry(text, roller, "roll")]
        if len(value) >= 2:
            total = value[0] + value[1]
            out += self._production(b, a, total)
        if self.ck:
            out += self._attack(b, a)
        return out

    def _gains(self, b: dict, a: dict) -> list[tuple[int, list[int]]]:
        gains = []
        for seat, (old, new) in enumerate(zip(b.get("hands", []), a.get("hands", []), strict=False)):
            if isinstance(old, list) and isinstance(new, list):
                diff = [max(0, n - o) for o, n in zip(old, new, strict=False)]
                if any(diff):
                    gains.append((seat, diff))
        return gains

    def _production(self, b: dict, a: dict, total: int) -> list[Entry]:
        if total == 7:
            return [Entry("A seven: nothing is produced", None, "gain")]
        gains = self._gains(b, a)
        if not gains:
            return [Entry(f"Nothing is produced on {total}", None, "gain")]
        parts = [f"{self.who(s)} {'get' if s == self.me else 'gets'} {counts_text(d, self.resources)}"
                 for s, d in gains]
        return [Entry(_cap("; ".join(parts)), None, "gain")]

    def _stolen(self, before: State, after: State) -> list[Entry]:
        b, a = self.view(before), self.view(after)
        gains = self._gains(b, a)
        losses = self._gains(a, b)
        if not gains or not losses:
            return []
        thief, took = gains[0]
        victim = losses[0][0]
        what = counts_text(took, self.resources) if self.all_known or self.me in (thief, victim) else "a card"
        if thief == self.me:
            return [Entry(f"You steal {what} from {self.who(victim)}", thief, "gain")]
        return [Entry(f"{_cap(self.who(thief))} steals {what} from {self.who(victim)}", thief, "gain")]

    def _attack(self, b: dict, a: dict) -> list[Entry]:
        """The barbarians' attack, when this application resolved one (the ship back to the start)."""
        if not (isinstance(b.get("ship"), int) and isinstance(a.get("ship"), int) and a["ship"] < b["ship"]):
            return []
        out_seats = set(b.get("out") or [])
        cities = sum(1 for owner, kind in (b.get("nodes") or {}).values() if kind == "city" and owner not in out_seats)
        strength: dict[int, int] = {}
        after_knights = a.get("knights") or {}
        for node, (owner, level, active, *_rest) in (b.get("knights") or {}).items():
            now = after_knights.get(node)
            if active and now is not None and not now[2]:
                strength[owner] = strength.get(owner, 0) + level
        knights = sum(strength.values())
        who_strength = and_list([f"{self.who(s)} {k}" for s, k in sorted(strength.items())])
        head = (f"The barbarians attack: {cities} cit{'ies' if cities != 1 else 'y'} against {knights} "
                f"knight strength" + (f" ({who_strength})" if who_strength else ""))
        waiting = [a.get("to_act")] if a.get("step") in ("pillage", "pick") else []
        tasks = waiting + [t[1] for t in a.get("agenda") or [] if t and t[0] in ("pillage", "pick")]
        if cities > knights:
            losers = [s for s in dict.fromkeys(tasks) if s is not None]
            tail = (f"the barbarians win: {and_list([self.who(s) for s in losers])} "
                    f"{'loses' if len(losers) == 1 and losers[0] != self.me else 'lose'} a city"
                    if losers else "the barbarians win, but nobody has a city they can take")
        else:
            before_points, after_points = b.get("defender_points") or [], a.get("defender_points") or []
            defender = [s for s, (p, q) in enumerate(zip(before_points, after_points, strict=False)) if q > p]
            pickers = [s for s in dict.fromkeys(tasks) if s is not None]
            if defender:
                tail = f"Catan is saved: {self.who(defender[0])} {'are' if defender[0] == self.me else 'is'} " \
                       "Defender of Catan (1 victory point)"
            elif pickers:
                tail = f"Catan is saved: {and_list([self.who(s) for s in pickers])} tie and each pick a progress card"
            else:
                tail = "Catan is saved"
        return [Entry(f"{head}; {tail}", None, "alarm")]


WORDS = CatanWords   # found by client.story.games.words_for (Cities & Knights' module names it too)
