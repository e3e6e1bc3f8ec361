"""Bots for Turning Tides: `random`, and the levels `easy`, `medium` (also called `smart`) and `hard`.

The smart bot reads only `game.view(state, seat)` of its own knowledge state (the opponent's hand,
deck and damage cards are HIDDEN there); it simulates through the engine contract for lookahead. It
judges a position with a static score from its own side, and looks one turn ahead: for each card it
could pick it plays the turn out against every card the opponent could hold (the public check's
candidates, weighted by how likely the opponent holds them given its hand count), both sides choosing
their targets greedily by the same score. All arithmetic is on ints.
"""

from __future__ import annotations

from collections import Counter
from math import comb
from typing import Any

from bots.lib import RandomBot, game_actions
from bots.search import Budget, MonteCarlo
from engines.core import Game, State
from engines.tides import cards as C
from engines.tides.ship import ROUND_END

#: what a card in the pool or hand is worth to have
CARD_VALUE = {"cannon": 4, "fire": 9, "move": 3, "navigate": 2, "sailor": 5, "swing": 6, "wait": 0}
WIN = 100_000


def _facing_turns(zone: int, o: int) -> int:
    """How many of the remaining sail positions of this round let `zone` face the enemy."""
    first, last = max(o, zone - 1), min(ROUND_END - 1, zone + 5)
    return max(0, last - first + 1)


def _ship_value(ship: dict, o: int, intro: bool) -> int:
    hold = ship["hold"]
    on_board = sum(z["sailors"] for z in ship["zones"])
    value = 120 * on_board + 30 * hold["sailors"] + 40 * hold["cannons"] + 50 * int(bool(ship["mast"]))
    if not hold["captain"]:
        value += 300 if intro else 100
    for z in ship["zones"]:
        cannons = z["cannons"]
        if "in" in cannons:
            value += 60
            if z["sailors"]:
                value += 60 + 15 * _facing_turns(z["zone"], o)
        if "out" in cannons:
            value += 50
    lost = ship["skulls"]
    value -= 500 * lost + (1500 if lost >= 2 else 0)
    return value


def score(view: dict, me: int) -> int:
    """The position from `me`'s side (higher is better), from `me`'s own view."""
    result = view["result"]
    if result is not None:
        return 0 if not result["winners"] else (WIN if result["winners"] == [me] else -WIN)
    enemy = 1 - me
    o = view["o"]
    intro = view["variant"] == "intro"
    ships = view["ships"]
    value = _ship_value(ships[me], o, intro) - _ship_value(ships[enemy], o, intro)
    value += 30 if view["pawn"] == me else -30
    value += 60 * (int(ships[enemy]["promotion_due"]) - int(ships[me]["promotion_due"]))
    hand = view["cards"][me].get("hand")
    if hand is not None:
        value += 10 * sum(CARD_VALUE[c] for c in hand)
    value -= 50 * (view["cards"][enemy]["hand_count"] - 1)
    return value


def _value(game: Game, state: State, me: int) -> int:
    return score(game.view(state, me), me)


class SmartBot:
    name = "smart"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if len(actions) == 1:
            return actions[0]
        view = game.view(state, seat)
        phase = view["phase"]
        if phase == "pick":
            return self._pick(game, state, view, seat, actions, rng)
        if phase == "resolve":
            return _best(game, state, seat, actions, rng, deep=True)
        if phase == "exchange":
            return _exchange(actions)
        if phase == "damage":
            return min(actions, key=lambda a: (sum(CARD_VALUE[c] for c in a.split()[1].split(",")), a))
        return rng.choice(actions)

    def _pick(self, game: Game, state: State, view: dict, seat: int, actions: list[str], rng: Any) -> str:
        return _top(self.pick_values(game, state, view, seat, actions, rng), rng)

    def pick_values(self, game: Game, state: State, view: dict, seat: int, actions: list[str],
                    rng: Any) -> list[tuple[int, str]]:
        """Each card's worth: the turn played out against every card the opponent may pick, weighted."""
        enemy = 1 - seat
        replies = self.replies(view, enemy)
        values = []
        for action in actions:
            total = 0
            for reply, weight in replies:
                after = game.play(state, seat, action)
                if reply:
                    after = game.play(after, enemy, reply)
                total += weight * _value(game, _play_out(game, after, rng), seat)
            values.append((total, action))
        return values

    def replies(self, view: dict, enemy: int) -> list[tuple[str, int]]:
        """The opponent's picks the bot weighs its own against."""
        return _likely_picks(view, enemy)


def _top(values: list[tuple[int, str]], rng: Any) -> str:
    """One of the best-valued actions, at random among equals (in the order given)."""
    best_value = max(v for v, _ in values)
    return rng.choice([a for v, a in values if v == best_value])


