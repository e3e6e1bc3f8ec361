"""Turning Tides (docs/rules/turning-tides.md): setup, every worked example and tricky case, the rules
around them, and illegal texts with their reasons."""

from __future__ import annotations

import dataclasses

import pytest
from support.tideskit import (
    NO_FIRE_EXCHANGE,
    G,
    cards_of,
    counts,
    knowledge,
    moves,
    picks,
    position,
    ship,
    side,
)

from engines.core import HIDDEN, Chance, IllegalAction, State
from engines.tides import cards as C
from engines.tides.ship import Ship
from engines.tides.state import EXCHANGE, PICK, Private, TidesState, moved

# ----------------------------------------------------------------------------- setup and options


def test_setup_matches_the_spec():
    state = G.start(2)
    inner = state.inner
    assert (inner.round, inner.turn, inner.o, inner.pawn, inner.promo) == (1, 1, 0, 0, (False, False))
    gold, silver = inner.ships
    assert gold == ship(3, (4, 5), ("5out",)) and silver == ship(6, (4, 5), ("5out",))
    for seat in (0, 1):
        assert gold.sailors_held == 2 and gold.cannons_held == 3
        assert cards_of(state, seat, "hand") == ["wait"]
        assert cards_of(state, seat, "deck") == ["cannon", "cannon", "fire", "move", "navigate", "sailor", "swing"]
        pile = inner.piles[seat]
        assert C.names(pile.exchange) == ["fire", "fire", "sailor", "swing"]
        assert (pile.hand_n, pile.deck_n, pile.damage_n, pile.discard) == (1, 7, 0, C.EMPTY)
    assert G.awaiting(state).chance == Chance("pick", n=7, private_to=0, label="draw of seat 0")


def test_options_are_validated():
    with pytest.raises(ValueError):
        G.start(3)
    with pytest.raises(ValueError, match="no option"):
        G.start(2, {"variant": "intro"})
    with pytest.raises(ValueError, match="intro"):
        G.start(2, {"intro": "maybe"})
    assert G.start(2, {"intro": "true"}).inner.intro is True
    assert G.start(2, {"intro": "false"}).inner.intro is False
    assert G.start(2, {"intro": True}).inner.intro is True
    assert G.start(2).inner.intro is False


def test_only_resign_among_the_common_actions():
    state = G.chance(G.chance(G.start(2), 0), 0)
    assert G.legal(state, 0) == ["pick cannon", "pick wait", "resign"]
    with pytest.raises(IllegalAction):
        G.play(state, 0, "offer draw")


def test_a_draw_takes_the_card_at_the_index_in_canonical_order():
    state = G.chance(G.start(2), 2)
    assert cards_of(state, 0, "hand") == ["fire", "wait"]
    assert cards_of(state, 0, "deck") == ["cannon", "cannon", "move", "navigate", "sailor", "swing"]
    assert G.awaiting(state).chance.private_to == 1
    state = G.chance(state, 6)
    assert cards_of(state, 1, "hand") == ["swing", "wait"]
    assert G.awaiting(state).kind == "simultaneous" and G.awaiting(state).seats == (0, 1)


def test_an_empty_deck_skips_the_draw():
    ships = (ship(3, (4, 5)), ship(6, (4, 5)))
    sides = (side(("fire", "wait"), deck=()), side(("fire", "wait")))
    state = position(ships, sides, o=2)
    state = picks(state, "wait", "wait")
    assert G.awaiting(state).chance.private_to == 1  # seat 0 has nothing to draw
    state = G.chance(state, 0)
    assert G.awaiting(state).seats == (0, 1)


# ----------------------------------------------------------------------------- Example 1


def test_example_1_two_swings_and_the_pawn_changes_hands_mid_turn():
    ships = (ship(3, (5,)), ship(6, (3,)))
    hand = ("swing", "wait")
    state = position(ships, (side(hand, discard=()), side(hand, discard=())), o=6, pawn=0)
    state = picks(state, "swing", "swing")
    assert G.awaiting(state).kind == "move" and G.awaiting(state).seats == (0,)
    assert moves(state, 0) == ["swing 5"]
    state = G.play(state, 0, "swing 5")
    inner = state.inner
    assert inner.ships[1].sailors_held == 4 and inner.ships[1].captain == 6
    assert inner.pawn == 1
    assert G.result(state) is None
    # seat 1's Swing has no sailor left: it resolved without asking, the turn is over
    assert inner.o == 7 and inner.turn == 2
    assert G.awaiting(state).kind == "chance"
    for seat in (0, 1):
        assert C.names(inner.piles[seat].discard).count("swing") == 1
    assert inner.revealed == ("swing", "swing")


# ----------------------------------------------------------------------------- Examples 2 and 3


def _end_of_round_one(seat0_hand: tuple[str, ...], seat1_hand: tuple[str, ...], seat1_skulls: tuple[int, ...] = ()):
    """The last turn of round 1 (o = 12, decks empty) played with two Waits, so the lull begins."""
    ships = (ship(3, (4, 5), ("5out",)), ship(6, (4, 5), ("5out",), skulls=seat1_skulls))
    sides = (side(seat0_hand, deck=()), side(seat1_hand, deck=()))
    state = position(ships, sides, o=12, turn=13)
    return picks(state, "wait", "wait")


