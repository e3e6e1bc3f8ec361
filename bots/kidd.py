"""Bots for the Kidd games: `random`, and the levels `easy`, `medium` (also called `smart`) and `hard`.

The medium (smart) bot searches its own turn and the next seat's reply (expectiminimax: the Quedah Merchant
die is averaged over its faces, other seats are assumed to answer as badly for the bot as they can)
and scores the leaves from `view()` only: material first, then mobility. In Madagaskar tall towers
have hundreds of walks, so a reply is looked at only if it captures; a quiet reply is taken to leave
the position's score as it is.

Easy is the same evaluation one turn deep (`Greedy`: it never thinks of the reply), with a random slip
now and then in Quedah Merchant. Hard is the medium search one turn deeper in Loyal Captain, and in the
two games with walks a Monte Carlo search over medium's best few moves (`Search`, over bots/search.py).
"""

from __future__ import annotations

from itertools import product
from typing import Any

from bots.lib import RandomBot, forced, game_actions
from bots.search import Budget, MonteCarlo
from engines.core import Game, Result, State

WIN = 1_000_000


def _terminal(result: Result, me: int) -> int:
    if not result.winners:
        return 0
    return WIN if me in result.winners else -WIN


def _mobility(fields: list[dict], seat: int) -> int:
    """Steps a seat's pieces could take onto empty neighbours (the first step of any walk)."""
    empty = {f["field"] for f in fields if f["height"] == 0}
    return sum(1 for f in fields if f["owner"] == seat
               for n in f["neighbours"] if n != f["back"] and n in empty)


def _exposed(fields: list[dict], seat: int) -> int:
    """Stones in the seat's towers whose back field an enemy could come through (empty or enemy)."""
    by_field = {f["field"]: f for f in fields}
    total = 0
    for f in fields:
        if f["owner"] == seat and f["back"] != "OUT":
            behind = by_field[f["back"]]
            if behind["owner"] != seat:
                total += f["height"]
    return total


class SearchBot:
    """Lookahead over whole turns: `depth` turns deep, counting the bot's own turn."""

    name = "smart"
    depth = 2

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        obvious = forced(legal)
        if obvious is not None:
            return obvious
        scored = self.scored(game, state, seat, game_actions(legal))
        best = max(score for score, _ in scored)
        return rng.choice([a for score, a in scored if score == best])

    def scored(self, game: Game, state: State, seat: int, actions: list[str]) -> list[tuple[int, str]]:
        """Each action with its value `depth` turns deep, in the order of `actions`."""
        return [(self._after(game, state, seat, a, seat, self.depth), a) for a in actions]

    def _after(self, game: Game, state: State, seat: int, action: str, me: int, turns: int) -> int:
        child = game.play(state, seat, action)
        waiting = game.awaiting(child)
        same_turn = waiting.kind == "move" and waiting.seats[:1] == (seat,)
        return self._value(game, child, me, turns if same_turn else turns - 1)

    def _value(self, game: Game, state: State, me: int, turns: int) -> int:
        result = game.result(state)
        if result is not None:
            return _terminal(result, me)
        if turns <= 0:
            return self.evaluate(game, state, me)
        waiting = game.awaiting(state)
        if waiting.kind == "chance":
            faces = list(product(*(range(1, s + 1) for s in waiting.chance.sides)))
            return sum(self._value(game, game.chance(state, f), me, turns) for f in faces) // len(faces)
        seat = waiting.seats[0]
        actions = game_actions(game.legal(state, seat))
        if seat == me:
            return max(self._after(game, state, seat, a, me, turns) for a in actions)
        replies = self.replies(game, state, seat, actions, me)
        values = [self._after(game, state, seat, a, me, turns) for a in replies]
        if len(replies) < len(actions):
            values.append(self.evaluate(game, state, me))  # the quiet replies left out
        return min(values)

    def replies(self, game: Game, state: State, seat: int, actions: list[str], me: int) -> list[str]:
        """Which of another seat's actions the search follows."""
        return actions

    def evaluate(self, game: Game, state: State, me: int) -> int:
        raise NotImplementedError


class LoyalCaptainBot(SearchBot):
    """Stones in play decide the game; mobility wins it (a seat that cannot act loses)."""

    def evaluate(self, game: Game, state: State, me: int) -> int:
        view = game.view(state, me)
        fields = view["fields"]
        alive = view["stones_in_play"]
        score = 100 * (alive[me] - alive[1 - me])
        score += 3 * (_mobility(fields, me) - _mobility(fields, 1 - me))
        on_board = [sum(1 for f in fields if f["owner"] == s) for s in (0, 1)]
        return score + 2 * (on_board[me] - on_board[1 - me])


