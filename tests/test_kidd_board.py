"""The Kidd board as data, its load-time checks, and the shared stepping, walking, repetition and
notation modules (docs/rules/kidd.md Part 0)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines
from engines.kidd import board as kb
from engines.kidd.board import EDGES, FIELDS, FORWARD, NEIGHBOURS, OUT, POSITIONS, START_FIELDS
from engines.kidd.notation import cell_text, parse_action, parse_position
from engines.kidd.repetition import History, position_link
from engines.kidd.walks import EMPTY_BOARD, from_behind, occupancy, set_cells, walk_fault, walks

SPEC_TABLE = {  # docs/rules/kidd.md, "The board (data)"
    1: ((7, 8), 500, 60), 2: ((8, 9), 881, 280), 3: ((9, 10), 881, 720), 4: ((10, 11), 500, 940),
    5: ((11, 12), 119, 720), 6: ((7, 12), 119, 280), 7: ((1, 6, 13), 350, 240), 8: ((1, 2, 14), 650, 240),
    9: ((2, 3, 15), 800, 500), 10: ((3, 4, 16), 650, 760), 11: ((4, 5, 17), 350, 760),
    12: ((5, 6, 18), 200, 500), 13: ((7, 14, 18), 420, 361), 14: ((8, 13, 15), 580, 361),
    15: ((9, 14, 16), 660, 500), 16: ((10, 15, 17), 580, 639), 17: ((11, 16, 18), 420, 639),
    18: ((12, 13, 17), 340, 500),
}


def test_board_matches_the_spec_table():
    assert tuple(range(1, 19)) == FIELDS
    for f, (neighbours, x, y) in SPEC_TABLE.items():
        assert NEIGHBOURS[f] == tuple(sorted(neighbours)), f
        assert POSITIONS[f] == (x, y), f
    assert START_FIELDS == (1, 2, 3, 4, 5, 6)  # derived from the OUT entries
    assert len(EDGES) == 24
    assert sum(len(NEIGHBOURS[f]) == 3 for f in FIELDS) == 12
    assert sum(len(NEIGHBOURS[f]) == 2 for f in FIELDS) == 6


def test_board_has_the_symmetry_of_a_hexagon():
    def rotate(f: int) -> int:  # one sixth of a turn: each ring shifts by one
        base = (f - 1) // 6 * 6
        return base + (f - base) % 6 + 1

    def mirror(f: int) -> int:  # the mirror through field 1 (start 1 <-> 1, 2 <-> 6, 7 <-> 8, ...)
        ring = (f - 1) // 6
        k = (f - 1) % 6
        return ring * 6 + {0: (-k) % 6, 1: (1 - k) % 6, 2: (1 - k) % 6}[ring] + 1

    for perm in (rotate, mirror):
        assert sorted(perm(f) for f in FIELDS) == list(FIELDS)
        assert {tuple(sorted((perm(f), perm(g)))) for f, g in EDGES} == set(EDGES)
        assert {perm(s) for s in START_FIELDS} == set(START_FIELDS)


def test_shortest_cycle_has_five_fields():
    # Quedah Merchant relies on it: a walk of at most 3 steps never revisits a field
    for n in range(1, 5):
        for f in FIELDS:
            for b in FORWARD[f]:
                for _, _, text in _all_walks(f, b, n):
                    path = [f, *map(int, text.split()[2:])]
                    assert len(set(path)) == len(path), text


def _all_walks(origin: int, back: int, steps: int) -> list[tuple[int, int, str]]:
    board = set_cells(EMPTY_BOARD, {origin: (back, 0)})
    return walks(board, occupancy(board), origin, steps)


def test_drawing_positions_and_out_stubs():
    for f in FIELDS:
        x, y = POSITIONS[f]
        assert 0 <= x <= 1000 and 0 <= y <= 1000
    for s in START_FIELDS:
        x, y = POSITIONS[s]
        sx, sy = kb.out_stub(s)
        assert (sx - 500) ** 2 + (sy - 500) ** 2 > (x - 500) ** 2 + (y - 500) ** 2  # away from the centre


def _table():
    return {f: ((*n, OUT) if len(n) == 2 else n, x, y) for f, (n, x, y) in SPEC_TABLE.items()}


def test_load_time_checks():
    kb.check(_table())
    with pytest.raises(ValueError, match="not symmetric"):
        kb.check({**_table(), 13: ((7, 14, 17), 420, 361)})
    with pytest.raises(ValueError, match="exits"):
        kb.check({**_table(), 1: ((7, 8), 500, 60)})
    with pytest.raises(ValueError, match="exits"):
        kb.check({**_table(), 7: ((1, 6, 13, OUT), 350, 240)})
    disconnected = {
        1: ((2, 3, OUT), 0, 0), 2: ((1, 3, OUT), 0, 0), 3: ((1, 2, OUT), 0, 0),
        4: ((5, 6, OUT), 0, 0), 5: ((4, 6, OUT), 0, 0), 6: ((4, 5, OUT), 0, 0),
    }
    with pytest.raises(ValueError, match="not connected"):
        kb.check(disconnected)
    with pytest.raises(ValueError, match="not a field"):
        kb.check({**_table(), 18: ((12, 13, 19), 340, 500)})
    with pytest.raises(ValueError, match="numbered 1..N"):
        kb.check({f + 1: v for f, v in _table().items()})
    with pytest.raises(ValueError, match="no field has an OUT"):
        kb.check({1: ((2, 3, 4), 0, 0), 2: ((1, 3, 4), 0, 0), 3: ((1, 2, 4), 0, 0), 4: ((1, 2, 3), 0, 0)})
    with pytest.raises(ValueError, match="off the"):
        kb.check({**_table(), 1: ((7, 8, OUT), 500, 1060)})


def test_steps_follow_the_back():
    assert FORWARD[1][OUT] == (7, 8)  # freshly entered: two steps
    assert FORWARD[1][7] == (8,)  # came from the board: one step, it may not leave
    assert FORWARD[13][7] == (14, 18)
    assert OUT not in FORWARD[7]  # only start fields have a back of OUT
    for f in FIELDS:
        for b, dests in FORWARD[f].items():
            assert b not in dests and OUT not in dests
            assert len(dests) == (1 if f in START_FIELDS and b != OUT else 2)


def test_from_behind():
    assert from_behind((7, 1), 7) and not from_behind((7, 1), 14)
    assert from_behind((7, 0, 1), 7)  # a stack's back is its top stone's
    assert not from_behind((OUT, 1), OUT)  # OUT-backed stones can never be taken from behind


def test_walks_on_the_empty_board():
    assert sorted(t for _, _, t in _all_walks(1, OUT, 2)) == ["move 1 7 13", "move 1 7 6", "move 1 8 14", "move 1 8 2"]
    assert len(_all_walks(1, OUT, 5)) == 22  # MG-5's count
    ends_home = sorted(t for _, final, t in _all_walks(1, OUT, 5) if final == 1)
    assert ends_home == ["move 1 7 13 14 8 1", "move 1 8 14 13 7 1"]  # the origin is empty once left (D5)


def _naive_walks(board, origin, steps):
    """The rule straight from the spec, by brute force, to check the table-driven search."""
    seat = board[origin][-1]
    out = []

    def go(field, came, path):
        if len(path) == steps:
            final = path[-1]
            target = None if final == origin else board[final]
            if target is None or (target[-1] != seat and target[0] == came):
                out.append(" ".join(["move", str(origin), *map(str, path)]))
            return
        for nxt in NEIGHBOURS[field]:
            if nxt == came:
                continue
            if len(path) + 1 < steps and nxt != origin and board[nxt] is not None:
                continue
            go(nxt, field, [*path, nxt])

    go(origin, board[origin][0], [])
    return sorted(out)


def test_a_walk_may_not_end_on_an_occupied_field_it_crossed_before():
    board = set_cells(EMPTY_BOARD, {18: (12, 0, 1, 0, 1, 0, 0), 13: (7, 1)})
    found = sorted(t for _, _, t in walks(board, occupancy(board), 18, 6))
    assert found == _naive_walks(board, 18, 6)
    assert "move 18 13 14 8 1 7 13" not in found  # 13 is entered twice and is occupied
    taller = set_cells(EMPTY_BOARD, {18: (12, 1, 0, 1, 0, 1, 0, 0), 13: (7, 1)})
    found = [t for _, final, t in walks(taller, occupancy(taller), 18, 7) if final == 13]
    assert found == ["move 18 17 11 5 12 6 7 13"]  # from behind, not crossed before


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(1, 19), crowd=st.integers(0, 10))
def test_table_walks_agree_with_brute_force(seed, steps, crowd):
    rng = random.Random(seed)
    origin = rng.choice(FIELDS)
    back = rng.choice(list(FORWARD[origin]))
    cells = {origin: (back, 0)}
    for f in rng.sample([f for f in FIELDS if f != origin], crowd):
        cells[f] = (rng.choice(list(FORWARD[f])), rng.randint(0, 2))
    board = set_cells(EMPTY_BOARD, cells)
    found = walks(board, occupancy(board), origin, steps)
    assert sorted(t for _, _, t in found) == _naive_walks(board, origin, steps)
    assert sorted(walks(board, occupancy(board), origin, steps, texts=True)) == _naive_walks(board, origin, steps)
    for came, final, text in found:
        path = tuple(map(int, text.split()[2:]))
        assert walk_fault(board, origin, back, path) is None
        assert final == path[-1] and came == (path[-2] if steps > 1 else origin)


def test_walk_faults_name_the_rule():
    board = set_cells(EMPTY_BOARD, {13: (7, 0), 14: (15, 1)})
    assert "not a neighbour" in walk_fault(board, 13, 7, (16,))
    assert "backwards" in walk_fault(board, 13, 7, (7,))
    assert "occupied" in walk_fault(board, 13, 7, (14, 8))
    assert walk_fault(board, 13, 7, (18, 12, 5)) is None
    assert walk_fault(board, 13, 7, (14,)) is None  # the last field is the game's to judge


def test_repetition_history():
    h = History()
    h = h.record("a", 1)
    assert h.repeats == 1 and not h.drawn
    h = h.record("b", 1).record("a", 1)
    assert h.repeats == 2
    assert h.record("a", 1).drawn
    fresh = h.record("a", 2)  # new material: older positions can never recur
    assert fresh.repeats == 1 and fresh.seen == ("a",)


def test_repeats_are_counted_on_links_that_match_the_positions():
    board = set_cells(EMPTY_BOARD, {13: (7, 0), 14: (15, 1)})
    other = set_cells(EMPTY_BOARD, {13: (7, 0), 14: (15, 0)})
    h = History()
    for position in [(board, (1, 2), 0), (other, (1, 2), 0), (board, (1, 2), 1), (board, (1, 2), 0)]:
        h = h.record(position, 1)
        assert h.links == tuple(position_link(p) for p in h.seen)
        assert h.repeats == h.seen.count(position)
    assert h.repeats == 2
    # the links are derived: not compared, not shown, and a History made by hand (without them) still
    # counts its positions
    made = History(1, h.seen, h.repeats, h.chain)
    assert made == h and repr(made) == repr(h) and made.links == ()
    assert made.record((board, (1, 2), 0), 1).repeats == 3 == h.record((board, (1, 2), 0), 1).repeats
    assert made.record((other, (1, 2), 0), 1).repeats == 2


def test_action_and_position_notation():
    verbs = {"move": (2, -1), "pass": (0, 0), "enter": (1, 1)}
    assert parse_action("move 13 18 12", verbs) == ("move", (13, 18, 12))
    assert parse_action("pass", verbs) == ("pass", ())
    for bad in ("move 13", "move 013 18", "move 13 18 ", " pass", "pass 1", "enter 0", "enter OUT", "Enter 1"):
        with pytest.raises(engines.IllegalAction):
            parse_action(bad, verbs)
    cells = parse_position("S0: 1(OUT), 14(15). S1: 13(7)[1,0], 7(13)")
    assert cells == {1: (OUT, 0), 14: (15, 0), 13: (7, 1, 0), 7: (13, 1)}
    assert [cell_text(f, c) for f, c in sorted(cells.items())] == ["1(OUT)", "7(13)", "13(7)[1,0]", "14(15)"]
    with pytest.raises(ValueError, match="no owner"):
        parse_position("1(OUT)")
    with pytest.raises(ValueError, match="listed twice"):
        parse_position("S0: 1(OUT), 1(OUT)")


@pytest.mark.parametrize("game_id", ["loyal-captain", "quedah-merchant", "madagaskar"])
def test_views_carry_the_board(game_id):
    game = engines.get(game_id)
    view = game.view(game.start(2), None)
    json.dumps(view)
    assert [f["field"] for f in view["fields"]] == list(FIELDS)
    assert all({"x", "y", "neighbours", "start", "stones", "back", "height", "owner"} <= set(f) for f in view["fields"])
    assert view["board"]["start_fields"] == list(START_FIELDS)
    assert view["supply"] and view["to_move"] == 0


def test_arrange_rejects_impossible_positions():
    game = engines.get("madagaskar")
    with pytest.raises(ValueError, match="back of 13"):
        game.rules.arrange("S0: 13(1)")
    with pytest.raises(ValueError, match="only a start field"):
        game.rules.arrange("S0: 13(OUT)")
    with pytest.raises(ValueError, match="names a seat"):
        game.rules.arrange("S2: 13(7)")
