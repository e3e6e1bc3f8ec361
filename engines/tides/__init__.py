"""Turning Tides (rules/turning-tides.md): two pirate ships pass each other, zone by zone."""

from engines.tides.game import TurningTides

GAMES = [TurningTides()]

__all__ = ["GAMES", "TurningTides"]
