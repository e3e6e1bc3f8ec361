"""Ebbe & Flut and its solo variant (docs/rules/ebbe-flut.md): the worked examples EF-1 .. EF-11, the
tricky cases around them, illegal texts, the view, and property tests of random and smart play."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from bots import make as make_bots
from bots.lib import RandomBot
from bots.selfplay import play_match
from engines.core import COMMON_ACTIONS, Chance
from engines.ebbeflut import cards as C
from engines.referee import replay_steps

game = engines.get("ebbe-flut")
solo = engines.get("ebbe-flut-solo")
DRAWS = ["draw 1", "draw 2", "draw 3", "draw 4", "draw 5"]


def acts(g, state, seat: int) -> list[str]:
    """legal() without the common actions."""
    return [a for a in g.legal(state, seat) if a not in COMMON_ACTIONS]


def pile(state, cell: str) -> list[str]:
    return [C.name(c) for c in state.inner.piles[int(cell[1]) * 5 + int(cell[3]) - 6]]


def illegal(g, state, seat: int, action: str, match: str) -> None:
    with pytest.raises(engines.IllegalAction, match=match) as info:
        g.play(state, seat, action)
    assert info.value.reason


def run(g, state, *steps):
    """Apply (seat, text) plays and bare int chance values in order."""
    for step in steps:
        state = g.chance(state, step) if isinstance(step, int) else g.play(state, *step)
    return state


def conflicts_from_view(view: dict) -> set[str]:
    """An independent pairwise reading of the conflict rule (D3) over the view's top cards."""
    tops = {(c["row"], c["col"]): c["top"] for c in view["cells"] if c["top"] is not None}
    out = set()
    for (r1, c1), a in tops.items():
        for (r2, c2), b in tops.items():
            if (r1, c1) == (r2, c2) or a["colour"] != b["colour"]:
                continue
            shares = a["face"][0] == b["face"][0] or a["face"][1] == b["face"][1]
            if shares and r1 == r2:
                out.add(f"push r{r1}c{c1} up")
            if shares and c1 == c2:
                out.add(f"push r{r1}c{c1} left")
    return out


def colour_conflicts(view: dict, colour: str) -> set[str]:
    tops = {c["cell"]: c["top"]["colour"] for c in view["cells"] if c["top"] is not None}
    return {p for p in conflicts_from_view(view) if tops[p.split()[1]] == colour}


# --------------------------------------------------------------------------------------------- data


def test_card_order_and_names():
    assert C.rank(C.parse("E:A1")) == 0 and C.rank(C.parse("F:E5")) == 24
    assert C.rank(C.parse("E:C2")) == 11 and C.rank(C.parse("F:B4")) == 8
    assert [C.name(c) for c in C.ALL[:6]] == ["E:A1", "E:A2", "E:A3", "E:A4", "E:A5", "E:B1"]
    assert C.name(30) == "F:B1"
    with pytest.raises(ValueError):
        C.parse("X:A1")


def test_start_state():
    state = game.start(2)
    assert state.inner.stacks == ((5,) * 5, (5,) * 5)
    assert game.awaiting(state) == engines.Awaiting("move", (0,))
    assert acts(game, state, 0) == DRAWS and acts(game, state, 1) == []
    s = solo.start(1)
    assert s.inner.stacks == ((10,) * 5,)
    assert acts(solo, s, 0) == DRAWS
    with pytest.raises(ValueError):
        solo.start(2)
    with pytest.raises(ValueError):
        game.start(1)


# --------------------------------------------------------------------------------------------- EF-1


def opening(v0: int, v1: int, cell0: str = "r5c4", cell1: str = "r1c1"):
    state = run(game, game.start(2), (0, "draw 2"), v0, (1, "draw 5"), v1)
    assert game.awaiting(state) == engines.Awaiting("simultaneous", (0, 1))
    return run(game, state, (0, f"place {cell0}"), (1, f"place {cell1}"))


