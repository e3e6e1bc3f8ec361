"""The reference Catan bot: a fixed opponent of the catanatron AlphaBeta kind, to measure others by.

What it is: a depth-2 expectimax over a hand-written value function, in the manner catanatron
describes for its AlphaBeta player: look two decisions ahead, take the expectation over chance (here:
the card a steal takes), and judge each leaf by a weighted sum of features whose weights are so far
apart that they rank nearly lexicographically: points first, then production, then the enemies'
production, then reach, hand and cards. It is written here from that description, not copied: the
features, weights and pruning are this module's own.

Why fixed: the ladder and docs/bots.md state the hard bot's win rate against it, so it must not
change with the hard bot's tuning. It plays no domestic trade (it declines every offer and makes
none), as catanatron's players do not; every other decision (placement, building, the robber, the
steal, discards, development cards before and after the roll) goes through the same search.
Its budget is counted in engine steps, so it is reproducible.
"""

from __future__ import annotations

from typing import Any

from bots.catan import road_distances
from bots.catan_search import TurnSearch
from bots.catan_value import board_of, free_spots, production
from bots.lib import game_actions
from engines.catan.board import bits
from engines.catan.cards import DEV_TOTALS, VICTORYPOINT
from engines.catan.state import FREE_ROAD, MAIN, ROBBER, STEAL, STEAL_PICK
from engines.contract import HIDDEN
from engines.core import Game, State

__all__ = ["ReferenceBot", "reference_value"]

#: feature weights, far apart (points >> production >> enemy production >> reach >> hand)
W_VP = 10**12
W_PROD = 10**8          # per pip of own production
W_VARIETY = 3 * 10**8   # per resource type produced
W_ENEMY = 10**7         # per pip of the enemies' production (subtracted)
W_REACH = 10**4         # per pip of the free spots one road away
W_BUILDABLE = 10**3     # per free spot the roads reach now
W_SYNERGY = 10**2       # per card of a city or settlement the hand holds
W_ROAD = 10             # per road of the longest trail
W_ARMY = 10             # per knight played
W_DEVS = 10             # per development card held
W_CARD = 1              # per card
W_DISCARD = 5           # per card over the limit (subtracted)
BUDGET = 1500


def reference_value(rules: Any, s: Any, me: int) -> int:
    """The reference bot's judgement of knowledge state `s` (the rules' inner state) for `me`."""
    board = board_of(s.layout)
    seats = s.seats
    mine = seats[me]
    vp = rules.public_vp(s, me)
    held = s.private[me]
    if held is not HIDDEN and held is not None:
        vp += held.held[VICTORYPOINT]
    prod = production(board, mine.settlements, mine.cities, s.robber)
    value = W_VP * vp + W_PROD * sum(prod) + W_VARIETY * sum(1 for p in prod if p)
    for o in s.alive():
        if o != me:
            x = seats[o]
            value -= W_ENEMY * sum(production(board, x.settlements, x.cities, s.robber))
    owner: dict[int, tuple[int, str]] = {}
    occupied = 0
    roads: dict[int, int] = {}
    for o, x in enumerate(seats):
        occupied |= x.settlements | x.cities
        for n in bits(x.settlements):
            owner[n] = (o, "settlement")
        for n in bits(x.cities):
            owner[n] = (o, "city")
        for e in bits(x.roads):
            roads[e] = o
    free = free_spots(occupied)
    for n, d in road_distances(me, owner, roads).items():
        if free >> n & 1:
            if d == 0:
                value += W_BUILDABLE
            elif d == 1:
                value += W_REACH * sum(p for _, p, _ in board.node_hexes[n])
    hand = mine.hand[:5]
    city = min(hand[3], 2) + min(hand[4], 3)
    settlement = sum(min(hand[r], 1) for r in range(4))
    value += W_SYNERGY * max(city, settlement)
    value += W_ROAD * mine.road_len + W_ARMY * mine.knights + W_DEVS * mine.dev_n + W_CARD * sum(hand)
    if sum(hand) > rules.discard_limit(s, me):
        value -= W_DISCARD * sum(hand)
    return value


def _dev_expect(inner: Any, me: int) -> int:
    """An undealt card: the chance of a victory point card among the cards not seen, and a card held."""
    mine = inner.private[me]
    seen_vp = inner.played[VICTORYPOINT] + (0 if mine is HIDDEN else mine.held[VICTORYPOINT])
    seen = sum(inner.played) + (0 if mine is HIDDEN else sum(mine.held))
    unseen = max(1, sum(DEV_TOTALS) - seen)
    return max(0, DEV_TOTALS[VICTORYPOINT] - seen_vp) * W_VP // unseen + W_DEVS


class ReferenceBot:
    """Depth-2 expectimax over `reference_value`; declines every offer and makes none."""

    name = "reference"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline draw" in legal:
            return "decline draw"
        actions = [a for a in game_actions(legal) if not a.startswith("offer ")]
        if len(actions) == 1:
            return actions[0]
        if "decline" in actions:
            return "decline"
        if "cancel" in actions:
            return "cancel"
        rules = game.rules
        search = TurnSearch(game, seat, lambda inner, me: reference_value(rules, inner, me), _dev_expect, MAIN,
                            frozenset((ROBBER, STEAL, FREE_ROAD)), STEAL_PICK, lambda a: not a.startswith("offer "),
                            budget=BUDGET, wide=len(actions))
        choice, _ = search.choose(state, actions)
        return choice
