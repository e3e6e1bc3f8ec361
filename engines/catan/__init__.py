"""Catan (docs/rules/catan.md): the base game, built from parts Cities & Knights reuses (board geometry,
cards and notation, trade, longest road, the turn machine)."""

from engines.catan.game import Catan
from engines.core import Game

GAMES = [Game(Catan())]

__all__ = ["GAMES", "Catan"]
