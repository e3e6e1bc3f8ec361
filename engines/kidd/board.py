"""The deck of Capt'n W. Kidd as data: the one place that knows the board's graph (rules D1).

The printed board is only known as a picture, so this is the hexagon-symmetric reconstruction of
the spec. Every rule works from the tables derived here and never names a field, so replacing
`_TABLE` with the printed graph must be the only change needed. The module checks the data when it
loads (symmetric, connected, three exits per field), so a bad table cannot reach a game.
"""

from __future__ import annotations

from math import isqrt

OUT = 0
"""The entry path of a start field. Not a field: nothing stands on it, moves to it or counts it as a
neighbour; it only appears as the back of a stone entered from outside."""

# field: (exits, x, y). Exits are the neighbouring fields, plus OUT for a start field. x and y are
# drawing positions on a 1000 x 1000 canvas, y pointing down.
_TABLE: dict[int, tuple[tuple[int, ...], int, int]] = {
    1: ((7, 8, OUT), 500, 60),
    2: ((8, 9, OUT), 881, 280),
    3: ((9, 10, OUT), 881, 720),
    4: ((10, 11, OUT), 500, 940),
    5: ((11, 12, OUT), 119, 720),
    6: ((7, 12, OUT), 119, 280),
    7: ((1, 6, 13), 350, 240),
    8: ((1, 2, 14), 650, 240),
    9: ((2, 3, 15), 800, 500),
    10: ((3, 4, 16), 650, 760),
    11: ((4, 5, 17), 350, 760),
    12: ((5, 6, 18), 200, 500),
    13: ((7, 14, 18), 420, 361),
    14: ((8, 13, 15), 580, 361),
    15: ((9, 14, 16), 660, 500),
    16: ((10, 15, 17), 580, 639),
    17: ((11, 16, 18), 420, 639),
    18: ((12, 13, 17), 340, 500),
}

EXITS_PER_FIELD = 3
CANVAS = 1000


def check(table: dict[int, tuple[tuple[int, ...], int, int]]) -> None:
    """Refuse a board the rules cannot be played on: adjacency must be symmetric, the graph
    connected, and every field must have exactly three exits, counting OUT for a start field."""
    if OUT in table:
        raise ValueError("board data: OUT (0) is not a field number")
    fields = sorted(table)
    if fields != list(range(1, len(fields) + 1)):
        raise ValueError("board data: fields must be numbered 1..N (a board tuple is indexed by field)")
    if not any(OUT in table[f][0] for f in fields):
        raise ValueError("board data: no field has an OUT entry, so no stone could ever enter")
    neighbours = {f: [n for n in table[f][0] if n != OUT] for f in fields}
    for f in fields:
        for g in neighbours[f]:
            if g not in table:
                raise ValueError(f"board data: field {f} names a neighbour {g} that is not a field")
    for f in fields:
        exits, x, y = table[f]
        if len(set(exits)) != len(exits):
            raise ValueError(f"board data: field {f} lists an exit twice")
        if len(exits) != EXITS_PER_FIELD:
            raise ValueError(f"board data: field {f} has {len(exits)} exits (counting OUT), not {EXITS_PER_FIELD}")
        for g in neighbours[f]:
            if g == f:
                raise ValueError(f"board data: field {f} is its own neighbour")
            if f not in neighbours[g]:
                raise ValueError(f"board data: adjacency is not symmetric ({f} lists {g}, {g} does not list {f})")
        if not (0 <= x <= CANVAS and 0 <= y <= CANVAS):
            raise ValueError(f"board data: field {f} is drawn off the {CANVAS} x {CANVAS} canvas")
    reached = {fields[0]}
    frontier = [fields[0]]
    while frontier:
        for g in neighbours[frontier.pop()]:
            if g not in reached:
                reached.add(g)
                frontier.append(g)
    if len(reached) != len(fields):
        missing = sorted(set(fields) - reached)
        raise ValueError(f"board data: the graph is not connected (cannot reach {missing})")


check(_TABLE)

FIELDS: tuple[int, ...] = tuple(sorted(_TABLE))
NEIGHBOURS: dict[int, tuple[int, ...]] = {f: tuple(sorted(n for n in _TABLE[f][0] if n != OUT)) for f in FIELDS}
START_FIELDS: tuple[int, ...] = tuple(f for f in FIELDS if OUT in _TABLE[f][0])
"""Derived, never listed: the fields with an OUT entry."""
POSITIONS: dict[int, tuple[int, int]] = {f: (_TABLE[f][1], _TABLE[f][2]) for f in FIELDS}
SIZE = FIELDS[-1] + 1
"""Length of a board tuple: it is indexed by field number, and index OUT (0) stays empty."""

EDGES: tuple[tuple[int, int], ...] = tuple((f, g) for f in FIELDS for g in NEIGHBOURS[f] if f < g)


def _forward(field: int, back: int) -> tuple[int, ...]:
    return tuple(g for g in NEIGHBOURS[field] if g != back)


FORWARD: tuple[dict[int, tuple[int, ...]], ...] = tuple(
    {} if f == OUT else {b: _forward(f, b) for b in (*NEIGHBOURS[f], *((OUT,) if f in START_FIELDS else ()))}
    for f in range(SIZE)
)
"""FORWARD[f][b]: the fields a stone on f with back b may step to (the step rule of Part 0). Only
the backs a stone on f can actually have are keys."""


def out_stub(field: int, length: int = 60) -> tuple[int, int]:
    """Where a start field's OUT stub ends when drawn: `length` units away from the centre."""
    x, y = POSITIONS[field]
    cx = cy = CANVAS // 2
    dx, dy = x - cx, y - cy
    dist = isqrt(dx * dx + dy * dy) or 1
    return x + dx * length // dist, y + dy * length // dist

