"""The Turning Tides state: a public part every peer shares, plus one private part per seat.

The private part of a seat (its hand, deck and damage cards) is either known (`Private`) or the
`HIDDEN` stand-in on a peer that does not own it. Every rule that moves cards updates the public
counts in `Pile` the same way in both cases, so all peers reach the same digest; the private part is
only ever read when it is known, and then checked more strictly (see secrets.py).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from engines.core import HIDDEN
from engines.tides import cards as C
from engines.tides.ship import Ship, setup_ship

DRAW0, DRAW1, PICK, RESOLVE, EXCHANGE, DAMAGE, OVER = (
    "draw0", "draw1", "pick", "resolve", "exchange", "damage", "over")

ROUND_LIMIT = 20


class Pile(NamedTuple):
    """A seat's cards as everybody sees them: open piles in full, closed ones as counts (D26)."""

    discard: C.Counts
    exchange: C.Counts
    reserve: int
    out: C.Counts
    hand_n: int
    deck_n: int
    damage_n: int

    def unplaced(self) -> C.Counts:
        """Hand, deck and damage cards together, minus `wait`: the cards whose place is not public
        (the Public check)."""
        return C.unplaced(self.discard, self.exchange, self.out, self.reserve)

    def pool(self) -> C.Counts:
        """Every own card except `wait`, exchange cards, reserve and out-of-game cards (Damage)."""
        counts = list(C.OWNED)
        for i in range(6):
            counts[i] -= self.exchange[i] + self.out[i]
        counts[C.FIRE] -= self.reserve
        counts[C.WAIT] = 0
        return tuple(counts)  # type: ignore[return-value]


class Private(NamedTuple):
    hand: C.Counts
    deck: C.Counts
    damage: C.Counts


class TidesState(NamedTuple):
    """The whole game. `picks` are this turn's revealed picks ("" until a seat has played),
    `queue` the (seat, card) resolutions still to come in Hierarchy order, its head the one being
    resolved; `revealed` the cards of the latest reveal as they act ("promote" for a replaced card),
    kept until the next reveal so the table can show them; `waiting` the seats still to play in the
    exchange or damage step under way (fixed when the step begins: giving cards away changes the
    hand count that decided who takes part)."""

    intro: bool
    round: int
    pawn: int
    ships: tuple[Ship, Ship]
    promo: tuple[bool, bool]
    phase: str
    turn: int
    o: int
    piles: tuple[Pile, Pile]
    private: tuple[Any, Any]
    picks: tuple[str, str] = ("", "")
    queue: tuple[tuple[int, str], ...] = ()
    revealed: tuple[str, str] = ("", "")
    waiting: tuple[int, ...] = ()
    winner: int = -1
    reason: str = ""

    def known(self, seat: int) -> Private | None:
        mine = self.private[seat]
        return None if mine is HIDDEN else mine

    def public(self) -> tuple:
        return (self.intro, self.phase, self.round, self.turn, self.o, self.pawn,
                self.ships, self.promo, self.piles, self.picks, self.queue, self.revealed,
                self.waiting, self.winner, self.reason)


def pair(values: tuple, seat: int, value: Any) -> tuple:
    """A two-seat tuple with one seat's entry replaced."""
    return (value, values[1]) if seat == 0 else (values[0], value)


_new = tuple.__new__


def moved(s: TidesState, phase: str, turn: int, o: int, piles: tuple, private: tuple, picks: tuple[str, str],
          queue: tuple, revealed: tuple[str, str], waiting: tuple[int, ...]) -> TidesState:
    """The state with the fields a turn keeps changing replaced at once: the hot path of draws, picks
    and the end of a turn, several times cheaper than `_replace` (the field order above matters)."""
    return _new(TidesState, (s[0], s[1], s[2], s[3], s[4], phase, turn, o, piles, private, picks, queue, revealed,
                             waiting, s[14], s[15]))


def with_ship(state: TidesState, seat: int, ship: Ship) -> TidesState:
    return state._replace(ships=pair(state.ships, seat, ship))


def initial(intro: bool) -> TidesState:
    """Setup; both private parts are known to everyone, since the setup itself is public."""
    if intro:
        pile = Pile(C.EMPTY, C.EMPTY, C.INTRO_RESERVE, C.INTRO_OUT, 1, 7, 0)
    else:
        pile = Pile(C.EMPTY, C.START_EXCHANGE, 0, C.EMPTY, 1, 7, 0)
    private = Private(C.START_HAND, C.START_DECK, C.EMPTY)
    return TidesState(intro=intro, phase=DRAW0, round=1, turn=1, o=0, pawn=0,
                      ships=(setup_ship(0), setup_ship(1)), promo=(False, False), piles=(pile, pile),
                      private=(private, private))
