"""The bot levels of the small games (issue 36): every level of every game plays only legal actions from
its own seat's knowledge state, hard chooses the same from the same state and rng, and the command line
takes the level names (with "smart" still meaning medium). The lobby's side is tests/test_client_lobby_levels.py.

Cheap on purpose (the suite's budget): each level plays a few of its own decisions from positions a
random game reached, rather than whole games; the strength of the levels is measured outside the suite
(docs/bots.md)."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import bots
import engines
from bots.lib import RandomBot
from client.cli import main
from engines.core import interrupts_step
from engines.referee import Referee

#: the games of this issue's small families, with a seat count each
SMALL = (("turning-tides", 2), ("loyal-captain", 2), ("quedah-merchant", 2), ("madagaskar", 3), ("ploc", 2),
         ("ebbe-flut", 2), ("ebbe-flut-solo", 1))
LEVELS = ("easy", "medium", "hard")


def _decisions(game_id: str, players: int, level: str, seed: int, prefix: int, own: int):
    """Play `prefix` random steps, then `own` decisions of `level` at every seat: yield each (knowledge
    state, seat, legal, rng state before, action) the level met, after checking the action is legal there."""
    game = engines.get(game_id)
    table = Referee(game, players, None, seed, check_views=False)   # (test_all_games.py checks the views)
    level_bot = bots.for_game(game_id)[level]()
    filler = RandomBot()
    rngs = [random.Random(f"{seed}/{s}") for s in range(players)]
    made = 0
    while made < own and len(table.steps) < 3000:
        waiting = table.awaiting()
        if waiting.kind == "over":
            return
        if waiting.kind == "chance":
            table.feed_chance()
            continue
        for seat in table.awaited_seats(waiting):
            knowing, legal = table.state_of(seat), table.legal(seat)
            if len(table.steps) < prefix:
                action = filler.choose(game, knowing, seat, legal, rngs[seat])
            else:
                before = rngs[seat].getstate()
                action = level_bot.choose(game, knowing, seat, legal, rngs[seat])
                assert action in legal, (game_id, level, action)
                made += 1
                yield knowing, seat, legal, before, action
            table.submit(seat, action, waiting)
            if interrupts_step(action):
                break


@pytest.mark.parametrize(("game_id", "players"), SMALL)
def test_every_level_plays_only_legal_actions_and_hard_repeats_itself(game_id, players):
    table = bots.for_game(game_id)
    assert {"random", "smart", *LEVELS} <= set(table)
    assert table["medium"] is table["smart"], "smart is the medium bot's other name"
    assert [table[name].name for name in LEVELS] == ["easy", "smart", "hard"]   # medium keeps its first name
    for level in LEVELS:
        own = 2 if level == "hard" else 6
        met = list(_decisions(game_id, players, level, seed=3, prefix=20, own=own))
        assert met, f"{game_id}: {level} was never asked"
    # the same knowledge state, seat, legal list and rng state give the same choice, in a fresh bot
    knowing, seat, legal, before, action = met[-1]
    rng = random.Random()
    rng.setstate(before)
    assert table["hard"]().choose(engines.get(game_id), knowing, seat, legal, rng) == action


@pytest.mark.parametrize("name", ["easy", "medium", "hard", "smart"])
def test_the_command_line_takes_every_level(name):
    result = CliRunner().invoke(main, ["selfplay", "loyal-captain", "-n", "1", "--seed", "4", "--bots",
                                       f"{name},random"])
    assert result.exit_code == 0, result.output
    assert "1 games" in result.output or "1 game" in result.output


def test_the_level_names_are_listed_and_explained():
    games = CliRunner().invoke(main, ["games"])
    assert games.exit_code == 0
    for game_id, _ in SMALL:
        line = next(text for text in games.output.splitlines() if text.startswith(game_id + " "))
        assert "easy" in line and "medium" in line and "hard" in line and "smart" in line, line
    for command in (["host", "--help"], ["join", "--help"], ["play", "--help"], ["watch", "--help"],
                    ["replay", "fork", "--help"]):
        out = CliRunner().invoke(main, command).output
        assert "easy" in out and "medium" in out and "hard" in out, command
