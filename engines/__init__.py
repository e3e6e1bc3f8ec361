"""The rules engines, one package per game, behind the contract of `engines.core`.

`engines.GAMES` maps a game id to its `Game`; `engines.get(id)` looks one up and raises
`UnknownGame` with the known ids. The bots of a game are in the `bots` package (`bots.for_game(id)`).
"""

from __future__ import annotations

from importlib import import_module

from engines.core import (
    HIDDEN,
    Awaiting,
    Chance,
    Game,
    IllegalAction,
    Option,
    Result,
    State,
    UnknownGame,
    uniform,
)

# game package -> the module attribute listing its games; one line per package
_PACKAGES = (
    "engines.catan",
    "engines.catan_ck",
    "engines.ebbeflut",
    "engines.kidd",
    "engines.ploc",
    "engines.tides",
)


def _load() -> dict[str, Game]:
    games: dict[str, Game] = {}
    for name in _PACKAGES:
        for game in import_module(name).GAMES:
            games[game.id] = game
    return dict(sorted(games.items()))


GAMES: dict[str, Game] = _load()


def get(game_id: str) -> Game:
    try:
        return GAMES[game_id]
    except KeyError:
        known = ", ".join(GAMES)
        raise UnknownGame(f"unknown game {game_id!r} (known: {known})") from None


__all__ = [
    "GAMES",
    "HIDDEN",
    "Awaiting",
    "Chance",
    "Game",
    "IllegalAction",
    "Option",
    "Result",
    "State",
    "UnknownGame",
    "get",
    "uniform",
]
