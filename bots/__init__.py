"""The bots: at least `random` and `smart` for every game, each using only the engine contract and
seeing only its own seat's knowledge state (docs/engine-contract.md).

`bots.for_game(game_id)` gives a game's bots by name; `bots.make(game_id, names, players)` builds one per
seat. Only the front ends (client/) and tests import this package: the session takes any `Decider`,
and `bots.decider.BotDecider` is the one that plays a bot.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

import engines

__all__ = ["for_game", "make"]

# game id -> the bots module of its family; one line per game package
_MODULES = {
    "catan": "bots.catan",
    "catan-ck": "bots.catan_ck",
    "ebbe-flut": "bots.ebbeflut",
    "ebbe-flut-solo": "bots.ebbeflut",
    "loyal-captain": "bots.kidd",
    "madagaskar": "bots.kidd",
    "quedah-merchant": "bots.kidd",
    "ploc": "bots.ploc",
    "turning-tides": "bots.tides",
}


def for_game(game_id: str) -> dict[str, type]:
    """The bots of a game by name ("random", "smart", ...); UnknownGame for an unknown id."""
    engines.get(game_id)
    module = _MODULES.get(game_id)
    if module is None:
        raise LookupError(f"{game_id} has no bots (add its module to bots._MODULES)")
    bots = import_module(module).BOTS
    return dict(bots(game_id) if callable(bots) else bots)


def make(game_id: str, names: list[str], players: int) -> list[Any]:
    """One bot per seat, the names taken in turn; a ValueError names an unknown bot."""
    known = for_game(game_id)
    chosen = [names[i % len(names)] for i in range(players)]
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} for {game_id} (bots: {', '.join(sorted(known))})")
    return [known[n]() for n in chosen]
