"""Which `Words` tells which game: the module named for the game's engine package (`client/story/<family>.py`,
its `WORDS`), else the generic `Words`, so that a new game is told in its engine's own `describe` words until
it has a module of its own."""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

import engines
from client.story.words import Words
from engines.core import Game

__all__ = ["words_class", "words_for"]


def words_class(game_id: str) -> type[Words]:
    try:
        family = engines.describe(game_id).family
    except engines.UnknownGame:
        return Words
    name = f"{__package__}.{family}"
    if not family or find_spec(name) is None:
        return Words
    return getattr(import_module(name), "WORDS", Words)


def words_for(game: Game, names: list[str], me: int | None, all_known: bool = False) -> Words:
    return words_class(game.id)(game, names, me, all_known)
