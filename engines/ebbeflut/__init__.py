"""Ebbe & Flut (docs/rules/ebbe-flut.md): the two-player card-pushing game and its solo variant."""

from engines.core import Capabilities, Descriptor, Game, Mix
from engines.ebbeflut.game import EbbeFlut, EbbeFlutSolo

#: the two-player game's open simultaneous step (both seats place, then both see) is not a secret one
DESCRIPTORS = [
    Descriptor(Game(EbbeFlut()), Capabilities(chance=frozenset({"pick"}), simultaneous=True),
               mix=Mix(2, 1.5, frames=300)),
    Descriptor(Game(EbbeFlutSolo()), Capabilities(chance=frozenset({"pick"})), page="ebbe-flut", mix=Mix(1, 0.5)),
]

__all__ = ["DESCRIPTORS", "EbbeFlut", "EbbeFlutSolo"]
