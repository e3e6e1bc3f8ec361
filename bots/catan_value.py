"""The hard Catan bot's value function: how good a knowledge state is for one seat, as one int.

Why a value function: a whole game is hundreds of decisions a seat, so the hard bot cannot play games
to their end to judge a move. It looks a few of its own steps ahead (bots.catan_search) and judges the
positions it reaches with this function instead. Everything it reads is public in the base game
(buildings, roads, hands as counts, the robber, the awards) except the seat's own development cards,
which its own knowledge state holds; other seats' cards are read only as their public count.

The scale is "points": a victory point is `VP` (10,000); the other terms price what makes points
later, so that a build always beats keeping its cards, and a trade is worth it only when what it
brings within reach is worth more than the cards it gives away:
- production: pips per resource of the seat's buildings (the robber's hex produces nothing), with
  diminishing returns per resource, so that a spread of resources is worth more than a pile of one;
- the hand: each card a little, more when it makes up a build (a city, a settlement on a spot the
  roads reach, a development card), less when a roll of 7 would take half of it;
- expansion: the best free spot the seat's roads reach, or reach with one or two more roads;
- development cards in hand, knights towards Largest Army, road length towards Longest Road;
- the opponents: a share of their points and production, the leader's the most (this is what moves
  the robber and keeps a monopoly or a steal from helping the seat alone).
All arithmetic is on ints. Shared with Cities & Knights (hands of 8 counts: only the first five,
the resources, are priced here; its own bot adds what only it has).
"""

from __future__ import annotations

from dataclasses import dataclass

from bots.catan import road_distances
from engines.catan.board import HARBOUR_NODES, NODE_HEXES, NODE_NEIGHBOURS, bits
from engines.catan.cards import DESERT, KNIGHT, TERRAIN_RESOURCE, VICTORYPOINT
from engines.contract import HIDDEN

__all__ = ["VP", "Board", "Weights", "board_of", "evaluate", "free_spots", "production"]

VP = 10_000
PIPS = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)
#: the value of the k-th pip of one resource (diminishing: the 9th pip of brick is worth less)
_MARGINAL = (130, 130, 125, 120, 115, 110, 100, 90, 80, 70, 60, 50, 45, 40, 35, 30)
#: production value of p pips of one resource, before the resource's weight (percent)
CONCAVE = tuple(sum(_MARGINAL[min(k, len(_MARGINAL) - 1)] for k in range(p)) for p in range(64))

ROAD, SETTLEMENT, CITY, DEV = (1, 1, 0, 0, 0), (1, 1, 1, 1, 0), (0, 0, 0, 2, 3), (0, 0, 1, 1, 1)


@dataclass(slots=True, frozen=True)
class Weights:
    """The value function's knobs (ints, "points"), set by hand and checked by self-play against the
    medium bot (other settings tried did no better: docs/bots.md)."""

    production: int = 100      # percent: the scale of production against points and cards
    resource: tuple[int, ...] = (100, 100, 85, 105, 100)   # percent per resource (brick..ore)
    new_type: int = 350        # a resource the seat produces at all
    card: int = 120            # a card in hand
    build: tuple[int, int, int] = (3200, 1400, 500)   # a build the hand makes: missing 0, 1, 2 cards
    city: int = 100            # percent of `build` for a city
    settlement: int = 100      # ... a settlement on a spot the roads reach
    dev: int = 35              # ... a development card
    road: int = 20             # ... a road towards a spot
    over_seven: int = 45       # per card of the half a 7 would take
    spot: tuple[int, int, int] = (45, 30, 15)   # percent of the best free spot's production at 0, 1, 2 roads
    spots: int = 120           # each further free spot at 0 roads (room to build)
    dev_card: int = 1800       # a development card held (not a victory point card)
    knight: int = 900          # a knight played, while Largest Army is open to the seat
    road_len: int = 150        # a road of the longest trail, while Longest Road is open to it
    harbour: int = 600         # a 3:1 harbour; 2:1: that resource's pips x harbour / 8
    opponent: int = 12         # percent of each opponent's value of points and production
    leader: int = 25           # percent more for the leader


@dataclass(slots=True, frozen=True)
class Board:
    """Per node: (resource, pips, hex) of its producing hexes; per node: its harbour (-1 none, 0 3:1,
    1 + r 2:1 of resource r). A pure function of the layout, built once per board."""

    node_hexes: tuple[tuple[tuple[int, int, int], ...], ...]
    harbour: tuple[int, ...]


_BOARDS: dict[tuple, Board] = {}


def board_of(layout: tuple) -> Board:
    """The board's static facts (memoised on the layout: a pure function of it)."""
    found = _BOARDS.get(layout)
    if found is not None:
        return found
    terrain, numbers, harbours = layout
    node_hexes = []
    for n in range(54):
        cells = []
        for h in NODE_HEXES[n]:
            if h < len(terrain) and terrain[h] != DESERT and numbers:
                cells.append((TERRAIN_RESOURCE[terrain[h]], PIPS[numbers[h]], h))
        node_hexes.append(tuple(cells))
    harbour = [-1] * 54
    for j, kind in enumerate(harbours):
        for n in HARBOUR_NODES[j]:
            harbour[n] = kind
    if len(_BOARDS) > 512:
        _BOARDS.clear()
    board = Board(tuple(node_hexes), tuple(harbour))
    _BOARDS[layout] = board
    return board


