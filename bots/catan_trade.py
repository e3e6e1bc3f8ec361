"""Domestic offers the hard Catan bot makes: to one player, the trade that player will take.

Why: the medium bot's offers are blind (1 for 1 of its surplus, to the table, for the one card its
target lacks), so most are declined, and a declined offer uses up that player for the turn (the offer
memory, bots.offers: each player is asked once a turn). In the base game every hand is public (counts
of each resource), and so are the things a medium player's answer reads (its buildings, the pieces
left, the awards, the active player's points): the hard bot can work out the answer of a player who
judges offers as the medium bot does (`bots.catan.judge_offer`, from the view that player has of the
table) before it asks. So it asks each player for the one trade that is worth most to itself among
those the player would take, and gives nothing for what it does not need.

What a trade is worth to the bot: how near its hand comes to the builds it can make (a city, a
settlement on a spot its roads reach, a road towards one, a development card), on the value
function's scale (`Weights.build`, bots.catan_value), less what the trade gives a player who then
completes a city or a settlement of his own (never a trade with a player close to winning).

Pure: a function of the seat's knowledge state (every hand it reads is public) and its offer memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from bots.catan import COSTS, Position, SmartBot, judge_offer
from bots.catan_value import VP, Weights
from engines.catan.cards import RESOURCES, multiset_text
from engines.core import Game, State

__all__ = ["Proposal", "best_offer", "sides"]

Cards = tuple[int, ...]
#: the points at which a player is close to winning: the bot neither asks him nor helps him build
CLOSE = 7
_POINTS = (COSTS["city"], COSTS["settlement"])
#: the least gain (value-function points) an offer must bring the bot, so that it is worth the table's time
MARGIN = 300


@dataclass(slots=True, frozen=True)
class Proposal:
    """One offer to one player: the bot gives `give` and gets `get`; `gain` is what it is worth."""

    seat: int
    give: Cards
    get: Cards
    gain: int
    #: the card names the offer is written in (the base game's resources; C&K's eight kinds)
    names: tuple[str, ...] = RESOURCES

    @property
    def text(self) -> str:
        return f"offer {multiset_text(self.give, self.names)} for {multiset_text(self.get, self.names)} to {self.seat}"


def sides(hand: Cards, most: int) -> list[Cards]:
    """Every non-empty multiset of at most `most` cards out of `hand`."""
    ranges = [range(min(h, most) + 1) for h in hand]
    return [m for m in product(*ranges) if 0 < sum(m) <= most]


def _missing(hand: Cards, cost: Cards) -> int:
    return sum(c - h for h, c in zip(hand, cost, strict=True) if c > h)


def _fits(cost: Cards, hand: Cards) -> bool:
    return all(h >= c for h, c in zip(hand, cost, strict=True))


def hand_worth(hand: Cards, builds: list[tuple[Cards, int]], w: Weights) -> int:
    """The builds a hand makes or nearly makes, the best two of them (a city and a settlement both
    in sight are worth more than one), plus a little per card."""
    tops = sorted((w.build[m] * pct // 100 for cost, pct in builds if (m := _missing(hand, cost)) <= 2),
                  reverse=True)
    return sum(tops[:1]) + sum(tops[1:2]) // 3 + w.card * sum(hand)


def builds_of(pos: Position, view: dict, w: Weights) -> list[tuple[Cards, int]]:
    """What the seat of `pos` can build with the right cards: (cost, percent of `Weights.build`)."""
    pieces = view["pieces"][pos.me]
    builds: list[tuple[Cards, int]] = []
    if pieces["cities"] and any(o == pos.me and kind == "settlement" for o, kind in pos.owner.values()):
        builds.append((COSTS["city"], w.city))
    _, node, d = pos.best_spot()
    if node >= 0 and pieces["settlements"]:
        if d == 0:
            builds.append((COSTS["settlement"], w.settlement))
        elif pieces["roads"]:
            builds.append((COSTS["road"], w.road * 4))
    if view["deck"]:
        builds.append((COSTS["dev"], w.dev))
    return builds


def best_offer(game: Game, state: State, me: int, allowed: dict[str, None] | set[str], askable,
               w: Weights, most: int = 4) -> Proposal | None:
    """The offer to one player that the bot gains most by and that player would accept (judged as the
    medium bot judges offers), or None. `askable(seat, give, get)` says whether the offer memory lets
    the bot ask `seat` for that trade now."""
    view = game.view(state, me)
    pos = Position(view, me)
    builds = builds_of(pos, view, w)
    hand = pos.hand
    now = hand_worth(hand, builds, w)
    gives = sides(hand, 2)
    best: Proposal | None = None
    for o in range(pos.n):
        if o == me or o in pos.out or pos.vp[o] >= CLOSE:
            continue
        theirs = tuple(view["hands"][o])
        if not sum(theirs):
            continue
        their_view = game.view(state, o)
        their_pos = Position(their_view, o)
        judge = SmartBot()
        need, wanted = judge._need(their_pos), judge._wanted(their_pos)
        points = [c for c in dict.fromkeys(wanted) if c in _POINTS and not _fits(c, theirs)]
        lead = max(pos.vp[x] for x in range(pos.n) if x != me and x not in pos.out)
        for get in sides(theirs, 2):
            for give in gives:
                if sum(give) + sum(get) > most or sum(give) > sum(get) + 1:
                    continue
                if any(a and b for a, b in zip(give, get, strict=True)):
                    continue
                after = tuple(h - g + r for h, g, r in zip(hand, give, get, strict=True))
                gain = hand_worth(after, builds, w) - now
                if gain < MARGIN or (best is not None and gain <= best.gain):
                    continue
                # their answer: they receive `give` and pay `get`
                if pos.vp[me] >= CLOSE or not judge_offer(theirs, give, get, need, wanted):
                    continue
                theirs_after = tuple(h - p + r for h, p, r in zip(theirs, get, give, strict=True))
                if any(_fits(cost, theirs_after) for cost in points):
                    gain -= VP * (12 + (25 if pos.vp[o] == lead else 0)) // 100
                if gain < MARGIN or (best is not None and gain <= best.gain):
                    continue
                proposal = Proposal(o, give, get, gain)
                if proposal.text in allowed and askable(o, give, get):
                    best = proposal
    return best
