"""Ploc (docs/rules/ploc.md): two matches of a dice tug-of-war between Plockton and Broadford."""

from engines.core import Capabilities, Descriptor, Game, Mix
from engines.ploc.game import Ploc

#: a long game (two matches of many rolls): the quick campaigns play it rarely
DESCRIPTORS = [Descriptor(Game(Ploc()), Capabilities(chance=frozenset({"dice", "pick"})), mix=Mix(1, 0.5, frames=900))]

__all__ = ["DESCRIPTORS", "Ploc"]
