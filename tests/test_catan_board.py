"""Catan board geometry and numbering (docs/rules/catan.md, shared with catan-ck): the spec's tables, the
derived relations, the beginner board, and the random board built from public chance."""

from __future__ import annotations

from itertools import product

import pytest
from support.catanhelpers import G, moves, play

from engines.catan import board as B
from engines.catan.cards import HARBOUR_TYPES, TERRAINS
from engines.catan.state import HARBOUR, SETUP_SETTLE, SPIRAL, TERRAIN
from engines.contract import Chance

# docs/rules/catan.md, hex table: hex, (q, r), centre, corners, sides, neighbours, beginner terrain, number
SPEC_HEXES = [
    (0, (0, -2), (-2, -6), (0, 4, 8, 12, 7, 3), (1, 7, 12, 11, 6, 0), (1, 3, 4), 'mountains', 10),
    (1, (1, -2), (0, -6), (1, 5, 9, 13, 8, 4), (3, 8, 14, 13, 7, 2), (0, 2, 4, 5), 'pasture', 2),
    (2, (2, -2), (2, -6), (2, 6, 10, 14, 9, 5), (5, 9, 16, 15, 8, 4), (1, 5, 6), 'forest', 9),
    (3, (-1, -1), (-3, -3), (7, 12, 17, 22, 16, 11), (11, 19, 25, 24, 18, 10), (0, 4, 7, 8), 'fields', 12),
    (4, (0, -1), (-1, -3), (8, 13, 18, 23, 17, 12), (13, 20, 27, 26, 19, 12), (0, 1, 3, 5, 8, 9), 'hills', 6),
    (5, (1, -1), (1, -3), (9, 14, 19, 24, 18, 13), (15, 21, 29, 28, 20, 14), (1, 2, 4, 6, 9, 10), 'pasture', 4),
    (6, (2, -1), (3, -3), (10, 15, 20, 25, 19, 14), (17, 22, 31, 30, 21, 16), (2, 5, 10, 11), 'hills', 10),
    (7, (-2, 0), (-4, 0), (16, 22, 28, 33, 27, 21), (24, 34, 40, 39, 33, 23), (3, 8, 12), 'fields', 9),
    (8, (-1, 0), (-2, 0), (17, 23, 29, 34, 28, 22), (26, 35, 42, 41, 34, 25), (3, 4, 7, 9, 12, 13), 'forest', 11),
    (9, (0, 0), (0, 0), (18, 24, 30, 35, 29, 23), (28, 36, 44, 43, 35, 27), (4, 5, 8, 10, 13, 14), 'desert', 0),
    (10, (1, 0), (2, 0), (19, 25, 31, 36, 30, 24), (30, 37, 46, 45, 36, 29), (5, 6, 9, 11, 14, 15), 'forest', 3),
    (11, (2, 0), (4, 0), (20, 26, 32, 37, 31, 25), (32, 38, 48, 47, 37, 31), (6, 10, 15), 'mountains', 8),
    (12, (-2, 1), (-3, 3), (28, 34, 39, 43, 38, 33), (41, 50, 55, 54, 49, 40), (7, 8, 13, 16), 'forest', 8),
    (13, (-1, 1), (-1, 3), (29, 35, 40, 44, 39, 34), (43, 51, 57, 56, 50, 42), (8, 9, 12, 14, 16, 17), 'mountains', 3),
    (14, (0, 1), (1, 3), (30, 36, 41, 45, 40, 35), (45, 52, 59, 58, 51, 44), (9, 10, 13, 15, 17, 18), 'fields', 4),
    (15, (1, 1), (3, 3), (31, 37, 42, 46, 41, 36), (47, 53, 61, 60, 52, 46), (10, 11, 14, 18), 'pasture', 5),
    (16, (-2, 2), (-2, 6), (39, 44, 48, 51, 47, 43), (56, 63, 67, 66, 62, 55), (12, 13, 17), 'hills', 5),
    (17, (-1, 2), (0, 6), (40, 45, 49, 52, 48, 44), (58, 64, 69, 68, 63, 57), (13, 14, 16, 18), 'fields', 6),
    (18, (0, 2), (2, 6), (41, 46, 50, 53, 49, 45), (60, 65, 71, 70, 64, 59), (14, 15, 17), 'pasture', 11),
]
# docs/rules/catan.md, node table: node, (X, Y), hexes, neighbour nodes, edges
SPEC_NODES = [
    (0, (-2, -8), (0,), (3, 4), (0, 1)),
    (1, (0, -8), (1,), (4, 5), (2, 3)),
    (2, (2, -8), (2,), (5, 6), (4, 5)),
    (3, (-3, -7), (0,), (0, 7), (0, 6)),
    (4, (-1, -7), (0, 1), (0, 1, 8), (1, 2, 7)),
    (5, (1, -7), (1, 2), (1, 2, 9), (3, 4, 8)),
    (6, (3, -7), (2,), (2, 10), (5, 9)),
    (7, (-3, -5), (0, 3), (3, 11, 12), (6, 10, 11)),
    (8, (-1, -5), (0, 1, 4), (4, 12, 13), (7, 12, 13)),
    (9, (1, -5), (1, 2, 5), (5, 13, 14), (8, 14, 15)),
    (10, (3, -5), (2, 6), (6, 14, 15), (9, 16, 17)),
    (11, (-4, -4), (3,), (7, 16), (10, 18)),
    (12, (-2, -4), (0, 3, 4), (7, 8, 17), (11, 12, 19)),
    (13, (0, -4), (1, 4, 5), (8, 9, 18), (13, 14, 20)),
    (14, (2, -4), (2, 5, 6), (9, 10, 19), (15, 16, 21)),
    (15, (4, -4), (6,), (10, 20), (17, 22)),
    (16, (-4, -2), (3, 7), (11, 21, 22), (18, 23, 24)),
    (17, (-2, -2), (3, 4, 8), (12, 22, 23), (19, 25, 26)),
    (18, (0, -2), (4, 5, 9), (13, 23, 24), (20, 27, 28)),
    (19, (2, -2), (5, 6, 10), (14, 24, 25), (21, 29, 30)),
    (20, (4, -2), (6, 11), (15, 25, 26), (22, 31, 32)),
    (21, (-5, -1), (7,), (16, 27), (23, 33)),
    (22, (-3, -1), (3, 7, 8), (16, 17, 28), (24, 25, 34)),
    (23, (-1, -1), (4, 8, 9), (17, 18, 29), (26, 27, 35)),
    (24, (1, -1), (5, 9, 10), (18, 19, 30), (28, 29, 36)),
    (25, (3, -1), (6, 10, 11), (19, 20, 31), (30, 31, 37)),
    (26, (5, -1), (11,), (20, 32), (32, 38)),
    (27, (-5, 1), (7,), (21, 33), (33, 39)),
    (28, (-3, 1), (7, 8, 12), (22, 33, 34), (34, 40, 41)),
    (29, (-1, 1), (8, 9, 13), (23, 34, 35), (35, 42, 43)),
    (30, (1, 1), (9, 10, 14), (24, 35, 36), (36, 44, 45)),
    (31, (3, 1), (10, 11, 15), (25, 36, 37), (37, 46, 47)),
    (32, (5, 1), (11,), (26, 37), (38, 48)),
    (33, (-4, 2), (7, 12), (27, 28, 38), (39, 40, 49)),
    (34, (-2, 2), (8, 12, 13), (28, 29, 39), (41, 42, 50)),
    (35, (0, 2), (9, 13, 14), (29, 30, 40), (43, 44, 51)),
    (36, (2, 2), (10, 14, 15), (30, 31, 41), (45, 46, 52)),
    (37, (4, 2), (11, 15), (31, 32, 42), (47, 48, 53)),
    (38, (-4, 4), (12,), (33, 43), (49, 54)),
    (39, (-2, 4), (12, 13, 16), (34, 43, 44), (50, 55, 56)),
    (40, (0, 4), (13, 14, 17), (35, 44, 45), (51, 57, 58)),
    (41, (2, 4), (14, 15, 18), (36, 45, 46), (52, 59, 60)),
    (42, (4, 4), (15,), (37, 46), (53, 61)),
    (43, (-3, 5), (12, 16), (38, 39, 47), (54, 55, 62)),
    (44, (-1, 5), (13, 16, 17), (39, 40, 48), (56, 57, 63)),
    (45, (1, 5), (14, 17, 18), (40, 41, 49), (58, 59, 64)),
    (46, (3, 5), (15, 18), (41, 42, 50), (60, 61, 65)),
    (47, (-3, 7), (16,), (43, 51), (62, 66)),
    (48, (-1, 7), (16, 17), (44, 51, 52), (63, 67, 68)),
    (49, (1, 7), (17, 18), (45, 52, 53), (64, 69, 70)),
    (50, (3, 7), (18,), (46, 53), (65, 71)),
    (51, (-2, 8), (16,), (47, 48), (66, 67)),
    (52, (0, 8), (17,), (48, 49), (68, 69)),
    (53, (2, 8), (18,), (49, 50), (70, 71)),
]
# docs/rules/catan.md, edge table: edge -> (a, b)
SPEC_EDGES = {
    0: (0, 3), 1: (0, 4), 2: (1, 4), 3: (1, 5), 4: (2, 5), 5: (2, 6), 6: (3, 7), 7: (4, 8), 8: (5, 9), 9: (6, 10),
    10: (7, 11), 11: (7, 12), 12: (8, 12), 13: (8, 13), 14: (9, 13), 15: (9, 14), 16: (10, 14), 17: (10, 15),
    18: (11, 16), 19: (12, 17), 20: (13, 18), 21: (14, 19), 22: (15, 20), 23: (16, 21), 24: (16, 22), 25: (17, 22),
    26: (17, 23), 27: (18, 23), 28: (18, 24), 29: (19, 24), 30: (19, 25), 31: (20, 25), 32: (20, 26), 33: (21, 27),
    34: (22, 28), 35: (23, 29), 36: (24, 30), 37: (25, 31), 38: (26, 32), 39: (27, 33), 40: (28, 33), 41: (28, 34),
    42: (29, 34), 43: (29, 35), 44: (30, 35), 45: (30, 36), 46: (31, 36), 47: (31, 37), 48: (32, 37), 49: (33, 38),
    50: (34, 39), 51: (35, 40), 52: (36, 41), 53: (37, 42), 54: (38, 43), 55: (39, 43), 56: (39, 44), 57: (40, 44),
    58: (40, 45), 59: (41, 45), 60: (41, 46), 61: (42, 46), 62: (43, 47), 63: (44, 48), 64: (45, 49), 65: (46, 50),
    66: (47, 51), 67: (48, 51), 68: (48, 52), 69: (49, 52), 70: (49, 53), 71: (50, 53),
}


