"""Loyal Captain (docs/rules/kidd.md Part 1): the worked examples LC-1 .. LC-11, the turn rules, and
property tests of random play."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from bots import for_game as bots_for
from bots import make as make_bots
from bots.selfplay import play_match
from engines.kidd.notation import parse_position
from engines.referee import replay_steps

game = engines.get("loyal-captain")


def cells(state) -> dict:
    return {f: c for f, c in enumerate(state.inner.board) if c is not None}


def pieces(text: str) -> dict:
    return parse_position(text)


def test_setup_and_first_turn():
    state = game.start(2)
    assert game.awaiting(state).kind == "move" and game.awaiting(state).seats == (0,)
    assert state.inner.supply == (7, 7)
    assert game.legal(state, 0) == ["enter 1", "enter 2", "enter 3", "enter 4", "enter 5", "enter 6", "resign"]
    assert game.legal(state, 1) == []


def test_no_draw_by_agreement_in_loyal_captain():
    state = game.start(2)
    with pytest.raises(engines.IllegalAction, match="not part of Loyal Captain"):
        game.play(state, 0, "offer draw")


def test_lc1_start_field_stone_falls_to_two():
    state = game.rules.arrange("S0: 1(OUT). S1: 7(13), 14(15)", to_move=1)
    state = game.play(state, 1, "step 14 8")
    assert cells(state) == pieces("S1: 7(13), 8(14)")
    assert game.result(state) is None  # seat 0 still has stones in supply
    assert game.awaiting(state).seats == (0,)


def test_lc2_single_stone_enclosed_by_three():
    state = game.rules.arrange("S1: 14(13). S0: 8(1), 13(7), 16(17)", to_move=0)
    state = game.play(state, 0, "step 16 15")
    assert cells(state) == pieces("S0: 8(1), 13(7), 15(16)")


def test_lc3_group_enclosed_by_four():
    state = game.rules.arrange("S0: 13(18), 14(8). S1: 7(6), 18(12), 8(1), 16(17)", to_move=1)
    state = game.play(state, 1, "step 16 15")
    assert cells(state) == pieces("S1: 7(6), 18(12), 8(1), 15(16)")
    assert state.inner.supply == (5, 3)  # removed stones leave the game, they do not return (D6)
    assert game.view(state, None)["stones_in_play"] == [5, 7]


def test_lc4_one_free_field_keeps_the_group():
    before = "S1: 13(18), 14(8). S0: 7(6), 8(1), 16(17)"
    state = game.play(game.rules.arrange(before, to_move=0), 0, "step 16 15")
    assert cells(state) == pieces("S1: 13(18), 14(8). S0: 7(6), 8(1), 15(16)")


def test_lc5_a_back_towards_the_stone_saves_it():
    state = game.play(game.rules.arrange("S0: 14(15). S1: 8(14), 13(7), 16(17)", to_move=1), 1, "step 16 15")
    assert cells(state) == pieces("S0: 14(15). S1: 8(14), 13(7), 15(16)")


def test_lc5b_both_seed_statements():
    state = game.rules.arrange("S1: 14(8), 1(OUT), 2(OUT). S0: 8(1), 13(7), 16(17)", to_move=0)
    state = game.play(state, 0, "step 16 15")
    assert cells(state) == pieces("S1: 1(OUT), 2(OUT). S0: 8(1), 13(7), 15(16)")


def test_lc6_entering_between_stones_that_face_away():
    state = game.rules.arrange("S1: 7(1), 8(1)", to_move=0, supply=(3, 0))
    state = game.play(state, 0, "enter 1")
    assert cells(state) == pieces("S0: 1(OUT). S1: 7(1), 8(1)")


def test_lc7_entering_between_two_threats_is_captured_at_once():
    state = game.rules.arrange("S1: 7(13), 8(14)", to_move=0, supply=(5, 5))
    assert "enter 1" in game.legal(state, 0)  # self-capture is legal (D9)
    state = game.play(state, 0, "enter 1")
    assert cells(state) == pieces("S1: 7(13), 8(14)")
    assert state.inner.supply == (4, 5)


def test_lc8_the_entry_that_encloses_a_threat_survives():
    state = game.rules.arrange("S1: 7(13), 8(14). S0: 2(OUT), 14(13)", to_move=0, supply=(5, 5))
    state = game.play(state, 0, "enter 1")
    assert cells(state) == pieces("S0: 1(OUT), 2(OUT), 14(13). S1: 7(13)")
    assert state.inner.supply == (4, 5)


def test_lc9_group_through_a_start_field():
    state = game.rules.arrange("S0: 1(OUT), 7(1). S1: 6(OUT), 8(14), 18(17)", to_move=1)
    state = game.play(state, 1, "step 18 13")
    assert cells(state) == pieces("S1: 6(OUT), 8(14), 13(18)")


def test_lc10_enclosing_stone_with_its_back_on_the_group_does_not_enclose():
    before = "S0: 1(OUT), 7(1), 8(1), 14(8). S1: 6(OUT), 2(OUT), {}, 16(17)"
    state = game.play(game.rules.arrange(before.format("13(14)"), to_move=1), 1, "step 16 15")
    assert cells(state) == pieces("S0: 1(OUT), 7(1), 8(1), 14(8). S1: 6(OUT), 2(OUT), 13(14), 15(16)")
    variant = game.play(game.rules.arrange(before.format("13(18)"), to_move=1), 1, "step 16 15")
    assert cells(variant) == pieces("S1: 6(OUT), 2(OUT), 13(18), 15(16)")


def test_lc11_no_legal_action_loses():
    state = game.rules.arrange("S1: 1(7). S0: 8(1), 13(18)", to_move=1, supply=(3, 0))
    result = game.result(state)
    assert result == engines.Result(winners=(0,), scores=(5, 1), reason="no-moves")
    assert game.awaiting(state).kind == "over"
    assert game.legal(state, 1) == []


def test_no_stones_at_all_loses_and_full_start_fields_block_entry():
    # seat 0 is captured down to nothing: it has no stone on the board and none in supply
    state = game.rules.arrange("S0: 1(OUT). S1: 7(13), 14(15)", to_move=1, supply=(0, 4))
    state = game.play(state, 1, "step 14 8")
    assert game.result(state) == engines.Result((1,), (0, 6), "no-moves")
    # supply left but every start field taken and no step possible (D10)
    full = "S1: 1(7), 2(8), 3(9), 4(10), 5(11), 6(12). S0: 7(13), 8(14), 9(15), 10(16), 11(17), 12(18)"
    state = game.rules.arrange(full, to_move=0, supply=(1, 1))
    assert game.result(state).reason == "no-moves" and game.result(state).winners == (1,)


def test_steps_obey_the_back():
    state = game.rules.arrange("S0: 1(OUT), 8(14), 2(8)", to_move=0, supply=(0, 7))
    assert game.legal(state, 0) == ["resign", "step 1 7", "step 2 9"]
    with pytest.raises(engines.IllegalAction, match="never steps backwards"):
        game.play(state, 0, "step 8 14")
    with pytest.raises(engines.IllegalAction, match="never steps backwards"):
        game.play(state, 0, "step 2 8")  # a start-field stone that came from the board may not turn back
    with pytest.raises(engines.IllegalAction, match="occupied"):
        game.play(state, 0, "step 1 8")
    with pytest.raises(engines.IllegalAction, match="not a neighbour"):
        game.play(state, 0, "step 1 13")
    with pytest.raises(engines.IllegalAction, match="holds no stone of seat 0"):
        game.play(state, 0, "step 7 13")


def test_illegal_texts_have_reasons():
    state = game.rules.arrange("S0: 1(OUT). S1: 13(7)", to_move=0, supply=(1, 1))
    for text, reason in [
        ("", "not an action"),
        ("jump 1 7", "not an action"),
        ("step 1", "takes 2 field number"),
        ("step 1 7 13", "takes 2 field number"),
        ("step 01 7", "is not a field"),
        ("step 1  7", "single spaces"),
        ("step 1 7 ", "single spaces"),
        ("enter ", "single spaces"),
        ("enter 19", "is not a field"),
        ("enter 7", "only on a start field"),
        ("enter 1", "occupied"),
        ("move 1 7", "not an action"),
        ("pass", "not an action"),
    ]:
        with pytest.raises(engines.IllegalAction, match=reason):
            game.play(state, 0, text)
    with pytest.raises(engines.IllegalAction, match="not seat 1's turn"):
        game.play(state, 1, "step 13 14")
    empty = game.rules.arrange("S0: 1(OUT). S1: 13(7)", to_move=0, supply=(0, 1))
    with pytest.raises(engines.IllegalAction, match="no stone left in supply"):
        game.play(empty, 0, "enter 2")


def test_threefold_repetition_is_a_draw():
    # two lone stones chase each other round the inner hexagon, three fields apart
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(0, 0))
    ring = [13, 14, 15, 16, 17, 18]
    seen: dict = {}
    turns = 0
    while game.result(state) is None:
        key = (state.inner.board, state.inner.to_move)
        seen[key] = seen.get(key, 0) + 1
        assert state.inner.history.repeats == seen[key]
        seat = state.inner.to_move
        here = next(f for f, c in enumerate(state.inner.board) if c is not None and c[-1] == seat)
        state = game.play(state, seat, f"step {here} {ring[(ring.index(here) + 1) % 6]}")
        turns += 1
    key = (state.inner.board, state.inner.to_move)
    assert seen[key] == 2  # the third time ends the game at once
    assert game.result(state) == engines.Result((), (1, 1), "repetition")
    assert game.view(state, None)["repetition"] == 3
    assert 12 < turns < 36


def test_turn_start_position_counts_include_the_seat_to_move():
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(0, 0))
    other = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=1, supply=(0, 0))
    assert state.inner.history.seen[-1] != other.inner.history.seen[-1]


def test_resign_ends_the_game():
    state = game.play(game.start(2), 0, "resign")
    assert game.result(state) == engines.Result((1,), (7, 7), "resign")


def test_view_is_complete():
    state = game.rules.arrange("S0: 1(OUT), 7(1). S1: 13(18)", to_move=1, supply=(2, 3))
    view = game.view(state, 0)
    field7 = view["fields"][6]
    assert field7 == {**field7, "field": 7, "stones": [0], "back": 1, "owner": 0, "height": 1, "x": 350, "y": 240}
    assert view["fields"][0]["back"] == "OUT" and view["fields"][0]["start"] is True
    assert view["supply"] == [2, 3] and view["to_move"] == 1 and view["repetition"] == 1
    assert len(view["board"]["edges"]) == 24


# ----------------------------------------------------------------------------- properties


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_terminates_and_replays(seed):
    record = play_match(game, make_bots(game.id, ["random"], 2), seed, 2, check_views=True, max_steps=5000)
    assert record.result is not None and record.result.reason in ("no-moves", "repetition")
    assert replay_steps(game, 2, {}, record.steps) == record.digests
    assert sum(record.result.scores) <= 14


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted_and_no_group_stays_enclosed(seed):
    import random

    from engines.kidd.loyal_captain import enclosed, group_at

    rng = random.Random(seed)
    state = game.start(2)
    for _ in range(300):
        if game.result(state) is not None:
            break
        seat = game.awaiting(state).seats[0]
        legal = game.legal(state, seat)
        assert legal == sorted(legal)
        for action in legal:
            if action != "resign":
                game.play(state, seat, action)
        assert game.legal(state, 1 - seat) == []
        state = game.play(state, seat, rng.choice([a for a in legal if a != "resign"]))
        board = state.inner.board
        for f, cell in enumerate(board):
            if cell is not None:
                assert not enclosed(board, group_at(board, f))


def smart_wins(game_id: str, games: int, players: int = 2) -> int:
    """Games the smart bot wins against random ones, taking every seat in turn."""
    wins = 0
    for i in range(games):
        names = ["random"] * players
        names[i % players] = "smart"
        bots = [bots_for(game_id)[name]() for name in names]
        record = play_match(engines.get(game_id), bots, 500 + i, players, check_views=False)
        wins += record.result.winners == (i % players,)
    return wins


def test_smart_bot_beats_random():
    assert smart_wins("loyal-captain", 10) >= 9
