"""Cities & Knights bots: the smart bot's choices in a few positions, and whole games against the
random bot (it must win nearly always, rotating its seat)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.catan_ck import G, give_progress, moves, play, position, with_ext
from support.catanhelpers import bot_game

from bots import make as make_bots
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


def _answer(state, offer: str, seat: int = 1) -> str:
    asked = play(state, 0, offer)
    return SmartBot().choose(G, asked, seat, G.legal(asked, seat), random.Random(0))


def test_a_bot_takes_an_offer_that_helps_it_and_declines_one_that_harms_it():
    """Issue 27 item 12, Cities & Knights: saving for a city (2 grain, 3 ore)."""
    state = position(3, s0=dict(settlements=[12], hand="2brick+2wool+1ore+2cloth"),
                     s1=dict(settlements=[14], hand="1brick+1wool+2grain+2ore"))
    assert _answer(state, "offer 2cloth for 1brick to 1") == "accept"          # two cards for one it spares
    assert _answer(state, "offer 1ore for 1wool to 1") == "accept"             # completes its city
    assert _answer(state, "offer 1brick for 1grain+1ore to 1") == "decline"    # one for two it builds with
    ready = position(3, s0=dict(settlements=[12], hand="2brick+2wool+1ore+2cloth"),
                     s1=dict(settlements=[14], hand="2grain+3ore"))
    assert _answer(ready, "offer 2brick for 1ore to 1") == "decline"           # breaks the city it can build


def test_a_bot_offers_when_nothing_else_is_worth_doing():
    state = position(3, s0=dict(cities=[12], settlements=[40], hand="2wool+2grain+2ore"),
                     s1=dict(settlements=[14], hand="2ore"), s2=dict(settlements=[44], hand="1ore"))
    assert SmartBot().choose(G, state, 0, G.legal(state, 0), random.Random(0)) == "offer 1wool for 1ore to all"


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), players=st.sampled_from([3, 4]))
def test_trading_bots_always_finish_their_games(seed: int, players: int):
    """Every seeded game of smart bots ends with a winner, and no turn holds more than two offers."""
    bot_game(G, make_bots("catan-ck", ["smart"], players), seed, players, "13 victory points", most_offers=2)


def test_bots_trade_with_each_other():
    confirmed = sum(bot_game(G, make_bots("catan-ck", ["smart"], 4), seed, 4, "13 victory points", most_offers=2)
                    for seed in range(4))
    assert confirmed >= 12, confirmed   # several a game (none before issue 27 item 12)


def test_the_hard_bots_offer_to_one_player_is_one_that_player_takes():
    """A seeded game of medium bots on a random board; wherever seat 0 is in its main step, the hard
    bot's offer to one player (bots.catan_ck_trade), if it finds one, is played on the addressed
    player's own knowledge state (his progress cards his, seat 0's hidden), and the medium bot there,
    judging from its own view, accepts it."""
    from bots.catan_ck import Position
    from bots.catan_ck_hard import HardBot
    from bots.catan_ck_trade import MARGIN, best_offer
    from engines.referee import Referee

    seats = [SmartBot() for _ in range(4)]
    referee = Referee(G, 4, {"board": "random"}, 7)
    rng = random.Random(7)
    found = 0
    while len(referee.steps) < 1500 and referee.awaiting().kind != "over":
        waiting = referee.awaiting()
        if waiting.kind == "chance":
            referee.feed_chance()
            continue
        seat = referee.awaited_seats(waiting)[0]
        knowing, legal = referee.state_of(seat), referee.legal(seat)
        if seat == 0 and knowing.inner.step == "main":
            pos = Position(G.view(knowing, 0), 0)
            proposal = best_offer(G, knowing, pos, HardBot()._wanted(pos), set(legal), lambda o, give, get: True,
                                  HardBot.most)
            if proposal is not None:
                assert proposal.text in legal and proposal.gain >= MARGIN
                o = proposal.seat
                theirs = G.play(referee.state_of(o), 0, proposal.text)
                answer = SmartBot().choose(G, theirs, o, G.legal(theirs, o), random.Random(0))
                assert answer == "accept", proposal
                found += 1
        referee.submit(seat, seats[seat].choose(G, knowing, seat, legal, rng), waiting)
    assert found >= 3
