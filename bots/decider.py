"""A bot as the decider of a networked seat: it implements the session's `Decider` protocol
(netplay.session), so a host or joiner plays a seat with a bot exactly as with a person."""

from __future__ import annotations

import random
import time
from typing import Any

import bots
from engines.core import Game, State

__all__ = ["BotDecider"]


class BotDecider:
    """A bot of the game (by name: "random", "smart", ...) that plays `games` games in a row."""

    def __init__(self, name: str, games: int = 1, seed: int | None = None, delay_s: float = 0.0):
        self.name, self.games, self.delay_s = name, games, delay_s
        self.rng = random.Random(seed)
        self.bot: Any = None

    def prepare(self, game: Game) -> None:
        table = bots.for_game(game.id)
        if self.name not in table:
            raise ValueError(f"{game.id} has no bot {self.name!r} (bots: {', '.join(sorted(table))})")
        self.bot = table[self.name]()

    def decide(self, game: Game, state: State, seat: int, legal: list[str]) -> str | None:
        if self.delay_s:
            time.sleep(self.delay_s)
        return self.bot.choose(game, state, seat, legal, self.rng)

    def rematch(self, games_done: int) -> bool | None:
        return games_done < self.games
