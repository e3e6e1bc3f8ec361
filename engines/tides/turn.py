"""One turn: draw, pick, reveal, resolve in Hierarchy order, discard, sail.

Steps with nothing to decide (a card without options, discard, sail, the round end) run inside the
call that leads to them, so the state always rests at a chance point or a decision.
"""

from __future__ import annotations

from typing import Any

from engines.core import HIDDEN, IllegalAction
from engines.tides import cards as C
from engines.tides.cards import PROMOTE
from engines.tides.lull import round_over
from engines.tides.resolution import apply, has_option
from engines.tides.ship import ROUND_END
from engines.tides.state import DRAW0, DRAW1, OVER, PICK, RESOLVE, Pile, Private, TidesState, moved, pair


def draw(state: TidesState, seat: int, value: Any) -> TidesState:
    pile = state.piles[seat]
    if value is HIDDEN:
        private = HIDDEN
    else:
        mine = state.private[seat]
        if mine is HIDDEN:
            raise IllegalAction(f"seat {seat}'s deck is secret here: a peer that does not own this draw feeds HIDDEN")
        card = C.nth(mine.deck, value)
        private = Private(C.bump(mine.hand, card, 1), C.bump(mine.deck, card, -1), mine.damage)
    pile = Pile(pile.discard, pile.exchange, pile.reserve, pile.out, pile.hand_n + 1, pile.deck_n - 1, pile.damage_n)
    phase = DRAW1 if seat == 0 and state.piles[1].deck_n else PICK
    return moved(state, phase, state.turn, state.o, pair(state.piles, seat, pile), pair(state.private, seat, private),
                 state.picks, state.queue, state.revealed, state.waiting)


def pick(state: TidesState, seat: int, card: int) -> TidesState:
    """A revealed (already checked) pick leaves the hand; the last one triggers the reveal."""
    pile = state.piles[seat]
    piles = pair(state.piles, seat, Pile(pile.discard, pile.exchange, pile.reserve, pile.out, pile.hand_n - 1,
                                         pile.deck_n, pile.damage_n))
    mine = state.private[seat]
    private = state.private
    if mine is not HIDDEN:
        private = pair(private, seat, Private(C.bump(mine.hand, card, -1), mine.deck, mine.damage))
    picks = pair(state.picks, seat, C.CARDS[card])
    if "" in picks:
        return moved(state, PICK, state.turn, state.o, piles, private, picks, (), state.revealed, ())
    return reveal(state, picks, piles, private)


def reveal(state: TidesState, picks: tuple[str, str], piles: tuple, private: tuple) -> TidesState:
    """Step 3: promotion replaces a non-wait card, a double Wait sails at once, the rest queue up in
    Hierarchy order with ties to the pawn holder as it stands now (D21)."""
    a, b = picks
    promo = state.promo
    if promo[0] and a != "wait":
        a = PROMOTE
    if promo[1] and b != "wait":
        b = PROMOTE
    acting = (a, b)
    o = state.o
    if a == "wait":
        if b == "wait":
            o += 1
            queue: tuple = ()
        else:
            queue = ((1, b),)
    elif b == "wait":
        queue = ((0, a),)
    else:
        level_a, level_b = C.HIERARCHY[a], C.HIERARCHY[b]
        seat_0_first = level_a < level_b or (level_a == level_b and state.pawn == 0)
        queue = ((0, a), (1, b)) if seat_0_first else ((1, b), (0, a))
    # the board is as the last turn left it, so options can be tested on `state` (o only moved if nothing queued)
    while queue and not has_option(state, queue[0][0], queue[0][1]):
        queue = queue[1:]
    if queue:
        return moved(state, RESOLVE, state.turn, o, piles, private, picks, queue, acting, ())
    return end_turn(state, picks, piles, private, o, acting)


def resolve(state: TidesState, seat: int, parsed: tuple) -> TidesState:
    """One resolution action, then the next queued card with options, or the end of the turn."""
    state = apply(state, seat, parsed)
    if state.phase == OVER:
        return state
    queue = state.queue[1:]
    while queue:
        if has_option(state, queue[0][0], queue[0][1]):
            return state._replace(queue=queue)
        queue = queue[1:]
    return end_turn(state, state.picks, state.piles, state.private, state.o, state.revealed)


def end_turn(state: TidesState, picks: tuple[str, str], piles: tuple, private: tuple, o: int,
             revealed: tuple[str, str]) -> TidesState:
    """Step 4 discard (wait back to hand, a replaced card discarded too), step 5 sail, then the end check."""
    piles = (_discard(piles[0], picks[0]), _discard(piles[1], picks[1]))
    a, b = private
    if picks[0] == "wait" and a is not HIDDEN:
        a = Private(C.bump(a.hand, C.WAIT, 1), a.deck, a.damage)
    if picks[1] == "wait" and b is not HIDDEN:
        b = Private(C.bump(b.hand, C.WAIT, 1), b.deck, b.damage)
    o += 1
    if o >= ROUND_END:
        return round_over(state._replace(piles=piles, private=(a, b), picks=_NO_PICKS, queue=(), o=o,
                                         revealed=revealed))
    phase = DRAW0 if piles[0].deck_n else DRAW1 if piles[1].deck_n else PICK
    return moved(state, phase, state.turn + 1, o, piles, (a, b), _NO_PICKS, (), revealed, ())


def _discard(pile: Pile, card: str) -> Pile:
    if card == "wait":
        return Pile(pile.discard, pile.exchange, pile.reserve, pile.out, pile.hand_n + 1, pile.deck_n, pile.damage_n)
    return Pile(C.bump(pile.discard, C.INDEX[card], 1), pile.exchange, pile.reserve, pile.out, pile.hand_n,
                pile.deck_n, pile.damage_n)


_NO_PICKS = ("", "")
