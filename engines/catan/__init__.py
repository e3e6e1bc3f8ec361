"""Catan (docs/rules/catan.md): the base game, built from parts Cities & Knights reuses (board geometry,
cards and notation, trade, longest road, the turn machine)."""

from engines.catan.game import Catan
from engines.core import Capabilities, Descriptor, Game, Mix

#: a Catan deal costs a shuffle proof: the simulator plays it less than its length alone would say
DESCRIPTORS = [Descriptor(Game(Catan()),
                          Capabilities(chance=("dice", "pick", "deal"), secrets=("deal",), decks=("development",)),
                          mix=Mix(weight=3, quick=2))]

__all__ = ["DESCRIPTORS", "Catan"]
