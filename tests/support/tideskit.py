"""Turning Tides positions for the tests, shared by the rules and the visibility tests: ships, each seat's
cards (hand, deck, discard, exchange, damage), whole positions built on the inner state, a seat's knowledge
state (the other seat's private part hidden) and both picks of a turn."""

from __future__ import annotations

import dataclasses

import engines
from engines.core import HIDDEN, State
from engines.tides import cards as C
from engines.tides.ship import Ship, bit
from engines.tides.state import PICK, Pile, Private, TidesState

G = engines.get("turning-tides")


def counts(*names: str) -> C.Counts:
    found = [0] * 7
    for name in names:
        found[C.INDEX[name]] += 1
    return tuple(found)  # type: ignore[return-value]


def ship(captain: int = 0, sailors: tuple[int, ...] = (), cannons: tuple[str, ...] = (), mast: bool = True,
         skulls: tuple[int, ...] = ()) -> Ship:
    """`sailors` lists a zone per sailor, `cannons` slots such as "5in"."""
    per_zone = [0] * 7
    for z in sailors:
        per_zone[z - 1] += 1
    mask = 0
    for slot in cannons:
        mask |= bit(int(slot[0]), 0 if slot[1:] == "in" else 1)
    skull_mask = 0
    for z in skulls:
        skull_mask |= 1 << (z - 1)
    return Ship(captain, tuple(per_zone), mask, mast, skull_mask)


STANDARD_EXCHANGE = ("fire", "fire", "sailor", "swing")
NO_FIRE_EXCHANGE = ("cannon", "move", "sailor", "swing")


def side(hand: tuple[str, ...] = ("wait",), deck: tuple[str, ...] | None = None, discard: tuple[str, ...] | None = None,
         exchange: tuple[str, ...] = STANDARD_EXCHANGE, damage: tuple[str, ...] = (), intro: bool = False,
         reserve: int = 0) -> tuple[Pile, Private]:
    """One seat's cards. Whatever is neither given nor in hand, exchange, damage (or the intro's reserve
    and out-of-game cards) goes to the deck, or to the discard pile when `deck` is given."""
    out = C.INTRO_OUT if intro else C.EMPTY
    if intro:
        exchange = ()
    placed = C.add(C.add(counts(*hand), counts(*exchange)), counts(*damage))
    placed = C.add(placed, out)
    placed = C.bump(placed, C.FIRE, reserve)
    rest = C.sub(C.OWNED, placed)
    if deck is None and discard is None:
        deck_c, discard_c = rest, C.EMPTY
    elif deck is None:
        discard_c = counts(*discard)
        deck_c = C.sub(rest, discard_c)
    else:
        deck_c = counts(*deck)
        discard_c = C.sub(rest, deck_c) if discard is None else counts(*discard)
    assert all(n >= 0 for n in deck_c + discard_c), "inconsistent cards"
    pile = Pile(discard_c, counts(*exchange), reserve, out, len(hand), C.size(deck_c), len(damage))
    return pile, Private(counts(*hand), deck_c, counts(*damage))


def position(ships: tuple[Ship, Ship], sides: tuple | None = None, *, o: int = 0, pawn: int = 0, round: int = 1,
             turn: int = 1, promo: tuple[bool, bool] = (False, False), intro: bool = False, phase: str = PICK,
             waiting: tuple[int, ...] = ()) -> State:
    sides = sides or (side(intro=intro), side(intro=intro))
    inner = TidesState(intro=intro, phase=phase, round=round, turn=turn, o=o, pawn=pawn, ships=ships, promo=promo,
                       piles=(sides[0][0], sides[1][0]), private=(sides[0][1], sides[1][1]), waiting=waiting)
    return State(inner=inner, players=2)


def knowledge(state: State, seat: int) -> State:
    """The state as `seat`'s peer holds it: the other seat's private part HIDDEN."""
    private = list(state.inner.private)
    private[1 - seat] = HIDDEN
    return dataclasses.replace(state, inner=state.inner._replace(private=tuple(private)))


def moves(state: State, seat: int) -> list[str]:
    """legal() without the common `resign`, which is legal at every decision point."""
    return [a for a in G.legal(state, seat) if a != "resign"]


def picks(state: State, a: str, b: str) -> State:
    return G.play(G.play(state, 0, f"pick {a}"), 1, f"pick {b}")


def cards_of(state: State, seat: int, part: str) -> list[str]:
    return C.names(getattr(state.inner.private[seat], part))
