"""Cities & Knights action texts (docs/rules/catan-ck.md, "Actions and notation"): the base notation with
8 card types, plus the C&K verbs and the `play <progress card> ...` forms. Parsed into small tuples
(memoised by the base class); only canonical texts parse."""

from __future__ import annotations

from engines.catan.cards import RESOURCES, parse_multiset
from engines.catan.listed import MaskTexts
from engines.catan.notation import Notation, number
from engines.catan_ck.cards import DECKS, NAMES, PROGRESS

__all__ = ["CK_FORMS", "CKNotation"]

CK_FORMS = ("settle <node>, city <node>, road <edge>, roll, end, discard <cards>, robber h<hex>, steal <seat>, "
            "trade <r><type> for 1<type>, offer <cards> for <cards> to <seat>|all, accept, decline, confirm <seat>, "
            "cancel, wall <node>, knight <node>, activate <node>, promote <node>, knightmove <node> <node>, "
            "displace <node> <node>, chase <node>, improve <track>, metropolis <node>, retreat <node>, "
            "pillage <node>, commit none|<nodes>, pick <deck>, keep, reveal <id>, bury <id>, aqueduct <resource>, "
            "desert <node>, recruit <node>, skip, show <progress cards>, take <id>, give <cards>, "
            "harbor <resource>, play <id> ...")

_ONE_NODE = frozenset(("wall", "knight", "activate", "promote", "chase", "metropolis", "retreat", "pillage",
                       "desert", "recruit"))
_TWO_NODES = frozenset(("knightmove", "displace"))
_BASE_VERBS = frozenset(("settle", "road", "city", "roll", "end", "accept", "decline", "cancel", "discard",
                         "robber", "steal", "trade", "offer", "confirm", "buy", "claim"))
_P = {name: i for i, name in enumerate(PROGRESS)}
_NO_ARG = frozenset(("irrigation", "mining", "roadbuilding", "bishop", "saboteur", "warlord", "wedding",
                     "commercialharbor", "printer", "constitution"))
_NODE_ARG = frozenset(("engineer", "medicine", "intrigue"))
_SEAT_ARG = frozenset(("deserter", "spy"))


def _hex(word: str) -> int | None:
    return number(word[1:]) if word[:1] == "h" else None


class CKNotation(Notation):
    """Parser and text tables for Cities & Knights."""

    def __init__(self) -> None:
        super().__init__(NAMES)
        self.wall = tuple(f"wall {n}" for n in range(54))
        self.knight = tuple(f"knight {n}" for n in range(54))
        self.activate = tuple(f"activate {n}" for n in range(54))
        self.promote = tuple(f"promote {n}" for n in range(54))
        self.chase = tuple(f"chase {n}" for n in range(54))
        self.walls = MaskTexts(self.wall, self.node_order)
        self.knights = MaskTexts(self.knight, self.node_order)
        self.activates = MaskTexts(self.activate, self.node_order)
        self.promotes = MaskTexts(self.promote, self.node_order)
        self.metropolis = tuple(f"metropolis {n}" for n in range(54))
        self.retreat = tuple(f"retreat {n}" for n in range(54))
        self.pillage = tuple(f"pillage {n}" for n in range(54))
        self.desert = tuple(f"desert {n}" for n in range(54))
        self.recruit = tuple(f"recruit {n}" for n in range(54))
        self.bury = tuple(f"bury {p}" for p in PROGRESS)
        self.take = tuple(f"take {p}" for p in PROGRESS)

    def _parse(self, text: str) -> tuple | None:
        words = text.split(" ")
        verb = words[0]
        n = len(words)
        if verb in _BASE_VERBS:
            return super()._parse(text)
        if n == 1:
            return (verb,) if verb in ("keep", "skip") else None
        if verb in _ONE_NODE:
            k = number(words[1]) if n == 2 else None
            return None if k is None else (verb, k)
        if verb in _TWO_NODES:
            if n != 3:
                return None
            a, b = number(words[1]), number(words[2])
            return None if a is None or b is None else (verb, a, b)
        if n == 2:
            arg = words[1]
            if verb == "improve" or verb == "pick":
                return (verb, DECKS.index(arg)) if arg in DECKS else None
            if verb in ("reveal", "bury", "take"):
                return (verb, _P[arg]) if arg in _P else None
            if verb in ("aqueduct", "harbor"):
                return (verb, RESOURCES.index(arg)) if arg in RESOURCES else None
            if verb == "give":
                cards = parse_multiset(arg, NAMES)
                return None if cards is None else ("give", cards)
            if verb == "show":
                shown = parse_multiset(arg, PROGRESS)
                return None if shown is None else ("show", shown)
        if verb == "commit":
            if words[1:] == ["none"]:
                return ("commit", ())
            nodes = [number(w) for w in words[1:]]
            if any(k is None for k in nodes) or any(a >= b for a, b in zip(nodes, nodes[1:], strict=False)):  # type: ignore[operator]
                return None
            return ("commit", tuple(nodes))
        if verb == "play":
            return self._parse_card(words)
        return None

    def _parse_card(self, words: list[str]) -> tuple | None:
        card = words[1]
        g = _P.get(card)
        if g is None:
            return None
        args = words[2:]
        k = len(args)
        if card in _NO_ARG:
            return ("play", g, None) if k == 0 else None
        if card in _NODE_ARG or card == "diplomat" or card in _SEAT_ARG:
            x = number(args[0]) if k == 1 else None
            return None if x is None else ("play", g, x)
        if card == "alchemist":
            if k != 2:
                return None
            r, w = number(args[0]), number(args[1])
            return None if r is None or w is None else ("play", g, (r, w))
        if card == "crane":
            return ("play", g, DECKS.index(args[0])) if k == 1 and args[0] in DECKS else None
        if card == "inventor":
            if k != 2:
                return None
            a, b = _hex(args[0]), _hex(args[1])
            return None if a is None or b is None else ("play", g, (a, b))
        if card == "smith":
            nodes = [number(w) for w in args]
            if k not in (1, 2) or any(x is None for x in nodes):
                return None
            if k == 2 and nodes[0] >= nodes[1]:  # type: ignore[operator]
                return None
            return ("play", g, tuple(nodes))
        if card == "merchant":
            h = _hex(args[0]) if k == 1 else None
            return None if h is None else ("play", g, h)
        if card == "merchantfleet":
            return ("play", g, NAMES.index(args[0])) if k == 1 and args[0] in NAMES else None
        if card == "resourcemonopoly":
            return ("play", g, RESOURCES.index(args[0])) if k == 1 and args[0] in RESOURCES else None
        if card == "trademonopoly":
            return ("play", g, NAMES.index(args[0])) if k == 1 and args[0] in NAMES[5:] else None
        if card == "mastermerchant":
            if k != 2:
                return None
            s = number(args[0])
            cards = parse_multiset(args[1], NAMES)
            return None if s is None or cards is None else ("play", g, (s, cards))
        return None
