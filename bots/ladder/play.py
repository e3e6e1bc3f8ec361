"""One ladder game: a cell's seating at one deal, played through the referee, each decision timed.

Chance outcomes come from the deal's seed, but not as `Referee.feed_chance` draws them by default
(from the seed and the *step number*, engines/referee.py): two mirrored games of a rotation reach
their first roll after different numbers of actions as soon as the bots differ, and would then see
different dice. Here the k-th chance point of each stream is drawn from (deal seed, stream, k), a
stream being the chance's kind, label and private owner: the k-th roll of the dice, or the k-th card
seat 1 draws, is the same in every game of a rotation (common random numbers), whatever the bots did
in between. The values are still fed to the referee, which checks them and keeps every seat's
knowledge state as on the network; bots see only their own.

Decision times (`time.perf_counter`) are measured for the report only: nothing a bot or a count
depends on reads the clock.
"""

from __future__ import annotations

import random
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

import bots
import engines
from bots.ladder.cells import Cell, GameSpec
from engines.core import Chance, interrupts_step
from engines.referee import Referee, seeded_bytes

__all__ = ["Failure", "Outcome", "chance_stream", "play_game", "play_rotation"]

#: a game that has not ended after this many steps is a bug of a bot or an engine, reported as such
MAX_STEPS = 100_000


@dataclass(slots=True)
class Outcome:
    """How one game ended, and what it cost, in plain values (it crosses back from a worker)."""

    index: int
    deal: int
    seed: int
    seating: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    actions: int
    #: seconds per decision, one list per seat
    times: list[list[float]] = field(default_factory=list)
    #: the chance values fed, in order (only when asked for: the CRN test reads them)
    chances: list[Any] = field(default_factory=list)


@dataclass(slots=True)
class Failure:
    """A game that raised: which game and seed, and the traceback as text (an exception object may not
    cross back from a worker)."""

    cell: str
    index: int
    seed: int
    seating: tuple[str, ...]
    error: str

    def describe(self) -> str:
        return (f"{self.cell}: game {self.index} (seed {self.seed}, seats {', '.join(self.seating)}) "
                f"failed:\n{self.error}")


def chance_stream(chance: Chance) -> str:
    """The stream a chance point is drawn from: its kind, its words and the seat it is private to."""
    return f"{chance.kind}/{chance.label}/{chance.private_to}"


def play_game(game_id: str, spec: GameSpec, options: dict | None = None, keep_chances: bool = False) -> Outcome:
    """Play the game `spec` names to its end; every bot is built afresh (bots may keep memories)."""
    game = engines.get(game_id)
    players = spec.cell.players
    seating = spec.seating
    seated = bots.make(game_id, list(seating), players)
    rngs = [random.Random(spec.bot_seed(seat)) for seat in range(players)]
    table = Referee(game, players, options, spec.seed, check_views=False)
    drawn: dict[str, int] = {}
    times: list[list[float]] = [[] for _ in range(players)]
    chances: list[Any] = []
    clock = time.perf_counter
    actions = 0
    while len(table.steps) < MAX_STEPS:
        waiting = table.awaiting()
        if waiting.kind == "over":
            result = game.result(table.state)
            assert result is not None  # (an ended game has its result)
            return Outcome(spec.index, spec.deal, spec.seed, seating, tuple(result.winners), tuple(result.scores),
                           result.reason, actions, times, chances)
        if waiting.kind == "chance":
            chance = waiting.chance
            assert chance is not None  # (a chance point names its domain)
            value = None
            if chance.kind != "show":  # a look at a hand has no randomness: the referee discloses it
                stream = chance_stream(chance)
                k = drawn.get(stream, 0)
                drawn[stream] = k + 1
                value = table.outcome(chance, seeded_bytes(spec.seed, "ladder", stream, k))
            step = table.feed_chance(value)
            if keep_chances:
                chances.append(step.value)
            continue
        for seat in table.awaited_seats(waiting):
            legal = table.legal(seat)
            start = clock()
            action = seated[seat].choose(game, table.state_of(seat), seat, legal, rngs[seat])
            times[seat].append(clock() - start)
            actions += 1
            table.submit(seat, action, waiting)
            if interrupts_step(action):
                break
    raise RuntimeError(f"{game_id} seed {spec.seed}: no end after {MAX_STEPS} steps")


def play_rotation(game_id: str, options: dict, subject: str, opponent: str | None, players: int, base_seed: int,
                  deal: int) -> list[Outcome] | Failure:
    """Every game of one deal of a cell (the subject in each seat in turn), or the first game that
    failed. Only names and ints come in, so that this runs in a worker process as well as here."""
    cell = Cell(subject, opponent, players)
    outcomes = []
    for rotation in range(cell.rotation):
        spec = cell.game(base_seed, deal * cell.rotation + rotation)
        try:
            outcomes.append(play_game(game_id, spec, options))
        except Exception:  # noqa: BLE001  (any bug of a bot or an engine: reported with its game and seed)
            return Failure(cell.key, spec.index, spec.seed, spec.seating, traceback.format_exc())
    return outcomes
