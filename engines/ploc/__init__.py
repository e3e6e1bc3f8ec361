"""Ploc (docs/rules/ploc.md): two matches of a dice tug-of-war between Plockton and Broadford."""

from engines.core import Game
from engines.ploc.game import Ploc

GAMES = [Game(Ploc())]

__all__ = ["GAMES", "Ploc"]
