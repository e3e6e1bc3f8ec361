"""What a seat may see (docs/rules/catan.md, "View") and the move-log line of an action.

Everything is public except the identities of development cards, which only their holder sees
(`dev[seat]["cards"]`). Mappings keyed by node or edge number use the number in decimal as the key,
so the dict is JSON-friendly.
"""

from __future__ import annotations

from typing import Any

from engines.catan import cards as K
from engines.catan.board import EDGES, HARBOUR_EDGES, HARBOUR_NODES, NODE_HEXES, bits
from engines.catan.state import CatanState
from engines.contract import HIDDEN

__all__ = ["describe", "view"]


def _names(counts: tuple[int, ...], names: tuple[str, ...]) -> list[str]:
    return [names[t] for t, k in enumerate(counts) for _ in range(k)]


def view(rules: Any, s: CatanState, seat: int | None) -> dict[str, Any]:
    terrain, numbers, harbours = s.layout
    to_act = s.to_act()
    nodes: dict[str, list[Any]] = {}
    roads: dict[str, int] = {}
    for o, x in enumerate(s.seats):
        for n in bits(x.settlements):
            nodes[str(n)] = [o, "settlement"]
        for n in bits(x.cities):
            nodes[str(n)] = [o, "city"]
        for e in bits(x.roads):
            roads[str(e)] = o
    nodes = dict(sorted(nodes.items(), key=lambda kv: int(kv[0])))
    roads = dict(sorted(roads.items(), key=lambda kv: int(kv[0])))
    dev = []
    for o, x in enumerate(s.seats):
        entry: dict[str, Any] = {"count": x.dev_n, "bought_this_turn": x.dev_new, "knights_played": x.knights}
        mine = s.private[o]
        if o == seat and mine is not HIDDEN:
            entry["cards"] = _names(mine.held, K.DEV_CARDS)
            entry["new"] = _names(mine.new, K.DEV_CARDS)
        dev.append(entry)
    offer = None
    if s.offer is not None:
        offer = {"give": rules.notation.cards(s.offer.give), "get": rules.notation.cards(s.offer.get),
                 "to": "all" if s.offer.to < 0 else s.offer.to, "accepted": list(s.offer.accepted),
                 "declined": list(s.offer.declined)}
    data: dict[str, Any] = {
        "step": s.step,
        "to_act": None if to_act < 0 else to_act,
        "active": s.active,
        "turn": s.turn,
        "round": s.round,
        "options": {"board": s.board, "domestic": "on" if s.domestic else "off", "max_rounds": str(s.max_rounds)},
        "hexes": [{"hex": h, "terrain": K.TERRAINS[terrain[h]] if h < len(terrain) else None,
                   "number": (numbers[h] or None) if numbers else None} for h in range(19)],
        "robber": None if s.robber < 0 else s.robber,
        "harbours": [{"position": j, "type": K.HARBOUR_TYPES[harbours[j]] if j < len(harbours) else None,
                      "edge": HARBOUR_EDGES[j], "nodes": list(HARBOUR_NODES[j])} for j in range(9)],
        "nodes": nodes,
        "roads": roads,
        "bank": list(s.bank),
        "hands": [list(x.hand) for x in s.seats],
        "dev": dev,
        "deck": s.deck,
        "played": dict(zip(K.DEV_CARDS, s.played, strict=True)),
        "longest_road": {"holder": None if s.longest < 0 else s.longest, "lengths": [x.road_len for x in s.seats]},
        "largest_army": None if s.largest < 0 else s.largest,
        # a resigned seat's points left the game with it: 0 in every view, as in its score (catan-ck D40)
        "vp_public": [0 if o in s.out else rules.public_vp(s, o) for o in range(s.n)],
        "revealed": [None if x.revealed < 0 or o in s.out else x.revealed for o, x in enumerate(s.seats)],
        "rates": [list(rules.seat_rates(s, o)) if len(harbours) == 9 else None for o in range(s.n)],
        "pieces": [{"roads": 15 - x.roads.bit_count(), "settlements": 5 - x.settlements.bit_count(),
                    "cities": 4 - x.cities.bit_count()} for x in s.seats],
        "offer": offer,
        "offers_made": s.offers,
        "pending": list(s.queue),
        "dice": list(s.dice) or None,
        "dev_played": s.dev_played,
        "free_roads": s.free,
        "out": list(s.out),
    }
    if seat is not None and 0 <= seat < s.n and s.private[seat] is not HIDDEN:
        data["vp"] = 0 if seat in s.out else (rules.public_vp(s, seat) + s.private[seat].held[K.VICTORYPOINT]
                                              + max(0, s.seats[seat].revealed))
    return data


def describe(rules: Any, s: CatanState, seat: int, action: str) -> str:
    """A plain-words line: who did what, and where (node/edge/hex in the spec's numbers)."""
    parsed = rules.notation.parse(action)
    who = f"seat {seat}"
    if parsed is None:
        return f"{who}: {action}"
    verb = parsed[0]
    terrain, numbers, _ = s.layout

    def hex_words(h: int) -> str:
        if h >= len(terrain):
            return f"h{h}"
        t = K.TERRAINS[terrain[h]]
        return f"h{h} {t}" + (f" {numbers[h]}" if numbers and numbers[h] else "")

    if verb == "settle" and parsed[1] < 54:
        touching = ", ".join(hex_words(h) for h in NODE_HEXES[parsed[1]])
        return f"{who} builds a settlement on node {parsed[1]} ({touching})"
    if verb == "city":
        return f"{who} upgrades the settlement on node {parsed[1]} to a city"
    if verb == "road" and parsed[1] < 72:
        a, b = EDGES[parsed[1]]
        free = " (free)" if s.step == "free-road" else ""
        return f"{who} builds a road between nodes {a} and {b}{free}"
    if verb == "buy":
        return f"{who} buys a development card"
    if verb == "play":
        card = K.DEV_CARDS[parsed[1]]
        if card == "monopoly" and parsed[2] is not None:
            return f"{who} plays monopoly on {K.RESOURCES[parsed[2]]}"
        if card == "yearofplenty" and parsed[2] is not None:
            return f"{who} plays year of plenty for {K.multiset_words(parsed[2])}"
        return f"{who} plays {'road building' if card == 'roadbuilding' else card}"
    if verb == "roll":
        return f"{who} rolls the dice"
    if verb == "discard":
        return f"{who} discards {rules.notation.words(parsed[1])}"
    if verb == "robber" and parsed[1] < 19:
        return f"{who} moves the robber to {hex_words(parsed[1])}"
    if verb == "steal":
        return f"{who} robs seat {parsed[1]}"
    if verb == "trade":
        return f"{who} trades {rules.notation.words(parsed[1])} with the bank for {rules.notation.words(parsed[2])}"
    if verb == "offer":
        to = "everybody" if parsed[3] < 0 else f"seat {parsed[3]}"
        give, get = rules.notation.words(parsed[1]), rules.notation.words(parsed[2])
        return f"{who} offers {give} for {get} to {to}"
    if verb in ("accept", "decline"):
        return f"{who} {verb}s the offer"
    if verb == "confirm":
        return f"{who} trades with seat {parsed[1]}"
    if verb == "cancel":
        return f"{who} cancels the offer"
    if verb == "end":
        return f"{who} ends the turn"
    if verb == "claim":
        return f"{who} claims victory, showing {parsed[1]} victorypoint card(s)"
    if verb == "reveal":
        return f"{who} reveals {parsed[1]} victorypoint card(s)"
    return f"{who}: {action}"