def test_counts():
    assert len(B.HEXES) == 19 and len(B.NODE_XY) == 54 and len(B.EDGES) == 72 and len(B.COASTAL) == 30
    assert sum(len(e) == 2 for e in B.EDGE_HEXES) == 42


def test_hex_table():
    for h, qr, centre, corners, sides, neighbours, terrain, number in SPEC_HEXES:
        assert B.HEXES[h] == qr
        assert B.hex_centre(h) == centre
        assert B.HEX_NODES[h] == corners
        assert B.HEX_SIDES[h] == sides
        assert B.HEX_NEIGHBOURS[h] == neighbours
        assert TERRAINS[B.BEGINNER.terrain[h]] == terrain
        assert B.BEGINNER.numbers[h] == number


def test_node_table():
    for n, xy, hexes, neighbours, edges in SPEC_NODES:
        assert B.NODE_XY[n] == xy
        assert B.NODE_HEXES[n] == hexes
        assert B.NODE_NEIGHBOURS[n] == neighbours
        assert B.NODE_EDGES[n] == edges


def test_edge_table():
    assert dict(enumerate(B.EDGES)) == SPEC_EDGES
    for e, (a, b) in enumerate(B.EDGES):
        assert a < b and B.edge_of(b, a) == e


def test_relations_are_symmetric():
    for h in range(19):
        for k in B.HEX_NEIGHBOURS[h]:
            assert h in B.HEX_NEIGHBOURS[k]
            assert len(set(B.HEX_NODES[h]) & set(B.HEX_NODES[k])) == 2  # neighbours share a side
    for n in range(54):
        assert 2 <= len(B.NODE_NEIGHBOURS[n]) <= 3 and 1 <= len(B.NODE_HEXES[n]) <= 3
        for m in B.NODE_NEIGHBOURS[n]:
            assert n in B.NODE_NEIGHBOURS[m]
        for h in B.NODE_HEXES[n]:
            assert n in B.HEX_NODES[h]
    for e in range(72):
        for h in B.EDGE_HEXES[e]:
            assert e in B.HEX_SIDES[h]


