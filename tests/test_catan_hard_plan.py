"""The hard Catan bot's own pieces: the expected turns to a cost (bots.catan_plan) and the offers to
one player (bots.catan_trade), whose answer it works out before asking: a medium player given the
offer must take it."""

from __future__ import annotations

import random

import engines
from bots.catan import COSTS, SmartBot
from bots.catan_plan import HORIZON, turns_to
from bots.catan_trade import MARGIN, best_offer
from bots.catan_value import Weights
from engines.referee import Referee

CATAN = engines.get("catan")
FOURS = [4] * 5


def test_turns_to_a_cost_count_production_and_maritime_surplus():
    city = COSTS["city"]
    assert turns_to((0, 0, 0, 2, 3), [0] * 5, FOURS, city) == 0
    assert turns_to((0, 0, 0, 0, 0), [0] * 5, FOURS, city) == 4 * HORIZON + 4
    # 2 grain and 2 ore in hand, ore on 9 pips: the third ore comes in 4 rolls (9 x 4 / 36 = 1 card)
    assert turns_to((0, 0, 0, 2, 2), [0, 0, 0, 0, 9], FOURS, city) == 4
    # four spare bricks buy the missing ore at once; at a 2:1 harbour two do
    assert turns_to((4, 0, 0, 2, 2), [0] * 5, FOURS, city) == 0
    assert turns_to((2, 0, 0, 2, 2), [0] * 5, FOURS, city) > 0
    assert turns_to((2, 0, 0, 2, 2), [0] * 5, [2, 4, 4, 4, 4], city) == 0


def test_an_offer_to_one_player_is_one_that_player_takes():
    # a seeded game of medium bots; wherever seat 0 is in its main step, the hard bot's offer (if it
    # finds one) is played, and the medium bot it addresses, judging from its own view, accepts it
    seats = [SmartBot() for _ in range(4)]
    referee = Referee(CATAN, 4, {"board": "random"}, 5)
    rng = random.Random(5)
    found = 0
    while len(referee.steps) < 900 and referee.awaiting().kind != "over":
        waiting = referee.awaiting()
        if waiting.kind == "chance":
            referee.feed_chance()
            continue
        seat = referee.awaited_seats(waiting)[0]
        knowing, legal = referee.state_of(seat), referee.legal(seat)
        if seat == 0 and knowing.inner.step == "main":
            proposal = best_offer(CATAN, knowing, 0, set(legal), lambda o, give, get: True, Weights())
            if proposal is not None:
                assert proposal.text in legal and proposal.gain >= MARGIN
                after = CATAN.play(knowing, 0, proposal.text)
                o = proposal.seat
                answer = SmartBot().choose(CATAN, after, o, CATAN.legal(after, o), random.Random(0))
                assert answer == "accept", proposal
                found += 1
        referee.submit(seat, seats[seat].choose(CATAN, knowing, seat, legal, rng), waiting)
    assert found >= 3

