"""Ploc (rules/ploc.md): two matches of a dice tug-of-war between Plockton and Broadford."""

from engines.ploc.game import Ploc

GAMES = [Ploc()]

__all__ = ["GAMES", "Ploc"]
