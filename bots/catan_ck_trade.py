"""Domestic offers the hard Cities & Knights bot makes: to one player, the trade that player will take.

Why: as in the base game (bots.catan_trade), the medium bot's offers are blind (1 for 1 or 2 for 1 of
its surplus, to the table, for one card its target lacks), most are declined, and a declined offer
uses up that player for the turn (bots.offers). In Cities & Knights too every hand is public (counts of
the five resources and three commodities), and so is everything a medium player's answer reads (its
buildings, improvements, the barbarians): only the progress cards are hidden, and the answer does not
read them. So the hard bot works out the answer of each player who judges offers as the medium bot
does (`bots.catan.judge_offer` on that player's view of the table) before it asks, and asks for the
trade worth most to itself among those the player takes.

What a hand is worth here: how near it comes to the builds the medium bot would make (its target
first, then a city, a settlement, a knight when the barbarians are near), the best of them counted in
full and the second a third; a trade that completes for the other player a city, a settlement or a
knight he would build (his `_wanted` past his target: a target of his that is a point is listed there
again) is worth that much less to the bot. Pure: a function of the seat's knowledge state and its offer memory.
"""

from __future__ import annotations

from bots.catan import judge_offer
from bots.catan_ck import NAMES, Position, SmartBot
from bots.catan_trade import Proposal, sides
from engines.core import Game, State

__all__ = ["CLOSE", "best_offer", "hand_worth"]

Cards = tuple[int, ...]
#: the public points at which a player is close to winning (13 wins): the medium bot's own line
CLOSE = 10
#: a build's worth by the cards the hand still lacks for it (0, 1, 2): the target's and any other's
TARGET = (1000, 400, 150)
OTHER = (600, 250, 80)
#: what one card in hand is worth (a hand of more cards is a little better, all else equal)
CARD = 10
#: the least gain an offer must bring: a target brought one card nearer from two short, at least
MARGIN = 250
#: what a trade costs the bot when it completes a city, a settlement or a knight for the other player
HELPS = 300


def _lacks(hand: Cards, cost: Cards) -> int:
    return sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)


def _fits(cost: Cards, hand: Cards) -> bool:
    return all(h >= c for h, c in zip(hand, cost, strict=True))


def hand_worth(hand: Cards, wanted: list[Cards]) -> int:
    """The builds `hand` makes or nearly makes (`wanted[0]` the target), the best counted in full and
    the second a third, plus a little per card."""
    tops = sorted(((TARGET if i == 0 else OTHER)[m] for i, cost in enumerate(wanted) if (m := _lacks(hand, cost)) <= 2),
                  reverse=True)
    return sum(tops[:1]) + sum(tops[1:2]) // 3 + CARD * sum(hand)


def best_offer(game: Game, state: State, pos: Position, wanted: list[Cards], allowed: set[str], askable,
               most: int) -> Proposal | None:
    """The offer to one player that the bot of `pos` gains most by and that player would accept (as the
    medium bot judges offers), or None. `askable(seat, give, get)`: whether the offer memory lets the bot
    ask `seat` for that trade now; `most`: the most cards an offer holds."""
    me, view = pos.me, pos.view
    if pos.vp[me] >= CLOSE:
        return None      # a medium player declines every offer of a seat this close to winning
    hand = tuple(pos.hand)
    now = hand_worth(hand, wanted)
    gives = sides(hand, 2)
    out = set(view["out"])
    best: Proposal | None = None
    for o in range(pos.n):
        if o == me or o in out or pos.vp[o] >= CLOSE:
            continue
        theirs = tuple(view["hands"][o])
        if not sum(theirs):
            continue
        judge, their_pos = SmartBot(), Position(game.view(state, o), o)
        their_wanted = judge._wanted(their_pos)
        builds = [c for c in their_wanted[1:] if not _fits(c, theirs)]
        for get in sides(theirs, 2):
            for give in gives:
                if sum(give) + sum(get) > most or sum(give) > sum(get) + 1:
                    continue
                if any(a and b for a, b in zip(give, get, strict=True)):
                    continue
                after = tuple(h - g + r for h, g, r in zip(hand, give, get, strict=True))
                gain = hand_worth(after, wanted) - now
                if gain < MARGIN or (best is not None and gain <= best.gain):
                    continue
                if not judge_offer(theirs, give, get, their_wanted[0], their_wanted):
                    continue
                theirs_after = tuple(h - p + r for h, p, r in zip(theirs, get, give, strict=True))
                if any(_fits(c, theirs_after) for c in builds):
                    gain -= HELPS
                if gain < MARGIN or (best is not None and gain <= best.gain):
                    continue
                proposal = Proposal(o, give, get, gain, NAMES)
                if proposal.text in allowed and askable(o, give, get):
                    best = proposal
    return best
