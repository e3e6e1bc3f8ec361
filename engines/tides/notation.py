"""Canonical action texts (spec "Actions and notation"), built once and parsed by table lookup.

Every text with a fixed shape is in `PARSE`; exchange and damage texts carry card lists and are
parsed on demand, accepting only the canonical spelling so each effect has exactly one text.
"""

from __future__ import annotations

from engines.tides import cards as C
from engines.tides.ship import SLOTS, ZONES

Parsed = tuple

PICK = tuple(f"pick {name}" for name in C.CARDS)
SAILOR = {z: f"sailor {z}" for z in ZONES}
CANNON = {(z, s): f"cannon {z} {SLOTS[s]}" for z in ZONES for s in (0, 1)}
MOVE_CAPTAIN = {(a, b): f"move captain {a} {b}" for a in ZONES for b in ZONES if a != b}
MOVE_SAILOR = {(a, b): f"move sailor {a} {b}" for a in ZONES for b in ZONES if a != b}
MOVE_CANNON = {(a, s, b, t): f"move cannon {a}{SLOTS[s]} {b}{SLOTS[t]}"
               for a in ZONES for s in (0, 1) for b in ZONES for t in (0, 1) if (a, s) != (b, t)}
NAVIGATE = {opt: f"navigate {opt}" for opt in ("ahead", "back", "initiative")}
SWING = {z: f"swing {z}" for z in ZONES}
FIRE = {z: f"fire {z}" for z in ZONES}
PROMOTE = {z: f"promote {z}" for z in ZONES}
EXCHANGE_NONE = "exchange none"

#: the card whose resolution an action text belongs to
VERB_CARD = {"sailor": "sailor", "cannon": "cannon", "move captain": "move", "move sailor": "move",
             "move cannon": "move", "navigate": "navigate", "swing": "swing", "fire": "fire",
             "promote": C.PROMOTE}

PARSE: dict[str, Parsed] = {}
for _card, _text in enumerate(PICK):
    PARSE[_text] = ("pick", _card)
for _key, _text in SAILOR.items():
    PARSE[_text] = ("sailor", _key)
for (_z, _s), _text in CANNON.items():
    PARSE[_text] = ("cannon", _z, _s)
for (_a, _b), _text in MOVE_CAPTAIN.items():
    PARSE[_text] = ("move captain", _a, _b)
for (_a, _b), _text in MOVE_SAILOR.items():
    PARSE[_text] = ("move sailor", _a, _b)
for (_a, _s, _b, _t), _text in MOVE_CANNON.items():
    PARSE[_text] = ("move cannon", _a, _s, _b, _t)
for _where, _text in NAVIGATE.items():
    PARSE[_text] = ("navigate", _where)
for _key, _text in SWING.items():
    PARSE[_text] = ("swing", _key)
for _key, _text in FIRE.items():
    PARSE[_text] = ("fire", _key)
for _key, _text in PROMOTE.items():
    PARSE[_text] = ("promote", _key)
PARSE[EXCHANGE_NONE] = ("exchange", C.EMPTY, C.EMPTY)


def exchange_text(given: C.Counts, taken: C.Counts) -> str:
    if not any(given):
        return EXCHANGE_NONE
    return f"exchange {C.text(given)} for {C.text(taken)}"


def damage_text(chosen: C.Counts) -> str:
    return f"damage {C.text(chosen)}"


def parse(action: str) -> Parsed | None:
    """The structured form of a text, or None when it is no well-formed action of this game."""
    found = PARSE.get(action)
    if found is not None:
        return found
    if action.startswith("exchange "):
        given, sep, taken = action[len("exchange "):].partition(" for ")
        if not sep:
            return None
        give, take = C.parse_list(given), C.parse_list(taken)
        if give is None or take is None:
            return None
        return ("exchange", give, take)
    if action.startswith("damage "):
        chosen = C.parse_list(action[len("damage "):])
        return None if chosen is None else ("damage", chosen)
    return None
