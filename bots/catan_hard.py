"""The hard Catan bot: the medium bot's table manners, with searches where a search pays.

Why this split: the medium bot (bots.catan.SmartBot) trades with people sensibly (its offers, its
answers and counter-offers are tested and liked) and saves for one target a turn; what it lacks is a
look ahead. The hard bot keeps its manners and its target, and adds:
- set-up: its first settlement by where the set-up leads (each of the best candidates played on with
  the medium bot's placements as a model of the others, up to its own second pick); its second
  settlement and its set-up roads by the value function (bots.catan_value);
- the robber, the steal, discards and free roads by a depth-2 expectimax over its own steps
  (bots.catan_search) judged by the value function (points, production, hand, reach, the opponents);
- in the main step, the medium bot's choice unless a maritime trade, or two in a row, opens a city or a
  settlement, or the search builds one, or finds a line to the winning points this turn;
- offers to one player at a time, of the trade worth most to it among those that player would accept
  (worked out from the public hands as the medium bot judges offers: bots.catan_trade), where the
  medium bot offers 1 for 1 to the table blind and most offers are declined;
- from 5 points on, the medium bot's saving is for the build of the soonest victory point (expected
  turns per point from production and maritime rates: bots.catan_plan), not for what pays in the long
  run; the hard bot lost most of its games at 8 or 9 points before.
Self-play against three medium bots chose this mix: replacing the medium bot's whole main step by the
search, or other weights of the value function, did no better (docs/bots.md has the figures).

Reproducible: every budget is counted in engine steps or candidates, and it reads only its own
knowledge state (other seats' development cards HIDDEN; a card it buys is valued, not drawn).
"""

from __future__ import annotations

from typing import Any

from bots.catan import Position, SmartBot
from bots.catan_plan import endgame_target
from bots.catan_search import TurnSearch
from bots.catan_trade import best_offer
from bots.catan_value import VP, Weights, evaluate
from bots.lib import game_actions
from engines.catan.cards import DEV_TOTALS, VICTORYPOINT
from engines.catan.state import DISCARD, FREE_ROAD, MAIN, ROBBER, SETUP_ROAD, SETUP_SETTLE, STEAL, STEAL_PICK
from engines.contract import HIDDEN
from engines.core import Game, State

__all__ = ["HardBot", "dev_expect"]

