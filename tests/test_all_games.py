"""What must hold for every game in engines.GAMES, whoever wrote it."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import quick
from support.walks import chance_value

import engines
from bots import for_game as bots_for
from bots import make as make_bots
from bots.lib import RandomBot, sample_outcome
from bots.selfplay import play_match
from engines.game import DRAW_ANSWERS
from engines.referee import replay_steps

CASES = [(gid, p) for gid, g in engines.GAMES.items() for p in g.players]


def test_registry_is_consistent():
    assert engines.GAMES, "no games registered"
    for gid, game in engines.GAMES.items():
        assert game.id == gid and game.title
        assert engines.get(gid) is game
        bots = bots_for(gid)
        assert {"random", "smart"} <= set(bots), gid


@pytest.mark.parametrize(("game_id", "players"), CASES)
@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_play_is_deterministic_and_views_agree(game_id, players, seed):
    game = engines.get(game_id)
    bots = make_bots(game_id, ["random"], players)
    short = quick.options(game_id)
    record = play_match(game, bots, seed, players, short, check_views=True)
    assert record.result is not None
    assert replay_steps(game, players, game.check_options(short), record.steps) == record.digests
    again = play_match(game, make_bots(game_id, ["random"], players), seed, players, short, check_views=True)
    assert again.digests == record.digests


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_every_legal_action_is_accepted_and_views_are_json(game_id, players):
    game = engines.get(game_id)
    state = game.start(players)
    bot = RandomBot()
    rng = random.Random(game_id)
    dealt: dict[tuple[str, int], list[int]] = {}  # a deal is drawn from the cards left, as the referee does
    for n in range(400):
        waiting = game.awaiting(state)
        if waiting.kind == "over":
            break
        for seat in [None, *range(players)]:
            json.dumps(game.view(state, seat))
        if waiting.kind == "chance":
            state = game.chance(state, chance_value(game, state, waiting.chance, rng, dealt))
            continue
        seat = waiting.seats[0]
        legal = game.legal(state, seat)
        assert legal == sorted(legal), f"{game_id}: legal() not sorted at step {n}"
        # bots look for "decline draw" only in short lists (bots.lib._ANSWERS): it is never in a longer one
        assert "decline draw" not in legal or len(legal) <= len(DRAW_ANSWERS), legal
        for action in legal:
            after = game.play(state, seat, action)  # must not raise
            if action == "offer draw":
                for other in game.awaiting(after).seats:
                    answers = game.legal(after, other)
                    assert "decline draw" in answers and len(answers) <= len(DRAW_ANSWERS), answers
        state = game.play(state, seat, bot.choose(game, state, seat, legal, rng))


@pytest.mark.parametrize("game_id", list(engines.GAMES))
def test_garbage_is_illegal_with_a_reason(game_id):
    game = engines.get(game_id)
    state = game.start(game.players[0])
    for _ in range(50):
        if game.awaiting(state).kind != "chance":
            break
        state = game.chance(state, sample_outcome(game, state, random.Random(1)))
    for text in ("", "xyzzy", "step", "42", "resign now", "move 99 99"):
        seat = game.awaiting(state).seats[0] if game.awaiting(state).seats else 0
        with pytest.raises(engines.IllegalAction) as info:
            game.play(state, seat, text)
        assert info.value.reason


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_smart_bot_plays_through(game_id, players):
    game = engines.get(game_id)
    record = play_match(game, make_bots(game_id, ["smart"], players), 3, players, check_views=True)
    assert record.result is not None
