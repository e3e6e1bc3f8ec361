"""Self-play: bots play whole games on this machine through the referee (engines.referee), which
keeps every seat's knowledge state as a networked peer would; each bot sees only its own.

Used by `netplay selfplay` and `watch`, the benchmarks and the tests.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bots
import engines
from engines.core import Game, State, interrupts_step
from engines.referee import Referee, Step

__all__ = ["MatchRecord", "Tally", "play_match", "run_many"]


@dataclass(slots=True)
class MatchRecord:
    game: str
    players: int
    options: dict
    seed: int
    steps: list[Step] = field(default_factory=list)
    result: engines.Result | None = None
    digests: list[bytes] = field(default_factory=list)

    @property
    def actions(self) -> int:
        return sum(1 for s in self.steps if s.kind == "play")


def play_match(
    game: Game,
    bots: list[Any],
    seed: int,
    players: int = 2,
    options: dict | None = None,
    max_steps: int = 100_000,
    check_views: bool = True,
    on_step: Callable[[State, Step], None] | None = None,
    table: Referee | None = None,
) -> MatchRecord:
    """Play one game to the end and return its record (chance values and actions in order). With
    `table`, the game goes on from that referee's position (a replay's sandbox) instead of the start."""
    if table is None:
        table = Referee(game, players, options, seed, check_views)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    record = MatchRecord(game.id, players, dict(options or {}), seed, table.steps, None, table.digests)
    # the table's methods looked up once: this loop runs at every step of every benchmark game
    steps, awaiting, awaited_seats, legal, submit = (table.steps, table.awaiting, table.awaited_seats, table.legal,
                                                     table.submit)
    knowing = table.state_of
    while len(steps) < max_steps:
        waiting = awaiting()
        kind = waiting.kind
        if kind == "over":
            record.result = game.result(table.state)
            return record
        if kind == "chance":
            applied = [table.feed_chance()]
        else:
            applied = []
            for seat in awaited_seats(waiting):
                action = bots[seat].choose(game, knowing(seat), seat, legal(seat), rngs[seat])
                applied += submit(seat, action, waiting)  # nothing is applied until the last seat chose
                if interrupts_step(action):
                    break
        if on_step is not None:
            for step in applied:
                on_step(table.state, step)
    raise RuntimeError(f"{game.id} seed {seed}: no end after {max_steps} steps")


@dataclass(slots=True)
class Tally:
    games: int = 0
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    actions: int = 0
    steps: int = 0
    seconds: float = 0.0


def run_many(game: Game, bot_names: list[str], n: int, seed: int, players: int = 2, options: dict | None = None,
             progress: Callable[[int, int], None] | None = None, check_views: bool = False) -> Tally:
    tally = Tally(wins=[0] * players)
    start = time.perf_counter()
    for i in range(n):
        players_bots = bots.make(game.id, bot_names, players)
        record = play_match(game, players_bots, seed + i, players, options, check_views=check_views)
        tally.games += 1
        tally.actions += record.actions
        tally.steps += len(record.steps)
        if record.result is not None and record.result.winners and len(record.result.winners) == 1:
            tally.wins[record.result.winners[0]] += 1
        else:
            tally.draws += 1
        if progress is not None:
            progress(i + 1, n)
    tally.seconds = time.perf_counter() - start
    return tally
