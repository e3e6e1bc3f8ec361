"""The easy Cities & Knights bot: the medium bot's rules of thumb, played the way a beginner plays them.

Why these handicaps and not random moves: a person learning the game should meet an opponent that
builds cities, improves and defends, only less shrewdly. Against the medium bot it
- builds what it can afford at once in a fixed order (city, settlement, improvement, road), and
  raises knights only when the barbarians are near, instead of weighing every action on one scale;
- trades with the bank only to complete the build it saves for, never at the table: it makes no
  offers and no counter-offers (it still answers offers as the medium bot does);
- plays progress cards as the medium bot does (a beginner reads the card and plays it when it fits).
"""

from __future__ import annotations

from bots.catan_ck import SmartBot

__all__ = ["EasyBot"]

_ORDER = ("city ", "settle ", "improve ", "road ")


class EasyBot(SmartBot):
    name = "easy"

    def _offer(self, pos, need, actions):
        return None

    def _answer(self, pos, actions):
        return None

    def _respond(self, pos, actions) -> str:
        choice = super()._respond(pos, actions)
        self.talk.said()   # a beginner keeps its counter-proposals to itself
        return choice

    def said(self) -> list[str]:
        return []

    def _main(self, pos, actions: list[str]) -> str:
        need = self._need(pos)
        danger = pos.danger() and pos.exposed()
        for prefix in _ORDER:
            options = [a for a in actions if a.startswith(prefix)]
            if options:
                return max(options, key=lambda a: self._score(pos, a, need, danger))
        rest = [a for a in actions if a.split()[0] in ("knight", "activate", "play", "trade")]
        if rest:
            best = max(rest, key=lambda a: self._score(pos, a, need, danger))
            if self._score(pos, best, need, danger) >= 400:
                return best
        return "end"