def test_ef1_opening():
    state = run(game, game.start(2), (0, "draw 2"))
    assert game.awaiting(state).chance == Chance(kind="pick", n=25, label=game.awaiting(state).chance.label)
    assert game.awaiting(state).chance.private_to is None
    state = game.chance(state, 11)
    assert game.view(state, None)["held"] == ["E:C2", None]
    assert game.awaiting(state) == engines.Awaiting("move", (1,))
    assert acts(game, state, 1) == DRAWS
    state = run(game, state, (1, "draw 5"), 8)
    assert game.view(state, None)["held"] == ["E:C2", "F:B4"]
    assert game.awaiting(state) == engines.Awaiting("simultaneous", (0, 1))
    assert acts(game, state, 0) == ["place r4c5", "place r5c4", "place r5c5"]
    assert acts(game, state, 1) == ["place r1c1", "place r1c2", "place r2c1"]
    illegal(game, state, 0, "place r1c1", "own start cells")
    illegal(game, state, 1, "place r5c5", "own start cells")
    illegal(game, state, 0, "draw 1", "opening")
    state = game.play(state, 0, "place r5c4")
    assert game.awaiting(state) == engines.Awaiting("simultaneous", (1,))
    assert state.mid_step == (0,)
    assert game.legal(state, 1) == ["place r1c1", "place r1c2", "place r2c1"]  # no common actions mid-step
    state = game.play(state, 1, "place r1c1")
    assert game.awaiting(state) == engines.Awaiting("move", (1,))  # B4 (8) < C2 (11)
    assert state.inner.stacks == ((5, 4, 5, 5, 5), (5, 5, 5, 5, 4))
    assert pile(state, "r5c4") == ["E:C2"] and pile(state, "r1c1") == ["F:B4"]
    assert game.view(state, None)["first"] == 1
    assert acts(game, state, 1) == DRAWS


def test_ef1_tie_goes_to_seat_0_and_lower_card_starts():
    assert game.awaiting(opening(2, 2)).seats == (0,)  # A3 against A3
    assert game.awaiting(opening(3, 4)).seats == (0,)  # A4 < A5
    assert game.awaiting(opening(5, 4)).seats == (1,)  # F:A5 (4) < E:B1 (5)


def test_opening_places_apply_in_either_order():
    state = run(game, game.start(2), (0, "draw 1"), 0, (1, "draw 1"), 0)
    a = run(game, state, (0, "place r5c5"), (1, "place r2c1"))
    b = run(game, state, (1, "place r2c1"), (0, "place r5c5"))
    assert a.inner == b.inner


# --------------------------------------------------------------------------------------------- EF-2


def test_ef2_row_conflict_on_the_start_cells():
    state = game.rules.arrange({"r5c5": "E:A3", "r4c5": "E:B1"}, held="E:C3")
    assert acts(game, state, 0) == ["place r4c5", "place r5c4", "place r5c5"]
    illegal(game, state, 0, "push r5c5 up", "must be placed first")
    state = game.play(state, 0, "place r5c4")
    assert acts(game, state, 0) == ["push r5c4 up", "push r5c5 up"]
    illegal(game, state, 0, "end", "own conflict")
    one = game.play(state, 0, "push r5c4 up")
    assert pile(one, "r4c4") == ["E:C3"] and acts(game, one, 0) == ["end"]
    two = game.play(state, 0, "push r5c5 up")
    assert pile(two, "r4c5") == ["E:B1", "E:A3"] and acts(game, two, 0) == ["end"]


# --------------------------------------------------------------------------------------------- EF-3


def ef3():
    return game.rules.arrange({"r3c3": "F:B2 E:D4", "r3c1": "F:B5", "r1c3": "E:D1"}, drawn=True)


def test_ef3_a_push_uncovers_an_opponents_conflict():
    state = ef3()
    assert acts(game, state, 0) == ["push r1c3 left", "push r3c3 left"]
    assert state.inner.conflicts[1] == ()
    state = game.play(state, 0, "push r3c3 left")
    assert pile(state, "r3c2") == ["E:D4"] and pile(state, "r3c3") == ["F:B2"]
    assert acts(game, state, 0) == ["end"]
    assert state.inner.conflicts[1] == ("push r3c1 up", "push r3c3 up")
    state = game.play(state, 0, "end")
    assert game.awaiting(state).seats == (1,)
    assert acts(game, state, 1) == [*DRAWS, "push r3c1 up", "push r3c3 up"]
    illegal(game, state, 1, "end", "draw first")
    assert pile(game.play(state, 1, "push r3c1 up"), "r4c1") == ["F:B5"]
    assert pile(game.play(state, 1, "push r3c3 up"), "r4c3") == ["F:B2"]
    # push before the draw, then the draw is still due
    early = game.play(state, 1, "push r3c3 up")
    assert acts(game, early, 1) == DRAWS
    # or draw first (F:A1 -> r1c2 clashes with nothing in row 1 or column 2) and fix it afterwards
    late = run(game, state, (1, "draw 3"), 0, (1, "place r1c2"))
    assert acts(game, late, 1) == ["push r3c1 up", "push r3c3 up"]
    illegal(game, late, 1, "end", "own conflict")
    late = game.play(late, 1, "push r3c1 up")
    assert acts(game, late, 1) == ["end"]


