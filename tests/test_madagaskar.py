"""Madagaskar (docs/rules/kidd.md Part 3): the worked examples MG-1 .. MG-9, draw offers, elimination
with three players, and property tests of random play."""

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

game = engines.get("madagaskar")


def cells(state) -> dict:
    return {f: c for f, c in enumerate(state.inner.board) if c is not None}


def moves(state, seat) -> list[str]:
    return [a for a in game.legal(state, seat) if a.startswith("move")]


def opening(players: int, fields: list[int]):
    state = game.start(players)
    for i, f in enumerate(fields):
        seat = i % players
        assert game.awaiting(state).seats == (seat,)
        assert "offer draw" not in game.legal(state, seat)  # not during the opening placements
        state = game.play(state, seat, f"enter {f}")
    return state


def test_stones_per_player():
    assert game.start(2).inner.supply == (7, 7)
    assert game.start(3).inner.supply == (6, 6, 6)
    with pytest.raises(ValueError):
        game.start(4)


def test_mg1_opening_with_three_players():
    state = opening(3, [1, 3, 5, 2, 4, 6])
    assert state.inner.supply == (4, 4, 4)
    assert game.awaiting(state).seats == (0,)
    assert game.legal(state, 0) == ["move 1 7", "move 1 8", "move 2 8", "move 2 9", "offer draw", "resign"]
    assert game.view(state, None)["phase"] == "play"


def test_opening_with_two_players_ends_with_seat_zero_to_move():
    state = opening(2, [1, 2, 3, 4, 5, 6])
    assert state.inner.supply == (4, 4) and game.awaiting(state).seats == (0,)
    with pytest.raises(engines.IllegalAction, match="opening"):
        game.play(game.start(2), 0, "pass")


def test_mg2_capture_makes_a_tower():
    state = game.rules.arrange("S0: 14(8). S1: 13(14), 2(OUT)", to_move=0, supply=(0, 5))
    assert moves(state, 0) == ["move 14 13", "move 14 15"]
    state = game.play(state, 0, "move 14 13")
    assert cells(state) == parse_position("13(14)[1,0]. S1: 2(OUT)")
    assert game.view(state, None)["fields"][12]["height"] == 2
    state = game.play(state, 1, "move 2 9")
    assert moves(state, 0) == ["move 13 18 12", "move 13 18 17", "move 13 7 1", "move 13 7 6"]
    with pytest.raises(engines.IllegalAction, match="walks exactly 2"):
        game.play(state, 0, "move 13 18")


def test_mg3_a_tower_captured_in_turn():
    state = game.rules.arrange("13(14)[1,0]. S1: 14(15). S0: 4(OUT)", to_move=1, supply=(0, 0))
    state = game.play(state, 1, "move 14 13")
    assert cells(state)[13] == (14, 1, 0, 1)
    assert game.view(state, None)["fields"][12]["stones"] == [1, 0, 1]
    state = game.play(state, 0, "move 4 10")
    assert all(len(m.split()) == 5 for m in moves(state, 1))  # a tower of 3 walks exactly 3


def test_mg4_blocked_walks():
    state = game.rules.arrange("13(14)[1,0]. S1: 7(6), 18(17)", to_move=0, supply=(0, 0))
    assert game.legal(state, 0) == ["offer draw", "pass", "resign"]
    state = game.rules.arrange("S0: 14(8), 13(7)", to_move=0, supply=(0, 0))
    assert moves(state, 0) == ["move 13 18", "move 14 15"]
    with pytest.raises(engines.IllegalAction, match="own colour"):
        game.play(state, 0, "move 14 13")


def test_mg5_a_tall_tower_goes_round_a_loop():
    state = game.rules.arrange("1(OUT)[0,1,0,1,0]", to_move=0, supply=(0, 0))
    walks = moves(state, 0)
    assert len(walks) == 22
    assert "move 1 7 13 14 8 1" in walks
    state = game.play(state, 0, "move 1 7 13 14 8 1")
    assert cells(state) == {1: (8, 0, 1, 0, 1, 0)}  # the same field, a new back (D5)


def test_mg6_all_pass_draw():
    state = game.rules.arrange("2(9)[1,0]. 1(7)[1,1,0]. 8(14)[1,0,0,1,0,0,1,0,1]", to_move=0, supply=(0, 0))
    assert game.legal(state, 0) == ["offer draw", "pass", "resign"]
    state = game.play(state, 0, "pass")
    assert game.result(state) is None and game.view(state, None)["passes"] == 1
    assert game.legal(state, 1) == ["offer draw", "pass", "resign"]
    state = game.play(state, 1, "pass")
    assert game.result(state) == engines.Result((), (5, 9), "all-pass")


def test_pass_only_when_nothing_else_and_the_run_must_be_unbroken():
    state = game.rules.arrange("S0: 13(7). S1: 4(OUT)", to_move=0, supply=(0, 0))
    with pytest.raises(engines.IllegalAction, match="only when no move and no entry"):
        game.play(state, 0, "pass")
    # an entry or a move breaks a run of passes
    state = game.rules.arrange("13(14)[1,0]. S1: 7(6), 18(17)", to_move=0, supply=(0, 1))
    state = game.play(state, 0, "pass")
    state = game.play(state, 1, "enter 1")
    assert game.view(state, None)["passes"] == 0


