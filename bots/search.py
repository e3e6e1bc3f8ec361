"""A generic determinized flat Monte Carlo search over the engine contract: the core of the `hard` bots.

Why flat Monte Carlo and not a tree: the small games' medium bots already see their own turn well, and
what they miss is what comes after it (the dice, the draws, the opponent's answer). Sampling a few
short futures of each of the medium bot's best candidates, with a cheap policy playing every seat,
measures exactly that, at a cost that is fixed in advance: candidates x rollouts x horizon decisions.
The budget is counted in those units, never in time, so a choice is a pure function of the knowledge
state, the seat, the legal list and the rng.

Hidden information is never peeked at. The search runs on the seat's own knowledge state, in which
every other seat's private part is HIDDEN, and keeps it that way: another seat's private chance point
is fed HIDDEN (as its peer's copy would), so that seat's later actions are drawn from what public
knowledge allows (`legal()` on a HIDDEN part lists exactly that); the seat's own private chance points
and every public one are sampled with `sample_outcome` from the bot's rng. A shared-deck deal, whose
remaining cards no seat knows, ends a rollout where it stands.

Each rollout of a decision is seeded once and the same seeds are used for every candidate (common
random numbers): candidates are compared on the same dice and draws, which takes most of the noise
out of a small sample.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bots.lib import Bot, forced, game_actions, sample_outcome
from engines.core import HIDDEN, Game, IllegalAction, State

__all__ = ["Budget", "MonteCarlo", "rollout"]

#: a value function: the position from `seat`'s side, higher is better (ints or floats; wins large)
Value = Callable[[Game, State, int], float]


@dataclass(frozen=True, slots=True)
class Budget:
    """What one decision may spend: `candidates` actions compared, `rollouts` futures of each, and
    `horizon` decisions (of any seat) in each future before the value function judges it."""

    candidates: int = 4
    rollouts: int = 8
    horizon: int = 12


def _chance_value(game: Game, state: State, seat: int, rng: Any) -> Any:
    """The value this seat's copy may feed at the pending chance point, or None to stop the rollout."""
    chance = game.awaiting(state).chance
    if chance.private_to is not None and chance.private_to != seat:
        return HIDDEN
    if chance.kind == "deal":
        return None
    return sample_outcome(game, state, rng)


def rollout(game: Game, state: State, seat: int, policy: Bot, rng: Any, horizon: int, value: Value) -> float:
    """Play `horizon` decisions from `state` (seat's knowledge state), every seat by `policy`, and judge
    the position reached by `value` from `seat`'s side.

    A simultaneous step is chosen by every awaited seat on the same position, then applied in the
    listed order, as the referee does. An action the engine refuses (a policy's mistake on a HIDDEN
    part) ends the rollout where it stands rather than the decision."""
    decisions = 0
    steps = 0
    while decisions < horizon and steps < 4 * horizon + 8:
        steps += 1
        waiting = game.awaiting(state)
        if waiting.kind == "over":
            break
        try:
            if waiting.kind == "chance":
                outcome = _chance_value(game, state, seat, rng)
                if outcome is None:
                    break
                state = game.chance(state, outcome)
                continue
            choices = [(s, policy.choose(game, state, s, game.legal(state, s), rng)) for s in waiting.seats]
            for s, action in choices:
                state = game.play(state, s, action)
        except IllegalAction:
            break
        decisions += 1
    return value(game, state, seat)


def _apply(game: Game, state: State, seat: int, action: str, policy: Bot, rng: Any) -> State:
    """`action` played; in a simultaneous step the other awaited seats choose by `policy` on the same
    position, and the choices are applied in the listed order (the engine takes no other)."""
    waiting = game.awaiting(state)
    if waiting.kind != "simultaneous" or waiting.seats == (seat,):
        return game.play(state, seat, action)
    choices = [(s, action if s == seat else policy.choose(game, state, s, game.legal(state, s), rng))
               for s in waiting.seats]
    for s, chosen in choices:
        state = game.play(state, s, chosen)
    return state


class MonteCarlo:
    """Flat Monte Carlo over the best `Budget.candidates` actions of `rank`, by `policy` rollouts.

    A game's hard bot subclasses it and names `policy` (a cheap bot that plays every seat in the
    rollouts), `budget`, and overrides `rank` (its candidates, best first: usually the medium bot's own
    ordering, which also prunes Madagaskar's thousands of walks) and `value`. The first candidate wins
    ties, so with a tiny budget the bot falls back to the ranking's choice."""

    name = "hard"
    budget = Budget()
    policy: type   # set by each subclass: the bot class that plays every seat in the rollouts

    def __init__(self) -> None:
        self._policy = self.policy()

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        obvious = forced(legal)
        if obvious is not None:
            return obvious
        actions = game_actions(legal)
        candidates = list(self.rank(game, state, seat, actions, rng))[: self.budget.candidates]
        if len(candidates) == 1:
            return candidates[0]
        seeds = [rng.getrandbits(64) for _ in range(self.budget.rollouts)]
        best, best_total = candidates[0], None
        for action in candidates:
            total = self.mean(game, state, seat, action, seeds, type(rng))
            if best_total is None or total > best_total:
                best, best_total = action, total
        return best

    def mean(self, game: Game, state: State, seat: int, action: str, seeds: Sequence[int], make: type) -> float:
        """The sum of the rollouts' values after `action` (a sum: every candidate has as many)."""
        total = 0.0
        for seed in seeds:
            rng = make(seed)
            try:
                after = _apply(game, state, seat, action, self._policy, rng)
            except IllegalAction:
                return float("-inf")
            total += rollout(game, after, seat, self._policy, rng, self.budget.horizon, self.value)
        return total

    def rank(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> Sequence[str]:
        """The candidates, best first."""
        return actions

    def value(self, game: Game, state: State, seat: int) -> float:
        raise NotImplementedError