def production(board: Board, settlements: int, cities: int, robber: int, types: int = 5) -> list[int]:
    """Pips per resource of these buildings (a city twice), the robber's hex excluded."""
    prod = [0] * types
    for n in bits(settlements):
        for r, p, h in board.node_hexes[n]:
            if h != robber:
                prod[r] += p
    for n in bits(cities):
        for r, p, h in board.node_hexes[n]:
            if h != robber:
                prod[r] += 2 * p
    return prod


def _prod_value(prod: list[int], w: Weights) -> int:
    value = 0
    for r in range(5):
        p = prod[r]
        if p:
            value += w.resource[r] * CONCAVE[min(p, 63)] // 100 + w.new_type
    return value * w.production // 100


def _missing(hand: tuple[int, ...], cost: tuple[int, ...]) -> int:
    return sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)


def evaluate(rules, s, me: int, w: Weights = Weights(), vp_of=None) -> int:
    """The value of knowledge state `s` (the rules' inner state) for seat `me`. `vp_of(s, seat)` gives
    a seat's public points (default: the rules' own `public_vp`)."""
    vp_of = vp_of or rules.public_vp
    board = board_of(s.layout)
    seats = s.seats
    mine = seats[me]
    robber = s.robber
    vp = vp_of(s, me)
    held = s.private[me]
    if held is not HIDDEN and held is not None:
        vp += held.held[VICTORYPOINT]
    if vp >= rules.win_vp:
        return 100 * VP + vp * VP
    value = vp * VP

    prod = production(board, mine.settlements, mine.cities, robber)
    value += _prod_value(prod, w)
    rates = rules.seat_rates(s, me)
    for r in range(5):
        if rates[r] == 2:
            value += prod[r] * w.harbour // 8
    if min(rates[:5]) == 3:
        value += w.harbour

    # the hand: its cards, and the builds it makes or nearly makes
    hand = tuple(mine.hand[:5])
    cards = sum(hand)
    value += w.card * cards
    pieces_s = rules.settlements_left(s, me)
    occupied = 0
    owner: dict[int, tuple[int, str]] = {}
    for o, x in enumerate(seats):
        occupied |= x.settlements | x.cities
        for n in bits(x.settlements):
            owner[n] = (o, "settlement")
        for n in bits(x.cities):
            owner[n] = (o, "city")
    free = free_spots(occupied)
    roads = {}
    for o, x in enumerate(seats):
        for e in bits(x.roads):
            roads[e] = o
    dist = road_distances(me, owner, roads)
    best = [0, 0, 0]
    at_zero = 0
    if pieces_s > 0:
        for n, d in dist.items():
            if d <= 2 and free >> n & 1:
                v = _node_value(board, n, prod, w, robber)
                if v > best[d]:
                    best[d] = v
                if d == 0:
                    at_zero += 1
    value += (w.spot[0] * best[0] + w.spot[1] * best[1] + w.spot[2] * best[2]) // 100
    value += w.spots * max(0, at_zero - 1)
    builds = []
    if mine.settlements and 4 - mine.cities.bit_count() > 0:
        builds.append((CITY, w.city))
    if at_zero:
        builds.append((SETTLEMENT, w.settlement))
    elif best[1] or best[2]:
        builds.append((ROAD, w.road))
    if s.deck:
        builds.append((DEV, w.dev))
    top = 0
    for cost, pct in builds:
        m = _missing(hand, cost)
        if m <= 2:
            top = max(top, w.build[m] * pct // 100)
    value += top
    limit = rules.discard_limit(s, me)
    if cards > limit:
        value -= w.over_seven * (cards // 2)

    # development cards, the army, the road
    dev_n = mine.dev_n
    if held is not HIDDEN and held is not None:
        dev_n -= held.held[VICTORYPOINT]
        value += held.held[KNIGHT] * w.knight // 3
    value += w.dev_card * dev_n
    others = [o for o in s.alive() if o != me]
    if s.largest != me:
        top_k = max((seats[o].knights for o in others), default=0)
        if mine.knights + 3 >= max(3, top_k + 1):
            value += w.knight * mine.knights
    else:
        value += w.knight * 2
    if s.longest != me:
        top_r = max((seats[o].road_len for o in others), default=0)
        if mine.road_len + 3 >= max(5, top_r + 1):
            value += w.road_len * mine.road_len
    else:
        value += w.road_len * 3

    # the opponents
    if others:
        opp = []
        for o in others:
            x = seats[o]
            ovp = vp_of(s, o) + x.dev_n // 4
            oprod = production(board, x.settlements, x.cities, robber)
            opp.append((ovp, ovp * VP + _prod_value(oprod, w) + w.card * sum(x.hand[:5])))
        lead = max(v for v, _ in opp)
        for ovp, ov in opp:
            value -= ov * (w.opponent + (w.leader if ovp == lead else 0)) // 100
    return value


def _node_value(board: Board, n: int, prod: list[int], w: Weights, robber: int) -> int:
    """What a settlement on `n` adds to the seat's production value."""
    after = list(prod)
    for r, p, h in board.node_hexes[n]:
        if h != robber:
            after[r] += p
    return _prod_value(after, w) - _prod_value(prod, w)


_NEIGHBOUR_MASK = tuple(sum(1 << m for m in NODE_NEIGHBOURS[n]) | (1 << n) for n in range(54))


def free_spots(occupied: int) -> int:
    """Nodes where the distance rule allows a settlement."""
    blocked = 0
    for n in bits(occupied):
        blocked |= _NEIGHBOUR_MASK[n]
    return ((1 << 54) - 1) & ~blocked