def test_mg7_win_by_capturing_everything():
    state = game.rules.arrange("S0: 14(8). S1: 13(14)", to_move=0, supply=(0, 0))
    state = game.play(state, 0, "move 14 13")
    assert game.result(state) == engines.Result((0,), (2, 0), "all-captured")


def test_no_win_while_the_opponent_has_supply():
    state = game.rules.arrange("S0: 14(8). S1: 13(14)", to_move=0, supply=(0, 1))
    state = game.play(state, 0, "move 14 13")
    assert game.result(state) is None
    assert game.legal(state, 1) == [f"enter {s}" for s in range(1, 7)] + ["offer draw", "resign"]


def test_mg8_draw_offer_declined():
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(1, 1))
    state = game.play(state, 0, "offer draw")
    assert game.awaiting(state).seats == (1,)
    assert game.legal(state, 1) == ["accept draw", "decline draw", "resign"]
    assert game.legal(state, 0) == []
    state = game.play(state, 1, "decline draw")
    legal = game.legal(state, 0)
    assert "offer draw" not in legal and "pass" not in legal and "move 13 14" in legal
    with pytest.raises(engines.IllegalAction, match="one draw offer per seat per turn"):
        game.play(state, 0, "offer draw")
    state = game.play(state, 0, "move 13 14")
    assert "offer draw" in game.legal(state, 1)


def test_draw_by_agreement():
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(1, 1))
    state = game.play(game.play(state, 0, "offer draw"), 1, "accept draw")
    assert game.result(state) == engines.Result((), (1, 1), "agreement")


def test_three_player_offer_asks_in_seat_order_after_the_mover():
    state = game.rules.arrange("S0: 13(7). S1: 16(10). S2: 9(2)", to_move=1, supply=(1, 1, 1), players=3)
    state = game.play(state, 1, "offer draw")
    assert game.awaiting(state).seats == (2,)
    assert game.legal(state, 0) == []
    with pytest.raises(engines.IllegalAction, match="does not answer"):
        game.play(state, 0, "accept draw")
    state = game.play(state, 2, "accept draw")
    assert game.awaiting(state).seats == (0,)
    declined = game.play(state, 0, "decline draw")
    assert game.result(declined) is None and game.awaiting(declined).seats == (1,)
    agreed = game.play(state, 0, "accept draw")
    assert game.result(agreed).reason == "agreement" and game.result(agreed).winners == ()


def test_mg9_three_player_elimination():
    position = "S0: 14(8). S1: 4(OUT). S2: 13(14)"
    state = game.rules.arrange(position, to_move=0, supply=(0, 1, 0), players=3)
    state = game.play(state, 0, "move 14 13")  # seat 2's last tower; it has no supply
    assert game.result(state) is None
    assert game.view(state, None)["out_of_play"] == [2]
    assert game.awaiting(state).seats == (1,)
    state = game.play(state, 1, "move 4 10")
    assert game.awaiting(state).seats == (0,)  # seat 2 is skipped
    state = game.play(state, 0, "offer draw")
    assert game.awaiting(state).seats == (1,)  # seat 2 is never asked
    state = game.play(state, 1, "decline draw")
    state = game.play(state, 0, "move 13 18 17")
    state = game.play(state, 1, "move 10 16")
    assert game.awaiting(state).seats == (0,)
    # seat 1 falls too: its stone on 16 (back 10) is approached from 10
    final = game.rules.arrange("13(14)[2,0]. S1: 16(10). S0: 10(4)", to_move=0, supply=(0, 0, 0), players=3)
    final = game.play(final, 0, "move 10 16")
    assert game.result(final) == engines.Result((0,), (4, 0, 0), "all-captured")


def test_resigning_in_three_leaves_play_and_the_last_one_standing_wins():
    state = opening(3, [1, 3, 5, 2, 4, 6])
    state = game.play(state, 0, "move 1 7")
    state = game.play(state, 1, "resign")
    assert game.result(state) is None
    assert {f for f, c in cells(state).items() if c[-1] == 1} == set()
    assert state.inner.supply == (4, 0, 4)
    assert game.awaiting(state).seats == (2,)
    assert "enter 3" in game.legal(state, 2)  # its start fields are free again
    state = game.play(state, 2, "move 5 11")
    assert game.awaiting(state).seats == (0,)
    state = game.play(state, 0, "resign")
    result = game.result(state)
    assert result.winners == (2,) and result.reason == "resign" and result.scores[0] == result.scores[1] == 0


def test_resigning_when_another_seat_is_already_out():
    state = game.rules.arrange("S0: 14(8). S1: 4(OUT). S2: 13(14)", to_move=0, supply=(0, 1, 0), players=3)
    state = game.play(state, 0, "move 14 13")
    state = game.play(state, 1, "resign")
    assert game.result(state) == engines.Result((0,), (2, 0, 0), "resign")