def test_ef3_the_alternative_push_scores():
    state = game.play(ef3(), 0, "push r1c3 left")
    assert state.inner.home == ((C.parse("E:D1"),), ())
    assert game.view(state, None)["scores"] == [1, 0]
    assert pile(state, "r3c3") == ["F:B2", "E:D4"] and state.inner.conflicts == ((), ())


# --------------------------------------------------------------------------------------------- EF-4


def test_ef4_chain_of_pushes():
    state = game.rules.arrange({"r4c3": "E:B1", "r3c2": "E:D3", "r2c4": "E:A5"}, held="E:B3")
    state = game.play(state, 0, "place r4c5")
    assert acts(game, state, 0) == ["push r4c3 up", "push r4c5 up"]
    state = game.play(state, 0, "push r4c5 up")
    assert pile(state, "r3c5") == ["E:B3"]
    assert acts(game, state, 0) == ["push r3c2 up", "push r3c5 up"]
    state = game.play(state, 0, "push r3c5 up")
    assert pile(state, "r2c5") == ["E:B3"] and acts(game, state, 0) == ["end"]


# --------------------------------------------------------------------------------------------- EF-5 .. EF-7


@pytest.mark.parametrize(("piles", "push"), [
    ({"r2c2": "E:D2", "r2c5": "E:A2"}, "push r2c2 up"),
    ({"r3c1": "E:B4", "r3c4": "E:B1"}, "push r3c1 up"),
    ({"r1c3": "E:D1", "r4c3": "E:A1"}, "push r1c3 left"),
])
def test_ef5_pushes_into_the_goal(piles, push):
    state = game.rules.arrange(piles, drawn=True)
    assert push in acts(game, state, 0)
    after = game.play(state, 0, push)
    card = C.parse(piles[push.split()[1]])
    assert after.inner.home == ((card,), ()) and after.inner.lost == ((), ())
    assert all(card not in p for p in after.inner.piles)
    assert game.view(after, 0)["scores"] == [1, 0]


def test_ef6_off_the_field():
    state = game.rules.arrange({"r3c1": "E:C2", "r5c1": "E:C4"}, drawn=True)
    assert acts(game, state, 0) == ["push r3c1 left", "push r5c1 left"]
    after = game.play(state, 0, "push r3c1 left")
    assert after.inner.lost == ((C.parse("E:C2"),), ()) and after.inner.home == ((), ())
    assert game.play(state, 0, "push r5c1 left").inner.lost == ((C.parse("E:C4"),), ())
    row1 = game.rules.arrange({"r1c4": "E:A1", "r1c5": "E:E1"}, drawn=True)
    assert acts(game, row1, 0) == ["push r1c4 up", "push r1c5 up"]
    for push in acts(game, row1, 0):  # every fix of a row-1 conflict costs Ebbe a card
        assert len(game.play(row1, 0, push).inner.lost[0]) == 1


def test_ef7_fluts_mirrored_directions():
    state = game.rules.arrange({"r4c4": "F:C1", "r4c2": "F:C5"}, mover=1, drawn=True)
    assert acts(game, state, 1) == ["push r4c2 up", "push r4c4 up"]
    home = game.play(state, 1, "push r4c4 up")
    assert home.inner.home == ((), (C.parse("F:C1"),)) and game.view(home, 1)["scores"] == [0, 1]
    assert pile(game.play(state, 1, "push r4c2 up"), "r5c2") == ["F:C5"]
    column = game.rules.arrange({"r3c5": "F:E2", "r1c5": "F:A2"}, mover=1, drawn=True)
    assert acts(game, column, 1) == ["push r1c5 left", "push r3c5 left"]
    assert game.play(column, 1, "push r3c5 left").inner.lost == ((), (C.parse("F:E2"),))


