"""Quedah Merchant (docs/rules/kidd.md Part 2): the worked examples QM-1 .. QM-9, the die as a public
chance point, freeing chains, the entry rule, and property tests of random play."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from bots import for_game as bots_for
from bots import make as make_bots
from bots.selfplay import play_match
from engines.kidd.notation import parse_position
from engines.referee import replay_steps

game = engines.get("quedah-merchant")
ENTER_ALL = ["enter 1", "enter 2", "enter 3", "enter 4", "enter 5", "enter 6"]


def cells(state) -> dict:
    return {f: c for f, c in enumerate(state.inner.board) if c is not None}


def moves(state, seat) -> list[str]:
    return [a for a in game.legal(state, seat) if a != "resign"]


def test_setup_places_one_stone_each_then_the_die_rolls():
    state = game.start(2)
    assert game.awaiting(state).seats == (0,)
    assert moves(state, 0) == ENTER_ALL
    state = game.play(state, 0, "enter 3")
    assert moves(state, 1) == ["enter 1", "enter 2", "enter 4", "enter 5", "enter 6"]
    state = game.play(state, 1, "enter 4")
    assert state.inner.supply == (6, 6)
    waiting = game.awaiting(state)
    assert waiting.kind == "chance" and waiting.chance == engines.Chance(kind="dice", sides=(3,), label="die 1-3")
    assert game.legal(state, 0) == []
    with pytest.raises(engines.IllegalAction, match="chance outcome"):
        game.play(state, 0, "move 3 9")
    for bad in [(0,), (4,), 2, (1, 1)]:
        with pytest.raises(engines.IllegalAction):
            game.chance(state, bad)
    state = game.chance(state, (2,))
    assert game.view(state, 0)["die"] == 2
    assert moves(state, 0) == ["move 3 10 16", "move 3 9 15", "move 3 9 2"]


def test_qm1_capture_from_behind_then_entry():
    state = game.rules.arrange("S0: 1(OUT). S1: 13(7)", to_move=0, supply=(5, 6), roll=2)
    assert moves(state, 0) == ["move 1 7 13", "move 1 7 6", "move 1 8 14", "move 1 8 2"]
    state = game.play(state, 0, "move 1 7 13")
    assert cells(state) == parse_position("13(7)[1,0]")
    assert game.view(state, None)["prisoners"] == [1, 0]
    assert game.awaiting(state).seats == (0,)
    assert moves(state, 0) == ENTER_ALL
    with pytest.raises(engines.IllegalAction, match="enter a new stone first"):
        game.play(state, 0, "move 13 14")
    state = game.play(state, 0, "enter 1")
    assert cells(state) == parse_position("13(7)[1,0]. S0: 1(OUT)")
    assert state.inner.supply == (4, 6)
    assert game.awaiting(state).kind == "chance" and state.inner.to_move == 1


def test_qm2_not_from_behind():
    state = game.rules.arrange("S0: 1(OUT). S1: 13(14)", to_move=0, supply=(5, 6), roll=2)
    assert moves(state, 0) == ["move 1 7 6", "move 1 8 14", "move 1 8 2"]
    with pytest.raises(engines.IllegalAction, match="only from behind"):
        game.play(state, 0, "move 1 7 13")


def test_qm3_a_stack_cannot_capture():
    state = game.rules.arrange("13(7)[1,0]. S1: 14(13)", to_move=0, roll=1)
    assert moves(state, 0) == ["move 13 18"]
    with pytest.raises(engines.IllegalAction, match="holds a prisoner may not capture"):
        game.play(state, 0, "move 13 14")


def test_qm4_freeing_with_a_choice_of_exit():
    state = game.rules.arrange("13(7)[0,1]. S0: 1(OUT)", to_move=0, supply=(5, 6), roll=2)
    assert "move 1 7 13" in moves(state, 0)
    state = game.play(state, 0, "move 1 7 13")
    assert cells(state) == parse_position("13(7)[1,0]")
    assert game.view(state, 0)["freed_at"] == 13
    assert moves(state, 0) == ["free 14", "free 18"]
    with pytest.raises(engines.IllegalAction, match="not an exit"):
        game.play(state, 0, "free 7")
    with pytest.raises(engines.IllegalAction, match="must be put on an exit first"):
        game.play(state, 0, "enter 1")
    state = game.play(state, 0, "free 18")
    assert cells(state) == parse_position("13(7)[1,0]. S0: 18(13)")
    assert game.view(state, None)["prisoners"] == [1, 0]
    assert moves(state, 0) == ENTER_ALL  # the walk began on a start field


def test_qm5_freeing_forbidden_when_no_exit_is_usable():
    state = game.rules.arrange("13(7)[0,1]. S0: 1(OUT). S1: 14(8), 18(12)", to_move=0, supply=(5, 4), roll=2)
    assert moves(state, 0) == ["move 1 7 6", "move 1 8 14", "move 1 8 2"]
    with pytest.raises(engines.IllegalAction, match="no usable exit"):
        game.play(state, 0, "move 1 7 13")
    captured = game.play(state, 0, "move 1 8 14")
    assert captured.inner.board[14] == (8, 1, 0)
    variant = game.rules.arrange("13(7)[0,1]. S0: 1(OUT), 14(8). S1: 18(12)", to_move=0, roll=2)
    assert "move 1 7 13" not in moves(variant, 0)


def test_qm6_chained_capture():
    state = game.rules.arrange("13(7)[0,1]. S0: 1(OUT). S1: 14(13), 18(12)", to_move=0, supply=(5, 4), roll=2)
    state = game.play(state, 0, "move 1 7 13")
    assert moves(state, 0) == ["free 14"]
    with pytest.raises(engines.IllegalAction, match="not usable"):
        game.play(state, 0, "free 18")
    state = game.play(state, 0, "free 14")
    assert cells(state) == parse_position("13(7)[1,0]. 14(13)[1,0]. S1: 18(12)")
    assert game.view(state, None)["prisoners"] == [2, 0]
    assert game.view(state, None)["entry_owed"] is True


def test_qm7_chained_freeing():
    before = "13(7)[0,1]. 14(13)[0,1]. S1: 15(16), 18(12). S0: 1(OUT)"
    state = game.rules.arrange(before, to_move=0, supply=(3, 3), roll=2)
    state = game.play(state, 0, "move 1 7 13")
    assert moves(state, 0) == ["free 14"]
    state = game.play(state, 0, "free 14")
    assert cells(state)[14] == (13, 1, 0)
    assert game.view(state, 0)["freed_at"] == 14
    assert moves(state, 0) == ["free 8"]
    state = game.play(state, 0, "free 8")
    assert cells(state) == parse_position("13(7)[1,0]. 14(13)[1,0]. S1: 15(16), 18(12). S0: 8(14)")
    assert game.view(state, None)["prisoners"] == [2, 0]
    assert moves(state, 0) == ENTER_ALL
    variant = game.rules.arrange(before + ", 8(2)", to_move=0, supply=(3, 2), roll=2)
    assert "move 1 7 13" not in moves(variant, 0)
    with pytest.raises(engines.IllegalAction, match="no usable exit"):
        game.play(variant, 0, "move 1 7 13")


def test_qm8_seven_prisoners_end_the_game_before_the_entry():
    position = ("15(9)[1,0]. 16(10)[1,0]. 17(11)[1,0]. 18(12)[1,0]. 10(3)[0,1]. 11(4)[0,1]. "
                "S0: 1(OUT). S1: 7(1)")
    state = game.rules.arrange(position, to_move=0, supply=(1, 0), roll=1)
    state = game.play(state, 0, "move 1 7")
    assert game.result(state) == engines.Result((0,), (5, 2), "seven-captured")
    assert game.awaiting(state).kind == "over" and game.legal(state, 0) == []


def test_qm9_no_move_after_the_roll_loses():
    for roll in (1, 2, 3):
        state = game.rules.arrange("S1: 1(7). S0: 8(14). 13(7)[1,0]", to_move=1, roll=roll)
        assert game.result(state) == engines.Result((0,), (1, 0), "no-move")
        assert game.awaiting(state).kind == "over"
    contrast = game.rules.arrange("S1: 1(7). S0: 8(1). 13(7)[1,0]", to_move=1, roll=1)
    assert moves(contrast, 1) == ["move 1 8"]
    for roll in (2, 3):
        assert game.result(game.rules.arrange("S1: 1(7). S0: 8(1). 13(7)[1,0]", to_move=1, roll=roll)) is not None


def test_wrong_seat_and_garbage_are_refused():
    state = game.rules.arrange("S0: 1(OUT). S1: 4(OUT)", to_move=0, roll=2)
    for seat, text, reason in [
        (1, "move 4 10 16", "not seat 1's turn"),
        (5, "move 1 7 13", "no seat 5"),
        (0, "move 1 7 13 14", "walks exactly 2"),
        (0, "free 7", "walk one of your pieces"),
        (0, "enter 2", "walk one of your pieces"),
        (0, "step 1 7", "not an action"),
        (0, "move 1 7 x", "not a field"),
    ]:
        with pytest.raises(engines.IllegalAction, match=reason):
            game.play(state, seat, text)


def test_walks_are_exact_and_never_jump():
    state = game.rules.arrange("S0: 13(7). S1: 14(15), 17(11)", to_move=0, roll=3)
    # 13 -> 14 is blocked for a walk of 3; 13 -> 18 -> 12 / 17 (17 is the end: from 18? its back is 11)
    assert moves(state, 0) == ["move 13 18 12 5", "move 13 18 12 6"]
    for text, reason in [
        ("move 13 18", "walks exactly 3"),
        ("move 13 14 15 9", "occupied"),
        ("move 13 18 17 16", "occupied"),
        ("move 13 7 1 8", "steps backwards"),
        ("move 13 18 12 13", "not a neighbour"),
        ("move 14 15 16 10", "tops no piece"),
    ]:
        with pytest.raises(engines.IllegalAction, match=reason):
            game.play(state, 0, text)


def test_entry_only_after_leaving_a_start_field_and_lapses_when_full():
    # a walk that merely passes over a start field owes no entry (D17)
    state = game.rules.arrange("S0: 7(13)", to_move=0, supply=(3, 7), roll=3)
    state = game.play(state, 0, "move 7 1 8 14")
    assert game.awaiting(state).kind == "chance" and state.inner.to_move == 1
    # a freeing chain that ends on the walk's own origin fills the last start field: the entry lapses
    chain = "13(7)[0,1]. 14(13)[0,1]. 8(14)[0,1]. S0: 1(OUT), 2(OUT), 3(OUT). S1: 4(OUT), 5(OUT), 6(OUT)"
    state = game.rules.arrange(chain, to_move=0, roll=2)
    assert state.inner.supply == (1, 1)
    state = game.play(state, 0, "move 1 7 13")
    assert moves(state, 0) == ["free 14", "free 18"]
    state = game.play(state, 0, "free 14")
    assert moves(state, 0) == ["free 15", "free 8"]
    state = game.play(state, 0, "free 8")
    assert moves(state, 0) == ["free 1"]  # 2 holds seat 0's own stone
    state = game.play(state, 0, "free 1")
    assert cells(state)[1] == (8, 0) and game.view(state, None)["prisoners"] == [3, 0]
    assert game.awaiting(state).kind == "chance" and state.inner.to_move == 1
    # no stone left in supply: no entry either
    state = game.rules.arrange("S0: 1(OUT)", to_move=0, supply=(0, 7), roll=1)
    state = game.play(state, 0, "move 1 8")
    assert game.awaiting(state).kind == "chance"
    # a freed stone that lands on a start field does not trigger the entry either
    state = game.rules.arrange("8(14)[0,1]. S0: 13(18)", to_move=0, supply=(2, 6), roll=2)
    state = game.play(state, 0, "move 13 14 8")
    assert moves(state, 0) == ["free 1", "free 2"]
    state = game.play(state, 0, "free 2")
    assert game.awaiting(state).kind == "chance" and cells(state)[2] == (8, 0)


def test_freeing_on_a_start_field_has_one_exit():
    state = game.rules.arrange("1(7)[0,1]. S0: 6(12)", to_move=0, roll=2)
    assert "move 6 7 1" in moves(state, 0)
    state = game.play(state, 0, "move 6 7 1")
    assert moves(state, 0) == ["free 8"]
    blocked = game.rules.arrange("1(7)[0,1]. S0: 6(12). S1: 8(14)", to_move=0, roll=2)
    assert "move 6 7 1" not in moves(blocked, 0)


def test_repetition_is_checked_before_the_roll():
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(0, 0))
    ring = [13, 14, 15, 16, 17, 18]
    turns = 0
    while game.result(state) is None:
        assert game.awaiting(state).kind == "chance"
        state = game.chance(state, (1,))
        seat = state.inner.to_move
        here = next(f for f, c in enumerate(state.inner.board) if c is not None and c[-1] == seat)
        state = game.play(state, seat, f"move {here} {ring[(ring.index(here) + 1) % 6]}")
        turns += 1
    result = game.result(state)
    assert result == engines.Result((), (0, 0), "repetition")
    assert game.awaiting(state).kind == "over"
    assert state.inner.roll == 0  # decided before the roll


def test_digest_depends_on_the_die_and_phase():
    state = game.rules.arrange("S0: 1(OUT). S1: 4(OUT)", to_move=0)
    a, b = game.chance(state, (1,)), game.chance(state, (2,))
    assert game.digest(a) != game.digest(b) != game.digest(state)


def test_no_draw_offers_in_quedah_merchant():
    state = game.rules.arrange("S0: 1(OUT). S1: 4(OUT)", to_move=0, roll=1)
    assert "offer draw" not in game.legal(state, 0)
    with pytest.raises(engines.IllegalAction, match="not part of Quedah Merchant"):
        game.play(state, 0, "offer draw")
    assert game.result(game.play(state, 0, "resign")).winners == (1,)


# ----------------------------------------------------------------------------- properties


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_terminates_and_replays(seed):
    record = play_match(game, make_bots(game.id, ["random"], 2), seed, 2, check_views=True, max_steps=5000)
    assert record.result.reason in ("seven-captured", "no-move", "repetition")
    assert replay_steps(game, 2, {}, record.steps) == record.digests
    if record.result.reason == "seven-captured":
        assert sum(record.result.scores) == 7


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted_and_invariants_hold(seed):
    rng = random.Random(seed)
    state = game.start(2)
    for _ in range(400):
        if game.result(state) is not None:
            break
        waiting = game.awaiting(state)
        if waiting.kind == "chance":
            state = game.chance(state, (rng.randint(1, 3),))
            continue
        seat = waiting.seats[0]
        legal = moves(state, seat)
        assert legal and legal == sorted(legal)
        for action in legal:
            game.play(state, seat, action)
        state = game.play(state, seat, rng.choice(legal))
        board = state.inner.board
        assert all(c is None or len(c) <= 3 for c in board)  # stacks never higher than two
        assert all(c is None or len(c) == 2 or c[1] != c[2] for c in board)  # prisoners are enemies
        stones = [sum(c[1:].count(s) for c in board if c) + state.inner.supply[s] for s in (0, 1)]
        if state.inner.phase == "free":  # the freed stone waits off the board for its exit
            stones[state.inner.to_move] += 1
        assert stones == [7, 7]  # nothing leaves the game in Quedah Merchant


def test_smart_bot_beats_random():
    wins = 0
    for i in range(12):
        names = ["random", "random"]
        names[i % 2] = "smart"
        bots = [bots_for(game.id)[name]() for name in names]
        record = play_match(game, bots, 500 + i, 2, check_views=False)
        wins += record.result.winners == (i % 2,)
    assert wins >= 9
