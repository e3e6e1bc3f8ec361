"""The Catan and Cities & Knights bot levels (easy, medium, hard; base Catan's reference): every level
plays only legal actions from its own seat's knowledge state, the hard bots reproduce their games, and
the hard bot never reads a hidden part. Short: a few hundred steps of one game each, not whole games
(the strength of the levels is measured outside the suite: docs/bots.md)."""

from __future__ import annotations

import random

import bots
import engines
from bots.catan import SmartBot
from bots.catan_hard import HardBot
from engines.contract import HIDDEN
from engines.referee import Referee

CATAN = engines.get("catan")
CK = engines.get("catan-ck")


def _play(game, names: list[str], seed: int, steps: int, twin: bool = False) -> tuple[list, int]:
    """`steps` steps of a seeded game, each seat played by the named level from its knowledge state (the
    referee refuses an illegal action; the assert names the bot). With `twin`, seat 0 is also asked by a
    second bot of its kind given the referee's full state: its choices must be the same, so the bot
    reads nothing the knowledge state hides. Returns the steps and how many choices seat 0 made while
    another seat's development cards were HIDDEN to it."""
    table = bots.for_game(game.id)
    seats = [table[n]() for n in names]
    other = table[names[0]]() if twin else None
    referee = Referee(game, len(names), {"board": "random"}, seed, check_views=True)
    rngs = [random.Random(f"{seed}/{s}") for s in range(len(names))]
    twin_rng = random.Random(f"{seed}/0")
    blind = 0
    while len(referee.steps) < steps:
        waiting = referee.awaiting()
        if waiting.kind == "over":
            break
        if waiting.kind == "chance":
            referee.feed_chance()
            continue
        seat = referee.awaited_seats(waiting)[0]
        knowing = referee.state_of(seat)
        legal = referee.legal(seat)
        action = seats[seat].choose(game, knowing, seat, legal, rngs[seat])
        assert action in legal, (names[seat], action)
        if other is not None and seat == 0:
            assert other.choose(game, referee.state, 0, game.legal(referee.state, 0), twin_rng) == action
            inner = knowing.inner
            blind += any(inner.private[o] is HIDDEN and inner.seats[o].dev_n for o in range(1, len(names)))
        referee.submit(seat, action, waiting)
    return [(s.seat, s.value) for s in referee.steps], blind


def test_every_catan_level_plays_legal_actions_and_hard_reproduces_its_game():
    names = ["hard", "easy", "medium", "reference"]
    first, _ = _play(CATAN, names, 41, 260)
    assert len(first) >= 260
    assert _play(CATAN, names, 41, 260)[0] == first


def test_every_cities_and_knights_level_plays_legal_actions_and_hard_reproduces_its_game():
    names = ["hard", "easy", "medium", "hard"]
    first, _ = _play(CK, names, 43, 260)
    assert len(first) >= 260
    assert _play(CK, names, 43, 260)[0] == first


def test_the_hard_bot_reads_nothing_its_knowledge_state_hides():
    # the other seats buy development cards from the start (the medium bot does): seat 0 decides while
    # their cards are HIDDEN to it, and a twin given the full state chooses exactly as it does
    _, blind = _play(CATAN, ["hard", "medium", "medium", "medium"], 7, 500, twin=True)
    assert blind >= 5


def test_the_levels_have_their_names_and_smart_is_medium():
    for game_id in ("catan", "catan-ck"):
        table = bots.for_game(game_id)
        assert table["smart"] is table["medium"]
        for name in ("easy", "hard"):
            assert table[name]().name == name
    assert bots.for_game("catan")["reference"]().name == "reference"
    assert issubclass(HardBot, SmartBot) and SmartBot.name == "smart"
