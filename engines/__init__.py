"""The rules engines, one package per game family, behind the contract of `engines.core`.

Every package under `engines/` that declares `DESCRIPTORS` (a list of `engines.core.Descriptor`, one per game)
is a game family: it is found by scanning this directory, so adding a game is adding its package. The other
layers find their parts of a game from its descriptor (`describe(id).family`: `bots/<family>.py`,
`client/games/<family>.py`, ...). `engines.GAMES` maps a game id to its `Game`, sorted by id;
`engines.DESCRIPTORS` the same ids to their descriptors; `engines.get(id)` and `engines.describe(id)` look one
up and raise `UnknownGame` with the known ids. The bots of a game are in the `bots` package (`bots.for_game(id)`).
"""

from __future__ import annotations

import pkgutil
from dataclasses import replace
from importlib import import_module

from engines.core import (
    HIDDEN,
    Awaiting,
    Capabilities,
    Chance,
    Descriptor,
    Game,
    IllegalAction,
    Mix,
    Option,
    Result,
    State,
    UnknownGame,
    uniform,
)


def _discover() -> dict[str, Descriptor]:
    """The descriptors of every game package under engines/, each with its package's name as `family`.

    Modules (core, game, referee, ...) are not families; a package without `DESCRIPTORS` is a helper, not a
    game. Two games with one id are refused: which one a peer plays must not depend on the scan's order."""
    found: dict[str, Descriptor] = {}
    for info in pkgutil.iter_modules(__path__):
        if not info.ispkg:
            continue
        module = import_module(f"{__name__}.{info.name}")
        for descriptor in getattr(module, "DESCRIPTORS", ()):
            if descriptor.id in found:
                raise RuntimeError(f"game id {descriptor.id!r} is declared by engines.{found[descriptor.id].family} "
                                   f"and engines.{info.name}")
            found[descriptor.id] = replace(descriptor, family=info.name)
    return dict(sorted(found.items()))


DESCRIPTORS: dict[str, Descriptor] = _discover()
GAMES: dict[str, Game] = {gid: d.game for gid, d in DESCRIPTORS.items()}


def get(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGame(f"unknown game {game_id!r} (known: {known})") from None


def describe(game_id: str) -> Descriptor:
    """A game's descriptor. A game put in `GAMES` by hand (a test's or a benchmark's toy game) has none: it is
    described with no family and no mix, so every layer gives it its generic part."""
    found = DESCRIPTORS.get(game_id)
    if found is not None:
        return found
    return Descriptor(get(game_id), mix=None)


__all__ = [
    "DESCRIPTORS",
    "GAMES",
    "HIDDEN",
    "Awaiting",
    "Capabilities",
    "Chance",
    "Descriptor",
    "Game",
    "IllegalAction",
    "Mix",
    "Option",
    "Result",
    "State",
    "UnknownGame",
    "describe",
    "get",
    "uniform",
]
