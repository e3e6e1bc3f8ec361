"""Ebbe & Flut (docs/rules/ebbe-flut.md): the two-player card-pushing game and its solo variant."""

from engines.core import Game
from engines.ebbeflut.game import EbbeFlut, EbbeFlutSolo

GAMES = [Game(EbbeFlut()), Game(EbbeFlutSolo())]

__all__ = ["GAMES", "EbbeFlut", "EbbeFlutSolo"]
