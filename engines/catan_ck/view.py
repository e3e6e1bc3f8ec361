"""What a seat may see in Cities & Knights (docs/rules/catan-ck.md, "View") and the move-log line.

The base view without the development cards, plus the C&K pieces and tracks. Progress-card ids are
shown only to their holder (and what a spy saw, to the spy); everything else is public.
"""

from __future__ import annotations

from typing import Any

from engines.catan.board import bits
from engines.catan.view import describe as base_describe
from engines.catan.view import view as base_view
from engines.catan_ck.cards import CARD_DECK, DECK_CARDS, DECKS, NAMES, PROGRESS, VP_CARDS
from engines.catan_ck.state import CKExt
from engines.contract import HIDDEN

__all__ = ["describe", "view"]

_DROP = ("dev", "deck", "largest_army", "played", "revealed", "dev_played")


def _ids(counts: tuple[int, ...]) -> list[str]:
    return [PROGRESS[g] for g, k in enumerate(counts) for _ in range(k)]


def view(rules: Any, s: Any, seat: int | None) -> dict[str, Any]:
    data = base_view(rules, s.put(private=(HIDDEN,) * s.n), seat)
    for key in _DROP:
        data.pop(key, None)
    x: CKExt = s.ext
    to_act = rules.actor(s)
    data["to_act"] = None if to_act < 0 else to_act
    knights: dict[str, list[Any]] = {}
    for o, cs in enumerate(x.seats):
        for level, mask in ((1, cs.k1), (2, cs.k2), (3, cs.k3)):
            for n in bits(mask):
                bit = 1 << n
                knights[str(n)] = [o, level, bool(cs.active & bit), bool(cs.fresh & bit), bool(cs.promoted & bit)]
    data["knights"] = dict(sorted(knights.items(), key=lambda kv: int(kv[0])))
    data["walls"] = {str(n): o for o, cs in enumerate(x.seats) for n in bits(cs.walls)}
    data["reduced"] = {str(n): o for o, cs in enumerate(x.seats) for n in bits(cs.reduced)}
    data["levels"] = [dict(zip(DECKS, cs.levels, strict=True)) for cs in x.seats]
    data["metropolises"] = {DECKS[t]: None if x.metro[t] < 0 else [x.metro[t], x.metro_at[t]] for t in range(3)}
    data["merchant"] = None if x.merchant < 0 else [x.merchant, x.merchant_owner]
    data["ship"] = x.ship
    data["first_attack_done"] = x.attacked
    data["defense"] = x.defense
    data["options"]["defense"] = x.defense
    data["options"]["spy"] = x.spy
    progress = []
    for o, cs in enumerate(x.seats):
        entry: dict[str, Any] = {"count": cs.cards(), "undisclosed": dict(zip(DECKS, cs.hidden, strict=True)),
                                 "known": _ids(cs.known)}
        mine = s.private[o]
        if o == seat and mine is not HIDDEN:
            entry["cards"] = _ids(mine.held)
        progress.append(entry)
    data["progress"] = progress
    # a resigned seat's Defender points and revealed VP cards left the game with it (D40): none shown, none counted
    data["revealed_vp"] = [[] if o in s.out else [PROGRESS[g] for i, g in enumerate(VP_CARDS) if cs.vpcards >> i & 1]
                           for o, cs in enumerate(x.seats)]
    data["defender_points"] = [0 if o in s.out else cs.defender for o, cs in enumerate(x.seats)]
    data["pools"] = {DECKS[d]: {"size": x.pool[d], "epoch": x.epoch[d]} for d in range(3)}
    data["under"] = {DECKS[d]: [PROGRESS[g] for g in DECK_CARDS[d] for _ in range(x.under[g])] for d in range(3)}
    data["fleet"] = [NAMES[t] for t in range(8) if x.fleet >> t & 1]
    data["pieces"] = [{"roads": 15 - p.roads.bit_count(), "settlements": rules.settlements_left(s, o),
                       "cities": rules.cities_left(s, o), "walls": 3 - cs.walls.bit_count(),
                       "knights": [2 - m.bit_count() for m in (cs.k1, cs.k2, cs.k3)]}
                      for o, (p, cs) in enumerate(zip(s.seats, x.seats, strict=True))]
    data["agenda"] = [list(task) for task in x.agenda]
    if seat is not None and 0 <= seat < s.n and x.seen and x.seen[seat] is not None:
        target, counts = x.seen[seat]
        data["seen"] = {"seat": target, "cards": _ids(counts)}
    return data


def describe(rules: Any, s: Any, seat: int, action: str) -> str:
    parsed = rules.notation.parse(action)
    who = f"seat {seat}"
    if parsed is None:
        return f"{who}: {action}"
    verb = parsed[0]
    if verb in ("settle", "road", "robber", "steal", "trade", "offer", "accept", "decline", "confirm", "cancel",
                "end", "roll", "discard"):
        return base_describe(rules, s, seat, action)
    if verb == "city":
        return f"{who} builds a city on node {parsed[1]}"
    if verb == "play":
        return f"{who} plays {PROGRESS[parsed[1]]}" + (" " + action.split(" ", 2)[2] if action.count(" ") > 1 else "")
    if verb == "improve":
        return f"{who} improves {DECKS[parsed[1]]}"
    if verb == "bury":
        return f"{who} buries a {PROGRESS[parsed[1]]} ({DECKS[CARD_DECK[parsed[1]]]})"
    return f"{who}: {action}"
