"""Ploc (docs/rules/ploc.md): the worked examples P-1..P-13, illegal texts, properties, and the bots."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from bots import make as make_bots
from bots.lib import game_actions
from bots.ploc import SmartBot, _ActionSearch, turn_value
from bots.selfplay import play_match
from engines import IllegalAction
from engines.core import COMMON_ACTIONS
from engines.ploc.game import PlocState
from engines.referee import replay_steps

game = engines.get("ploc")


def start(geel=(4, 3, 2), rood=(1, 2, 4), coin=0):
    """A match-1 state after setup: team dice for seat 0, then seat 1, then the coin."""
    state = game.start(2)
    for value in (geel, rood, coin):
        state = game.chance(state, value)
    return state


def moves(state, seat):
    """The game actions of legal(), without resign and draw offers (the spec's legal lists)."""
    return [a for a in game.legal(state, seat) if a not in COMMON_ACTIONS]


def play(state, seat, *actions):
    for action in actions:
        state = game.play(state, seat, action)
    return state


def with_inner(state, **fields):
    """A position the spec describes directly (a test shortcut past many turns)."""
    return replace(state, inner=replace(state.inner, **fields))


def athletes(state, seat):
    return state.inner.healthy[seat] + state.inner.weak[seat]


def illegal(state, seat, action, *words):
    with pytest.raises(IllegalAction) as info:
        game.play(state, seat, action)
    for word in words:
        assert word in info.value.reason, info.value.reason
    return info.value.reason


# ----------------------------------------------------------------------------- chance points


def test_chance_points_are_the_spec_table():
    state = game.start(2)
    assert game.awaiting(state).kind == "chance"
    team = game.awaiting(state).chance
    assert (team.kind, team.sides, team.private_to) == ("dice", (6, 6, 6), None)
    state = game.chance(state, (4, 3, 2))
    assert game.awaiting(state).chance.sides == (6, 6, 6)
    state = game.chance(state, (1, 2, 4))
    coin = game.awaiting(state).chance
    assert (coin.kind, coin.n, coin.private_to) == ("pick", 2, None)
    state = game.chance(state, 1)
    roll = game.awaiting(state).chance
    assert (roll.kind, roll.sides) == ("dice", (6, 6, 6))
    with pytest.raises(IllegalAction):
        game.chance(state, (7, 1, 1))
    with pytest.raises(IllegalAction):
        game.chance(state, 3)


# ----------------------------------------------------------------------------- worked examples


def test_p1_setup():
    state = start()
    inner = state.inner
    assert inner.columns == ((4, 3, 2), (1, 2, 4))
    assert inner.healthy == (9, 7) and inner.weak == (0, 0)
    view = game.view(state, None)
    assert view["starter"] == 0 and view["turn_of"] == 0 and view["match"] == 1
    assert game.awaiting(state).kind == "chance"  # Geel's first roll


def test_p2_option_a():
    state = game.chance(start(), (4, 4, 1))
    assert game.awaiting(state).kind == "move" and game.awaiting(state).seats == (0,)
    expected = sorted([f"elim {i} {j}" for i in (1, 2) for j in (1, 2, 3)]
                      + [f"{verb} {i} {j}" for verb in ("swap", "weaken") for i in (1, 2, 3) for j in (1, 2, 3)])
    assert len(expected) == 24
    assert moves(state, 0) == expected
    assert game.legal(state, 0) == sorted([*expected, "offer draw", "resign"])
    assert game.legal(state, 1) == []
    state = play(state, 0, "elim 1 1")
    assert state.inner.healthy[1] == 6
    state = play(state, 0, "elim 2 2")
    assert state.inner.healthy[1] == 5
    assert moves(state, 0) == ["swap 3 3", "weaken 3 3"]
    illegal(state, 0, "elim 3 3", "below column 2")
    illegal(state, 0, "elimw 3 3", "no weakened athlete")


def test_p3_option_b():
    state = game.chance(start(), (4, 4, 1))
    state = play(state, 0, "elim 1 1")
    assert state.inner.healthy[1] == 6
    state = play(state, 0, "swap 2 2")
    assert state.inner.healthy[0] == 11 and state.inner.columns[0] == (4, 4, 2)
    state = play(state, 0, "swap 3 3")
    assert state.inner.healthy == (11, 6) and state.inner.weak == (0, 0)
    assert state.inner.columns[0] == (4, 4, 1)
    # Rood's turn begins with a roll
    assert game.awaiting(state).kind == "chance" and game.awaiting(state).chance.sides == (6, 6, 6)
    assert game.view(state, None)["turn_of"] == 1
    assert game.legal(state, 0) == [] and game.legal(state, 1) == []
    state = game.chance(state, (3, 3, 5))
    assert game.awaiting(state).seats == (1,)


def test_p4_option_c_and_a_later_elimw():
    state = game.chance(start(), (4, 4, 1))
    state = play(state, 0, "elim 1 1", "elim 2 2", "weaken 3 3")
    assert state.inner.healthy[1] == 4 and state.inner.weak[1] == 1 and athletes(state, 1) == 5
    assert athletes(state, 0) == 9
    # Rood's turn leaves Geel's column alone: three 1s against (1, 2, 4) go all or nothing
    state = game.chance(state, (1, 1, 1))
    assert moves(state, 1)[0] == "allornothing"
    state = play(state, 1, "allornothing")
    assert state.inner.healthy[0] == 5
    state = game.chance(state, (2, 5, 6))
    assert state.inner.columns[0] == (4, 3, 2) and state.inner.weak[1] == 1
    assert "elimw 1 1" in moves(state, 0)
    assert "elim 1 1" not in moves(state, 0)
    illegal(state, 0, "elim 1 1", "rolled 2 is below column 4")
    state = play(state, 0, "elimw 1 1")
    assert state.inner.weak[1] == 0 and state.inner.healthy[1] == 4


def test_p5_option_d():
    state = game.chance(start(), (2, 2, 2))
    legal = moves(state, 0)
    assert "allornothing" in legal and legal[0] == "allornothing"
    state = play(state, 0, "allornothing")
    assert state.inner.healthy[1] == 3
    assert game.awaiting(state).kind == "chance"
    state = game.chance(state, (6, 5, 4))
    assert game.awaiting(state).seats == (1,)


def test_p6_rerolls():
    state = game.chance(start(geel=(6, 6, 1)), (1, 2, 3))
    assert moves(state, 0) == ["done", "reroll 1", "reroll 2", "reroll 3"]
    view = game.view(state, 0)
    assert view["phase"] == "reroll" and view["rerolls_left"] == 2
    state = play(state, 0, "reroll 1")
    chance = game.awaiting(state).chance
    assert game.awaiting(state).kind == "chance" and (chance.kind, chance.sides) == ("dice", (6,))
    state = game.chance(state, (5,))
    assert state.inner.rolled == (5, 2, 3)
    assert moves(state, 0) == ["done", "reroll 2", "reroll 3"]
    illegal(state, 0, "reroll 1", "already rerolled")
    illegal(state, 0, "elim 1 3", "reroll phase comes first")
    state = game.chance(play(state, 0, "reroll 3"), (6,))
    assert state.inner.rolled == (5, 2, 6)
    assert game.view(state, 0)["phase"] == "action"
    legal = moves(state, 0)
    assert "done" not in legal and not any(a.startswith("reroll") for a in legal)
    illegal(state, 0, "reroll 2", "reroll phase is over")
    illegal(state, 0, "done", "reroll phase is over")


def test_p6_done_ends_the_reroll_phase_early():
    state = game.chance(start(geel=(6, 6, 1)), (1, 2, 3))
    state = play(state, 0, "done")
    assert game.view(state, 0)["phase"] == "action" and state.inner.rolled == (1, 2, 3)
    assert not any(a.startswith("reroll") for a in moves(state, 0))


def test_p7_all_or_nothing_after_a_reroll():
    state = game.chance(start(geel=(6, 5, 3)), (4, 4, 1))
    assert moves(state, 0) == ["done", "reroll 1", "reroll 2", "reroll 3"]
    state = game.chance(play(state, 0, "reroll 3"), (4,))
    assert state.inner.rolled == (4, 4, 4)
    assert game.view(state, 0)["phase"] == "action"  # k = 1 reroll used up
    assert moves(state, 0)[0] == "allornothing"
    assert game.legal(state, 0)[0] == "allornothing"


def test_p8_no_all_or_nothing_below_the_lowest_column_die():
    state = game.chance(start(), (1, 1, 1))
    assert "allornothing" not in moves(state, 0)
    illegal(state, 0, "allornothing", "below the lowest column die 2")
    assert not any(a.startswith("elimw") for a in moves(state, 0))  # Rood has no weakened athlete
    weakened = with_inner(state, healthy=(9, 6), weak=(0, 1))
    legal = moves(weakened, 0)
    assert {"elimw 1 3", "elimw 2 3", "elimw 3 3"} <= set(legal)
    assert "elimw 1 1" not in legal  # 1 < 4 - 2
    illegal(weakened, 0, "elimw 1 1", "more than 2 below column 4")


def test_p9_swap_into_defeat():
    state = play(game.chance(start(geel=(6, 3, 2)), (1, 5, 5)), 0, "done")
    state = with_inner(state, healthy=(2, 7))
    state = play(state, 0, "swap 1 1")
    inner = state.inner
    assert inner.healthy[0] == 0 and inner.weak[0] == 0  # 2 - 4 stops at 0, not -2
    assert inner.won == (0, 1) and inner.winners == (1,)
    # the rest of the turn is void: match setup 2 starts at once
    assert inner.match == 2 and inner.rolled == ()
    assert game.awaiting(state).kind == "chance" and game.legal(state, 0) == []
    assert game.view(state, None)["phase"] == "team dice"


def test_p9_in_match_two_ends_the_game():
    state = play(game.chance(start(geel=(6, 3, 2)), (1, 5, 5)), 0, "done")
    state = with_inner(state, healthy=(2, 7), match=2, won=(1, 0), winners=(0,))
    state = play(state, 0, "swap 1 1")
    result = game.result(state)
    assert result.winners == (1,) and result.scores == (1, 1) and result.reason == "match-2"


def test_p10_negative_swap_removes_weakened_first():
    state = game.chance(start(geel=(5, 3, 2)), (1, 6, 6))
    state = with_inner(state, healthy=(5, 7), weak=(2, 0))
    state = play(state, 0, "swap 1 1")  # d = 1 + 1 - 5 = -3
    assert state.inner.healthy[0] == 4 and state.inner.weak[0] == 0


def test_p11_all_or_nothing_against_fewer_than_four():
    state = game.chance(start(), (3, 3, 3))
    state = with_inner(state, healthy=(9, 2), weak=(0, 1))
    state = play(state, 0, "allornothing")
    assert state.inner.healthy[1] == 0 and state.inner.weak[1] == 0
    assert state.inner.winners == (0,) and state.inner.won == (1, 0)


def test_p11_all_or_nothing_takes_healthy_first():
    state = game.chance(start(), (3, 3, 3))
    state = with_inner(state, healthy=(9, 5), weak=(0, 2))
    state = play(state, 0, "allornothing")
    assert state.inner.healthy[1] == 1 and state.inner.weak[1] == 2
    state = with_inner(game.chance(start(), (3, 3, 3)), healthy=(9, 3), weak=(0, 2))
    state = play(state, 0, "allornothing")
    assert state.inner.healthy[1] == 0 and state.inner.weak[1] == 1


def test_p12_only_swaps_possible():
    state = game.chance(start(geel=(5, 5, 5)), (1, 2, 1))
    state = with_inner(state, healthy=(10, 0), weak=(0, 2))
    assert moves(state, 0) == [f"swap {i} {j}" for i in (1, 2, 3) for j in (1, 2, 3)]
    illegal(state, 0, "weaken 1 1", "no healthy athlete")
    illegal(state, 0, "elim 2 1", "below column 5")
    illegal(state, 0, "elimw 2 1", "more than 2 below")
    state = play(state, 0, "swap 1 1")
    assert athletes(state, 0) == 7
    state = play(state, 0, "swap 2 2")
    assert athletes(state, 0) == 5
    state = play(state, 0, "swap 3 3")
    assert athletes(state, 0) == 2 and state.inner.columns[0] == (1, 2, 1)
    assert game.awaiting(state).kind == "chance" and game.view(state, None)["turn_of"] == 1


def test_p13_second_match():
    state = start(geel=(6, 6, 6), rood=(1, 1, 1), coin=1)
    assert game.view(state, None)["starter"] == 1
    state = game.chance(state, (1, 2, 3))
    state = play(state, 1, "weaken 1 1", "weaken 2 2", "weaken 3 3")
    state = game.chance(state, (6, 6, 6))
    assert moves(state, 0) == ["done", "reroll 1", "reroll 2", "reroll 3"]  # three sixes, k = 3
    state = play(state, 0, "done", "allornothing")  # Rood has 3: all gone
    assert state.inner.won == (1, 0) and state.inner.match == 2
    # match setup 2: fresh columns, weakened reset, the winner of match 1 gets 1 more, no coin
    state = game.chance(state, (3, 3, 3))
    assert state.inner.healthy[0] == 10 and state.inner.weak[0] == 0
    state = game.chance(state, (5, 1, 2))
    assert state.inner.healthy == (10, 8) and state.inner.weak == (0, 0)
    assert state.inner.columns == ((3, 3, 3), (5, 1, 2))
    waiting = game.awaiting(state)
    assert waiting.kind == "chance" and waiting.chance.sides == (6, 6, 6)  # the roll, not a coin
    view = game.view(state, None)
    assert view["match"] == 2 and view["starter"] == 0 and view["turn_of"] == 0
    assert view["matches_won"] == [1, 0] and view["match_winners"] == [0]
    # seat 1 then wins match 2
    state = game.chance(state, (1, 1, 2))
    state = play(state, 0, "weaken 1 1", "weaken 2 2", "weaken 3 3")
    state = with_inner(state, healthy=(1, 5), weak=(0, 3))
    state = game.chance(state, (5, 4, 4))
    state = play(state, 1, "elim 1 1")
    result = game.result(state)
    assert result.winners == (1,) and result.scores == (1, 1) and result.reason == "match-2"
    assert game.awaiting(state).kind == "over" and game.legal(state, 0) == [] and game.legal(state, 1) == []
    with pytest.raises(IllegalAction, match="game is over"):
        game.play(state, 1, "swap 2 2")


def test_match_two_starts_with_the_seat_that_did_not_start_match_one():
    state = start(geel=(1, 1, 1), rood=(6, 6, 6), coin=0)
    state = game.chance(state, (6, 6, 5))
    state = with_inner(state, healthy=(3, 1))
    state = play(state, 0, "elim 1 1")  # Geel, the starter, wins match 1
    state = game.chance(game.chance(state, (2, 2, 2)), (2, 2, 2))
    assert state.inner.healthy == (7, 6)
    assert game.view(state, None)["turn_of"] == 1
    state = game.chance(state, (1, 2, 3))
    assert game.awaiting(state).seats == (1,)


# ----------------------------------------------------------------------------- illegal texts


@pytest.mark.parametrize("text", ["", "xyzzy", "elim", "elim 1", "elim 0 1", "elim 4 1", "elim 1 1 1",
                                  "swap 1 x", "reroll 4", "Elim 1 1", " elim 1 1", "resign now", "all or nothing"])
def test_garbage_is_illegal_with_a_reason(text):
    state = game.chance(start(), (4, 4, 1))
    illegal(state, 0, text, "not a Ploc action")


def test_wrong_seat_out_of_turn_and_during_chance():
    state = game.chance(start(), (4, 4, 1))
    illegal(state, 1, "elim 1 1", "not seat 1's turn")
    illegal(state, 2, "elim 1 1", "no seat 2")
    illegal(start(), 0, "elim 1 1", "chance outcome")
    illegal(game.start(2), 0, "done", "chance outcome")


def test_used_dice_and_positions_and_late_all_or_nothing():
    state = play(game.chance(start(), (2, 2, 2)), 0, "elim 1 3")
    illegal(state, 0, "swap 1 2", "die 1 was already used")
    illegal(state, 0, "swap 2 3", "position 3 was already used")
    illegal(state, 0, "allornothing", "first and only action")
    illegal(state, 0, "reroll 2", "rerolls come before any action")
    illegal(game.chance(start(), (2, 2, 3)), 0, "allornothing", "not equal")
    illegal(game.chance(start(), (2, 2, 3)), 0, "done", "no reroll phase")
    illegal(game.chance(start(), (2, 2, 3)), 0, "reroll 1", "no reroll phase")


def test_weaken_and_elim_need_a_healthy_target():
    state = with_inner(game.chance(start(), (6, 6, 6)), healthy=(9, 0), weak=(0, 3))
    illegal(state, 0, "weaken 1 1", "no healthy athlete")
    illegal(state, 0, "elim 1 1", "no healthy athlete")
    state = play(state, 0, "elimw 1 1")
    assert state.inner.weak[1] == 2


def test_play_does_not_mutate_its_input():
    state = game.chance(start(), (4, 4, 1))
    before = (game.digest(state), state.inner)
    play(state, 0, "swap 2 2", "elim 1 1")
    assert (game.digest(state), state.inner) == before


def test_resign_scores_are_matches_won():
    state = with_inner(game.chance(start(), (4, 4, 1)), won=(1, 0), winners=(0,), match=2)
    result = game.result(game.play(state, 0, "resign"))
    assert result.winners == (1,) and result.scores == (1, 0) and result.reason == "resign"


# ----------------------------------------------------------------------------- view


def test_view_has_what_a_renderer_needs():
    state = game.chance(start(geel=(6, 3, 2)), (4, 4, 1))
    state = game.chance(play(state, 0, "reroll 2"), (5,))
    state = play(state, 0, "elim 1 2")
    view = game.view(state, 1)
    json.dumps(view)
    assert view == game.view(state, None) | {"seat": 1}
    assert view["phase"] == "action" and view["to_move"] == 0 and view["match"] == 1
    assert [[d["value"] for d in col] for col in view["columns"]] == [[6, 3, 2], [1, 2, 4]]
    assert [d["used"] for d in view["columns"][0]] == [False, True, False]
    assert [d["used"] for d in view["columns"][1]] == [False, False, False]
    assert [(d["value"], d["used"], d["rerolled"]) for d in view["rolled"]] == [
        (4, True, False), (5, False, True), (1, False, False)]
    assert view["healthy"] == [11, 6] and view["weakened"] == [0, 0] and view["athletes"] == [11, 6]
    assert view["matches_won"] == [0, 0] and view["colours"] == ["yellow", "red"]
    assert view["rerolls_allowed"] == 1 and view["rerolls_used"] == 1 and view["rerolls_left"] == 0
    assert view["actions_taken"] == 1


# ----------------------------------------------------------------------------- properties


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_terminates_and_replays_identically(seed):
    record = play_match(game, make_bots("ploc", ["random"], 2), seed, check_views=True, max_steps=20_000)
    result = record.result
    assert result is not None and result.reason == "match-2"
    assert sorted(result.scores) in ([0, 2], [1, 1]) and result.winners in ((0,), (1,))
    assert replay_steps(game, 2, {}, record.steps) == record.digests
    again = play_match(game, make_bots("ploc", ["random"], 2), seed, check_views=True, max_steps=20_000)
    assert again.digests == record.digests


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_every_legal_action_is_accepted_and_invariants_hold(seed):
    rng = random.Random(seed)
    state = game.start(2)
    for _ in range(600):
        waiting = game.awaiting(state)
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            chance = waiting.chance
            value = rng.randrange(chance.n) if chance.kind == "pick" else tuple(
                rng.randint(1, s) for s in chance.sides)
            state = game.chance(state, value)
        else:
            seat = waiting.seats[0]
            legal = game.legal(state, seat)
            assert legal == sorted(legal) and moves(state, seat)
            assert game.legal(state, 1 - seat) == []
            for action in legal:
                game.play(state, seat, action)
            state = game.play(state, seat, rng.choice(game_actions(legal)))
        inner = state.inner
        assert min(inner.healthy) >= 0 and min(inner.weak) >= 0
        assert bin(inner.used_dice).count("1") == bin(inner.used_cols).count("1")
        json.dumps(game.view(state, None))


# ----------------------------------------------------------------------------- bots


@settings(max_examples=60, deadline=None)
@given(cols=st.tuples(*[st.tuples(*[st.integers(1, 6)] * 3)] * 2), h=st.tuples(st.integers(0, 9), st.integers(0, 9)),
       w=st.tuples(st.integers(0, 3), st.integers(0, 3)), rolled=st.tuples(*[st.integers(1, 6)] * 3))
def test_quick_turn_model_agrees_with_the_engine_search(cols, h, w, rolled):
    """The reroll expectimax values rolls with a model of the turn; it must match the engine."""
    if h[0] + w[0] == 0 or h[1] + w[1] == 0:
        return
    inner = PlocState(phase="act", columns=cols, healthy=h, weak=w, first=0, mover=0, rolled=rolled)
    state = replace(game.start(2), inner=inner)
    search = _ActionSearch(game, 0, 0)
    exact = max(search.after(state, a) for a in moves(state, 0))
    model = turn_value((h[0], w[0]), cols[0], (0, 1, 2), rolled, (h[1], w[1]), cols[1], True)
    assert exact == pytest.approx(model)


def test_smart_takes_a_winning_line_and_sensible_rerolls():
    bot, rng = SmartBot(), random.Random(0)
    # Rood is down to 2 healthy athletes: two eliminations win the match at once
    state = with_inner(game.chance(start(), (4, 4, 1)), healthy=(9, 2))
    state = play(state, 0, bot.choose(game, state, 0, game.legal(state, 0), rng))
    state = play(state, 0, bot.choose(game, state, 0, game.legal(state, 0), rng))
    assert state.inner.winners == (0,)
    # (4, 4, 1) with one reroll: rerolling the 1 keeps both 4s and may make a triple
    state = game.chance(start(geel=(6, 5, 3)), (4, 4, 1))
    assert bot.choose(game, state, 0, game.legal(state, 0), rng) == "reroll 3"


@pytest.mark.slow
def test_smart_beats_random_in_most_games():
    wins = 0
    for seed in range(6):
        for smart in (0, 1):
            names = ["smart", "random"] if smart == 0 else ["random", "smart"]
            record = play_match(game, make_bots("ploc", names, 2), 900 + seed, check_views=False)
            wins += record.result.winners == (smart,)
    assert wins >= 10
