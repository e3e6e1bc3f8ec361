"""The hard Catan bot: the medium bot's table manners, with a search where a search pays.

Why this split: the medium bot (bots.catan.SmartBot) trades with people sensibly (its offers, its
answers and counter-offers are tested and liked), but it builds by a fixed order of rules of thumb.
The hard bot keeps its manners and replaces its building, robber, discard and development card
choices with a depth-2 expectimax over its own steps (bots.catan_search) judged by a value function of
points, production, hand and reach (bots.catan_value). Where the search finds nothing better than
ending the turn, the medium bot's offer to the table or to a counter-proposer gets its chance.

Reproducible: the search's budget is counted in engine steps, and it reads only its own knowledge
state (other seats' development cards HIDDEN; a card it buys is valued, not drawn).
"""

from __future__ import annotations

from typing import Any

from bots.catan import SmartBot
from bots.catan_search import TurnSearch
from bots.catan_value import VP, Weights, evaluate
from bots.lib import game_actions
from engines.catan.cards import DEV_TOTALS, VICTORYPOINT
from engines.catan.state import FREE_ROAD, MAIN, ROBBER, SETUP_ROAD, SETUP_SETTLE, STEAL, STEAL_PICK
from engines.contract import HIDDEN
from engines.core import Game, State

__all__ = ["HardBot", "dev_expect"]

#: the engine steps one decision may take (about 0.1 ms each): a few tens of milliseconds at most
BUDGET = 700
_FREE = frozenset((ROBBER, STEAL, FREE_ROAD))


def dev_expect(inner: Any, me: int, w: Weights) -> int:
    """What an undealt development card is worth to `me`: a victory point with the chance that it is
    one (the victory point cards not seen, over the cards not seen), else a card to play."""
    mine = inner.private[me]
    seen_vp = inner.played[VICTORYPOINT] + (0 if mine is HIDDEN else mine.held[VICTORYPOINT])
    seen = sum(inner.played) + (0 if mine is HIDDEN else sum(mine.held))
    unseen = max(1, sum(DEV_TOTALS) - seen)
    vp_left = max(0, DEV_TOTALS[VICTORYPOINT] - seen_vp)
    return (vp_left * VP + (unseen - vp_left) * w.dev_card) // unseen


class HardBot(SmartBot):
    name = "hard"
    weights = Weights()
    budget = BUDGET
    #: the set-up placements by the value function too (else the medium bot's placement)
    search_setup = True
    #: in the main step, keep the medium bot's choice unless the search builds, or trades to build
    hybrid = True

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if "decline draw" in legal or len(actions) == 1:
            return super().choose(game, state, seat, legal, rng)
        step = state.inner.step
        searched = (MAIN, ROBBER, STEAL, FREE_ROAD, SETUP_SETTLE, SETUP_ROAD) if self.search_setup else (
            MAIN, ROBBER, STEAL, FREE_ROAD)
        if step in searched or (step == "discard" and len(actions) <= self.budget // 2):
            return self._search(game, state, seat, legal, actions, rng)
        return super().choose(game, state, seat, legal, rng)

    def _searcher(self, game: Game, seat: int) -> TurnSearch:
        rules, w = game.rules, self.weights
        return TurnSearch(game, seat, lambda inner, me: evaluate(rules, inner, me, w),
                          lambda inner, me: dev_expect(inner, me, w), MAIN, _FREE, STEAL_PICK,
                          lambda a: not a.startswith("offer "), budget=self.budget)

    def _search(self, game: Game, state: State, seat: int, legal: list[str], actions: list[str], rng: Any) -> str:
        candidates = [a for a in actions if not a.startswith("offer ")]
        if self.hybrid and state.inner.step == MAIN:
            medium = super().choose(game, state, seat, legal, rng)
            if medium.startswith(("settle ", "city ")):
                return medium
            choice, _ = self._searcher(game, seat).choose(state, candidates)
            if choice.startswith(("settle ", "city ")):
                return choice
            if choice.startswith("trade ") and any(a.startswith(("settle ", "city ")) for a in game.legal(
                    game.play(state, seat, choice), seat)):
                return choice
            return medium
        choice, _ = self._searcher(game, seat).choose(state, candidates)
        if state.inner.step == MAIN and choice == "end":
            # nothing worth doing alone: the medium bot's offers (to the table, to a counter-proposer)
            medium = super().choose(game, state, seat, legal, rng)
            if medium.startswith("offer "):
                return medium
        return choice
