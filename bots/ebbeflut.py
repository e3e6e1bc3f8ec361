"""Bots for Ebbe & Flut: the random bot, and the levels: `easy` (one action at a time), `medium` (also
called `smart`: a greedy bot that plans its whole turn) and `hard` (Monte Carlo over medium's best).

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
from bots.search import Budget, MonteCarlo
from engines.core import Game, State

__all__ = ["BOTS", "EasyBot", "HardBot", "SmartBot"]

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
WIN = 100_000
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
    #: positions searched per decision before the rest are scored as they stand
    node_limit = NODE_LIMIT

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
        best, choice = None, actions[0]
        for value, action in self.values(game, state, seat, actions):
            if best is None or value > best:
                best, choice = value, action
        return choice

    def values(self, game: Game, state: State, seat: int, actions: list[str]) -> list[tuple[int, str]]:
        """Each action with the best field reachable in the turn after it, in the order of `actions`."""
        if len(self._seen) > MEMO_LIMIT:
            self._seen.clear()
        self._nodes = 0
        return [(self._after(game, game.play(state, seat, action), seat), action) for action in actions]

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
        if not actions or self._nodes > self.node_limit:
            value = evaluate(game.view(state, seat), seat)
        else:
            value = max(self._after(game, game.play(state, seat, a), seat) for a in actions)
        self._seen[key] = value
        return value


class EasyBot:
    """A beginner's Ebbe & Flut: it draws first, as the smart bot does, then takes one action at a time,
    whichever leaves the best field right after it (the same score), without planning the turn's
    pushes as a whole."""

    name = "easy"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if "decline draw" in legal:
            return "decline draw"
        actions = game_actions(legal)
        draws = [a for a in actions if a.startswith("draw ")]
        if draws:
            return draws[0]
        if len(actions) == 1:
            return actions[0]
        scored = [(evaluate(game.view(game.play(state, seat, a), seat), seat), a) for a in actions]
        best = max(v for v, _ in scored)
        return rng.choice([a for v, a in scored if v == best])


class HardBot(MonteCarlo):
    """The smart bot's best two actions, each judged by three futures (the rest of the turn, the next
    draws and the opponent's turn, every seat played by the smart bot) scored by the same field score.
    Where the smart bot's plan leaves nothing to compare (one action, or a draw) it plays as smart, and
    in the solo game too: there the futures scored 25 and 21 cards in two games against smart's mean of
    31, at 0.3 s a decision (p95). (With the easy bot in the futures, cheaper, it lost to smart in the
    two-player game: 5 to 16 in 30 games.)"""

    policy = SmartBot
    budget = Budget(candidates=2, rollouts=3, horizon=8)

    def __init__(self) -> None:
        super().__init__()
        self._smart = SmartBot()

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if "decline draw" in legal or len(actions) == 1 or any(a.startswith("draw ") for a in actions) \
                or game.view(state, seat)["solo"]:
            return self._smart.choose(game, state, seat, legal, rng)
        return super().choose(game, state, seat, legal, rng)

    def rank(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> list[str]:
        values = self._smart.values(game, state, seat, actions)
        order = sorted(range(len(values)), key=lambda i: -values[i][0])
        return [values[i][1] for i in order]

    def value(self, game: Game, state: State, seat: int) -> float:
        result = game.result(state)
        if result is not None and len(result.scores) > 1:
            return 0 if not result.winners else (WIN if result.winners == (seat,) else -WIN)
        return evaluate(game.view(state, seat), seat)


BOTS = {"random": RandomBot, "easy": EasyBot, "medium": SmartBot, "smart": SmartBot, "hard": HardBot}