def test_masks_agree_with_the_tables():
    for n in range(54):
        assert B.bits(B.NODE_EDGE_MASK[n]) == list(B.NODE_EDGES[n])
        assert B.bits(B.NODE_CLOSED[n]) == sorted((n, *B.NODE_NEIGHBOURS[n]))
    assert B.blocked_nodes(1 << 12) == B.NODE_CLOSED[12]
    assert B.road_nodes((1 << 19) | (1 << 25)) == (1 << 12) | (1 << 17) | (1 << 22)


def test_harbours_serve_coastal_edges_facing_their_sea_hex():
    assert len(B.HARBOUR_EDGES) == 9
    for j, e in enumerate(B.HARBOUR_EDGES):
        assert e in B.COASTAL
        q, r = B.HARBOUR_SEA[j]
        assert max(abs(q), abs(r), abs(q + r)) == 3  # on the sea ring
        (land,) = B.EDGE_HEXES[e]
        lq, lr = B.HEXES[land]
        assert (q - lq, r - lr) in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
    assert B.HARBOUR_NODES == ((0, 3), (1, 5), (10, 15), (26, 32), (42, 46), (49, 52), (47, 51), (33, 38), (11, 16))
    assert [HARBOUR_TYPES[t] for t in B.BEGINNER.harbours] == [
        "3:1", "grain", "ore", "3:1", "wool", "3:1", "3:1", "brick", "lumber"]