# --------------------------------------------------------------------------------------------- EF-8


def test_ef8_covered_cards_do_not_count_until_uncovered():
    state = game.rules.arrange({"r4c4": "E:A3 F:D4", "r4c2": "E:C3", "r1c4": "F:D1"}, mover=1, drawn=True)
    assert state.inner.conflicts[0] == ()
    assert acts(game, state, 1) == ["push r1c4 left", "push r4c4 left"]
    state = game.play(state, 1, "push r4c4 left")  # F:D4 -> r4c5, a Flut goal
    assert state.inner.home == ((), (C.parse("F:D4"),))
    assert state.inner.conflicts[0] == ("push r4c2 up", "push r4c4 up")


def test_ef8_other_colours_do_not_count():
    state = game.rules.arrange({"r4c2": "E:C3", "r4c3": "F:C5"})
    assert state.inner.conflicts == ((), ())
    assert acts(game, state, 0) == DRAWS


# --------------------------------------------------------------------------------------------- EF-9


def test_ef9_the_draw_is_mandatory_and_end_needs_no_conflict():
    state = game.rules.arrange({"r3c3": "E:A1"})
    assert acts(game, state, 0) == DRAWS
    illegal(game, state, 0, "end", "draw first")
    state = game.play(state, 0, "draw 4")
    assert game.awaiting(state).kind == "chance" and game.awaiting(state).chance.n == 24
    assert acts(game, state, 0) == []
    state = game.chance(state, 23)  # E:E5, clashes with nothing
    illegal(game, state, 0, "end", "must be placed first")
    illegal(game, state, 0, "place r3c3", "start cells")
    state = game.play(state, 0, "place r5c5")
    assert acts(game, state, 0) == ["end"]
    illegal(game, state, 0, "draw 1", "already drawn")
    state = game.play(state, 0, "end")
    assert game.awaiting(state).seats == (1,) and acts(game, state, 1) == DRAWS


def test_placing_can_cover_an_own_conflict():
    state = game.rules.arrange({"r5c5": "E:A3", "r5c1": "E:A1"})
    assert acts(game, state, 0) == [*DRAWS, "push r5c1 up", "push r5c5 up"]
    state = run(game, state, (0, "draw 1"))
    pool = state.inner.pools[0]
    state = run(game, state, pool.index(C.parse("E:C2")), (0, "place r5c5"))
    assert pile(state, "r5c5") == ["E:A3", "E:C2"] and acts(game, state, 0) == ["end"]


def test_an_ebbe_card_pushed_onto_its_own_start_cell_just_stacks():
    state = game.rules.arrange({"r5c5": "E:A1", "r5c4": "E:C3", "r2c5": "E:B1"}, drawn=True)
    assert "push r5c5 left" in acts(game, state, 0)
    after = game.play(state, 0, "push r5c5 left")
    assert pile(after, "r5c4") == ["E:C3", "E:A1"] and after.inner.home == ((), ())


# --------------------------------------------------------------------------------------------- EF-10, D11


def ef10(home: tuple[str, str]):
    piles = {"r3c3": "E:B2 F:C1", "r3c1": "F:A1", "r3c4": "E:B5"}
    return game.rules.arrange(piles, mover=1, pools=("", ""), home=home)


def test_ef10_game_end():
    state = ef10(("E:D1 E:D2 E:D3 E:D4", "F:E1 F:E2 F:E3"))
    assert acts(game, state, 1) == ["push r3c1 up", "push r3c3 up"]  # nothing to draw
    state = game.play(state, 1, "push r3c3 up")
    assert acts(game, state, 1) == ["end"]
    state = game.play(state, 1, "end")
    assert game.result(state) is None and game.awaiting(state).seats == (0,)
    assert acts(game, state, 0) == ["push r3c3 up", "push r3c4 up"]
    state = game.play(state, 0, "push r3c4 up")
    assert pile(state, "r2c4") == ["E:B5"] and acts(game, state, 0) == ["end"]
    state = game.play(state, 0, "end")
    assert game.result(state) == engines.Result(winners=(0,), scores=(4, 3), reason="most-cards")
    assert game.awaiting(state).kind == "over" and game.legal(state, 0) == game.legal(state, 1) == []
    illegal(game, state, 1, "end", "over")