def test_resigning_during_the_opening_of_three():
    state = opening(3, [1, 3, 5])
    state = game.play(state, 0, "resign")
    assert game.awaiting(state).seats == (1,) and state.inner.board[1] is None
    state = game.play(state, 1, "enter 1")
    state = game.play(state, 2, "enter 2")
    assert game.view(state, None)["phase"] == "opening"


def test_two_player_resign():
    state = opening(2, [1, 2, 3, 4, 5, 6])
    state = game.play(state, 0, "resign")
    assert game.result(state) == engines.Result((1,), (0, 3), "resign")


def test_repetition_draw():
    state = game.rules.arrange("S0: 13(7). S1: 16(10)", to_move=0, supply=(0, 0))
    ring = [13, 14, 15, 16, 17, 18]
    while game.result(state) is None:
        seat = state.inner.to_move
        here = next(f for f, c in cells(state).items() if c[-1] == seat)
        state = game.play(state, seat, f"move {here} {ring[(ring.index(here) + 1) % 6]}")
    assert game.result(state) == engines.Result((), (1, 1), "repetition")


def test_illegal_texts():
    state = game.rules.arrange("S0: 13(7), 1(OUT). S1: 16(10), 17(11)", to_move=0, supply=(1, 1))
    for text, reason in [
        ("step 13 14", "not an action"),
        ("move 13", "at least 2"),
        ("move 13 14 15", "walks exactly 1"),
        ("move 16 15", "tops no tower"),
        ("move 13 7", "steps backwards"),
        ("pass 1", "takes 0"),
        ("enter 1", "occupied"),
        ("enter 13", "only on a start field"),
    ]:
        with pytest.raises(engines.IllegalAction, match=reason):
            game.play(state, 0, text)
    with pytest.raises(engines.IllegalAction, match="not seat 1's turn"):
        game.play(state, 1, "move 16 15")
    with pytest.raises(engines.IllegalAction, match="only from behind"):
        game.play(game.rules.arrange("S0: 15(14). S1: 16(17)", to_move=0, supply=(0, 0)), 0, "move 15 16")
    with pytest.raises(engines.IllegalAction, match="cannot be approached from behind"):
        game.play(game.rules.arrange("S0: 7(13). S1: 1(OUT)", to_move=0, supply=(0, 0)), 0, "move 7 1")


def test_view_for_three():
    state = opening(3, [1, 3, 5, 2, 4, 6])
    view = game.view(state, 2)
    assert view["players"] == 3 and view["supply"] == [4, 4, 4] and view["stones_controlled"] == [2, 2, 2]
    assert [f["owner"] for f in view["fields"][:6]] == [0, 0, 1, 1, 2, 2]


# ----------------------------------------------------------------------------- properties


@pytest.mark.parametrize("players", [2, 3])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_terminates_and_replays(players, seed):
    record = play_match(game, make_bots(game.id, ["random"], players), seed, players, check_views=True,
                        max_steps=20000)
    assert record.result.reason in ("all-captured", "all-pass", "repetition")
    assert replay_steps(game, players, {}, record.steps) == record.digests


@pytest.mark.parametrize("players", [2, 3])
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted_and_stones_are_kept(players, seed):
    rng = random.Random(seed)
    state = game.start(players)
    per = 7 if players == 2 else 6
    for _ in range(250):
        if game.result(state) is not None:
            break
        seat = game.awaiting(state).seats[0]
        legal = game.legal(state, seat)
        assert legal == sorted(legal)
        actions = [a for a in legal if a not in ("resign", "offer draw")]
        for action in actions[:60]:
            game.play(state, seat, action)
        state = game.play(state, seat, rng.choice(actions))
        board = state.inner.board
        for s in range(players):
            assert sum(c[1:].count(s) for c in board if c) + state.inner.supply[s] == per


@pytest.mark.parametrize(("players", "games", "least"), [(2, 12, 8), (3, 9, 6)])
def test_smart_bot_beats_random(players, games, least):
    wins = 0
    for i in range(games):
        names = ["random"] * players
        names[i % players] = "smart"
        bots = [bots_for(game.id)[name]() for name in names]
        record = play_match(game, bots, 500 + i, players, check_views=False)
        wins += record.result.winners == (i % players,)
    assert wins >= least


@pytest.mark.parametrize("players", [2, 3])
def test_legal_lists_are_built_sorted_tall_towers_included(players):
    """`Madagaskar.legal` does not sort: its list must come out sorted, long walks (joined from two
    tables) included."""
    from engines.kidd.walks import TABLE_STEPS

    tall = 0
    for seed in range(25):
        rng = random.Random(f"sorted/{seed}")
        state = game.start(players)
        while game.result(state) is None:
            seat = game.awaiting(state).seats[0]
            inner = state.inner
            legal = game.rules.legal(inner, seat)
            assert legal == sorted(legal)
            tall += any(cell is not None and cell[-1] == seat and len(cell) - 1 > TABLE_STEPS for cell in inner.board)
            state = game.play(state, seat, rng.choice(legal))
    assert tall > 20  # the long walks were listed often enough to count
