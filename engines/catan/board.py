"""The island's geometry and numbering (docs/rules/catan.md, "Board geometry and numbering"), shared with
Cities & Knights: 19 hexes, 54 nodes, 72 edges, the 9 harbour positions, the beginner layout and the
spiral of the variable set-up.

Everything here is generated once at import from the spec's three-line rule and frozen into tuples
indexed by number, plus bit masks (a node set is an int with bit n for node n, an edge set an int with
bit e for edge e). The rules work on those masks because a union, an intersection or a membership
test is then one integer operation, which keeps `legal()` cheap on the hot path of self-play.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = [
    "BEGINNER",
    "COASTAL",
    "EDGE_BIT",
    "EDGE_HEXES",
    "EDGE_NODE_MASK",
    "EDGE_NODES",
    "EDGES",
    "HARBOUR_EDGES",
    "HARBOUR_NODE_MASK",
    "HARBOUR_NODES",
    "HARBOUR_SEA",
    "HEX_NEIGHBOURS",
    "HEX_NODE_MASK",
    "HEX_NODES",
    "HEX_SIDES",
    "HEXES",
    "NODE_BIT",
    "NODE_CLOSED",
    "NODE_EDGE_MASK",
    "NODE_EDGES",
    "NODE_HEXES",
    "NODE_NEIGHBOURS",
    "NODE_XY",
    "SPIRAL_CORNERS",
    "SPIRAL_TOKENS",
    "Layout",
    "bits",
    "blocked_nodes",
    "edge_of",
    "hex_centre",
    "road_nodes",
    "spiral_numbers",
    "spiral_path",
]

# ------------------------------------------------------------------------------------- hexes

#: axial (q, r) per hex number, in reading order (by r, then q)
HEXES: tuple[tuple[int, int], ...] = tuple((q, r) for r in range(-2, 3) for q in range(-2, 3) if -2 <= q + r <= 2)
_HEX_INDEX = {qr: i for i, qr in enumerate(HEXES)}
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))  # top, UR, LR, bottom, LL, UL


def hex_centre(h: int) -> tuple[int, int]:
    """The drawing centre (X, Y) = (2q + r, 3r) of hex `h`."""
    q, r = HEXES[h]
    return 2 * q + r, 3 * r


def _corners(h: int) -> list[tuple[int, int]]:
    x, y = hex_centre(h)
    return [(x + dx, y + dy) for dx, dy in _CORNER_OFFSETS]


# ------------------------------------------------------------------------------------- nodes

#: drawing coordinates (X, Y) per node number, in reading order (by Y, then X)
NODE_XY: tuple[tuple[int, int], ...] = tuple(sorted({c for h in range(19) for c in _corners(h)},
                                                    key=lambda p: (p[1], p[0])))
_NODE_INDEX = {xy: n for n, xy in enumerate(NODE_XY)}

#: the six corner nodes of each hex: top, upper-right, lower-right, bottom, lower-left, upper-left
HEX_NODES: tuple[tuple[int, ...], ...] = tuple(tuple(_NODE_INDEX[c] for c in _corners(h)) for h in range(19))

# ------------------------------------------------------------------------------------- edges

#: (a, b) with a < b per edge number, in lexicographic order
EDGES: tuple[tuple[int, int], ...] = tuple(sorted({(min(a, b), max(a, b))
                                                   for corners in HEX_NODES
                                                   for a, b in zip(corners, corners[1:] + corners[:1], strict=True)}))
_EDGE_INDEX = {ab: e for e, ab in enumerate(EDGES)}
EDGE_NODES = EDGES


def edge_of(a: int, b: int) -> int:
    """The edge joining nodes a and b (KeyError if they are not adjacent)."""
    return _EDGE_INDEX[(min(a, b), max(a, b))]


#: the sides of each hex NE, E, SE, SW, W, NW (side i joins corner i and corner i + 1)
HEX_SIDES: tuple[tuple[int, ...], ...] = tuple(
    tuple(edge_of(c[i], c[(i + 1) % 6]) for i in range(6)) for c in HEX_NODES)

HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(_HEX_INDEX[(q + dq, r + dr)] for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
                 if (q + dq, r + dr) in _HEX_INDEX))
    for q, r in HEXES)

NODE_HEXES: tuple[tuple[int, ...], ...] = tuple(tuple(h for h in range(19) if n in HEX_NODES[h]) for n in range(54))
NODE_EDGES: tuple[tuple[int, ...], ...] = tuple(tuple(e for e, ab in enumerate(EDGES) if n in ab) for n in range(54))
NODE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(EDGES[e][0] + EDGES[e][1] - n for e in NODE_EDGES[n])) for n in range(54))
EDGE_HEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(19) if a in HEX_NODES[h] and b in HEX_NODES[h]) for a, b in EDGES)
#: edges bordering exactly one land hex
COASTAL: tuple[int, ...] = tuple(e for e in range(72) if len(EDGE_HEXES[e]) == 1)

# ------------------------------------------------------------------------------------- masks

NODE_BIT: tuple[int, ...] = tuple(1 << n for n in range(54))
EDGE_BIT: tuple[int, ...] = tuple(1 << e for e in range(72))
#: a node and its neighbours: the nodes a building on n forbids for any other building (distance rule)
NODE_CLOSED: tuple[int, ...] = tuple(NODE_BIT[n] | sum(NODE_BIT[m] for m in NODE_NEIGHBOURS[n]) for n in range(54))
NODE_EDGE_MASK: tuple[int, ...] = tuple(sum(EDGE_BIT[e] for e in NODE_EDGES[n]) for n in range(54))
EDGE_NODE_MASK: tuple[int, ...] = tuple(NODE_BIT[a] | NODE_BIT[b] for a, b in EDGES)
HEX_NODE_MASK: tuple[int, ...] = tuple(sum(NODE_BIT[n] for n in HEX_NODES[h]) for h in range(19))


def bits(mask: int) -> list[int]:
    """The set bit positions of `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@lru_cache(maxsize=65536)
def road_nodes(roads: int) -> int:
    """The node mask of every end of the edges in `roads` (a pure function, memoised)."""
    mask = 0
    for e in bits(roads):
        mask |= EDGE_NODE_MASK[e]
    return mask


@lru_cache(maxsize=65536)
def blocked_nodes(occupied: int) -> int:
    """Nodes where the distance rule forbids a new building, given the occupied node mask."""
    mask = 0
    for n in bits(occupied):
        mask |= NODE_CLOSED[n]
    return mask


# ------------------------------------------------------------------------------------- harbours

#: sea hex (q, r), coastal edge and nodes of harbour positions P0..P8 (clockwise from the top left)
HARBOUR_SEA: tuple[tuple[int, int], ...] = ((0, -3), (2, -3), (3, -2), (3, 0), (1, 2), (-1, 3), (-3, 3), (-3, 1),
                                            (-2, -1))
HARBOUR_EDGES: tuple[int, ...] = (0, 3, 17, 38, 61, 69, 66, 49, 18)
HARBOUR_NODES: tuple[tuple[int, int], ...] = tuple(EDGES[e] for e in HARBOUR_EDGES)
HARBOUR_NODE_MASK: tuple[int, ...] = tuple(EDGE_NODE_MASK[e] for e in HARBOUR_EDGES)

# ------------------------------------------------------------------------------------- layouts

# terrain indices in canonical order (cards.TERRAINS): hills, forest, pasture, fields, mountains, desert
_H, _F, _P, _G, _M, _D = range(6)
# harbour type indices in canonical order (cards.HARBOUR_TYPES): 3:1, brick, lumber, wool, grain, ore
_ANY, _BRICK, _LUMBER, _WOOL, _GRAIN, _ORE = range(6)


class Layout(tuple):
    """The fixed part of a board: terrain index and number (0: none) per hex, harbour type per
    position. A plain tuple `(terrain, numbers, harbours)` so that it is a value and digests as one."""

    __slots__ = ()

    def __new__(cls, terrain: tuple[int, ...], numbers: tuple[int, ...], harbours: tuple[int, ...]) -> Layout:
        return tuple.__new__(cls, (terrain, numbers, harbours))

    @property
    def terrain(self) -> tuple[int, ...]:
        return self[0]

    @property
    def numbers(self) -> tuple[int, ...]:
        return self[1]

    @property
    def harbours(self) -> tuple[int, ...]:
        return self[2]

    def desert(self) -> int:
        return self[0].index(_D)


BEGINNER = Layout(
    terrain=(_M, _P, _F, _G, _H, _P, _H, _G, _F, _D, _F, _M, _F, _M, _G, _P, _H, _G, _P),
    numbers=(10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11),
    harbours=(_ANY, _GRAIN, _ORE, _ANY, _WOOL, _ANY, _ANY, _BRICK, _LUMBER),
)

#: the number tokens in the order the variable set-up lays them (letters A-R)
SPIRAL_TOKENS: tuple[int, ...] = (5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11)
#: the start corners the spiral chance picks from
SPIRAL_CORNERS: tuple[int, ...] = (0, 2, 7, 11, 16, 18)
_OUTER = (0, 3, 7, 12, 16, 17, 18, 15, 11, 6, 2, 1)  # counter-clockwise from h0
_INNER = (4, 8, 13, 14, 10, 5)
_INNER_START = {0: 4, 7: 8, 16: 13, 18: 14, 11: 10, 2: 5}


def spiral_path(corner: int) -> tuple[int, ...]:
    """All 19 hexes in the order the tokens are laid from start corner `corner` (a hex number)."""
    i = _OUTER.index(corner)
    j = _INNER.index(_INNER_START[corner])
    return _OUTER[i:] + _OUTER[:i] + _INNER[j:] + _INNER[:j] + (9,)


def spiral_numbers(terrain: tuple[int, ...], corner: int) -> tuple[int, ...]:
    """The number per hex when the tokens are laid along the spiral from `corner`, skipping the desert."""
    numbers = [0] * 19
    tokens = iter(SPIRAL_TOKENS)
    for h in spiral_path(corner):
        if terrain[h] != _D:
            numbers[h] = next(tokens)
    return tuple(numbers)