#: the engine steps one decision may take (about 0.1 ms each): a few tens of milliseconds at most
BUDGET = 700
_FREE = frozenset((ROBBER, STEAL, FREE_ROAD))
#: the steps decided by the search alone (the main step mixes it with the medium bot's choice)
_SEARCHED = frozenset((ROBBER, STEAL, FREE_ROAD, SETUP_SETTLE, SETUP_ROAD))


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
    #: first settlement: how many of the best candidates are played through the set-up
    plan_setup = 8
    #: the steps the search decides alone
    searched = _SEARCHED
    #: offers to one player, of the trade that player would take (bots.catan_trade)
    domestic = True
    #: the end game's target: the soonest point (bots.catan_plan)
    endgame = True

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if "decline draw" in legal or len(actions) == 1:
            return super().choose(game, state, seat, legal, rng)
        step = state.inner.step
        if step == SETUP_SETTLE and not state.inner.seats[seat].settlements:
            return self._plan_first(game, state, seat, actions, rng)
        if step == MAIN:
            return self._main_step(game, state, seat, legal, actions, rng)
        if step in self.searched or (step == DISCARD and self.searched and len(actions) <= self.budget // 2):
            return self._searcher(game, seat).choose(state, actions)[0]
        return super().choose(game, state, seat, legal, rng)

    def _plan_first(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> str:
        """The first settlement by where the set-up leads: each of the best candidates (by the medium
        bot's ranking of nodes) is played, then the others' placements by the medium bot's rules (a
        model of them) up to this seat's second settlement, which it picks as it will (the value
        function's best), and that position is judged by the value function. Set-up has no chance and
        no secret, so each candidate is one line of play (a dozen placements)."""
        pos = Position(game.view(state, seat), seat)
        ranked = sorted(actions, key=lambda a: -pos.node_value(int(a.split()[1])))
        rules, w = game.rules, self.weights
        best_v, choice = None, ranked[0]
        for a in ranked[:self.plan_setup]:
            line = game.play(state, seat, a)
            models: dict[int, SmartBot] = {}
            for _ in range(40):
                waiting = game.awaiting(line)
                inner = line.inner
                if waiting.kind != "move" or inner.step not in (SETUP_SETTLE, SETUP_ROAD):
                    break
                o = waiting.seats[0]
                legal = game.legal(line, o)
                if o == seat and inner.step == SETUP_SETTLE:   # its own second pick, as it will choose it
                    line = max((game.play(line, o, b) for b in legal), key=lambda s: evaluate(rules, s.inner, seat, w))
                    break
                line = game.play(line, o, models.setdefault(o, SmartBot()).choose(game, line, o, legal, rng))
            v = evaluate(rules, line.inner, seat, w)
            if best_v is None or v > best_v:
                best_v, choice = v, a
        return choice

    def _searcher(self, game: Game, seat: int) -> TurnSearch:
        rules, w = game.rules, self.weights
        return TurnSearch(game, seat, lambda inner, me: evaluate(rules, inner, me, w),
                          lambda inner, me: dev_expect(inner, me, w), MAIN, _FREE, STEAL_PICK,
                          lambda a: not a.startswith("offer "), budget=self.budget)

    def _main_step(self, game: Game, state: State, seat: int, legal: list[str], actions: list[str], rng: Any) -> str:
        """The medium bot's choice (its target, trades, offers, cards), unless the search sees better:
        a build, a maritime trade (or two) that opens one, or a line that wins this turn."""
        medium = super().choose(game, state, seat, legal, rng)
        if medium.startswith(("settle ", "city ")):
            return medium
        if self.domestic and state.inner.domestic:
            offer = self._offer_to_one(game, state, seat, actions)
            if offer:
                return offer
        candidates = [a for a in actions if not a.startswith("offer ")]
        trade = self._opening_trade(game, state, seat, candidates)
        if trade:
            return trade
        choice, value = self._searcher(game, seat).choose(state, candidates)
        if value >= 100 * VP or choice.startswith(("settle ", "city ")):
            return choice
        return medium

    def _pick_target(self, pos: Position) -> tuple[str, int]:
        """The medium bot's target, but in the end game the build of the soonest point (bots.catan_plan)."""
        if self.endgame:
            found = endgame_target(pos, pos.view)
            if found is not None:
                return found
        return super()._pick_target(pos)

    def _offer_to_one(self, game: Game, state: State, seat: int, actions: list[str]) -> str | None:
        """The offer the bot gains most by among those a player would accept (bots.catan_trade), within
        the engine's offers a turn and the offer memory's manners (each player asked once a turn)."""
        inner = state.inner
        if inner.offers >= 3:
            return None
        view = game.view(state, seat)
        allowed = dict.fromkeys(actions)
        proposal = best_offer(game, state, seat, allowed,
                              lambda o, give, get: o in self.offers.askable(view, seat, give, get), self.weights)
        if proposal is None:
            return None
        return self.offers.ask(view, seat, proposal.seat, proposal.give, proposal.get, proposal.text, allowed)

    def _opening_trade(self, game: Game, state: State, seat: int, actions: list[str]) -> str | None:
        """The maritime trade that opens a city (else a settlement) now or after one more trade: the one
        whose build leaves the most cards in hand. Within the step budget."""
        best: tuple[int, int, str] | None = None
        steps = 0
        for a in actions:
            if not a.startswith("trade ") or steps >= self.budget:
                continue
            steps += 1
            after = game.play(state, seat, a)
            legal = game.legal(after, seat)
            found = _opens(legal)
            if found:
                key = (found, sum(after.inner.seats[seat].hand), a)
            else:
                key = None
                for b in legal:
                    if not b.startswith("trade ") or steps >= self.budget:
                        continue
                    steps += 1
                    again = game.play(after, seat, b)
                    found = _opens(game.legal(again, seat))
                    if found:
                        key = (found, sum(again.inner.seats[seat].hand) - 1, a)
                        break
            if key is not None and (best is None or key[:2] > best[:2]):
                best = key
        return None if best is None else best[2]


def _opens(legal: list[str]) -> int:
    """2 when a city is legal, 1 a settlement, 0 neither."""
    if any(a.startswith("city ") for a in legal):
        return 2
    return 1 if any(a.startswith("settle ") for a in legal) else 0
