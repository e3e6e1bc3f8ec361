"""A bot as the decider of a networked seat: it implements the session's `Decider` protocol
(netplay.session), so a host or joiner plays a seat with a bot exactly as with a person.

Deciding never blocks the session loop (which must keep answering heartbeats and frames): a delay
(`--bot-delay`, so people can follow a bot's moves) is a deadline, not a sleep; until it has
passed, `decide` answers None and the session goes on polling."""

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
        self._asked: tuple[State, int] | None = None   # the decision point the delay runs for
        self._ready_at = 0.0

    def prepare(self, game: Game) -> None:
        table = bots.for_game(game.id)
        if self.name not in table:
            raise ValueError(f"{game.id} has no bot {self.name!r} (bots: {', '.join(sorted(table))})")
        self.bot = table[self.name]()

    def decide(self, game: Game, state: State, seat: int, legal: list[str]) -> str | None:
        if self.delay_s:
            now = time.monotonic()
            asked = self._asked
            if asked is None or asked[0] is not state or asked[1] != seat:
                self._asked, self._ready_at = (state, seat), now + self.delay_s
            if now < self._ready_at:
                return None
            self._asked = None
        return self.bot.choose(game, state, seat, legal, self.rng)

    def hear(self, seat: int, text: str) -> None:
        """A chat line of another seat, for a bot that listens (a counter-offer: bots/counters.py)."""
        hear = getattr(self.bot, "hear", None)
        if hear is not None:
            hear(seat, text)

    def said(self) -> list[str]:
        """What the bot says with the choice it just made (the session sends it as chat)."""
        said = getattr(self.bot, "said", None)
        return said() if said is not None else []

    def due_in(self) -> float:
        """Seconds until a delayed decision is due (0 when none is waiting): the session polls the
        network at most this long before asking again."""
        return max(0.0, self._ready_at - time.monotonic()) if self._asked is not None else 0.0

    def rematch(self, games_done: int) -> bool | None:
        return games_done < self.games