def test_ef10_equal_cards_is_a_draw():
    state = ef10(("E:D1 E:D2 E:D3", "F:E1 F:E2 F:E3"))
    state = run(game, state, (1, "push r3c3 up"), (1, "end"), (0, "push r3c3 up"), (0, "end"))
    assert game.result(state) == engines.Result(winners=(), scores=(3, 3), reason="equal-cards")


def test_flut_ahead_wins():
    state = game.rules.arrange({"r3c3": "E:A1"}, mover=1, pools=("", ""), home=("E:D1", "F:E1 F:E2"))
    state = game.play(state, 1, "end")
    assert game.result(state) == engines.Result(winners=(1,), scores=(1, 2), reason="most-cards")


def test_d11_a_seat_with_empty_stacks_still_takes_turns():
    state = game.rules.arrange({"r3c3": "E:A1"}, pools=("", "F:A1 F:A2"))
    assert acts(game, state, 0) == ["end"]
    state = game.play(state, 0, "end")
    assert game.result(state) is None and acts(game, state, 1) == ["draw 1", "draw 2"]
    illegal(game, game.rules.arrange({}, pools=("", "F:A1")), 0, "draw 1", "no cards left")


# --------------------------------------------------------------------------------------------- EF-11 solo


def test_ef11_solo_draw_and_place():
    state = solo.play(solo.start(1), 0, "draw 1")
    chance = solo.awaiting(state).chance
    assert chance.kind == "pick" and chance.n == 50 and chance.private_to is None
    state = solo.chance(state, 30)
    assert solo.view(state, 0)["held"] == ["F:B1"]
    assert acts(solo, state, 0) == ["place r1c1", "place r1c2", "place r2c1"]
    assert state.inner.stacks == ((9, 10, 10, 10, 10),)
    state = solo.play(state, 0, "place r2c1")
    assert acts(solo, state, 0) == DRAWS
    assert solo.awaiting(solo.play(state, 0, "draw 2")).chance.n == 49


def test_ef11_solo_conflict_blocks_the_draw():
    state = solo.rules.arrange({"r1c1": "F:A1"}, held="F:B1")
    state = solo.play(state, 0, "place r1c2")
    assert acts(solo, state, 0) == ["push r1c1 up", "push r1c2 up"]
    illegal(solo, state, 0, "draw 1", "conflict-free")
    illegal(solo, state, 0, "end", "no end action")
    assert pile(solo.play(state, 0, "push r1c2 up"), "r2c2") == ["F:B1"]
    after = solo.play(state, 0, "push r1c1 up")
    assert pile(after, "r2c1") == ["F:A1"] and acts(solo, after, 0) == DRAWS


def test_ef11_solo_colours_never_conflict_with_each_other():
    state = solo.rules.arrange({"r3c2": "E:C1", "r3c4": "F:C2", "r4c2": "F:A1"})
    assert acts(solo, state, 0) == DRAWS


def test_solo_pushes_either_colour_in_its_own_directions():
    state = solo.rules.arrange({"r3c2": "E:C1", "r3c4": "E:C2", "r2c3": "F:A1", "r2c5": "F:B1"})
    assert acts(solo, state, 0) == ["push r2c3 up", "push r2c5 up", "push r3c2 up", "push r3c4 up"]
    assert pile(solo.play(state, 0, "push r3c2 up"), "r2c2") == ["E:C1"]
    assert pile(solo.play(state, 0, "push r2c3 up"), "r3c3") == ["F:A1"]
    both = solo.play(solo.play(state, 0, "push r2c5 up"), 0, "push r3c2 up")
    assert pile(both, "r3c5") == ["F:B1"]


def test_solo_draw_lists_ebbe_then_flut_and_scores_both():
    state = solo.rules.arrange({"r2c2": "E:D2", "r2c5": "E:A2", "r4c4": "F:C1", "r4c2": "F:C5"})
    state = run(solo, state, (0, "push r2c2 up"), (0, "push r4c4 up"))
    assert solo.view(state, 0)["scores"] == [2]
    assert state.inner.pools[0] == tuple(sorted(state.inner.pools[0]))


