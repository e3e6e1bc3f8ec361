"""Cities & Knights bots: the smart bot's choices in a few positions, and whole games against the
random bot (it must win nearly always, rotating its seat)."""

from __future__ import annotations

import random

from test_catan_ck_helpers import G, give_progress, moves, position, with_ext

from bots.catan_ck import RandomBot, SmartBot
from bots.selfplay import play_match


def choose(state, seat):
    return SmartBot().choose(G, state, seat, G.legal(state, seat), random.Random(0))


def test_setup_takes_rich_nodes_and_a_rich_city():
    state = G.start(4)
    action = choose(state, 0)
    assert action.startswith("settle ") and action in moves(state, 0)


def test_cities_and_improvements_come_first():
    state = position(3, s0=dict(settlements=[12], cities=[23], hand="2grain+3ore+2cloth"))
    assert choose(state, 0) == "city 12"
    state = position(3, s0=dict(cities=[12, 23], levels=(3, 0, 0), hand="4cloth"))
    assert choose(state, 0) == "improve trade"


def test_knights_when_the_barbarians_are_near():
    state = position(3, s0=dict(cities=[12], roads=[19], knights={17: (1, False)}, hand="1grain"))
    state = with_ext(state, ship=5)
    assert choose(state, 0) == "activate 17"


def test_cards_at_the_right_moment():
    state = position(3, s0=dict(settlements=[12, 40], progress=["irrigation"]))
    assert choose(state, 0) == "play irrigation"
    warlord = position(3, s0=dict(cities=[12], knights={17: (1, False)}, progress=["warlord"]))
    assert choose(warlord, 0) == "end"  # the ship is far: keep it
    assert choose(with_ext(warlord, ship=6), 0) == "play warlord"
    alchemy = give_progress(position(3, step="pre-roll", s0=dict(cities=[12])), 0, "alchemist")
    assert choose(alchemy, 0) == "play alchemist 1 5"  # 6 pays its city on h4; red 1 opens every gate


def test_smart_beats_random():
    wins = 0
    for i in range(6):
        seat = i % 4
        bots = [SmartBot() if s == seat else RandomBot() for s in range(4)]
        record = play_match(G, bots, 300 + i, 4, {"board": "random" if i % 2 else "beginner"}, check_views=True)
        wins += record.result.winners == (seat,)
    assert wins >= 5
