"""The 5 x 5 field: cell names, each colour's start and goal cells and its own "up" and "left" (D1,
D2), where a push lands, and which top cards stand in conflict (D3).

Cells are indexed 0..24 row by row as seat 0 sees the field (`r1c1` = 0, `r5c5` = 24). Since rows and
columns have one digit each, index order is also the plain string order of the cell names, so lists
built by walking the cells come out already sorted the way `legal()` must be.
"""

from __future__ import annotations

from engines.ebbeflut.cards import KEYS

SIZE = 5
CELLS = tuple(range(SIZE * SIZE))
NAMES = tuple(f"r{i // SIZE + 1}c{i % SIZE + 1}" for i in CELLS)
INDEX = {n: i for i, n in enumerate(NAMES)}

LEFT, UP = 0, 1
DIRS = ("left", "up")

#: where a push leaves the field: onto a border card / past the far edge (no point), or into a goal
OFF, HOME = -1, -2

#: start cells per colour, in string order (Ebbe r4c5 r5c4 r5c5, Flut r1c1 r1c2 r2c1)
START = (tuple(sorted((INDEX["r5c5"], INDEX["r5c4"], INDEX["r4c5"]))),
         tuple(sorted((INDEX["r1c1"], INDEX["r1c2"], INDEX["r2c1"]))))
#: a colour's goal cells are the other colour's start cells (D2)
GOAL = (START[1], START[0])

#: (row step, column step) of each colour's left and up: Ebbe looks from the bottom, Flut from the top
STEP = (((0, -1), (-1, 0)), ((0, 1), (1, 0)))


def _destination(colour: int, direction: int, cell: int) -> int:
    dr, dc = STEP[colour][direction]
    row, col = cell // SIZE + dr, cell % SIZE + dc
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        return OFF
    target = row * SIZE + col
    return HOME if target in GOAL[colour] else target


#: DEST[colour][direction][cell]: the cell a pushed top card lands on, or OFF / HOME
DEST = tuple(tuple(tuple(_destination(c, d, i) for i in CELLS) for d in (LEFT, UP)) for c in (0, 1))

#: conflict flags of a cell: a column conflict is fixed by a left push, a row conflict by an up push
COLUMN_BIT, ROW_BIT = 1, 2

ROWS = tuple(tuple(r * SIZE + c for c in range(SIZE)) for r in range(SIZE))
COLUMNS = tuple(tuple(r * SIZE + c for r in range(SIZE)) for c in range(SIZE))
_LINES = tuple((line, ROW_BIT) for line in ROWS) + tuple((line, COLUMN_BIT) for line in COLUMNS)

PUSH_TEXT = tuple((f"push {NAMES[i]} left", f"push {NAMES[i]} up") for i in CELLS)
PLACE_TEXT = tuple(f"place {NAMES[i]}" for i in CELLS)
PLACES = tuple(tuple(PLACE_TEXT[i] for i in START[c]) for c in (0, 1))

Tops = tuple[int, ...]
Pushes = tuple[tuple[str, ...], tuple[str, ...]]


def conflict_flags(tops: Tops) -> list[int]:
    """Per cell, which conflicts its top card is in. Only top cards take part, whatever lies between
    them. A line's cards are folded into key masks: a key seen twice is a shared letter or number of
    one colour, and every card holding such a key is in conflict (cards of one colour are unique).
    Unrolled over the five cells of a line because this runs after every placement and push."""
    flags = [0] * (SIZE * SIZE)
    keys = KEYS
    for (a, b, c, d, e), bit in _LINES:
        ka, kb, kc, kd, ke = keys[tops[a]], keys[tops[b]], keys[tops[c]], keys[tops[d]], keys[tops[e]]
        seen = ka | kb
        dup = ka & kb
        dup |= seen & kc
        seen |= kc
        dup |= seen & kd
        dup |= (seen | kd) & ke
        if dup:
            if ka & dup:
                flags[a] |= bit
            if kb & dup:
                flags[b] |= bit
            if kc & dup:
                flags[c] |= bit
            if kd & dup:
                flags[d] |= bit
            if ke & dup:
                flags[e] |= bit
    return flags


def pushes(tops: Tops) -> Pushes:
    """The push texts that fix a conflict, per colour of the card pushed, each list sorted."""
    out: tuple[list[str], list[str]] = ([], [])
    for i, f in enumerate(conflict_flags(tops)):
        if f:
            texts = PUSH_TEXT[i]
            own = out[tops[i] // 25]
            if f & COLUMN_BIT:
                own.append(texts[LEFT])
            if f & ROW_BIT:
                own.append(texts[UP])
    return tuple(out[0]), tuple(out[1])