def test_solo_ends_when_stacks_are_empty_and_no_conflict_is_left():
    state = solo.rules.arrange({"r3c3": "E:B1"}, pools=("E:A1",), home=("E:E5", "F:E5 F:E4"))
    assert acts(solo, state, 0) == ["draw 1"]
    state = run(solo, state, (0, "draw 1"), 0)
    assert acts(solo, state, 0) == ["place r4c5", "place r5c4", "place r5c5"]
    state = solo.play(state, 0, "place r5c5")
    assert solo.result(state) == engines.Result(winners=(0,), scores=(3,), reason="solo-finished")
    # the last card creates a conflict: play goes on until it is fixed
    state = solo.rules.arrange({"r4c3": "E:B1"}, pools=("E:A1",))
    state = run(solo, state, (0, "draw 1"), 0, (0, "place r4c5"))
    assert solo.result(state) is None and acts(solo, state, 0) == ["push r4c3 up", "push r4c5 up"]
    state = solo.play(state, 0, "push r4c5 up")
    assert solo.result(state) == engines.Result(winners=(0,), scores=(0,), reason="solo-finished")


def test_solo_resign_and_no_draw_offers():
    state = solo.start(1)
    assert solo.legal(state, 0) == [*DRAWS, "resign"]
    state = solo.play(state, 0, "resign")
    assert solo.result(state) == engines.Result(winners=(), scores=(0,), reason="resign")
    illegal(solo, solo.start(1), 0, "offer draw", "offer")


def test_two_player_resign_and_draw_offer():
    state = opening(0, 0)
    assert "resign" in game.legal(state, 0) and "offer draw" in game.legal(state, 0)
    res = game.result(game.play(state, 0, "resign"))
    assert res.winners == (1,) and res.reason == "resign"
    agreed = run(game, state, (0, "offer draw"), (1, "accept draw"))
    assert game.result(agreed).reason == "draw-agreed"


def test_solo_is_recordable_and_audits():
    from replays.audit import audit_bytes
    from replays.local import record_match, replay_bytes

    record = record_match("ebbe-flut-solo", RandomBot(), seed=5, players=1, write=False, reproducible=True)
    assert record.result is not None and record.result.reason == "solo-finished"
    assert audit_bytes(replay_bytes(record)).status == "valid"


# --------------------------------------------------------------------------------------------- illegal texts


def test_illegal_texts_name_the_rule():
    state = ef3()
    for text in ("", "xyzzy", "draw 0", "draw 6", "push r3c3", "push r6c1 up", "place r0c0", "END"):
        illegal(game, state, 0, text, "not an Ebbe & Flut action")
    illegal(game, state, 1, "end", "not seat 1's turn")
    illegal(game, state, 0, "push r3c1 up", "Flut card; seat 0 pushes only Ebbe")
    illegal(game, state, 0, "push r5c5 up", "r5c5 is empty")
    illegal(game, state, 0, "push r3c3 up", "no row conflict")
    illegal(game, state, 0, "place r5c5", "no drawn card")
    illegal(game, state, 0, "draw 1", "already drawn")
    illegal(game, state, 0, "end", "own conflict")
    empty = game.rules.arrange({}, pools=("E:A1", ""))
    illegal(game, empty, 0, "draw 2", "stack 2 is empty")
    with pytest.raises(engines.IllegalAction, match="chance"):
        game.play(game.play(empty, 0, "draw 1"), 0, "place r5c5")
    with pytest.raises(engines.IllegalAction):
        game.chance(empty, 0)
    with pytest.raises(engines.IllegalAction):
        game.chance(game.play(empty, 0, "draw 1"), 1)  # n = 1


def test_play_never_mutates_its_input():
    state = ef3()
    before = game.digest(state)
    game.play(state, 0, "push r3c3 left")
    assert game.digest(state) == before and pile(state, "r3c3") == ["F:B2", "E:D4"]


# --------------------------------------------------------------------------------------------- view


