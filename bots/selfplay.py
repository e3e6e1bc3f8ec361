"""Local games between bots, with hidden information handled as on the network.

The driver holds the referee state (which knows every secret) and one knowledge state per seat, in
which every other seat's private chance outcomes and secret choices are HIDDEN, exactly as a
networked peer's engine would hold it. Bots see only their own knowledge state, and after every step
all knowledge states must agree with the referee on the public digest; a mismatch is an engine bug
(it would be a desync on the network), so it is raised at once.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import engines
from engines.botlib import seeded_bytes
from engines.core import COMMON_ACTIONS, HIDDEN, Game, IllegalAction, State, outcome_from_bytes


class Desync(RuntimeError):
    """A seat's knowledge state disagrees with the referee's public digest."""


@dataclass(slots=True)
class Step:
    """One recorded step: a chance value (seat None) or a seat's action."""

    seat: int | None
    value: Any
    kind: str  # "chance" | "play"


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


def make_bots(game_id: str, names: list[str], players: int) -> list[Any]:
    table = engines.bots(game_id)
    chosen = [names[i % len(names)] for i in range(players)]
    unknown = [n for n in chosen if n not in table]
    if unknown:
        raise ValueError(f"unknown bot {unknown[0]!r} for {game_id} (bots: {', '.join(sorted(table))})")
    return [table[n]() for n in chosen]


class LocalTable:
    """A game on this machine: the referee state plus one knowledge state per seat.

    Drivers (the self-play loop, the client's local games, the replay recorder) call `feed_chance`
    when the game waits for chance and `submit` with every awaited seat's choice; a simultaneous
    step is applied only once every awaited seat has chosen, in seat order, so no seat's choice can
    depend on another's.
    """

    def __init__(self, game: Game, players: int, options: dict | None, seed: int, check_views: bool = True):
        self.game = game
        self.players = players
        self.seed = seed
        self.check_views = check_views
        self.referee = game.start(players, options or {})
        # Until the first secret, every seat knows what the referee knows: share the one state (a
        # perfect-information game never pays for knowledge states).
        self.knowing = [self.referee] * players
        self.diverged = False
        self.pending: dict[int, str] = {}
        self.steps: list[Step] = []
        self.digests: list[bytes] = []

    def awaiting(self):
        return self.game.awaiting(self.referee)

    def state_of(self, seat: int) -> State:
        return self.knowing[seat]

    def awaited_seats(self) -> tuple[int, ...]:
        """Seats that still have to choose (for a simultaneous step: those not yet chosen)."""
        waiting = self.awaiting()
        if waiting.kind == "move":
            return waiting.seats[:1]
        if waiting.kind == "simultaneous":
            return tuple(s for s in waiting.seats if s not in self.pending)
        return ()

    def feed_chance(self, value: Any = None) -> Step:
        """Resolve the chance point, with `value` or one drawn from the seed."""
        waiting = self.awaiting()
        if value is None:
            value = outcome_from_bytes(waiting.chance, seeded_bytes(self.seed, len(self.steps)))
        owner = waiting.chance.private_to
        self.referee = self.game.chance(self.referee, value)
        self.diverged = self.diverged or owner is not None
        self._follow(lambda s, k: self.game.chance(k, value if owner in (None, s) else HIDDEN))
        return self._record(Step(None, value, "chance"))

    def submit(self, seat: int, action: str) -> list[Step]:
        """A seat's choice; returns the steps applied (none while a simultaneous step still waits)."""
        waiting = self.awaiting()
        if waiting.kind != "simultaneous" or action in COMMON_ACTIONS:
            return [self._apply(seat, action, secret=False)]
        if action not in self.game.legal(self.knowing[seat], seat):
            raise IllegalAction(f"{action!r} is not among seat {seat}'s choices")
        self.pending[seat] = action
        if any(s not in self.pending for s in waiting.seats):
            return []
        chosen, self.pending = sorted(self.pending.items()), {}
        return [self._apply(s, a, secret=waiting.secret) for s, a in chosen]

    def _apply(self, seat: int, action: str, secret: bool) -> Step:
        self.referee = self.game.play(self.referee, seat, action)
        self.diverged = self.diverged or secret
        self._follow(lambda s, k: self.game.play(k, seat, HIDDEN if secret and s != seat else action))
        if action in COMMON_ACTIONS:
            self.pending = {}  # an interrupted simultaneous step is chosen afresh
        return self._record(Step(seat, action, "play"))

    def _follow(self, apply: Callable[[int, State], State]) -> None:
        if self.diverged:
            self.knowing = [apply(s, k) for s, k in enumerate(self.knowing)]
        else:
            self.knowing = [self.referee] * self.players

    def _record(self, step: Step) -> Step:
        self.steps.append(step)
        if self.check_views:
            digest = self.game.digest(self.referee)
            for s, k in enumerate(self.knowing):
                if k is not self.referee and self.game.digest(k) != digest:
                    raise Desync(f"{self.game.id} seed {self.seed}: seat {s}'s knowledge state differs "
                                 f"after step {len(self.steps) - 1}")
            self.digests.append(digest)
        return step


def play_match(
    game: Game,
    bots: list[Any],
    seed: int,
    players: int = 2,
    options: dict | None = None,
    max_steps: int = 100_000,
    check_views: bool = True,
    on_step: Callable[[State, Step], None] | None = None,
) -> MatchRecord:
    """Play one game to the end and return its record (chance values and actions in order)."""
    table = LocalTable(game, players, options, seed, check_views)
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    record = MatchRecord(game.id, players, dict(options or {}), seed, table.steps, None, table.digests)
    while len(table.steps) < max_steps:
        waiting = table.awaiting()
        if waiting.kind == "over":
            record.result = game.result(table.referee)
            return record
        if waiting.kind == "chance":
            applied = [table.feed_chance()]
        else:
            applied = []
            for seat in table.awaited_seats():
                state = table.state_of(seat)
                action = bots[seat].choose(game, state, seat, game.legal(state, seat), rngs[seat])
                applied += table.submit(seat, action)
                if action in COMMON_ACTIONS:
                    break
        if on_step is not None:
            for step in applied:
                on_step(table.referee, step)
    raise RuntimeError(f"{game.id} seed {seed}: no end after {max_steps} steps")


def replay_steps(game: Game, players: int, options: dict, steps: list[Step]) -> list[bytes]:
    """Re-apply a record's steps to a fresh state; the digests after each step."""
    state = game.start(players, options)
    out = []
    for step in steps:
        state = game.chance(state, step.value) if step.kind == "chance" else game.play(state, step.seat, step.value)
        out.append(game.digest(state))
    return out


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
        bots = make_bots(game.id, bot_names, players)
        record = play_match(game, bots, seed + i, players, options, check_views=check_views)
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
