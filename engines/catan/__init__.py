"""Catan (docs/rules/catan.md): the base game, built from parts Cities & Knights reuses (board geometry,
cards and notation, trade, longest road, the turn machine)."""

from engines.catan.game import Catan
from engines.core import Capabilities, Descriptor, Game, Mix

#: a Catan deal costs a shuffle proof: the simulator plays it less than its length alone would say
DESCRIPTORS = [Descriptor(Game(Catan()),
                          Capabilities(chance=frozenset({"dice", "pick", "deal"}), secrets=frozenset({"deal"}),
                                       decks=frozenset({"development"})),
                          mix=Mix(weight=3, quick=2))]

__all__ = ["DESCRIPTORS", "Catan"]
