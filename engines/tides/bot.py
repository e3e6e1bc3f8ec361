"""Bots for Turning Tides: `random` and `smart`.

The smart bot works only on its own knowledge state (the opponent's hand, deck and damage cards are
HIDDEN there). It judges a position with a static score from its own side, and looks one turn
ahead: for each card it could pick it plays the turn out against every card the opponent could
hold (the public check's candidates, weighted by how likely the opponent holds them given its hand
count), both sides choosing their targets greedily by the same score. All arithmetic is on ints.
"""

from __future__ import annotations

from math import comb
from typing import Any

from engines.botlib import RandomBot, game_actions
from engines.core import Game, State
from engines.tides import cards as C
from engines.tides.ship import ROUND_END, ZONES, Ship
from engines.tides.state import DAMAGE, EXCHANGE, OVER, PICK, RESOLVE, TidesState

#: what a card in the pool or hand is worth to have (cannon, fire, move, navigate, sailor, swing, wait)
CARD_VALUE = (4, 9, 3, 2, 5, 6, 0)
WIN = 100_000


def _facing_turns(zone: int, o: int) -> int:
    """How many of the remaining sail positions of this round let `zone` face the enemy."""
    first, last = max(o, zone - 1), min(ROUND_END - 1, zone + 5)
    return max(0, last - first + 1)


def _ship_value(ship: Ship, o: int, intro: bool) -> int:
    value = 120 * ship.sailors_on + 30 * ship.sailors_held + 40 * ship.cannons_held + 50 * ship.mast
    if ship.captain:
        value += 300 if intro else 100
    for z in ZONES:
        if ship.cannon(z, 0):
            value += 60
            if ship.sailors[z - 1]:
                value += 60 + 15 * _facing_turns(z, o)
        if ship.cannon(z, 1):
            value += 50
    lost = ship.destroyed
    value -= 500 * lost + (1500 if lost >= 2 else 0)
    return value


def score(inner: TidesState, me: int) -> int:
    """The position from `me`'s side (higher is better), from what `me` may know."""
    if inner.phase == OVER:
        return 0 if inner.winner < 0 else (WIN if inner.winner == me else -WIN)
    enemy = 1 - me
    o = inner.o
    value = _ship_value(inner.ships[me], o, inner.intro) - _ship_value(inner.ships[enemy], o, inner.intro)
    value += 30 if inner.pawn == me else -30
    value += 60 * (inner.promo[enemy] - inner.promo[me])
    mine = inner.known(me)
    if mine is not None:
        value += 10 * sum(CARD_VALUE[c] * n for c, n in enumerate(mine.hand))
    value -= 50 * (inner.piles[enemy].hand_n - 1)
    return value


class SmartBot:
    name = "smart"

    def choose(self, game: Game, state: State, seat: int, legal: list[str], rng: Any) -> str:
        actions = game_actions(legal)
        if len(actions) == 1:
            return actions[0]
        phase = state.inner.phase
        if phase == PICK:
            return self._pick(game, state, seat, actions, rng)
        if phase == RESOLVE:
            return _best(game, state, seat, actions, rng, deep=True)
        if phase == EXCHANGE:
            return _exchange(state.inner, seat, actions)
        if phase == DAMAGE:
            return min(actions, key=lambda a: (sum(CARD_VALUE[C.INDEX[c]] for c in a.split()[1].split(",")), a))
        return rng.choice(actions)

    def _pick(self, game: Game, state: State, seat: int, actions: list[str], rng: Any) -> str:
        enemy = 1 - seat
        replies = _likely_picks(game, state, enemy)
        best: list[str] = []
        best_value = None
        for action in actions:
            total = 0
            for reply, weight in replies:
                after = game.play(state, seat, action)
                if reply:
                    after = game.play(after, enemy, reply)
                total += weight * score(_play_out(game, after, rng).inner, seat)
            if best_value is None or total > best_value:
                best, best_value = [action], total
            elif total == best_value:
                best.append(action)
        return rng.choice(best)


def _likely_picks(game: Game, state: State, seat: int) -> list[tuple[str, int]]:
    """The cards `seat` could pick, each weighted by the chance (times C(N, h)) that it holds one;
    ("", 1) when its pick is already in."""
    inner = state.inner
    if inner.picks[seat]:
        return [("", 1)]
    if inner.known(seat) is not None:
        return [(a, 1) for a in game_actions(game.legal(state, seat))]
    pile = inner.piles[seat]
    held = pile.hand_n - 1
    unplaced = pile.unplaced()
    total = C.size(unplaced)
    scale = comb(total, held) if held > 0 else 1
    found = [("pick wait", scale)]
    if held <= 0:
        return found
    for card in range(6):
        if unplaced[card]:
            found.append((f"pick {C.CARDS[card]}", scale - comb(total - unplaced[card], held)))
    return found


def _play_out(game: Game, state: State, rng: Any) -> State:
    """Finish the turn's resolutions, each side choosing greedily by the score."""
    for _ in range(4):
        waiting = game.awaiting(state)
        if state.inner.phase != RESOLVE or waiting.kind != "move":
            break
        seat = waiting.seats[0]
        state = game.play(state, seat, _best(game, state, seat, game_actions(game.legal(state, seat)), rng, False))
    return state


def _best(game: Game, state: State, seat: int, actions: list[str], rng: Any, deep: bool) -> str:
    best: list[str] = []
    best_value = None
    for action in actions:
        after = game.play(state, seat, action)
        if deep:
            after = _play_out(game, after, rng)
        value = score(after.inner, seat)
        if best_value is None or value > best_value:
            best, best_value = [action], value
        elif value == best_value:
            best.append(action)
    return rng.choice(best)


def _exchange(inner: TidesState, seat: int, actions: list[str]) -> str:
    """Trade leftover hand cards for exchange cards worth more in next round's deck."""

    def gain(action: str) -> tuple[int, str]:
        if action == "exchange none":
            return 0, action
        given, _, taken = action[len("exchange "):].partition(" for ")
        worth = sum(CARD_VALUE[C.INDEX[c]] for c in taken.split(",")) - sum(
            CARD_VALUE[C.INDEX[c]] for c in given.split(","))
        return worth, action

    return max(actions, key=lambda a: (gain(a)[0], a == "exchange none", a))


BOTS = {"random": RandomBot, "smart": SmartBot}