class QuedahMerchantBot(SearchBot):
    """Prisoners decide the game; blocked pieces lose it."""

    def evaluate(self, game: Game, state: State, me: int) -> int:
        view = game.view(state, me)
        fields = view["fields"]
        held = view["prisoners"]
        score = 100 * (held[me] - held[1 - me])
        return score + 4 * (_mobility(fields, me) - _mobility(fields, 1 - me))


class MadagaskarBot(SearchBot):
    """Stones under control (towers topped plus supply) decide the game; mobility helps, and a
    tower whose back is open can be caught from behind."""

    exposure = 5  # per stone whose back lies open to an enemy

    def evaluate(self, game: Game, state: State, me: int) -> int:
        view = game.view(state, me)
        fields = view["fields"]
        players = view["players"]
        power = [view["stones_controlled"][s] + view["supply"][s] for s in range(players)]
        others = [s for s in range(players) if s != me]

        def lead(values: list[int]) -> int:  # against the others' mean, kept in integers
            return len(others) * values[me] - sum(values[s] for s in others)

        mobility = [_mobility(fields, s) for s in range(players)]
        exposed = [_exposed(fields, s) for s in range(players)]
        return 100 * lead(power) + 2 * lead(mobility) - self.exposure * lead(exposed)

    def replies(self, game: Game, state: State, seat: int, actions: list[str], me: int) -> list[str]:
        occupied = {str(f["field"]) for f in game.view(state, me)["fields"] if f["height"]}
        captures = []
        for action in actions:
            parts = action.split(" ")
            if parts[0] == "move" and parts[-1] != parts[1] and parts[-1] in occupied:
                captures.append(action)
        return captures


class Greedy:
    """Easy's way of thinking for a Kidd game, mixed into its smart bot: the same evaluation, but only
    the bot's own turn is looked at (depth 1: no thought of the reply), and one move in `slip` is a
    beginner's slip, any legal move (0: none)."""

    name = "easy"
    depth = 1
    slip = 0

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        if self.slip and forced(legal) is None and rng.randrange(self.slip) == 0:
            return rng.choice(game_actions(legal))
        return super().choose(game, state, seat, legal, rng)  # type: ignore[misc]


class Search(MonteCarlo):
    """Hard's way of thinking for a Kidd game: the smart bot's best few moves (by its two-turn search),
    each judged by short rollouts in which every seat plays the greedy one-turn bot, scored by the smart
    bot's evaluation. It sees the Quedah Merchant dice and the third Madagaskar seat's answers that the
    smart bot averages or leaves out."""

    smart: type[SearchBot] = SearchBot

    def __init__(self) -> None:
        super().__init__()
        self._smart = self.smart()

    def rank(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> list[str]:
        scored = self._smart.scored(game, state, seat, actions)
        order = sorted(range(len(scored)), key=lambda i: -scored[i][0])
        return [scored[i][1] for i in order]

    def value(self, game: Game, state: State, seat: int) -> float:
        result = game.result(state)
        if result is not None:
            return _terminal(result, seat)
        return self._smart.evaluate(game, state, seat)


_SMART: dict[str, type[SearchBot]] = {"loyal-captain": LoyalCaptainBot, "quedah-merchant": QuedahMerchantBot,
                                      "madagaskar": MadagaskarBot}
#: one move in how many the easy bot plays at random: Quedah Merchant's die leaves little for a second
#: turn of lookahead to find, so there depth 1 alone plays about as well as smart
_SLIP = {"loyal-captain": 0, "quedah-merchant": 4, "madagaskar": 0}
_BUDGET = {"quedah-merchant": Budget(3, 6, 4), "madagaskar": Budget(4, 8, 6)}
#: where hard is the smart search one turn deeper instead: Loyal Captain has no dice and few placements,
#: so a third turn is cheap (p95 about 45 ms) and beats rollouts of the same cost
_DEEPER = {"loyal-captain"}


def _levels(game_id: str) -> dict[str, type]:
    smart = _SMART[game_id]
    greedy = type(f"{smart.__name__}Greedy", (Greedy, smart), {"slip": 0, "name": "greedy"})
    easy = type(f"{smart.__name__}Easy", (Greedy, smart), {"slip": _SLIP[game_id]})
    if game_id in _DEEPER:
        hard = type(f"{smart.__name__}Hard", (smart,), {"depth": smart.depth + 1, "name": "hard"})
    else:
        hard = type(f"{smart.__name__}Hard", (Search,), {"smart": smart, "policy": greedy,
                                                          "budget": _BUDGET[game_id]})
    return {"random": RandomBot, "easy": easy, "medium": smart, "smart": smart, "hard": hard}


_LEVELS = {game_id: _levels(game_id) for game_id in _SMART}


def BOTS(game_id: str) -> dict[str, type]:  # noqa: N802 - the registry's name for a bot table
    return dict(_LEVELS[game_id])
