"""The Ebbe & Flut state: one frozen value with nothing secret in it.

Undrawn cards are kept as a sorted pool per seat (solo: one pool of all 50) rather than as stacks of
known order, because nobody knows a stack's order (D5): a draw is a uniform pick from the pool and
the chosen stack only loses one from its count. `tops` and `conflicts` are derived from `piles`; they
are kept so that `legal()` and `play()` need not rescan the field, and are left out of the digest.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines.ebbeflut import cards as C
from engines.ebbeflut import field as F

OPEN_DRAW, CHANCE, OPEN_PLACE, TURN, OVER = "opening-draw", "chance", "opening-place", "turn", "over"

Pile = tuple[int, ...]


@dataclass(frozen=True, slots=True)
class EbbeFlutState:
    """`mover` is the seat to act (during CHANCE: the seat that drew). `held` is, per seat, the drawn
    card still waiting to be placed (-1: none). `drawn` says the mover has drawn this turn or has
    nothing left to draw, so `end` no longer waits for a draw. `first` is the seat that took the
    first turn (-1 during the opening). `home` and `lost` list, per colour, the cards that reached
    their goal or went off the field, in the order it happened."""

    solo: bool
    phase: str
    mover: int
    piles: tuple[Pile, ...]
    tops: F.Tops
    conflicts: F.Pushes
    pools: tuple[tuple[int, ...], ...]
    stacks: tuple[tuple[int, ...], ...]
    held: tuple[int, ...]
    drawn: bool = False
    first: int = -1
    home: tuple[Pile, Pile] = ((), ())
    lost: tuple[Pile, Pile] = ((), ())

    def public(self) -> tuple:
        return (self.solo, self.phase, self.mover, self.piles, self.pools, self.stacks, self.held,
                self.drawn, self.first, self.home, self.lost)

    def scores(self) -> tuple[int, ...]:
        """Cards brought home per seat; in solo both colours count for the one player."""
        if self.solo:
            return (len(self.home[0]) + len(self.home[1]),)
        return (len(self.home[0]), len(self.home[1]))

    def has_conflict(self) -> bool:
        return bool(self.conflicts[0] or self.conflicts[1])


EMPTY_FIELD: tuple[Pile, ...] = ((),) * 25
NO_TOPS: F.Tops = (-1,) * 25


def initial(solo: bool) -> EbbeFlutState:
    if solo:
        return EbbeFlutState(solo=True, phase=TURN, mover=0, piles=EMPTY_FIELD, tops=NO_TOPS,
                             conflicts=((), ()), pools=(C.ALL,), stacks=((10,) * 5,), held=(-1,))
    return EbbeFlutState(solo=False, phase=OPEN_DRAW, mover=0, piles=EMPTY_FIELD, tops=NO_TOPS,
                         conflicts=((), ()), pools=C.OWN, stacks=((5,) * 5, (5,) * 5), held=(-1, -1))


def spread(n: int, stacks: int) -> tuple[int, ...]:
    """n cards dealt over the stacks as evenly as possible, earlier stacks first."""
    return tuple(n // stacks + (1 if k < n % stacks else 0) for k in range(stacks))


def arrange(solo: bool, piles: dict[str, str], *, mover: int = 0, drawn: bool = False, held: str = "",
            home: tuple[str, str] = ("", ""), lost: tuple[str, str] = ("", ""),
            pools: tuple[str, ...] | None = None, first: int = 0) -> EbbeFlutState:
    """A turn position written the spec's way, for tests and examples: piles bottom -> top, e.g.
    {"r3c3": "F:B2 E:D4"}. Unless `pools` lists them, every card that is nowhere else is undrawn,
    spread evenly over the owner's stacks."""
    board: list[Pile] = [()] * 25
    for cell, text in piles.items():
        board[F.INDEX[cell]] = tuple(C.parse(w) for w in text.split())
    held_card = C.parse(held) if held else -1
    homes = tuple(tuple(C.parse(w) for w in h.split()) for h in home)
    losts = tuple(tuple(C.parse(w) for w in h.split()) for h in lost)
    used = {c for pile in board for c in pile} | set(homes[0] + homes[1] + losts[0] + losts[1])
    if held_card >= 0:
        used.add(held_card)
    if pools is None:
        groups = (C.ALL,) if solo else C.OWN
        pool_t = tuple(tuple(c for c in g if c not in used) for g in groups)
    else:
        pool_t = tuple(tuple(sorted(C.parse(w) for w in p.split())) for p in pools)
    stacks = tuple(spread(len(p), 5) for p in pool_t)
    seats = 1 if solo else 2
    held_t = tuple(held_card if s == mover else -1 for s in range(seats))
    tops = tuple(p[-1] if p else -1 for p in board)
    return EbbeFlutState(solo=solo, phase=TURN, mover=mover, piles=tuple(board), tops=tops,
                         conflicts=F.pushes(tops), pools=pool_t, stacks=stacks, held=held_t,
                         drawn=drawn or held_card >= 0 or not pool_t[0 if solo else mover], first=first,
                         home=homes, lost=losts)  # type: ignore[arg-type]