def _likely_picks(view: dict, seat: int) -> list[tuple[str, int]]:
    """The cards `seat` (the opponent) could pick, each weighted by the chance (times C(N, h)) that
    it holds one; ("", 1) when its pick is already in."""
    if view["picks"][seat]:
        return [("", 1)]
    cards = view["cards"][seat]
    held = cards["hand_count"] - 1
    candidates = C.unplaced(C.from_names(cards["discard"]), C.from_names(cards["exchange"]),
                            C.from_names(cards["out_of_game"]), len(cards["reserve"]))
    unplaced = Counter(dict(zip(C.CARDS, candidates, strict=True)))
    total = sum(unplaced.values())
    scale = comb(total, held) if held > 0 else 1
    found = [("pick wait", scale)]
    if held <= 0:
        return found
    for card in C.CARDS:
        if unplaced[card]:
            found.append((f"pick {card}", scale - comb(total - unplaced[card], held)))
    return found


def _play_out(game: Game, state: State, rng: Any) -> State:
    """Finish the turn's resolutions, each side choosing greedily by the score."""
    for _ in range(4):
        waiting = game.awaiting(state)
        if waiting.kind != "move" or game.view(state, waiting.seats[0])["phase"] != "resolve":
            break
        seat = waiting.seats[0]
        state = game.play(state, seat, _best(game, state, seat, game_actions(game.legal(state, seat)), rng, False))
    return state


def _best(game: Game, state: State, seat: int, actions: list[str], rng: Any, deep: bool) -> str:
    return _top(_best_values(game, state, seat, actions, rng, deep), rng)


def _best_values(game: Game, state: State, seat: int, actions: list[str], rng: Any,
                 deep: bool) -> list[tuple[int, str]]:
    """Each resolution by the score after it (`deep`: after the rest of the turn, played greedily)."""
    values = []
    for action in actions:
        after = game.play(state, seat, action)
        if deep:
            after = _play_out(game, after, rng)
        values.append((_value(game, after, seat), action))
    return values


def _exchange(actions: list[str]) -> str:
    """Trade leftover hand cards for exchange cards worth more in next round's deck."""

    def gain(action: str) -> int:
        if action == "exchange none":
            return 0
        given, _, taken = action[len("exchange "):].partition(" for ")
        return sum(CARD_VALUE[c] for c in taken.split(",")) - sum(CARD_VALUE[c] for c in given.split(","))

    return max(actions, key=lambda a: (gain(a), a == "exchange none", a))


class EasyBot(SmartBot):
    """The smart bot's heuristics without its reading of the opponent: it picks the card that does
    best if the opponent waits (its threat is not weighed), one pick in four is a slip (any card of
    its hand), and it resolves its cards greedily by the score right after each, not after the rest
    of the turn. (Without the slips it played almost as well as smart: 26 to 34 in 60 games.)"""

    name = "easy"
    #: one pick in `slip` is any card of the hand: a beginner's slip
    slip = 4

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if self.slip and len(actions) > 1 and game.view(state, seat)["phase"] == "pick" \
                and rng.randrange(self.slip) == 0:
            return rng.choice(actions)
        if len(actions) > 1 and game.view(state, seat)["phase"] == "resolve":
            return _best(game, state, seat, actions, rng, deep=False)
        return super().choose(game, state, seat, legal, rng)

    def replies(self, view: dict, enemy: int) -> list[tuple[str, int]]:
        return [("", 1)] if view["picks"][enemy] else [("pick wait", 1)]


class _Steady(EasyBot):
    """The hard bot's rollouts: the easy bot without slips (a future of random picks says little)."""

    slip = 0


class HardBot(MonteCarlo):
    """The smart bot's best few cards and resolutions, each judged by a few short futures (the next
    draws and the opponent's answers, played by the easy bot for both seats) scored by the same
    position score. The opponent's hand stays HIDDEN in those futures: its picks range over what
    public knowledge allows, so the bot plans against every card the opponent could hold."""

    policy = _Steady
    budget = Budget(candidates=3, rollouts=4, horizon=4)

    def __init__(self) -> None:
        super().__init__()
        self._smart = SmartBot()

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        phase = game.view(state, seat)["phase"]
        if phase in ("pick", "resolve"):
            return super().choose(game, state, seat, legal, rng)
        return self._smart.choose(game, state, seat, legal, rng)

    def rank(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> list[str]:
        view = game.view(state, seat)
        if view["phase"] == "pick":
            values = self._smart.pick_values(game, state, view, seat, actions, rng)
        else:
            values = _best_values(game, state, seat, actions, rng, deep=True)
        order = sorted(range(len(values)), key=lambda i: -values[i][0])
        return [values[i][1] for i in order]

    def value(self, game: Game, state: State, seat: int) -> float:
        return _value(game, state, seat)


BOTS = {"random": RandomBot, "easy": EasyBot, "medium": SmartBot, "smart": SmartBot, "hard": HardBot}
