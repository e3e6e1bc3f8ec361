"""Walking a game with full knowledge, for the tests that play every game at random (the engine contract
and the fuzz tests): a random outcome of any chance point, deals drawn from the cards left."""

from __future__ import annotations

import random

from bots.lib import sample_outcome
from engines.chance import deal_from_bytes, remaining_cards


def chance_value(game, state, chance, rng: random.Random, dealt: dict[tuple[str, int], list[int]]):
    """A random outcome of `chance` for a full-knowledge walk: a deal drawn from the cards left (as the
    referee does; `dealt` remembers each deck epoch's cards), anything else by `sample_outcome`."""
    if chance.kind != "deal":
        return sample_outcome(game, state, rng)
    cards = dealt.setdefault((chance.deck, chance.epoch), [])
    value = deal_from_bytes(chance, rng.randbytes(32), remaining_cards(chance.pool, cards))
    cards.append(value)
    return value
