"""A shallow expectimax over one seat's own steps of its turn, for the Catan bots that search.

Why only the seat's own steps: between the roll and "end" a Catan turn is the seat's alone and almost
free of chance, and it is where the choices that need a look ahead lie: a maritime trade is worth
nothing by itself, only for the build it completes (two steps); a knight is worth what the robber and
the steal after it bring (the robber and the steal are part of the same action and cost no depth).
Beyond "end" come the other seats' turns and dice, which the value function prices instead.

The search goes through the engine contract only (`legal`, `play`, `chance`) on the seat's own
knowledge state: other seats' development cards stay HIDDEN, the engine refuses what they would reveal.
Chance inside the turn:
- a steal takes each card type of the victim's (public) hand with its share of the hand;
- a development card bought is not drawn (the seat would need to know the deck): the position is
  valued as it is, plus what an unknown card is worth on average (`dev_expect`);
- the roll after "end" is not looked through: the position is a leaf.
The budget is a number of engine steps (plays and chance values), never time, so a choice is a pure
function of the state: same state, same choice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engines.core import COMMON_ACTIONS, Game, IllegalAction, State

__all__ = ["TurnSearch"]

WIN = 10**9


@dataclass(slots=True)
class TurnSearch:
    """Expectimax to `depth` of the seat's own main steps. `value(inner, seat)` judges a leaf;
    `dev_expect(inner, seat)` the development card a "buy" leaves undealt; `free_steps` are the steps
    that finish the action before them (robber, steal, free roads): searched without using depth;
    `keep(action)` says which texts of a main step are searched (domestic offers are not: the others'
    answers are theirs). `wide` first steps are looked at two deep, the best of them by their
    one-step value, plus every trade (a trade only pays in the step after it)."""

    game: Game
    seat: int
    value: Callable[[Any, int], int]
    dev_expect: Callable[[Any, int], int]
    main_step: str
    free_steps: frozenset[str]
    pick_step: str
    keep: Callable[[str], bool]
    budget: int = 600
    wide: int = 5
    nodes: int = 0

    def choose(self, state: State, legal: list[str]) -> tuple[str, int]:
        """The best of `legal` (already narrowed by the caller if it likes) and its value."""
        first = []
        for a in legal:
            after = self._play(state, a)
            if after is not None:
                first.append((self._leaf(after), a, after))
        if not first:
            return legal[0], -WIN
        first.sort(key=lambda t: -t[0])
        if self.game.awaiting(state).seats and state.inner.step == self.main_step:
            deep = [t for t in first if t[1].startswith("trade ") or t[1].startswith("play ")]
            deep += [t for t in first[:self.wide] if t not in deep]
            best_v = {a: v for v, a, _ in first}
            for _, a, after in deep:
                if self.nodes >= self.budget:
                    break
                best_v[a] = max(best_v[a], self._deeper(after, 1))
            v, a = max(((best_v[a], a) for _, a, _ in first), key=lambda t: t[0])
            return a, v
        return first[0][1], first[0][0]

    # ------------------------------------------------------------------ the tree

    def _play(self, state: State, action: str) -> State | None:
        self.nodes += 1
        try:
            return self.game.play(state, self.seat, action)
        except IllegalAction:
            return None

    def _leaf(self, state: State) -> int:
        """The value of a position reached, looking through the steps that finish an action."""
        return self._deeper(state, 0)

    def _deeper(self, state: State, depth: int) -> int:
        game = self.game
        inner = state.inner
        waiting = game.awaiting(state)
        if waiting.kind == "over":
            result = game.result(state)
            return WIN if result is not None and self.seat in result.winners else -WIN
        step = inner.step
        if waiting.kind == "chance":
            chance = waiting.chance
            if step == self.pick_step and chance is not None and chance.kind == "pick":
                return self._steal(state)
            base = self.value(inner, self.seat)
            if chance is not None and chance.kind == "deal" and chance.private_to == self.seat:
                base += self.dev_expect(inner, self.seat)
            return base
        if waiting.kind != "move" or waiting.seats[0] != self.seat:
            return self.value(inner, self.seat)
        if step in self.free_steps:
            return self._best_of(state, depth, free=True)
        if step == self.main_step and depth > 0 and self.nodes < self.budget:
            return self._best_of(state, depth - 1, free=False)
        return self.value(inner, self.seat)

    def _best_of(self, state: State, depth: int, free: bool) -> int:
        legal = [a for a in self.game.legal(state, self.seat) if a not in COMMON_ACTIONS and self.keep(a)]
        best = None
        for a in legal:
            if self.nodes >= self.budget and best is not None:
                break
            after = self._play(state, a)
            if after is None:
                continue
            v = self._deeper(after, depth)
            if best is None or v > best:
                best = v
        return self.value(state.inner, self.seat) if best is None else best

    def _steal(self, state: State) -> int:
        """The expected value over the card a steal takes (each type by its share of the hand)."""
        inner = state.inner
        hand = inner.seats[inner.victim].hand
        total = sum(hand)
        if not total:
            return self.value(inner, self.seat)
        value, index = 0, 0
        for k in hand:
            if k:
                self.nodes += 1
                after = self.game.chance(state, index)
                value += k * self._deeper(after, 0)
            index += k
        return value // total
