"""The bots: the levels `easy`, `medium` and `hard`, and `random`, for every game, each using only the
engine contract and seeing only its own seat's knowledge state (docs/engine-contract.md, docs/bots.md).
`smart` is another name for `medium`, so that older commands, settings and tests keep working.

`bots.for_game(game_id)` gives a game's bots by name; `bots.make(game_id, names, players)` builds one per
seat. Only the front ends (client/) and tests import this package: the session takes any `Decider`,
and `bots.decider.BotDecider` is the one that plays a bot.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import Any

import engines
from bots.lib import RandomBot

__all__ = ["LEVELS", "for_game", "make"]

#: the levels every game offers, weakest first (front ends list them in this order)
LEVELS = ("easy", "medium", "hard")


def for_game(game_id: str) -> dict[str, type]:
    """The bots of a game by name ("random", "easy", "medium", "smart", "hard", ...); UnknownGame for an
    unknown id.

    They are found by the engine package's name: `bots/<family>_levels.py`, else `bots/<family>.py`, with `BOTS`
    (a table, or a function of the game id for a family of several games; a family whose level modules build
    on the medium bot keeps its table in `_levels`, so that no module imports the module that imports it). A
    game without such a module is played by the random bot under every name, so that every front end and test
    can seat any level at any game. A table that names `smart` but not `medium` gets `medium` as the same class
    (the two names are one bot)."""
    family = engines.describe(game_id).family
    found = [m for m in (f"{__name__}.{family}_levels", f"{__name__}.{family}") if family and find_spec(m)]
    if not found:
        return {"random": RandomBot, "smart": RandomBot, **dict.fromkeys(LEVELS, RandomBot)}
    bots = import_module(found[0]).BOTS
    table = dict(bots(game_id) if callable(bots) else bots)
    if "smart" in table and "medium" not in table:
        table["medium"] = table["smart"]
    return table


def make(game_id: str, names: list[str], players: int) -> list[Any]:
    """One bot per seat, the names taken in turn; a ValueError names an unknown bot."""
    known = for_game(game_id)
    chosen = [names[i % len(names)] for i in range(players)]
    unknown = [n for n in chosen if n not in known]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} for {game_id} (bots: {', '.join(sorted(known))})")
    return [known[n]() for n in chosen]