def test_view_hides_covered_faces_during_play_and_shows_them_at_the_end():
    state = ef3()
    view = game.view(state, 1)
    assert view == game.view(state, None) | {"seat": 1}
    json.dumps(view)
    cell = next(c for c in view["cells"] if c["cell"] == "r3c3")
    assert cell["height"] == 2 and cell["conflict"] == ["left"]
    assert cell["pile"][0] == {"colour": "flut", "face": None, "name": None, "face_up": False}
    assert cell["pile"][1]["name"] == cell["top"]["name"] == "E:D4"
    corner = next(c for c in view["cells"] if c["cell"] == "r1c2")
    assert corner["start_of"] == "flut" and corner["goal_of"] == "ebbe" and corner["top"] is None
    ebbe, flut = view["colours"]
    assert ebbe["start"] == ["r4c5", "r5c4", "r5c5"] and ebbe["goal"] == ["r1c1", "r1c2", "r2c1"]
    assert ebbe["up"] == [-1, 0] and flut["up"] == [1, 0] and flut["left"] == [0, 1]
    assert ebbe["conflicts"] == ["push r1c3 left", "push r3c3 left"]
    assert view["phase"] == "turn" and view["to_move"] == 0 and view["undrawn"] == [23, 23]
    assert sum(view["stacks"][0]) == 23
    end = run(game, game.rules.arrange({"r3c3": "F:B2 E:D4"}, pools=("", ""), drawn=True), (0, "end"))
    shown = next(c for c in game.view(end, 0)["cells"] if c["cell"] == "r3c3")
    assert shown["pile"][0]["name"] == "F:B2" and game.view(end, 0)["result"]["reason"] == "equal-cards"


def test_view_mutations_do_not_leak():
    state = ef3()
    game.view(state, 0)["cells"][12]["pile"][1]["name"] = "garbage"
    assert game.view(state, 0)["cells"][12]["pile"][1]["name"] == "E:D4"


# --------------------------------------------------------------------------------------------- properties


class _Checks:
    """on_step callback: checks the conflict rule against an independent reading after every step."""

    def __init__(self, g):
        self.g = g
        self.steps = 0

    def __call__(self, state, step) -> None:
        self.steps += 1
        view = self.g.view(state, None)
        found = conflicts_from_view(view)
        assert found == {p for c in view["colours"] for p in c["conflicts"]}
        if step.kind == "play" and step.value == "end":  # no own duplicates at turn end
            assert not colour_conflicts(view, C.COLOURS[step.seat])
        if step.kind == "play" and step.value.startswith("draw") and view["solo"]:
            assert not found
        if view["phase"] == "over":
            assert not found and view["undrawn"] == [0] * len(view["undrawn"])
        placed = sum(c["height"] for c in view["cells"])
        gone = sum(len(c["home"]) + len(c["lost"]) for c in view["colours"])
        held = sum(1 for h in view["held"] if h is not None)
        assert placed + gone + held + sum(view["undrawn"]) == 50


@pytest.mark.parametrize(("g", "players"), [(game, 2), (solo, 1)])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_terminates_deterministically_and_keeps_the_rules(g, players, seed):
    checks = _Checks(g)
    record = play_match(g, make_bots(g.id, ["random"], players), seed, players, max_steps=1500, on_step=checks)
    assert record.result is not None and checks.steps == len(record.steps) < 1500
    assert replay_steps(g, players, {}, record.steps) == record.digests
    again = play_match(g, make_bots(g.id, ["random"], players), seed, players)
    assert again.digests == record.digests


@pytest.mark.parametrize(("g", "players"), [(game, 2), (solo, 1)])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted(g, players, seed):
    rng = random.Random(seed)
    state = g.start(players)
    bot = RandomBot()
    while g.awaiting(state).kind != "over":
        waiting = g.awaiting(state)
        if waiting.kind == "chance":
            state = g.chance(state, rng.randrange(waiting.chance.n))
            continue
        for seat in waiting.seats:
            legal = g.legal(state, seat)
            assert legal == sorted(legal)
            for action in legal:
                g.play(state, seat, action)
        seat = waiting.seats[0]
        state = g.play(state, seat, bot.choose(g, state, seat, g.legal(state, seat), rng))


def test_smart_beats_random():
    wins = 0
    for i in range(6):
        bots = make_bots("ebbe-flut", ["smart", "random"] if i % 2 == 0 else ["random", "smart"], 2)
        result = play_match(game, bots, 100 + i, 2, check_views=False).result
        wins += result.winners == (i % 2,)
    assert wins >= 5


def test_smart_solo_outscores_random():
    def total(name: str) -> int:
        return sum(play_match(solo, make_bots(solo.id, [name], 1), 300 + i, 1, check_views=False).result.scores[0]
                   for i in range(4))
    assert total("smart") > total("random") + 40
