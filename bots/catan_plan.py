"""The hard Catan bot's end-game plan: the build that brings the next victory point soonest.

Why: near the end a point is a point, whatever it produces later, and the medium bot's target (a
value of what a build produces, bots.catan.SmartBot._pick_target) keeps saving for what pays in the
long run. Self-play showed the hard bot losing most games at 8 or 9 points. So from `ENDGAME` points
on, the target is the option with the fewest expected turns per point: a city, a settlement (with the
roads to its spot), the roads that take Longest Road (two points), or a development card (a victory
point with the chance that the card is one, the knight that takes Largest Army).

Expected turns to a cost: between two of the seat's turns every seat rolls once, so a resource comes
in at 4 x pips / 36 cards a round; after t rounds the hand is expected to hold the cards it has plus
that, and the cost is in reach once the cards still missing can be bought with the surplus at the
seat's maritime rates. All integer arithmetic, on ninths of a card.
"""

from __future__ import annotations

from bots.catan import COSTS, Position
from engines.catan.cards import DEV_TOTALS, KNIGHT, VICTORYPOINT

__all__ = ["ENDGAME", "endgame_target", "turns_to"]

#: from this many points (its own count, hidden cards too) the bot plays for the next point
ENDGAME = 5
#: the most rounds looked ahead: an option further off than this is not one
HORIZON = 30


def turns_to(hand: tuple[int, ...], prod: list[int], rates: list[int], cost: tuple[int, ...]) -> int:
    """Expected rounds (x 4: quarters of a round) until the hand, with its production, pays `cost`."""
    for q in range(4 * HORIZON + 1):
        # cards expected after q quarter-rounds, in ninths of a card: q rolls bring pips / 36 each
        short = surplus = 0
        for r in range(5):
            have9 = 9 * hand[r] + q * prod[r] // 4
            need9 = 9 * cost[r]
            if have9 < need9:
                short += -(-(need9 - have9) // 9)
            else:
                surplus += (have9 - need9) // 9 // rates[r]
        if short <= surplus:
            return q
    return 4 * HORIZON + 4


def endgame_target(pos: Position, view: dict) -> tuple[str, int] | None:
    """(target, value) for the medium bot's saving: the option of the fewest expected turns per point,
    or None before the end game or when no option is in reach."""
    me = pos.me
    if pos.my_vp < ENDGAME:
        return None
    rates = view["rates"][me] or [4] * 5
    pieces = view["pieces"][me]
    prod, hand = pos.prod, pos.hand
    options: list[tuple[int, int, str]] = []   # (quarters x 100 per point, order, name)

    def add(name: str, cost: tuple[int, ...], points100: int, order: int) -> None:
        if points100 > 0:
            options.append((100 * 100 * (1 + turns_to(hand, prod, rates, cost)) // points100, order, name))

    if pieces["cities"] and any(o == me and kind == "settlement" for o, kind in pos.owner.values()):
        add("city", COSTS["city"], 100, 0)
    _, node, d = pos.best_spot()
    if node >= 0 and pieces["settlements"] and pieces["roads"] >= d:
        cost = tuple(s + d * r for s, r in zip(COSTS["settlement"], COSTS["road"], strict=True))
        add("settlement" if d == 0 else "road", cost, 100, 1)
    lengths = view["longest_road"]["lengths"]
    if view["longest_road"]["holder"] != me:
        top = max((lengths[o] for o in range(pos.n) if o != me), default=0)
        k = max(5, top + 1) - lengths[me]
        if 0 < k <= min(3, pieces["roads"]):
            add("road", tuple(k * c for c in COSTS["road"]), 200, 2)
    if view["deck"]:
        played = view["played"]
        mine = pos.cards + pos.new
        unseen = max(1, sum(DEV_TOTALS) - sum(played.values()) - len(mine))
        vp_left = max(0, DEV_TOTALS[VICTORYPOINT] - played.get("victorypoint", 0) - mine.count("victorypoint"))
        chance = 100 * vp_left // unseen
        knights = view["dev"][me]["knights_played"] + mine.count("knight")
        if view["largest_army"] != me:
            top_k = max((view["dev"][o]["knights_played"] for o in range(pos.n) if o != me), default=0)
            if knights + 1 >= max(3, top_k + 1) > knights:
                knights_left = max(0, DEV_TOTALS[KNIGHT] - played.get("knight", 0) - mine.count("knight"))
                chance += 2 * 100 * knights_left // unseen   # the knight that takes Largest Army: two points
        add("dev", COSTS["dev"], chance, 3)
    if not options:
        return None
    _, _, name = min(options)
    return name, 1000

