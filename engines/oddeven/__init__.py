"""Odd or Even (docs/rules/odd-even.md): the guide's example of a game that is its engine package alone
(docs/architecture.md, "How to add a game"): no bots, renderer or words of its own, so the random bot, the
text renderer and the generic words play and tell it."""

from engines.core import Capabilities, Descriptor, Game, Mix
from engines.oddeven.game import OddEven

#: no turns, only rounds in which both seats show their fingers at once (an open simultaneous step); no chance
DESCRIPTORS = [Descriptor(Game(OddEven()), Capabilities(simultaneous=True, turns=False),
                          mix=Mix(weight=1, quick=0.5, frames=40))]

__all__ = ["DESCRIPTORS", "OddEven"]
