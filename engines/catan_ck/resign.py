"""A seat resigns from a game of 3 or 4 (docs/rules/catan-ck.md, Changed base rules: Resignation)."""

from __future__ import annotations

from typing import Any

from engines.catan.state import MAIN, OVER, CatanState, Seat
from engines.catan_ck.state import CKSeat, PHand
from engines.catan_ck.steps import SETUP_CITY
from engines.contract import HIDDEN

__all__ = ["eliminate"]


def eliminate(rules: Any, s: CatanState, seat: int) -> CatanState:
    """Its pieces, knights and walls leave the board; its cards go to the bank; its progress cards
    leave the game (HIDDEN where they were not known); its metropolises become unowned (and pass at
    once to a sole remaining seat at the highest level >= 4 that owns a city without a metropolis);
    a merchant it controlled leaves the board. Its turn ends, or the steps waiting for it skip it."""
    me = s.seats[seat]
    x = s.ext
    cs = x.seats[seat]
    mine = s.private[seat]
    gone = s.gone
    if gone is not HIDDEN:
        gone = HIDDEN if mine is HIDDEN else tuple(a + b for a, b in zip(gone, mine.held, strict=True))
    bank = tuple(a + b for a, b in zip(s.bank, me.hand, strict=True))
    seats = s.seats[:seat] + (Seat(hand=(0,) * 8),) + s.seats[seat + 1:]
    ext_seats = x.seats[:seat] + (CKSeat(vpcards=cs.vpcards, levels=cs.levels, defender=cs.defender),) + \
        x.seats[seat + 1:]
    lost = [t for t in range(3) if x.metro[t] == seat]
    metro = tuple(-1 if o == seat else o for o in x.metro)
    metro_at = tuple(-1 if x.metro[t] == seat else n for t, n in enumerate(x.metro_at))
    merchant, owner = (x.merchant, x.merchant_owner) if x.merchant_owner != seat else (-1, -1)
    out = (*s.out, seat)
    agenda = tuple(t for t in x.agenda if not (len(t) > 1 and t[0] in ("draw", "pick", "pillage", "aqueduct",
                                                                       "bishopsteal", "harbor", "give", "metro")
                                               and t[1] == seat))
    x = x.put(seats=ext_seats, metro=metro, metro_at=metro_at, merchant=merchant, merchant_owner=owner, agenda=agenda,
              seen=tuple(None if v is not None and v[0] == seat else v for v in x.seen))
    s = s.put(seats=seats, bank=bank, private=s.private[:seat] + (PHand(),) + s.private[seat + 1:], gone=gone,
              out=out, longest=-1 if s.longest == seat else s.longest, ext=x)
    s = rules.relength_all(s)
    awards = []
    for t in lost:
        top = max((s.ext.seats[o].levels[t] for o in s.alive()), default=0)
        leaders = [o for o in s.alive() if s.ext.seats[o].levels[t] == top]
        if top >= 4 and len(leaders) == 1:
            o = leaders[0]
            if s.seats[o].cities & ~rules.metro_nodes(s.ext, o):
                awards.append(("metro", o, t))
    s = _skip(rules, s, seat)
    if awards and s.step != OVER:
        s = rules.push(s, *awards, ("restore", s.step, s.queue, s.ext.ctx))
        return rules.resume(s)
    return s


def _skip(rules: Any, s: CatanState, seat: int) -> CatanState:
    step = s.step
    if step in ("terrain", "spiral", "harbour", OVER):
        return s
    if step in ("setup-settle", "setup-road", SETUP_CITY):
        if s.active == seat:
            return rules._next_placement(s)
        return s
    if seat == s.active:
        return rules._next_turn(s, seat)
    x = s.ext
    waiting = rules.awaiting(s)
    involved = seat in s.queue or (waiting.chance is not None and seat in (waiting.chance.private_to,
                                                                            waiting.chance.source))
    if step == "respond" or step == "confirm":
        offer = s.offer
        assert offer is not None  # (respond and confirm hold an offer)
        queue = tuple(o for o in s.queue if o != seat)
        offer = offer.put(accepted=tuple(o for o in offer.accepted if o != seat))
        s = s.put(queue=queue, offer=offer)
        if queue or step == "confirm" and offer.accepted:
            return s
        if offer.accepted:
            return s.put(step="confirm")
        return s.put(offer=None, step=MAIN)
    if step in ("discard", "commit") and seat in s.queue:
        queue = tuple(o for o in s.queue if o != seat)
        if queue:
            return s.put(queue=queue)
        return rules.resume(s.put(queue=()))
    if step in ("take", "harbor") and x.ctx and x.ctx[0] == seat:
        return rules.resume(s.put(ext=x.put(ctx=())))
    if step == "steal-pick" and s.victim == seat:
        return rules.resume(s.put(victim=-1))
    if step == "steal" and not rules.candidates(s):
        return rules.resume(s)
    if involved:
        return rules.resume(s.put(queue=(), ext=x.put(ctx=())))
    return s