def test_example_2_the_exchange():
    state = _end_of_round_one(("navigate", "wait"), ("cannon", "wait"))
    waiting = G.awaiting(state)
    assert (waiting.kind, waiting.seats, waiting.secret) == ("simultaneous", (0, 1), False)
    assert moves(state, 1) == ["exchange cannon for fire", "exchange cannon for sailor", "exchange cannon for swing",
                               "exchange none"]
    assert G.view(state, 1)["cards"][0]["hand_count"] == 2
    state = G.play(state, 0, "exchange none")
    state = G.play(state, 1, "exchange cannon for swing")
    # no destroyed zone anywhere: round 2 starts at once
    inner = state.inner
    assert inner.round == 2
    assert C.names(inner.piles[1].exchange) == ["cannon", "fire", "fire", "sailor"]
    assert cards_of(state, 1, "deck") == ["cannon", "fire", "move", "navigate", "sailor", "swing", "swing"]
    assert cards_of(state, 1, "hand") == ["wait"]


def test_example_2_the_swing_goes_to_the_discard_pile_before_the_reshuffle():
    state = _end_of_round_one(("navigate", "wait"), ("cannon", "wait"), seat1_skulls=(3,))
    state = G.play(G.play(state, 0, "exchange none"), 1, "exchange cannon for swing")
    pile = state.inner.piles[1]
    assert C.names(pile.discard).count("swing") == 2 and pile.hand_n == 1
    assert C.names(pile.pool()) == ["cannon", "fire", "move", "navigate", "sailor", "swing", "swing"]


def test_example_3_a_damage_card_set_aside_in_secret():
    referee = _end_of_round_one(("navigate", "wait"), ("cannon", "wait"), seat1_skulls=(3,))
    referee = G.play(G.play(referee, 0, "exchange none"), 1, "exchange cannon for swing")
    seat0 = knowledge(referee, 0)
    waiting = G.awaiting(referee)
    assert (waiting.kind, waiting.seats, waiting.secret) == ("simultaneous", (1,), True)
    expected = ["damage cannon", "damage fire", "damage move", "damage navigate", "damage sailor", "damage swing"]
    assert moves(referee, 1) == expected
    assert moves(seat0, 1) == expected  # the pool is public
    referee = G.play(referee, 1, "damage navigate")
    seat0 = G.play(seat0, 1, HIDDEN)
    assert G.digest(seat0) == G.digest(referee)
    assert seat0.inner.private[1] is HIDDEN
    inner = referee.inner
    assert (inner.round, inner.o, inner.turn) == (2, 0, 1)
    assert cards_of(referee, 1, "deck") == ["cannon", "fire", "move", "sailor", "swing", "swing"]
    assert cards_of(referee, 1, "damage") == ["navigate"]
    assert G.view(seat0, 0)["cards"][1]["deck_count"] == 6 and G.view(seat0, 0)["cards"][1]["damage_count"] == 1
    assert inner.piles[0].deck_n == 7
    assert inner.ships[0].cannon(5, 0) and not inner.ships[0].cannon(5, 1)
    assert inner.ships[1].cannon(5, 0) and not inner.ships[1].cannon(5, 1)
    assert cards_of(referee, 0, "hand") == cards_of(referee, 1, "hand") == ["wait"]
    seen = G.view(seat0, 0)["cards"][1]
    assert not {"hand", "deck", "damage"} & set(seen)  # seat 1's closed piles stay closed to seat 0
    assert "navigate" not in str(seen)



# ----------------------------------------------------------------------------- Example 4


def _example_4() -> State:
    ships = (ship(3, (4, 5), ("5in",)), ship(6, (4, 5), ("5in",)))
    swings = side(("swing", "swing", "wait"), deck=(), exchange=("cannon", "fire", "fire", "sailor"))
    return position(ships, (side(("cannon", "fire", "wait"), deck=()), swings), o=6, pawn=0, round=2, turn=7)


def test_example_4_promotion_replaces_a_cannon_card_then_surrender():
    state = picks(_example_4(), "fire", "swing")
    assert G.awaiting(state).seats == (0,)
    assert moves(state, 0) == ["fire 5"]
    state = G.play(state, 0, "fire 5")
    assert state.inner.ships[1].is_destroyed(3) and state.inner.pawn == 1
    assert moves(state, 1) == ["swing 4", "swing 5"]
    state = G.play(state, 1, "swing 5")
    inner = state.inner
    assert inner.ships[0].captain == 0 and inner.promo == (True, False) and inner.pawn == 0
    assert G.result(state) is None and inner.o == 7
    # Turn B
    state = picks(state, "cannon", "swing")
    assert state.inner.revealed == ("promote", "swing")
    assert G.awaiting(state).seats == (1,)
    assert moves(state, 1) == ["swing 4", "swing 5"]
    state = G.play(state, 1, "swing 4")
    assert state.inner.ships[0].sailors_at(5) == 0 and state.inner.pawn == 0
    assert moves(state, 0) == ["promote 4"]
    state = G.play(state, 0, "promote 4")
    inner = state.inner
    assert inner.ships[0] == ship(4, (), ("5in",))
    assert inner.promo == (False, False) and inner.ships[0].cannons_held == 3
    assert G.result(state) is None and inner.o == 8
    gone = [C.names(C.sub(inner.piles[s].discard, _example_4().inner.piles[s].discard)) for s in (0, 1)]
    assert gone == [["cannon", "fire"], ["swing", "swing"]]
    # Surrender
    assert "resign" in G.legal(state, 0) and "resign" in G.legal(state, 1)
    state = G.play(state, 0, "resign")
    result = G.result(state)
    assert (result.winners, result.scores, result.reason) == ((1,), (0, 1), "resign")
    view = G.view(state, 0)
    assert view["rematch"] == {"may_demand": 0, "must_accept": 1, "options": {"intro": False}}
    assert view["result"] == {"winners": [1], "scores": [0, 1], "reason": "resign"}


