"""Turning Tides (docs/rules/turning-tides.md): two pirate ships pass each other, zone by zone."""

from engines.core import Game
from engines.tides.game import TurningTides

GAMES = [Game(TurningTides())]

__all__ = ["GAMES", "TurningTides"]
