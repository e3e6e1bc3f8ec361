"""Between rounds: the exchange (or the intro's reserve fire), the secret damage cards, and the
set-up of the next round (reshuffle, turning the ships).

A seat's pool is public (every own card minus wait, exchange cards, reserve and out-of-game cards),
so the damage choice can be checked by anyone; what stays secret is *which* cards were set aside,
and with it the composition of the next deck. A peer that applies the choice as HIDDEN keeps that
seat's private part unknown and tracks only the counts.
"""

from __future__ import annotations

from typing import Any

from engines.core import HIDDEN, Hidden
from engines.tides import cards as C
from engines.tides.state import DAMAGE, DRAW0, EXCHANGE, OVER, ROUND_LIMIT, Pile, Private, TidesState, pair


def round_over(state: TidesState) -> TidesState:
    """The turn ended with o >= 13: the round limit, else the lull begins."""
    if state.round >= ROUND_LIMIT:
        return state._replace(phase=OVER, winner=-1, reason="round-limit")
    if state.intro:
        piles = tuple(p._replace(reserve=p.reserve - 1) if p.reserve else p for p in state.piles)
        return damage_step(state._replace(piles=piles))  # type: ignore[arg-type]
    taking_part = tuple(s for s in (0, 1) if state.piles[s].hand_n >= 2)
    if taking_part:
        return state._replace(phase=EXCHANGE, waiting=taking_part)
    return damage_step(state)


def exchange(state: TidesState, seat: int, given: C.Counts, taken: C.Counts) -> TidesState:
    """One seat's (already checked) exchange; the damage step follows once every seat has played."""
    pile = state.piles[seat]
    k = C.size(given)
    if k:
        pile = pile._replace(exchange=C.sub(C.add(pile.exchange, given), taken), discard=C.add(pile.discard, taken),
                       hand_n=pile.hand_n - k)
        mine = state.known(seat)
        private = state.private
        if mine is not None:
            private = pair(private, seat, mine._replace(hand=C.sub(mine.hand, given)))
        state = state._replace(piles=pair(state.piles, seat, pile), private=private)
    waiting = tuple(s for s in state.waiting if s != seat)
    if waiting:
        return state._replace(waiting=waiting)
    return damage_step(state._replace(waiting=()))


def damage_step(state: TidesState) -> TidesState:
    """The previous damage cards go back into the pool; seats with destroyed zones choose anew."""
    piles = tuple(p._replace(damage_n=0) if p.damage_n else p for p in state.piles)
    private = tuple(p if p is HIDDEN or not any(p.damage) else p._replace(damage=C.EMPTY) for p in state.private)
    state = state._replace(piles=piles, private=private)  # type: ignore[arg-type]
    taking_part = tuple(s for s in (0, 1) if state.ships[s].destroyed)
    if taking_part:
        return state._replace(phase=DAMAGE, waiting=taking_part)
    return new_round(state)


def damage(state: TidesState, seat: int, chosen: Any) -> TidesState:
    """One seat's damage cards (already checked), or HIDDEN on a peer that must not learn them."""
    d = state.ships[seat].destroyed
    mine = state.known(seat)
    if chosen is HIDDEN or mine is None:
        private = pair(state.private, seat, HIDDEN)
    else:
        private = pair(state.private, seat, mine._replace(damage=chosen))
    piles = pair(state.piles, seat, state.piles[seat]._replace(damage_n=d))
    waiting = tuple(s for s in state.waiting if s != seat)
    state = state._replace(piles=piles, private=private, waiting=waiting)
    return state if waiting else new_round(state)


def new_round(state: TidesState) -> TidesState:
    """Reshuffle (deck = pool minus damage cards, hand = wait), turn both ships, o = 0 (New round)."""
    piles: list[Pile] = []
    private: list[Private | Hidden] = []
    for seat in (0, 1):
        pile = state.piles[seat]
        pool = pile.pool()
        piles.append(Pile(C.EMPTY, pile.exchange, pile.reserve, pile.out, 1, C.size(pool) - pile.damage_n,
                          pile.damage_n))
        mine = state.known(seat)
        if mine is None:
            private.append(HIDDEN)
        else:
            private.append(Private(C.START_HAND, C.sub(pool, mine.damage), mine.damage))
    return state._replace(phase=DRAW0, round=state.round + 1, turn=1, o=0,
                   ships=(state.ships[0].turned(), state.ships[1].turned()), piles=(piles[0], piles[1]),
                   private=(private[0], private[1]), picks=("", ""), queue=(), revealed=("", ""), waiting=())