def picks_ready(state: State) -> State:
    """Feed draws (index 0), and `exchange none` in a lull, until the seats pick again."""
    while state.inner.phase != PICK:
        if G.awaiting(state).kind == "chance":
            state = G.chance(state, 0)
        else:
            assert state.inner.phase == EXCHANGE
            for seat in G.awaiting(state).seats:
                state = G.play(state, seat, "exchange none")
    return state


def test_no_rematch_after_a_normal_win():
    state = picks(_tricky_7(), "fire", "fire")
    state = G.play(state, 0, "fire 3")
    assert G.view(state, None)["rematch"] is None


# ----------------------------------------------------------------------------- Tricky cases 1-3


def test_tricky_1_both_wait():
    ships = (ship(3, (4, 5)), ship(0, (4, 5)))
    state = position(ships, (side(("fire", "wait")), side(("fire", "wait"))), o=3, promo=(False, True))
    before = [pile.discard for pile in state.inner.piles]
    state = G.play(state, 0, "pick wait")
    assert state.inner.o == 3
    state = G.play(state, 1, "pick wait")
    inner = state.inner
    assert inner.o == 5 and inner.turn == 2 and inner.promo == (False, True)
    assert inner.revealed == ("wait", "wait")
    assert [pile.discard for pile in inner.piles] == before
    assert cards_of(state, 0, "hand") == cards_of(state, 1, "hand") == ["fire", "wait"]


def test_tricky_2_navigate_back_at_o_0():
    hand = ("navigate", "wait")
    state = picks(position((ship(3, (4, 5)), ship(6, (4, 5))), (side(hand), side(hand))), "navigate", "navigate")
    assert moves(state, 0) == ["navigate ahead"]
    with pytest.raises(IllegalAction, match="o > 0"):
        G.play(state, 0, "navigate back")
    with pytest.raises(IllegalAction, match="already holds the initiative"):
        G.play(state, 0, "navigate initiative")
    state = G.play(state, 0, "navigate ahead")
    assert state.inner.o == 1
    assert moves(state, 1) == ["navigate ahead", "navigate back", "navigate initiative"]
    state = G.play(state, 1, "navigate back")
    assert state.inner.o == 1 and state.inner.turn == 2


def _tricky_3(seat1: Ship, hand0: tuple[str, ...] = ("fire", "fire", "wait")) -> State:
    ships = (ship(3, (4, 5), ("4in", "5in"), mast=False), seat1)
    return position(ships, (side(hand0, deck=(), exchange=NO_FIRE_EXCHANGE), side(deck=())), o=6, pawn=0)


def test_tricky_3_fire_on_zone_4_with_the_mast():
    state = picks(_tricky_3(ship(4, (2, 4))), "fire", "wait")
    assert moves(state, 0) == ["fire 4", "fire 5"]
    state = G.play(state, 0, "fire 4")
    inner = state.inner
    assert inner.ships[1] == ship(4, (2, 4), mast=False)
    assert inner.pawn == 1 and inner.o == 7
    state = picks(state, "fire", "wait")
    assert moves(state, 0) == ["fire 4", "fire 5"]
    state = G.play(state, 0, "fire 5")
    inner = state.inner
    assert inner.ships[1] == ship(0, (2,), mast=False)
    assert inner.pawn == 1 and inner.promo == (False, True)
    assert G.result(state) is None


def test_tricky_3_variant_swing_ignores_the_mast():
    state = picks(_tricky_3(ship(4, (2, 4)), ("swing", "wait")), "swing", "wait")
    state = G.play(state, 0, "swing 4")
    assert state.inner.ships[1] == ship(4, (2,))
    assert state.inner.pawn == 1


def test_tricky_3_variant_mast_alone_then_the_empty_zone_is_destroyed():
    state = picks(_tricky_3(ship(6, (2,))), "fire", "wait")
    state = G.play(state, 0, "fire 4")
    assert state.inner.ships[1] == ship(6, (2,), mast=False)
    assert not state.inner.ships[1].is_destroyed(4)
    state = picks(state, "fire", "wait")
    state = G.play(state, 0, "fire 5")  # pairs sum to 9: zone 5 faces zone 4
    assert state.inner.ships[1].is_destroyed(4)


# ----------------------------------------------------------------------------- Tricky case 4


@pytest.mark.parametrize("pawn", [0, 1])
def test_tricky_4_promotion_replaces_a_cannon_card_wait_is_not_replaced(pawn):
    ships = (ship(3, (4, 5), ("5out",)), ship(0, (2, 5)))
    sides = (side(("cannon", "move", "wait"), deck=()), side(("cannon", "wait"), deck=()))
    state = position(ships, sides, o=2, pawn=pawn, promo=(False, True))
    before = [pile.discard for pile in state.inner.piles]
    state = picks(state, "move", "wait")
    assert state.inner.revealed == ("move", "wait")
    state = G.play(state, 0, "move sailor 4 6")
    assert state.inner.promo == (False, True)
    state = picks(state, "cannon", "cannon")
    assert state.inner.revealed == ("cannon", "promote")
    assert G.awaiting(state).seats == (0,)
    state = G.play(state, 0, "cannon 6 in")
    assert moves(state, 1) == ["promote 2", "promote 5"]
    state = G.play(state, 1, "promote 5")
    inner = state.inner
    assert inner.ships[1] == ship(5, (2,))
    assert inner.ships[1].cannons_held == 4 and inner.promo == (False, False)
    assert inner.pawn == pawn
    assert C.names(C.sub(inner.piles[0].discard, before[0])) == ["cannon", "move"]
    assert C.names(C.sub(inner.piles[1].discard, before[1])) == ["cannon"]


