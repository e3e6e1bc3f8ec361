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
from engines.catan.state import MAIN
from engines.core import Game, IllegalAction, State

__all__ = ["HardBot"]

#: engine steps (a play and a view each) a main decision may take
BUDGET = 60
#: what a maritime trade costs on the medium bot's scale (it only pays through the action it opens)
TRADE_COST = 120
#: the medium bot's scores of what a trade may open: cities, settlements, improvements
OPENS = 700


class HardBot(SmartBot):
    name = "hard"
    budget = BUDGET

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        self._game, self._state = game, state
        return super().choose(game, state, seat, legal, rng)

    def _main(self, pos: Position, actions: list[str]) -> str:
        medium = super()._main(pos, actions)
        need = self._need(pos)
        danger = pos.danger() and pos.exposed()
        now = 0 if medium.startswith("offer ") or medium == "end" else self._score(pos, medium, need, danger)
        if now >= OPENS:
            return medium
        trades = [a for a in actions if a.startswith("trade ")]
        best, choice = now, medium
        for a in trades[:self.budget]:
            value = self._after(pos.me, a) - TRADE_COST
            if value > best:
                best, choice = value, a
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
