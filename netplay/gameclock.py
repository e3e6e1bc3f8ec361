"""Each game's default move clock, and the longest a game can last under its terms.

Why a clock by default: with only a limit per decision, a seat that takes that limit (plus the claims'
skew) over every one of its decisions holds the others for decisions x limit; a 4-seat Catan game (867
decisions of one seat, measured) at 10 minutes a decision lasts six days (issue 32, N8). A chess clock (a
stock plus an increment per decision, per seat) makes a staller spend its own time: once it is spent the
seat is claimed and loses on time, whatever the game's length.

Why increments are credited for `CREDITED_DECISIONS` decisions only: no engine here bounds the number of
decisions of a game (Catan without `max_rounds`, the Kidd games end by repetition or a win only, Ploc's
rerolls), so "stock + decisions x increment" has no bound of its own. Past that count a seat plays on what
is left of its clock, so one seat's decision time in a game is at most `stock + CREDITED_DECISIONS x increment`
(plus the claims' skew once, netplay/deadlines.py) whatever the game's length: a per-game cap on the
clock, the same rule for every peer (it is netplay's rule, not a term).

The stocks are sized from the bots' decision counts per seat (smart bots playing
`bots.selfplay.play_match` with seeds 1000..1009 at the most seats the game has; the busiest seat's
`play` steps) and from what online sites give people (Catan sites: about one to two minutes a turn), so
an honest game never nears them; the table and the worst cases are in docs/security.md ("Time").
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from netplay.deadlines import CREDITED_DECISIONS
from replays.header import Terms

__all__ = ["CREDITED_DECISIONS", "DEFAULT_CLOCKS", "GAME_CLOCK", "UNTIMED", "Choice", "GameClock", "default_clock",
           "seat_budget", "worst_case"]


class Choice(Enum):
    """How a host chose to time decisions, where a clock value alone cannot say it."""

    GAME_CLOCK = "the game's own clock"     # DEFAULT_CLOCKS: the default
    UNTIMED = "untimed"                     # no clock and no limit per decision, chosen by name


GAME_CLOCK = Choice.GAME_CLOCK
UNTIMED = Choice.UNTIMED
#: what a late claim and a late decision may use of the claims' tolerance, once per seat and game (claims.py)
SKEW_S = 1.0


@dataclass(frozen=True, slots=True)
class GameClock:
    """A game's default clock and why: `stock_s` + `increment_s` per decision, per seat; `measured` is the
    most decisions one seat made in the bots' seeded games (the busiest seat of 10 games)."""

    stock_s: int
    increment_s: int
    measured: int


#: game id -> its default clock (the bots' counts: smart bots, seeds 1000..1009, most seats the game has)
DEFAULT_CLOCKS: dict[str, GameClock] = {
    "catan": GameClock(45 * 60, 5, 200),
    "catan-ck": GameClock(60 * 60, 5, 259),
    "ebbe-flut": GameClock(20 * 60, 5, 182),
    "ebbe-flut-solo": GameClock(60 * 60, 5, 355),
    "loyal-captain": GameClock(15 * 60, 10, 37),
    "madagaskar": GameClock(20 * 60, 10, 86),
    "ploc": GameClock(30 * 60, 3, 818),
    "quedah-merchant": GameClock(15 * 60, 10, 25),
    "turning-tides": GameClock(20 * 60, 10, 79),
}
#: a game not in the table (a new engine): a generous clock until it is measured
FALLBACK = GameClock(30 * 60, 5, 0)


def default_clock(game_id: str) -> tuple[float, float]:
    """The clock a host proposes for `game_id` unless it chooses another (seconds: stock, increment)."""
    clock = DEFAULT_CLOCKS.get(game_id, FALLBACK)
    return float(clock.stock_s), float(clock.increment_s)


def seat_budget(terms: Terms, decisions: int | None = None) -> float | None:
    """The most decision time one seat can spend in one game under `terms`, in seconds, with the claims'
    tolerance: with a clock, its stock plus the credited increments (whatever the game's length); with a
    limit per decision only, `decisions` x that limit (None when the game's length is not given: no
    engine bounds it); untimed: None (no bound at all)."""
    if terms.clock is not None:
        credited = CREDITED_DECISIONS if decisions is None else min(decisions, CREDITED_DECISIONS)
        clock = terms.clock[0] / 1000 + credited * terms.clock[1] / 1000
        if terms.move_ms is not None and decisions is not None:
            clock = min(clock, decisions * terms.move_ms / 1000)
        return clock + SKEW_S
    if terms.move_ms is not None and decisions is not None:
        return decisions * terms.move_ms / 1000 + SKEW_S
    return None


def worst_case(terms: Terms, players: int, stallers: int | None = None, decisions: int | None = None) -> float | None:
    """How much longer than its own pace a game can last under `terms` with `stallers` seats (all, by
    default) stalling as much as the terms allow: each staller's decision budget (`seat_budget`) and its
    lateness allowance for the frames that need no decision (once per game, with the claims' tolerance).
    Seconds; None where the terms bound nothing (untimed, or a limit per decision with no game length)."""
    stallers = players if stallers is None else stallers
    budget = seat_budget(terms, decisions)
    if budget is None:
        return None if stallers else 0.0
    return stallers * (budget + terms.lateness_ms / 1000 + SKEW_S)
