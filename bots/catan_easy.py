"""The easy Catan bot: the medium bot's rules of thumb, played the way a beginner plays them.

Why these handicaps and not random moves: a person learning Catan should meet an opponent that
builds, trades and moves the robber sensibly, only less shrewdly. Against the medium bot it
- places its first settlements by the sum of their pips alone (no eye for a resource it lacks, a
  harbour, or room to grow);
- builds whatever it can afford at once, in a fixed order, instead of saving for a target and
  trading towards it, and trades with the bank only when it holds more than seven cards;
- makes no offers and no counter-offers at the table (it still answers offers as the medium bot does).
"""

from __future__ import annotations

from bots.catan import SmartBot
from engines.catan.board import NODE_HEXES

__all__ = ["EasyBot"]

_ORDER = ("settle ", "city ", "buy", "road ")


class EasyBot(SmartBot):
    name = "easy"

    def _setup_settle(self, pos, actions: list[str]) -> str:
        def pips(a: str) -> int:
            return sum(pos.pips[h] for h in NODE_HEXES[int(a.split()[1])] if pos.res[h] >= 0)
        return max(actions, key=pips)

    def _offer(self, pos, view, missing, surplus, allowed):
        return None

    def _answer(self, pos, view, allowed):
        return None

    def _respond(self, pos, view) -> str:
        choice = super()._respond(pos, view)
        self.talk.said()   # a beginner keeps its counter-proposals to itself
        return choice

    def said(self) -> list[str]:
        return []

    def _main(self, pos, view, allowed):
        play = self._play_card(pos, view, allowed)
        if play:
            return play
        for prefix in _ORDER:
            options = [a for a in allowed if a.startswith(prefix)]
            if options:
                if prefix == "road ":
                    return self._road(pos, options)
                if prefix == "settle ":
                    return max(options, key=lambda a: pos.node_value(int(a.split()[1])))
                return options[0]
        if sum(pos.hand) > 7:
            return super()._main(pos, view, allowed)
        return "end"
