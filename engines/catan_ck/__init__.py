"""Catan: Cities & Knights (docs/rules/catan-ck.md), built on the base engine of engines.catan."""

from engines.catan_ck.game import CatanCK
from engines.core import Game

GAMES = [Game(CatanCK())]

__all__ = ["GAMES", "CatanCK"]
