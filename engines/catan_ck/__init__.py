"""Catan: Cities & Knights (docs/rules/catan-ck.md), built on the base engine of engines.catan."""

from engines.catan_ck.game import CatanCK
from engines.core import Capabilities, Descriptor, Game, Mix

#: the spy's look at a hand is the "show" chance and the "look" secret; three progress decks are dealt from
DESCRIPTORS = [Descriptor(Game(CatanCK()),
                          Capabilities(chance=frozenset({"dice", "pick", "deal", "show"}),
                                       secrets=frozenset({"deal", "look"}),
                                       decks=frozenset({"politics", "science", "trade"})),
                          mix=Mix(weight=3, quick=2))]

__all__ = ["DESCRIPTORS", "CatanCK"]