def test_beginner_start_view():
    state = G.start(4)
    view = G.view(state, None)
    assert view["robber"] == 9 and view["step"] == "setup-settle" and view["to_act"] == 0
    assert view["hexes"][9] == {"hex": 9, "terrain": "desert", "number": None}
    assert view["hexes"][0] == {"hex": 0, "terrain": "mountains", "number": 10}
    assert view["harbours"][2] == {"position": 2, "type": "ore", "edge": 17, "nodes": [10, 15]}
    assert view["bank"] == [19] * 5 and view["deck"] == 25 and view["turn"] == 0 and view["round"] == 0


# ----------------------------------------------------------------------------- random board


def test_random_board_from_public_chance_picks():
    state = G.start(3, {"board": "random"})
    assert state.inner.step == TERRAIN
    for i in range(18):
        waiting = G.awaiting(state)
        assert waiting.kind == "chance" and waiting.chance == Chance("pick", n=19 - i, label=f"terrain of h{i}")
        assert waiting.chance.private_to is None
        state = G.chance(state, 0)
    # always the first tile in canonical order: hills ×3, forest ×4, pasture ×4, fields ×4, mountains ×3, desert
    assert state.inner.step == SPIRAL
    terrain = state.inner.layout.terrain
    assert [TERRAINS[t] for t in terrain] == ["hills"] * 3 + ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + [
        "mountains"] * 3 + ["desert"]
    assert G.awaiting(state).chance.n == 6
    state = G.chance(state, 2)  # start corner h7
    assert state.inner.step == HARBOUR
    numbers = state.inner.layout.numbers
    assert numbers[7] == 5 and numbers[12] == 2 and numbers[16] == 6  # the spiral from h7, counter-clockwise
    assert numbers[18] == 0  # the desert is skipped
    assert sorted(x for x in numbers if x) == sorted(B.SPIRAL_TOKENS)
    for j in range(8):
        assert G.awaiting(state).chance.n == 9 - j
        state = G.chance(state, 8 - j)  # always the last type left
    s = state.inner
    assert s.step == SETUP_SETTLE and s.robber == 18
    assert [HARBOUR_TYPES[t] for t in s.layout.harbours] == ["ore", "grain", "wool", "lumber", "brick", "3:1", "3:1",
                                                             "3:1", "3:1"]
    assert len(moves(state, 0)) == 54
    view = G.view(state, None)
    assert view["hexes"][18]["terrain"] == "desert" and view["robber"] == 18


def test_spiral_never_puts_6_and_8_side_by_side():
    hot = (6, 8)
    for corner, desert in product(B.SPIRAL_CORNERS, range(19)):
        terrain = [0] * 19
        terrain[desert] = 5
        numbers = B.spiral_numbers(tuple(terrain), corner)
        assert numbers[desert] == 0
        for h in range(19):
            if numbers[h] in hot:
                assert not [k for k in B.HEX_NEIGHBOURS[h] if numbers[k] in hot], (corner, desert, h)


@pytest.mark.parametrize("corner", B.SPIRAL_CORNERS)
def test_spiral_paths_visit_every_hex_once(corner):
    path = B.spiral_path(corner)
    assert sorted(path) == list(range(19)) and path[0] == corner and path[-1] == 9
    for a, b in zip(path[:12], path[1:12], strict=False):
        assert b in B.HEX_NEIGHBOURS[a]


def test_random_board_game_plays_on():
    state = G.start(4, {"board": "random"})
    while G.awaiting(state).kind == "chance":
        state = G.chance(state, 1)
    state = play(state, 0, moves(state, 0)[0])
    assert state.inner.step == "setup-road"