def test_promotion_carries_into_the_next_round():
    ships = (ship(3, (4, 5)), ship(0, (4, 5)))
    sides = (side(("fire", "wait"), deck=()), side(("fire", "wait"), deck=()))
    state = picks(position(ships, sides, o=12, promo=(False, True)), "wait", "wait")
    assert state.inner.phase == EXCHANGE
    state = G.play(G.play(state, 0, "exchange none"), 1, "exchange none")
    assert state.inner.round == 2 and state.inner.promo == (False, True)


# ----------------------------------------------------------------------------- Tricky case 5


def _tricky_5() -> State:
    ships = (ship(3, (4, 5)), ship(6, (7,), ("7in",)))
    sides = (side(("move", "navigate", "wait"), deck=()), side(("fire", "wait"), deck=()))
    return picks(position(ships, sides, o=12, pawn=0, turn=13), "navigate", "fire")


def test_tricky_5_the_round_ends_mid_turn_because_of_navigate():
    state = _tricky_5()
    assert moves(state, 0) == ["navigate ahead", "navigate back"]
    state = G.play(state, 0, "navigate ahead")
    inner = state.inner
    assert inner.phase == EXCHANGE  # seat 1's Fire faced nothing; o = 14 at the end of the turn
    assert inner.round == 1 and inner.o == 14 and inner.waiting == (0,)
    assert inner.ships[0].sailors_on == 2 and not inner.ships[0].skulls
    assert inner.revealed == ("navigate", "fire") and inner.piles[1].hand_n == 1


def test_tricky_5_variant_navigate_back():
    state = G.play(_tricky_5(), 0, "navigate back")
    assert state.inner.o == 11
    assert moves(state, 1) == ["fire 7"]
    state = G.play(state, 1, "fire 7")
    inner = state.inner
    assert inner.ships[0].is_destroyed(6) and inner.pawn == 0
    assert inner.o == 12 and inner.round == 1 and inner.turn == 14


def test_navigate_stays_legal_after_the_ships_have_passed():
    ships = (ship(3, (4, 5)), ship(6, (4, 5)))
    sides = (side(("navigate", "wait"), deck=()), side(("move", "navigate", "wait"), deck=()))
    state = picks(position(ships, sides, o=12, pawn=0), "navigate", "navigate")
    state = G.play(state, 0, "navigate ahead")
    assert state.inner.o == 13
    assert moves(state, 1) == ["navigate ahead", "navigate back", "navigate initiative"]
    state = G.play(state, 1, "navigate back")
    assert state.inner.o == 13 and state.inner.round == 1 and state.inner.phase == EXCHANGE


# ----------------------------------------------------------------------------- Tricky case 6


def _tricky_6() -> State:
    ships = (ship(3, (4, 5), ("5out",), skulls=(1,)), ship(6, (4, 5), ("5out",), skulls=(1, 2)))
    sides = (side(("fire", "move", "wait"), deck=()), side(("wait",), deck=(), damage=("swing",)))
    return picks(position(ships, sides, o=12, turn=13), "wait", "wait")


def test_tricky_6_exchange_and_damage_in_the_same_lull():
    state = _tricky_6()
    waiting = G.awaiting(state)
    assert (waiting.kind, waiting.seats) == ("simultaneous", (0,))
    assert moves(state, 0) == ["exchange fire for sailor", "exchange fire for swing",
                               "exchange fire,move for sailor,swing", "exchange move for fire",
                               "exchange move for sailor", "exchange move for swing", "exchange none"]
    assert moves(state, 1) == []
    state = G.play(state, 0, "exchange move for swing")
    pile = state.inner.piles[0]
    assert C.names(pile.exchange) == ["fire", "fire", "move", "sailor"]
    assert "swing" in C.names(pile.discard) and cards_of(state, 0, "hand") == ["fire", "wait"]
    # damage: seat 1's old swing is back in its pool
    waiting = G.awaiting(state)
    assert (waiting.kind, waiting.seats, waiting.secret) == ("simultaneous", (0, 1), True)
    assert state.inner.piles[1].damage_n == 0
    assert C.names(state.inner.piles[0].pool()) == ["cannon", "cannon", "fire", "navigate", "sailor", "swing", "swing"]
    assert moves(state, 0) == ["damage cannon", "damage fire", "damage navigate", "damage sailor", "damage swing"]
    legal1 = moves(state, 1)
    assert len(legal1) == 16 and "damage cannon,cannon" in legal1
    seat0, seat1 = knowledge(state, 0), knowledge(state, 1)
    state = G.play(G.play(state, 0, "damage cannon"), 1, "damage move,navigate")
    seat0 = G.play(G.play(seat0, 0, "damage cannon"), 1, HIDDEN)
    seat1 = G.play(G.play(seat1, 0, HIDDEN), 1, "damage move,navigate")
    assert G.digest(seat0) == G.digest(seat1) == G.digest(state)
    assert G.view(seat0, 0)["cards"][1]["damage_count"] == 2 and G.view(seat1, 1)["cards"][0]["damage_count"] == 1
    inner = state.inner
    assert cards_of(state, 0, "deck") == ["cannon", "fire", "navigate", "sailor", "swing", "swing"]
    assert cards_of(state, 1, "deck") == ["cannon", "cannon", "fire", "sailor", "swing"]
    assert (inner.piles[0].deck_n, inner.piles[1].deck_n) == (6, 5)
    assert cards_of(state, 0, "hand") == cards_of(state, 1, "hand") == ["wait"]
    assert inner.piles[0].discard == inner.piles[1].discard == C.EMPTY
    assert inner.ships[0].cannon(5, 0) and inner.o == 0 and inner.round == 2
    assert G.awaiting(state).chance == Chance("pick", n=6, private_to=0, label="draw of seat 0")
    state = G.chance(state, 4)
    assert cards_of(state, 0, "hand") == ["swing", "wait"]


