"""The hard Cities & Knights bot: the medium bot's judgement, with a look one step further.

Why: the medium bot (bots.catan_ck.SmartBot) scores every action of a main step on one scale and
plays the best, but it trades only towards the one build it saves for, and never sees that a trade
or a card played now opens a better action right after. The hard bot plays each of its candidate
actions through the engine (its own knowledge state only: other seats' progress cards stay HIDDEN)
and scores the best action that follows with the medium bot's own scale: a maritime trade is taken
when it opens a city, a settlement or an improvement the hand could not make, and of two actions it
takes the one whose sequel is worth more. Its budget is a number of engine steps, so that it is
reproducible; everything else (set-up, the robber, trades at the table, progress cards that need a
choice of target) is the medium bot's.
"""

from __future__ import annotations

from typing import Any

from bots.catan_ck import Position, SmartBot
from bots.catan_ck_trade import best_offer
from bots.catan_value import evaluate
from engines.catan.state import MAIN, SETUP_ROAD, SETUP_SETTLE
from engines.catan_ck.steps import SETUP_CITY
from engines.core import Game, IllegalAction, State

__all__ = ["HardBot"]

#: engine steps (a play and a view each) a main decision may take
BUDGET = 60
#: what a maritime trade costs on the medium bot's scale (it only pays through the action it opens)
TRADE_COST = 120
#: the medium bot's scores of what a trade may open: cities, settlements, improvements
OPENS = 700
#: first settlement: how many of the best candidates are played through the set-up
PLAN = 8
_SETUP = frozenset((SETUP_SETTLE, SETUP_CITY, SETUP_ROAD))


class HardBot(SmartBot):
    name = "hard"
    budget = BUDGET
    #: offers to one player, the trade he takes (bots.catan_ck_trade); off: the look-ahead alone
    domestic = True

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        self._game, self._state, self._rng = game, state, rng
        return super().choose(game, state, seat, legal, rng)

    def _main(self, pos: Position, actions: list[str]) -> str:
        medium = super()._main(pos, actions)
        need = self._need(pos)
        danger = pos.danger() and pos.exposed()
        now = 0 if medium.startswith("offer ") or medium == "end" else self._score(pos, medium, need, danger)
        if now >= OPENS:
            return medium
        if self.domestic and self._state.inner.domestic:
            offer = self._offer_to_one(pos, actions)
            if offer:
                return offer
        trades = [a for a in actions if a.startswith("trade ")]
        best, choice = now, medium
        for a in trades[:self.budget]:
            value = self._after(pos.me, a) - TRADE_COST
            if value > best:
                best, choice = value, a
        return choice

    def _offer_to_one(self, pos: Position, actions: list[str]) -> str | None:
        """The trade worth most to the bot among those one player takes, offered to that player alone
        (bots.catan_ck_trade), if the offer memory lets the bot ask him."""
        view, allowed = pos.view, set(actions)
        proposal = best_offer(self._game, self._state, pos, self._wanted(pos), allowed,
                              lambda o, give, get: o in self.offers.askable(view, pos.me, give, get), self.most)
        if proposal is None:
            return None
        return self.offers.ask(view, pos.me, proposal.seat, proposal.give, proposal.get, proposal.text, allowed)

    def _setup_settle(self, pos: Position, actions: list[str]) -> str:
        """The first settlement by where the set-up leads: each of the best candidates (by the medium
        bot's ranking) is played, then every placement up to this seat's city by the medium bot's
        rules (a model of the others, and of its own pick), and the position judged by the base
        game's value function (bots.catan_value: points, production, reach). Set-up has no chance
        and no secret: one line of play per candidate."""
        game, state, seat = self._game, self._state, pos.me
        ranked = sorted(actions, key=lambda a: -pos.node_value(int(a.split()[1])))
        if state.inner.seats[seat].settlements or state.inner.seats[seat].cities:
            return ranked[0]
        best_v, choice = None, ranked[0]
        for a in ranked[:PLAN]:
            line = game.play(state, seat, a)
            models: dict[int, SmartBot] = {}
            for _ in range(40):
                waiting = game.awaiting(line)
                if waiting.kind != "move" or line.inner.step not in _SETUP or line.inner.seats[seat].cities:
                    break   # (the set-up is over, or its city stands)
                o = waiting.seats[0]
                legal = game.legal(line, o)
                line = game.play(line, o, models.setdefault(o, SmartBot()).choose(game, line, o, legal, self._rng))
            v = evaluate(game.rules, line.inner, seat)
            if best_v is None or v > best_v:
                best_v, choice = v, a
        return choice

    def _after(self, seat: int, action: str) -> int:
        """The medium bot's score of the best action that follows `action` (0: none worth it)."""
        game = self._game
        try:
            after = game.play(self._state, seat, action)
        except IllegalAction:
            return 0
        if game.awaiting(after).seats[:1] != (seat,) or after.inner.step != MAIN:
            return 0
        follow = Position(game.view(after, seat), seat)
        need = self._need(follow)
        danger = follow.danger() and follow.exposed()
        best = 0
        for a in game.legal(after, seat):
            if a.split()[0] in ("city", "settle", "improve"):
                best = max(best, self._score(follow, a, need, danger))
        return best if best >= OPENS else 0
