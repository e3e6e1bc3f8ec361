"""Bots as deciders of simulated peers: the random bot (every game has it), each choice a pure function of
the run's seed, the seat and the knowledge state, so a run replays exactly, also across a crash and
resume; a decision may take simulated thinking time."""

from __future__ import annotations

import random
from typing import Any

from bots.lib import RandomBot
from engines.core import Game, State

__all__ = ["SimBot"]


class SimBot:
    """Decides at once, or after `think` simulated seconds (a pure function of the decision point)."""

    def __init__(self, world: Any, seed: int, think: float = 0.0, rematches: int = 0):
        self.world, self.seed, self.think, self.rematches = world, seed, think, rematches
        self.bot = RandomBot()
        self._asked: tuple[int, int] | None = None
        self._ready_at = 0.0

    def prepare(self, game: Game) -> None:
        pass

    def decide(self, game: Game, state: State, seat: int, legal: list[str]) -> str | None:
        rng = random.Random(f"{self.seed}/{seat}/{state.plies}/{game.digest(state).hex()}")
        if self.think:
            point = (seat, state.plies)
            if self._asked != point:
                self._asked, self._ready_at = point, self.world.now + rng.uniform(0, self.think)
            if self.world.now < self._ready_at:
                return None
        return self.bot.choose(game, state, seat, legal, rng)

    def rematch(self, games_done: int) -> bool | None:
        return games_done <= self.rematches
