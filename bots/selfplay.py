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
from engines.core import HIDDEN, Game, State, outcome_from_bytes


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
    referee = game.start(players, options or {})
    knowing = [referee] * players
    # Until the first secret, every seat knows what the referee knows: share the one state (a
    # perfect-information game never pays for knowledge states).
    diverged = False
    rngs = [random.Random(f"{seed}/{seat}") for seat in range(players)]
    record = MatchRecord(game.id, players, dict(options or {}), seed)
    for n in range(max_steps):
        waiting = game.awaiting(referee)
        if waiting.kind == "over":
            record.result = game.result(referee)
            return record
        if waiting.kind == "chance":
            value = outcome_from_bytes(waiting.chance, seeded_bytes(seed, n))
            owner = waiting.chance.private_to
            referee = game.chance(referee, value)
            diverged = diverged or owner is not None
            knowing = ([game.chance(k, value if owner in (None, s) else HIDDEN) for s, k in enumerate(knowing)]
                       if diverged else [referee] * players)
            step = Step(None, value, "chance")
        else:
            # a simultaneous step: every awaited seat chooses before any choice is applied
            movers = waiting.seats if waiting.kind == "simultaneous" else waiting.seats[:1]
            chosen = [(seat, bots[seat].choose(game, knowing[seat], seat, game.legal(knowing[seat], seat), rngs[seat]))
                      for seat in movers]
            secret = waiting.kind == "simultaneous" and waiting.secret
            steps = []
            diverged = diverged or secret
            for seat, action in chosen:
                referee = game.play(referee, seat, action)
                knowing = ([game.play(k, seat, HIDDEN if secret and s != seat else action)
                            for s, k in enumerate(knowing)] if diverged else [referee] * players)
                steps.append(Step(seat, action, "play"))
                if action in ("resign", "offer draw"):
                    break  # the step is interrupted; the others choose again afterwards
            step = steps[-1]
            record.steps.extend(steps[:-1])
        record.steps.append(step)
        if check_views:
            digest = game.digest(referee)
            for s, k in enumerate(knowing):
                if k is not referee and game.digest(k) != digest:
                    raise Desync(f"{game.id} seed {seed}: seat {s}'s knowledge state differs after step {n}")
            record.digests.append(digest)
        if on_step is not None:
            on_step(referee, step)
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
