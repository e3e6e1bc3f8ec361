"""Ebbe & Flut (rules/ebbe-flut.md): the two-player card-pushing game and its solo variant."""

from engines.ebbeflut.game import EbbeFlut, EbbeFlutSolo

GAMES = [EbbeFlut(), EbbeFlutSolo()]

__all__ = ["GAMES", "EbbeFlut", "EbbeFlutSolo"]
