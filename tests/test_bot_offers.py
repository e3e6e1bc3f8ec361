"""The Catan bots' own domestic offers: a player is asked at most once in a bot's turn (an offer to
all counts for every seat it asks), and never asked again for a trade (same give, same get) that it
declined earlier in the game. A user reported bots flooding a person with up to three offers a turn,
each needing an answer, and the same offers turn after turn.

Whole seeded games run on the engine alone (no network) with one seat that declines every offer, as
a person who never trades would; the checks read the referee's state after each offer (its queue is
whom the offer asks) and each decline."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from support.catanhelpers import G, play, position, with_inner

import bots
import engines
from bots.catan import SmartBot
from bots.selfplay import play_match
from engines.core import Game, State
from engines.referee import Step


class Decliner:
    """A smart bot on its own turns that turns down every offer made to it."""

    name = "decliner"

    def __init__(self, bot: Any):
        self.bot = bot

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline" in legal:
            return "decline"
        return self.bot.choose(game, state, seat, legal, rng)


@dataclass
class OfferLog:
    """What the offers of one game asked of whom: breaches of the two rules, and how many there were."""

    asked: Counter = field(default_factory=Counter)       # (turn, seat asked) -> offers that asked it
    declined: set = field(default_factory=set)            # (offerer, give, get, seat that declined)
    current: tuple = ()                                   # the open offer: (offerer, give, get)
    offers: int = 0
    twice_a_turn: list = field(default_factory=list)
    repeated: list = field(default_factory=list)

    def __call__(self, state: State, step: Step) -> None:
        if step.kind != "play":
            return
        s = state.inner
        if step.value.startswith("offer "):
            self.offers += 1
            self.current = (step.seat, s.offer.give, s.offer.get)
            for seat in s.queue:                          # the seats this offer asks, in answering order
                self.asked[(s.turn, seat)] += 1
                if self.asked[(s.turn, seat)] > 1:
                    self.twice_a_turn.append((s.turn, step.value, seat))
                if (*self.current, seat) in self.declined:
                    self.repeated.append((s.turn, step.value, seat))
        elif step.value == "decline":
            self.declined.add((*self.current, step.seat))


def _game(game_id: str, seed: int, decliner: int, players: int = 4) -> OfferLog:
    game = engines.get(game_id)
    seats = bots.make(game_id, ["smart"], players)
    seats[decliner] = Decliner(seats[decliner])
    log = OfferLog()
    record = play_match(game, seats, seed, players, {"board": "random"}, max_steps=60_000, check_views=False,
                        on_step=log)
    assert record.result is not None, f"{game_id} seed {seed}: no end"
    return log


@pytest.mark.parametrize(("game_id", "seeds"), [("catan", range(6)), ("catan-ck", range(3))])
def test_a_bot_asks_each_player_once_a_turn_and_never_again_what_it_declined(game_id: str, seeds: range):
    offers = declines = 0
    for seed in seeds:
        log = _game(game_id, seed, decliner=seed % 4)
        assert not log.twice_a_turn, f"{game_id} seed {seed}: asked twice in a turn (turn, offer, seat): " \
                                     f"{log.twice_a_turn[:5]}"
        assert not log.repeated, f"{game_id} seed {seed}: a declined offer made again (turn, offer, seat): " \
                                 f"{log.repeated[:5]}"
        offers += log.offers
        declines += len(log.declined)
    assert offers >= 5 * len(seeds) and declines, (offers, declines)   # the bots still make offers


def _asked_and_declined(bot: SmartBot, state: State, seat: int = 0, most: int = 10) -> tuple[list[str], State]:
    """The offers `bot` makes in a row at `state`, every seat declining each; and the state after."""
    made = []
    for _ in range(most):
        action = bot.choose(G, state, seat, G.legal(state, seat), random.Random(0))
        if not action.startswith("offer "):
            break
        made.append(action)
        state = play(state, seat, action)
        while state.inner.step == "respond":
            state = play(state, state.inner.queue[0], "decline")
    return made, state


def _city_short_of_a_grain() -> State:
    return position(4, s0=dict(settlements=[12], hand="1grain+5ore"),   # a city lacks one grain
                    s1=dict(settlements=[40], hand="2grain"), s2=dict(settlements=[44], hand="1grain"))


def test_after_the_table_says_no_the_bot_asks_nobody_again_that_turn_and_offers_more_next_turn():
    bot = SmartBot()
    made, state = _asked_and_declined(bot, _city_short_of_a_grain())
    assert made == ["offer 1ore for 1grain to all"], made          # seats 1 and 2 asked once each
    next_turn = with_inner(state, turn=state.inner.turn + 4, offers=0)   # its next turn, the same hands
    made, _ = _asked_and_declined(bot, next_turn)
    assert made == ["offer 2ore for 1grain to all"], made          # not the 1 for 1 they declined


def test_a_declined_offer_goes_next_time_only_to_those_who_did_not_decline_it():
    bot = SmartBot()
    state = _city_short_of_a_grain()
    state = play(state, 0, bot.choose(G, state, 0, G.legal(state, 0), random.Random(0)))
    assert state.inner.queue == (1, 2)
    state = play(state, 1, "decline")
    state = play(state, 2, "accept")
    assert bot.choose(G, state, 0, G.legal(state, 0), random.Random(0)) == "confirm 2"
    # the trade is undone by hand: a later turn, seat 2 holding grain again, seat 0 short of it again
    later = position(4, s0=dict(settlements=[12], hand="1grain+5ore"), s1=dict(settlements=[40], hand="2grain"),
                     s2=dict(settlements=[44], hand="1grain"))
    later = with_inner(later, turn=state.inner.turn + 4)
    made, _ = _asked_and_declined(bot, later)
    assert made[0] == "offer 1ore for 1grain to 2", made           # seat 1 declined it: not asked again


def test_a_bot_recreated_in_the_middle_of_its_turn_makes_no_more_offers_that_turn():
    """A resumed seat's bot, or a sandbox's, does not know whom this turn's earlier offers asked: the
    view's offer count says there were some, so it asks nobody more this turn."""
    state = _city_short_of_a_grain()
    made, state = _asked_and_declined(SmartBot(), state, most=1)
    assert len(made) == 1 and state.inner.offers == 1
    assert not SmartBot().choose(G, state, 0, G.legal(state, 0), random.Random(0)).startswith("offer ")
