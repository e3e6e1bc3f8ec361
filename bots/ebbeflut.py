"""Bots for Ebbe & Flut: the random bot, and a greedy bot that plans its whole turn.

Within a turn everything after the draw is known: the drawn card is face up and pushes have no
chance in them. The smart bot therefore searches every order of its placement and pushes up to the
point where the turn could end (2 players: `end`; solo: the next draw), and scores each resulting
field from its own view: cards brought home, minus the opponent's, plus how promising each visible
card's cell is for its colour (a covered card counts half: blocked, but it may come back). The
unknown draw itself is ignored: the bot always draws before it pushes, which keeps every push open
and lets it plan with the drawn card in hand; the stack it draws from does not change the odds (D5).
"""

from __future__ import annotations

from typing import Any

from bots.lib import RandomBot, game_actions
from engines.core import Game, State

__all__ = ["BOTS", "SmartBot"]

HOME = 100
#: how promising a visible card is on each cell, in Ebbe's frame (goal corner top left; rows then
#: columns 1..5); the goal cells themselves never hold a card of the colour. Flut reads it turned.
_EBBE = (
    (0, 0, 45, 30, 20),
    (0, 85, 60, 45, 30),
    (45, 60, 50, 40, 30),
    (30, 45, 40, 35, 30),
    (20, 30, 30, 30, 30),
)
WORTH = {
    "ebbe": {f"r{r + 1}c{c + 1}": _EBBE[r][c] for r in range(5) for c in range(5)},
    "flut": {f"r{r + 1}c{c + 1}": _EBBE[4 - r][4 - c] for r in range(5) for c in range(5)},
}
NODE_LIMIT = 600
MEMO_LIMIT = 20_000


def evaluate(view: dict, seat: int) -> int:
    """The field from `seat`'s side: solo counts both colours as its own."""
    mine = ("ebbe", "flut") if view["solo"] else (("ebbe",) if seat == 0 else ("flut",))
    value = 0
    for colour in view["colours"]:
        sign = 1 if colour["colour"] in mine else -1
        value += sign * HOME * colour["score"]
    for cell in view["cells"]:
        name = cell["cell"]
        for card in cell["pile"]:
            sign = 1 if card["colour"] in mine else -1
            worth = WORTH[card["colour"]][name]
            value += sign * (worth if card is cell["pile"][-1] else worth // 2)
    return value


class SmartBot:
    """Greedy over whole turns: the best field reachable by placing and pushing (see module doc)."""

    name = "smart"

    def __init__(self) -> None:
        # best value reachable in the turn from a position, kept across the decisions of one turn so
        # that the turn is searched once; keyed by the state's game value, used only as an opaque
        # equality key (no path-dependent counters, so transpositions of pushes meet)
        self._seen: dict[Any, int] = {}
        self._nodes = 0

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline draw" in legal:
            return "decline draw"
        actions = game_actions(legal)
        draws = [a for a in actions if a.startswith("draw ")]
        if draws:
            self._seen.clear()  # a new turn: the positions of the last one will not come back
            return draws[0]
        if len(actions) == 1:
            return actions[0]
        if len(self._seen) > MEMO_LIMIT:
            self._seen.clear()
        self._nodes = 0
        best, choice = None, actions[0]
        for action in actions:
            value = self._after(game, game.play(state, seat, action), seat)
            if best is None or value > best:
                best, choice = value, action
        return choice

    def _after(self, game: Game, state: State, seat: int) -> int:
        """The best value this seat can still reach in the turn under way from `state`."""
        key = (state.inner, state.offer)
        known = self._seen.get(key)
        if known is not None:
            return known
        self._nodes += 1
        waiting = game.awaiting(state)
        actions = []
        if waiting.kind == "move" and waiting.seats == (seat,):
            actions = [a for a in game_actions(game.legal(state, seat)) if a.startswith(("push ", "place "))]
        if not actions or self._nodes > NODE_LIMIT:
            value = evaluate(game.view(state, seat), seat)
        else:
            value = max(self._after(game, game.play(state, seat, a), seat) for a in actions)
        self._seen[key] = value
        return value


BOTS = {"random": RandomBot, "smart": SmartBot}
