"""Turning Tides (docs/rules/turning-tides.md): two pirate ships pass each other, zone by zone."""

from engines.core import Capabilities, Descriptor, Game, Mix
from engines.tides.game import TurningTides

#: each seat draws its own cards in private, and the orders are picked in a secret simultaneous step
DESCRIPTORS = [Descriptor(Game(TurningTides()),
                          Capabilities(chance=frozenset({"pick"}), secrets=frozenset({"private", "step"}),
                                       simultaneous=True),
                          mix=Mix(2, 0.7, frames=400))]

__all__ = ["DESCRIPTORS", "TurningTides"]