def test_damage_texts_are_checked():
    state = G.play(_tricky_6(), 0, "exchange none")
    with pytest.raises(IllegalAction, match="exactly 2"):
        G.play(state, 1, "damage cannon")
    with pytest.raises(IllegalAction, match="pool"):
        G.play(state, 1, "damage fire,fire")
    with pytest.raises(IllegalAction, match="not a Turning Tides action"):
        G.play(state, 1, "damage navigate,move")  # not in canonical order
    with pytest.raises(IllegalAction, match="damage step"):
        G.play(state, 1, "pick wait")


def test_exchange_texts_are_checked():
    state = _tricky_6()
    with pytest.raises(IllegalAction, match="D24"):
        G.play(state, 0, "exchange fire for fire")
    with pytest.raises(IllegalAction, match="k for k"):
        G.play(state, 0, "exchange fire,move for swing")
    with pytest.raises(IllegalAction, match="exchange cards are"):
        G.play(state, 0, "exchange move for cannon")
    with pytest.raises(IllegalAction, match="hand is"):
        G.play(state, 0, "exchange cannon for swing")
    with pytest.raises(IllegalAction, match="wait is never"):
        G.play(state, 0, "exchange move,wait for sailor,swing")
    with pytest.raises(IllegalAction, match="not a Turning Tides action"):
        G.play(state, 0, "exchange move,fire for sailor,swing")
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        G.play(state, 1, "exchange none")


# ----------------------------------------------------------------------------- Tricky case 7


def _tricky_7() -> State:
    ships = (ship(0, (3,), ("3in",), mast=False), ship(6, (4,), ("4in",), skulls=(1, 7)))
    hand = ("fire", "wait")
    return position(ships, (side(hand, deck=()), side(hand, deck=())), o=4, pawn=0)


def test_tricky_7_the_third_destroyed_zone_ends_the_game_at_once():
    state = picks(_tricky_7(), "fire", "fire")
    assert G.awaiting(state).seats == (0,)
    state = G.play(state, 0, "fire 3")
    result = G.result(state)
    assert (result.winners, result.scores, result.reason) == ((0,), (1, 0), "zones")
    inner = state.inner
    assert inner.o == 4 and inner.queue == ()
    # both Fires left the hand and neither was discarded
    assert inner.piles == tuple(p._replace(hand_n=1) for p in _tricky_7().inner.piles)
    assert G.awaiting(state).kind == "over" and G.legal(state, 1) == []
    with pytest.raises(IllegalAction, match="over"):
        G.play(state, 1, "fire 4")


def test_an_empty_crew_loses():
    ships = (ship(3, (4, 5), ("5in",)), ship(0, (3,)))
    hand = ("swing", "wait")
    state = picks(position(ships, (side(hand, deck=()), side(hand, deck=())), o=6), "swing", "wait")
    state = G.play(state, 0, "swing 5")
    assert (G.result(state).winners, G.result(state).reason) == ((0,), "crew")


def test_a_captain_alone_is_still_crew():
    ships = (ship(3, (4, 5), ("5in",)), ship(3, (3,)))
    hand = ("swing", "wait")
    state = picks(position(ships, (side(hand, deck=()), side(hand, deck=())), o=6), "swing", "wait")
    state = G.play(state, 0, "swing 5")
    assert G.result(state) is None and state.inner.ships[1] == ship(3, ())


# ----------------------------------------------------------------------------- Tricky case 8: intro


def _through_round(state: State) -> State:
    """Both seats play Wait with draws at index 0 until the round number changes."""
    start = state.inner.round
    while state.inner.round == start:
        state = picks(picks_ready(state), "wait", "wait")
    return state


def test_tricky_8_the_intro_setup_and_reserve():
    state = G.start(2, {"intro": True})
    pile = state.inner.piles[0]
    assert pile.exchange == C.EMPTY and pile.reserve == 2 and C.names(pile.out) == ["sailor", "swing"]
    assert pile.deck_n == 7
    state = _through_round(state)
    assert state.inner.round == 2 and state.inner.piles[0].reserve == 1
    assert cards_of(state, 0, "deck") == ["cannon", "cannon", "fire", "fire", "move", "navigate", "sailor", "swing"]
    assert state.inner.piles[1].deck_n == 8
    state = _through_round(state)
    assert state.inner.piles[0].reserve == 0 and state.inner.piles[0].deck_n == 9
    state = _through_round(state)
    assert state.inner.round == 4 and state.inner.piles[1].deck_n == 9


def test_double_waits_make_a_round_of_seven_turns():
    state = G.start(2)
    turns = 0
    while state.inner.phase != EXCHANGE:
        state = picks(picks_ready(state), "wait", "wait")
        turns += 1
    assert turns == 7 and state.inner.o == 14 and state.inner.round == 1


@pytest.mark.parametrize(("defenders", "ends"), [((), True), ((6,), False)])
def test_tricky_8_swing_removing_the_captain_wins_the_intro(defenders, ends):
    ships = (ship(3, (4, 5)), ship(6, (3, *defenders)))
    hand = ("swing", "wait")
    sides = (side(hand, deck=(), intro=True), side(hand, deck=(), intro=True))
    state = picks(position(ships, sides, o=8, intro=True), "swing", "wait")
    state = G.play(state, 0, "swing 4")  # faces zone 6: the captain, alone or with a sailor
    if ends:
        assert (G.result(state).winners, G.result(state).reason) == ((0,), "captain")
    else:
        assert G.result(state) is None and state.inner.ships[1] == ship(6, (3,))


