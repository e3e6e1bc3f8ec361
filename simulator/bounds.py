"""The time an honest peer may take, from the terms alone: a game's (`bound`) and the waits outside a game
(`lobby_bound`). Why a module of its own: the one-game invariants (invariants.py) and the session's
(sessions.py) both sum them, and neither should import the other."""

from __future__ import annotations

import math
from typing import Any

from netplay.gameclock import seat_budget
from netplay.protocol.core import JOINER_GRACE
from netplay.protocol.waits import FILL_S, OFFER_S, START_WAIT_S

__all__ = ["bound", "lobby_bound"]


def bound(world: Any, frames: int) -> float:
    """The longest an honest peer may take to reach an end: the lobby, every frame at its honest pace, what
    the terms let each liar add by stalling (netplay/gameclock.py's `seat_budget`: with a clock, its stock
    and credited increments, whatever it played; with a limit per decision only, that limit for each of the
    game's frames, as no engine bounds a game's length; untimed: no bound), every seat's lateness, the
    claims and contests that end a game, and the time the faults took away."""
    terms = world.terms
    timeout = terms.reveal_timeout_ms / 1000
    liars = sum(1 for p in world.peers if p.adversary is not None)
    per_frame = terms.frame_limit_ms / 1000 + 2 * world.faults.latency[1] + (0.25 if world.faults.reorder else 0)
    budget = seat_budget(terms, frames) if liars else 0.0
    stall = math.inf if budget is None else liars * budget
    faults = world.faults.drops * (world.faults.drop_s + 2) + world.faults.kills * (world.faults.kill_s + 3)
    return (60.0 + frames * per_frame + stall + world.players * terms.lateness_ms / 1000 + 8 * (timeout + 15.0)
            + faults + (frames * 3.0 if world.faults.loss else 0))


def lobby_bound(world: Any) -> float:
    """The longest the waits outside a game may add (netplay/protocol/waits.py): the first lobby (the offer,
    the table filling, the start), and for every game a peer played before its last one the rematch's vote
    and start (the games' own bounds are `simulator.sessions.session_bound`'s)."""
    reveal = world.terms.reveal_timeout_ms / 1000
    total = OFFER_S + FILL_S + START_WAIT_S + 10.0
    played = max((getattr(p, "games", []) for p in world.peers), key=len, default=[])
    # each game's own bound is simulator/sessions.py's `session_bound`: here only the rematch's vote and start
    total += len(played) * (reveal + JOINER_GRACE + START_WAIT_S + 10.0)
    return total
