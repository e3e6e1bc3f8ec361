"""A Cities & Knights bot that plays a spy card whenever it may and improves politics first (which
draws politics cards, where the spies are); otherwise the smart bot's choice. So the tests meet the
spy's private look (the protocol's `peek` and `show`) in a short game."""

from __future__ import annotations

import bots
from bots.decider import BotDecider


class SpyFirst:
    name = "spy-first"

    def __init__(self):
        self.inner = bots.for_game("catan-ck")["smart"]()

    def choose(self, game, state, seat, legal, rng):
        for prefix in ("play spy", "improve politics"):
            wanted = [a for a in legal if a.startswith(prefix)]
            if wanted:
                return wanted[0]
        return self.inner.choose(game, state, seat, legal, rng)


class SpyDecider(BotDecider):
    """`--bot spy` of tests/support/game_peer.py."""

    def prepare(self, game) -> None:
        self.bot = SpyFirst()