def test_tricky_8_one_destroyed_zone_wins_the_intro():
    ships = (ship(3, (4, 5), ("5in",)), ship(6, (4,)))
    hand = ("fire", "wait")
    sides = (side(hand, deck=(), intro=True), side(hand, deck=(), intro=True))
    state = G.play(picks(position(ships, sides, o=6, intro=True), "fire", "wait"), 0, "fire 5")
    assert (G.result(state).winners, G.result(state).reason) == ((0,), "zones")


def test_tricky_8_no_sailors_but_a_captain_plays_on_in_the_intro():
    ships = (ship(3, (4, 5), ("5in",)), ship(6, (3,)))
    hand = ("swing", "wait")
    sides = (side(hand, deck=(), intro=True), side(hand, deck=(), intro=True))
    state = G.play(picks(position(ships, sides, o=6, intro=True), "swing", "wait"), 0, "swing 5")
    assert G.result(state) is None and state.inner.ships[1].sailors_on == 0


# ----------------------------------------------------------------------------- other rules


def test_round_limit_ends_in_a_draw():
    ships = (ship(3, (4, 5)), ship(6, (4, 5)))
    state = picks(position(ships, o=12, round=20, turn=13), "wait", "wait")
    result = G.result(state)
    assert (result.winners, result.scores, result.reason) == ((), (0, 0), "round-limit")


def test_twenty_rounds_of_waiting_reach_the_round_limit():
    state = G.start(2)
    while G.result(state) is None:
        state = picks(picks_ready(state), "wait", "wait")
    assert state.inner.round == 20 and G.result(state).reason == "round-limit"


def test_fire_outcomes_and_the_pawn():
    hand = ("fire", "fire", "fire", "wait")
    ships = (ship(3, (5,), ("5in",)), ship(6, (3,), ("3in", "3out"), skulls=()))
    state = position(ships, (side(hand, deck=(), exchange=NO_FIRE_EXCHANGE), side(deck=())), o=6, pawn=0)
    state = G.play(picks(state, "fire", "wait"), 0, "fire 5")  # units: all of them go to the hold
    assert state.inner.ships[1] == ship(6, ()) and state.inner.pawn == 1
    state = G.play(picks(state, "fire", "wait"), 0, "fire 5")  # o = 7: zone 5 faces zone 4, the mast
    assert not state.inner.ships[1].mast
    state = G.play(picks(state, "fire", "wait"), 0, "fire 5")  # o = 8: zone 5 faces the empty zone 5
    assert state.inner.ships[1].is_destroyed(5)


def test_fire_on_a_destroyed_zone_does_nothing_and_keeps_the_pawn():
    hand = ("fire", "wait")
    ships = (ship(3, (5,), ("5in",)), ship(6, (4,), skulls=(3,)))
    state = G.play(picks(position(ships, (side(hand, deck=()), side(deck=())), o=6), "fire", "wait"), 0, "fire 5")
    assert state.inner.pawn == 0 and state.inner.ships[1] == ship(6, (4,), skulls=(3,))


def test_swing_on_cannons_only_does_nothing():
    hand = ("swing", "wait")
    ships = (ship(3, (5,)), ship(6, (4,), ("3in",)))
    state = G.play(picks(position(ships, (side(hand, deck=()), side(deck=())), o=6), "swing", "wait"), 0, "swing 5")
    assert state.inner.pawn == 0 and state.inner.ships[1] == ship(6, (4,), ("3in",))


def test_navigate_initiative_takes_the_pawn_move_does_not():
    hand = ("move", "navigate", "wait")
    ships = (ship(3, (4, 5)), ship(6, (4, 5)))
    state = position(ships, (side(hand, deck=()), side(hand, deck=())), o=2, pawn=0)
    state = picks(state, "wait", "navigate")
    assert moves(state, 1) == ["navigate ahead", "navigate back", "navigate initiative"]
    state = G.play(state, 1, "navigate initiative")
    assert state.inner.pawn == 1 and state.inner.o == 3
    state = picks(state, "move", "move")
    assert G.awaiting(state).seats == (1,)  # the tie goes to the new pawn holder
    state = G.play(G.play(state, 1, "move captain 6 7"), 0, "move captain 3 2")
    assert state.inner.pawn == 1


def test_placement_and_move_rules():
    ships = (ship(3, (4,), ("4out",), skulls=(2,)), ship(6, (4, 5)))
    hand = ("cannon", "move", "sailor", "wait")
    state = position(ships, (side(hand, deck=()), side(deck=())), o=2)
    sailor = picks(state, "sailor", "wait")
    assert moves(sailor, 0) == ["sailor 1", "sailor 3", "sailor 4", "sailor 5", "sailor 6", "sailor 7"]
    with pytest.raises(IllegalAction, match="destroyed"):
        G.play(sailor, 0, "sailor 2")
    cannon = picks(state, "cannon", "wait")
    assert "cannon 4 in" in moves(cannon, 0) and "cannon 4 out" not in moves(cannon, 0)
    assert len(moves(cannon, 0)) == 11
    with pytest.raises(IllegalAction, match="already holds a cannon"):
        G.play(cannon, 0, "cannon 4 out")
    move = picks(state, "move", "wait")
    legal = moves(move, 0)
    assert "move cannon 4out 4in" in legal and "move captain 3 4" in legal and "move sailor 4 3" in legal
    assert not any(text.endswith(" 2") or " 2in" in text or " 2out" in text for text in legal)
    assert "move captain 3 3" not in legal
    assert len(legal) == 5 + 5 + 11
    with pytest.raises(IllegalAction, match="destroyed"):
        G.play(move, 0, "move sailor 4 2")
    with pytest.raises(IllegalAction, match="not on zone"):
        G.play(move, 0, "move captain 4 5")
    state = G.play(move, 0, "move cannon 4out 4in")
    assert state.inner.ships[0].cannon(4, 0) and not state.inner.ships[0].cannon(4, 1)


def test_a_card_without_options_resolves_without_asking():
    ships = (ship(3, (4, 5, 5, 6), ()), ship(6, (4, 5)))  # no sailor left in seat 0's hold
    hand = ("sailor", "fire", "wait")
    state = position(ships, (side(hand, deck=()), side(deck=())), o=2)
    state = picks(state, "sailor", "wait")
    assert state.inner.turn == 2 and G.awaiting(state).kind == "simultaneous"
    assert state.inner.ships[0].sailors_on == 4 and "sailor" in C.names(state.inner.piles[0].discard)
    state = picks(state, "fire", "wait")  # no cannon in any slot `in`
    assert state.inner.turn == 3 and "fire" in C.names(state.inner.piles[0].discard)


def test_the_fast_state_update_matches_replace():
    state = G.start(2).inner
    fields = ("phase", "turn", "o", "piles", "private", "picks", "queue", "revealed", "waiting")
    values = ("pick", 5, 9, state.piles[::-1], state.private[::-1], ("fire", ""), ((1, "fire"),), ("a", "b"), (1,))
    assert moved(state, *values) == state._replace(**dict(zip(fields, values, strict=True)))


def test_the_hierarchy_is_a_data_table():
    assert C.HIERARCHY == {"wait": 1, "sailor": 2, "cannon": 2, "move": 3, "navigate": 4, "swing": 5, "fire": 5,
                           "promote": 6}


@pytest.mark.parametrize(("first", "second", "leader"), [
    ("sailor", "cannon", 1), ("cannon", "move", 0), ("navigate", "move", 1), ("fire", "navigate", 1),
    ("swing", "fire", 1), ("sailor", "sailor", 1)])
def test_resolution_order_follows_the_hierarchy_and_the_pawn(first, second, leader):
    ships = (ship(3, (4, 5), ("5in",)), ship(6, (4, 5), ("5in",)))
    sides = (side((first, "wait"), deck=()), side((second, "wait"), deck=()))
    state = picks(position(ships, sides, o=6, pawn=1), first, second)
    assert G.awaiting(state).seats == (leader,)


# ----------------------------------------------------------------------------- illegal texts


def test_illegal_texts_name_the_rule():
    state = picks_ready(G.start(2))
    for text in ("", "pick", "pick joker", "pick  wait", "PICK WAIT", "fire 9", "sailor 0", "exchange none none"):
        with pytest.raises(IllegalAction) as info:
            G.play(state, 0, text)
        assert info.value.reason
    with pytest.raises(IllegalAction, match="pick step"):
        G.play(state, 0, "fire 5")
    with pytest.raises(IllegalAction, match="not a Turning Tides action"):
        G.play(state, 0, "pick  wait")
    with pytest.raises(IllegalAction, match="no seat"):
        G.play(state, 2, "pick wait")
    with pytest.raises(IllegalAction, match="chance outcome"):
        G.play(G.start(2), 0, "pick wait")
    hand = state.inner.private[0].hand
    missing = next(C.CARDS[c] for c in range(6) if not hand[c])
    with pytest.raises(IllegalAction, match="step 2 Pick"):
        G.play(state, 0, f"pick {missing}")
    with pytest.raises(IllegalAction, match="only a secret"):
        G.play(state, 0, HIDDEN)


def test_resolution_texts_name_the_rule():
    state = picks(_example_4(), "fire", "swing")
    with pytest.raises(IllegalAction, match="resolving card is fire"):
        G.play(state, 0, "swing 5")
    with pytest.raises(IllegalAction, match="no own sailor on zone 3"):
        G.play(state, 0, "fire 3")
    with pytest.raises(IllegalAction, match="captain never"):
        G.play(state, 0, "fire 3")
    with pytest.raises(IllegalAction, match="slot 4in"):
        G.play(state, 0, "fire 4")
    with pytest.raises(IllegalAction, match="not seat 1's turn"):
        G.play(state, 1, "swing 5")
    with pytest.raises(IllegalAction, match="only its options"):
        G.play(state, 0, "pick fire")
    far = picks(position(_example_4().inner.ships, (side(("fire", "wait"), deck=()), side(deck=())), o=0),
                "fire", "wait")
    assert far.inner.turn == 2  # at o = 0 zone 5 faces nothing: the Fire had no option


def test_resign_is_not_allowed_between_the_plays_of_a_revealed_step():
    state = picks_ready(G.start(2))
    assert "resign" in G.legal(state, 1)
    state = G.play(state, 0, "pick wait")
    assert G.legal(state, 1) and "resign" not in G.legal(state, 1)
    with pytest.raises(IllegalAction, match="simultaneous"):
        G.play(state, 1, "resign")


def test_states_are_values():
    state = picks_ready(G.start(2))
    digest = G.digest(state)
    G.play(state, 0, "pick wait")
    G.play(G.play(state, 0, "pick wait"), 1, "pick wait")
    assert G.digest(state) == digest and state.inner.picks == ("", "")


# ----------------------------------------------------------------------------- the echo of the last play


def _unremembered(inner: TidesState, seat: int, action) -> TidesState:
    """The play made in full, by a rules object that remembers nothing yet."""
    return type(G.rules)().play(inner, seat, action)


def test_the_echo_of_a_pick_takes_each_copys_own_private_part():
    # the same pick, the same public fields, but another hand (and deck) for the picking seat: the
    # remembered result must not be given, or the other hand would be lost
    a0, b0 = side(hand=("cannon", "fire", "wait")), side(hand=("fire", "move", "wait"))
    one = position((ship(3, (4, 5)), ship(6, (4, 5))), (a0, side()))
    other = position((ship(3, (4, 5)), ship(6, (4, 5))), (b0, side()))
    other = dataclasses.replace(other, inner=other.inner._replace(piles=one.inner.piles))
    first = G.play(one, 0, "pick fire")
    assert cards_of(first, 0, "hand") == ["cannon", "wait"]
    second = G.play(other, 0, "pick fire")
    assert second.inner == _unremembered(other.inner, 0, "pick fire")
    assert cards_of(second, 0, "hand") == ["move", "wait"]
    # a copy that does not know the hand gets HIDDEN, one that does gets the remembered hand
    G.play(one, 0, "pick fire")
    hidden = G.play(knowledge(one, 1), 0, "pick fire")
    assert hidden.inner.private == (HIDDEN, one.inner.private[1])
    assert hidden.inner == _unremembered(knowledge(one, 1).inner, 0, "pick fire")
    mine = G.play(knowledge(one, 0), 0, "pick fire")
    assert mine.inner == _unremembered(knowledge(one, 0).inner, 0, "pick fire")
    # the other seat's private part is the copy's own, even when it differs from the remembered one
    G.play(one, 0, "pick fire")
    changed = one.inner._replace(private=(one.inner.private[0], Private(counts("move", "wait"), C.EMPTY, C.EMPTY)))
    assert G.rules.play(changed, 0, "pick fire") == _unremembered(changed, 0, "pick fire")


def test_the_echo_checks_the_pick_on_every_copy():
    one = position((ship(3, (4, 5)), ship(6, (4, 5))), (side(hand=("cannon", "fire", "wait")), side()))
    G.play(one, 0, "pick fire")
    without = one.inner._replace(private=(Private(counts("cannon", "move", "wait"), *one.inner.private[0][1:]),
                                          one.inner.private[1]))
    with pytest.raises(IllegalAction, match="no fire in hand"):
        G.rules.play(without, 0, "pick fire")


def test_the_echo_needs_the_same_public_fields_seat_and_action():
    state = position((ship(3, (4, 5)), ship(6, (4, 5))), (side(hand=("sailor", "wait")), side(hand=("sailor", "wait"))))
    state = G.play(G.play(state, 0, "pick sailor"), 1, "pick sailor")
    assert G.awaiting(state).kind == "move"
    seat = G.awaiting(state).seats[0]
    action = moves(state, seat)[0]
    G.play(state, seat, action)
    for other in (state.inner._replace(o=1), state.inner._replace(pawn=1 - state.inner.pawn)):
        if G.rules.awaiting(other).seats == (seat,) and action in G.rules.legal(other, seat):
            assert G.rules.play(other, seat, action) == _unremembered(other, seat, action)
    for text in moves(state, seat):
        G.play(state, seat, moves(state, seat)[0])
        assert G.rules.play(state.inner, seat, text) == _unremembered(state.inner, seat, text)


def test_the_echo_of_a_draw_takes_the_value_and_each_copys_own_deck():
    state = G.start(2)
    drawn = G.chance(state, 3)
    assert drawn.inner == type(G.rules)().chance(state.inner, 3)
    # the same value from another deck draws another card
    other = state.inner._replace(private=(Private(C.START_HAND, counts("cannon", "fire", "fire", "move", "navigate",
                                                                       "sailor", "swing"), C.EMPTY),
                                          state.inner.private[1]))
    G.chance(state, 3)
    assert G.rules.chance(other, 3) == type(G.rules)().chance(other, 3)
    assert G.rules.chance(other, 3).private[0] != drawn.inner.private[0]
    # another value, a HIDDEN value, a copy that does not know the deck
    for value in (2, HIDDEN):
        G.chance(state, 3)
        assert G.rules.chance(state.inner, value) == type(G.rules)().chance(state.inner, value)
    G.chance(state, 3)
    with pytest.raises(IllegalAction, match="secret"):
        G.chance(knowledge(state, 1), 3)


def test_every_knowledge_state_equals_a_play_made_in_full():
    from random import Random

    from engines.referee import Referee

    fresh = type(G.rules)()
    for seed in range(6):
        table = Referee(G, 2, None, seed)
        rng = Random(seed)
        shadow = [table.state.inner, *(k.inner for k in table.knowing)]  # referee, seat 0, seat 1
        while G.awaiting(table.state).kind != "over":
            waiting = table.awaiting()
            if waiting.kind == "chance":
                drawer = waiting.chance.private_to
                step = table.feed_chance()
                shadow = [fresh.chance(shadow[0], step.value)] + [
                    fresh.chance(k, step.value if s == drawer else HIDDEN) for s, k in enumerate(shadow[1:])]
            else:
                seat = table.awaited_seats(waiting)[0]
                for step in table.submit(seat, rng.choice(moves(table.state_of(seat), seat)), waiting):
                    hide = waiting.secret
                    shadow = [fresh.play(shadow[0], step.seat, step.value)] + [
                        fresh.play(k, step.seat, HIDDEN if hide and s != step.seat else step.value)
                        for s, k in enumerate(shadow[1:])]
            assert [table.state.inner, *(k.inner for k in table.knowing)] == shadow
