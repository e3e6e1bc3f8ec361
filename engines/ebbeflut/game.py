"""Ebbe & Flut for two players and its solo variant (docs/rules/ebbe-flut.md), sharing one rules core.

The solo game differs in a handful of places only (one pool of 50 cards, pushes of either colour, no
`end`, a draw needs a conflict-free field, D9), so `EbbeFlutSolo` is the same class with `solo` set
and the few branches read `inner.solo`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.core import Awaiting, Chance, IllegalAction, Result, Rules, State
from engines.ebbeflut import cards as C
from engines.ebbeflut import field as F
from engines.ebbeflut.state import CHANCE, OPEN_DRAW, OPEN_PLACE, OVER, TURN, EbbeFlutState, arrange, initial
from engines.ebbeflut.view import build_view

__all__ = ["EbbeFlut", "EbbeFlutSolo"]

DRAW_TEXT = tuple(f"draw {k + 1}" for k in range(5))

#: every well-formed action text -> (verb, argument): stack index, cell, or 2 * cell + direction
_PARSE: dict[str, tuple[str, int]] = {"end": ("end", 0)}
for _k, _text in enumerate(DRAW_TEXT):
    _PARSE[_text] = ("draw", _k)
for _i in F.CELLS:
    _PARSE[F.PLACE_TEXT[_i]] = ("place", _i)
    for _d in (F.LEFT, F.UP):
        _PARSE[F.PUSH_TEXT[_i][_d]] = ("push", 2 * _i + _d)

_MOVE = (Awaiting("move", (0,)), Awaiting("move", (1,)))
_OVER = Awaiting("over")
_CHANCE: dict[tuple[bool, int, int], Awaiting] = {}


def _chance_point(solo: bool, seat: int, n: int) -> Awaiting:
    key = (solo, seat, n)
    waiting = _CHANCE.get(key)
    if waiting is None:
        label = (f"solo draw: uniform pick among the {n} undrawn cards (Ebbe then Flut, card order)" if solo else
                 f"draw of seat {seat} ({C.COLOUR_NAMES[seat]}): uniform pick among its {n} undrawn cards")
        waiting = _CHANCE[key] = Awaiting("chance", (), Chance(kind="pick", n=n, label=label))
    return waiting


def _draws(stacks: tuple[int, ...]) -> list[str]:
    return [DRAW_TEXT[k] for k in range(5) if stacks[k]]


def _set(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


def _starts(colour: int) -> str:
    return ", ".join(F.NAMES[i] for i in F.START[colour])


class EbbeFlut(Rules[EbbeFlutState]):
    id = "ebbe-flut"
    title = "Ebbe & Flut"
    players = (2,)
    solo = False

    # ----------------------------------------------------------------------------- hooks

    def start(self, players: int, options: dict[str, Any]) -> EbbeFlutState:
        return initial(self.solo)

    def awaiting(self, inner: EbbeFlutState) -> Awaiting:
        phase = inner.phase
        if phase in (TURN, OPEN_DRAW):
            return _MOVE[inner.mover]
        if phase == CHANCE:
            pool = inner.pools[0 if inner.solo else inner.mover]
            return _chance_point(inner.solo, inner.mover, len(pool))
        if phase == OPEN_PLACE:
            return Awaiting("simultaneous", tuple(s for s in (0, 1) if inner.held[s] >= 0))
        return _OVER

    def legal(self, inner: EbbeFlutState, seat: int) -> list[str]:
        phase = inner.phase
        if phase == OPEN_PLACE:
            return list(F.PLACES[seat]) if inner.held[seat] >= 0 else []
        if seat != inner.mover:
            return []
        if phase == OPEN_DRAW:
            return _draws(inner.stacks[seat])
        if phase != TURN:
            return []
        held = inner.held[seat]
        if held >= 0:
            return list(F.PLACES[held // 25])
        if inner.solo:
            if inner.conflicts[0] or inner.conflicts[1]:
                return sorted(inner.conflicts[0] + inner.conflicts[1])
            return _draws(inner.stacks[0])
        own = inner.conflicts[seat]
        if not inner.drawn:
            return _draws(inner.stacks[seat]) + list(own)
        return list(own) if own else ["end"]

    def play(self, inner: EbbeFlutState, seat: int, action: Any) -> EbbeFlutState:
        parsed = _PARSE.get(action)
        if parsed is None:
            raise IllegalAction(
                f"{action!r} is not an Ebbe & Flut action (expected draw k with k in 1..5, place rXcY, "
                "push rXcY left, push rXcY up" + ("" if inner.solo else " or end") + ")")
        verb, arg = parsed
        phase = inner.phase
        if phase == OPEN_DRAW:
            if verb != "draw":
                raise IllegalAction(f"{action}: the opening begins with each seat's draw k (Setup 2)")
            return self._draw(inner, seat, arg, action)
        if phase == OPEN_PLACE:
            if verb != "place":
                raise IllegalAction(f"{action}: in the opening each seat places its drawn card on one of its own "
                                    "start cells (Setup 2)")
            return self._open_place(inner, seat, arg, action)
        held = inner.held[seat]
        if held >= 0 and verb != "place":
            raise IllegalAction(f"{action}: the drawn card {C.name(held)} must be placed first, on one of "
                                f"{_starts(held // 25)} (Turn 2)")
        if verb == "draw":
            return self._draw(inner, seat, arg, action)
        if verb == "place":
            return self._place(inner, seat, arg, action)
        if verb == "push":
            return self._push(inner, seat, arg >> 1, arg & 1, action)
        return self._end(inner, seat)

    def chance(self, inner: EbbeFlutState, value: Any) -> EbbeFlutState:
        if inner.phase != CHANCE:
            raise IllegalAction("Ebbe & Flut waits for no chance outcome here")
        seat = inner.mover
        index = 0 if inner.solo else seat
        pool = inner.pools[index]
        card = pool[value]
        pools = _set(inner.pools, index, pool[:value] + pool[value + 1:])
        held = _set(inner.held, seat, card)
        phase, mover = TURN, seat
        if inner.first < 0 and not inner.solo:
            phase, mover = (OPEN_DRAW, 1) if seat == 0 else (OPEN_PLACE, seat)
        return EbbeFlutState(inner.solo, phase, mover, inner.piles, inner.tops, inner.conflicts, pools, inner.stacks,
                             held, inner.drawn, inner.first, inner.home, inner.lost)

    def result(self, inner: EbbeFlutState) -> Result | None:
        if inner.phase != OVER:
            return None
        scores = inner.scores()
        if inner.solo:
            return Result(winners=(0,), scores=scores, reason="solo-finished")
        if scores[0] == scores[1]:
            return Result(winners=(), scores=scores, reason="equal-cards")
        return Result(winners=(0 if scores[0] > scores[1] else 1,), scores=scores, reason="most-cards")

    def public(self, inner: EbbeFlutState) -> Any:
        return inner.public()

    def scores(self, inner: EbbeFlutState, out: tuple[int, ...]) -> tuple[int, ...]:
        return inner.scores()

    def view(self, inner: EbbeFlutState, seat: int | None) -> dict:
        return build_view(inner, seat)

    def describe(self, inner: EbbeFlutState, seat: int, action: str) -> str:
        who = "solo" if self.solo else f"seat {seat} ({C.COLOUR_NAMES[seat]})"
        return f"{who}: {action}"

    # ----------------------------------------------------------------------------- for tests and tools

    def arrange(self, piles: dict[str, str], **kwargs: Any) -> State:
        """A mid-game position written the spec's way (see state.arrange), wrapped for the contract."""
        return State(inner=arrange(self.solo, piles, **kwargs), players=1 if self.solo else 2)

    # ----------------------------------------------------------------------------- the actions

    def _draw(self, inner: EbbeFlutState, seat: int, k: int, action: str) -> EbbeFlutState:
        index = 0 if inner.solo else seat
        if inner.solo:
            if inner.conflicts[0] or inner.conflicts[1]:
                pending = ", ".join(sorted(inner.conflicts[0] + inner.conflicts[1]))
                raise IllegalAction(f"{action}: a conflict still stands ({pending}); the next solo draw needs a "
                                    "conflict-free field (D9)")
        elif inner.phase == TURN and inner.drawn:
            if not inner.pools[seat]:
                raise IllegalAction(f"{action}: seat {seat} has no cards left to draw (D11)")
            raise IllegalAction(f"{action}: seat {seat} has already drawn this turn (one draw per turn, D7)")
        row = inner.stacks[index]
        if not row[k]:
            raise IllegalAction(f"{action}: stack {k + 1} is empty (draw from a non-empty stack)")
        stacks = _set(inner.stacks, index, _set(row, k, row[k] - 1))
        return EbbeFlutState(inner.solo, CHANCE, seat, inner.piles, inner.tops, inner.conflicts, inner.pools, stacks,
                             inner.held, inner.drawn, inner.first, inner.home, inner.lost)

    def _open_place(self, inner: EbbeFlutState, seat: int, cell: int, action: str) -> EbbeFlutState:
        card = inner.held[seat]
        if card < 0:
            raise IllegalAction(f"{action}: seat {seat} has already placed its opening card")
        if cell not in F.START[seat]:
            raise IllegalAction(f"{action}: the opening card goes onto one of seat {seat}'s own start cells "
                                f"({_starts(seat)}) (Setup 2)")
        inner = self._put(inner, seat, cell, card)
        if inner.held[1 - seat] >= 0:
            return inner
        cards = [next(inner.tops[i] for i in F.START[s] if inner.tops[i] >= 0) for s in (0, 1)]
        first = 1 if C.rank(cards[1]) < C.rank(cards[0]) else 0  # an exact tie goes to seat 0 (D6)
        return replace(inner, phase=TURN, mover=first, first=first, drawn=not inner.pools[first])

    def _place(self, inner: EbbeFlutState, seat: int, cell: int, action: str) -> EbbeFlutState:
        card = inner.held[seat]
        if card < 0:
            raise IllegalAction(f"{action}: there is no drawn card to place (draw k comes first)")
        colour = card // 25
        if cell not in F.START[colour]:
            raise IllegalAction(f"{action}: {C.name(card)} goes onto one of {C.COLOUR_NAMES[colour]}'s start "
                                f"cells ({_starts(colour)}) (Turn 2)")
        inner = self._put(inner, seat, cell, card)
        return self._settled(inner) if inner.solo else inner

    def _put(self, inner: EbbeFlutState, seat: int, cell: int, card: int) -> EbbeFlutState:
        piles = _set(inner.piles, cell, inner.piles[cell] + (card,))
        tops = _set(inner.tops, cell, card)
        return EbbeFlutState(inner.solo, inner.phase, inner.mover, piles, tops, F.pushes(tops), inner.pools,
                             inner.stacks, _set(inner.held, seat, -1), True, inner.first, inner.home, inner.lost)

    def _push(self, inner: EbbeFlutState, seat: int, cell: int, direction: int, action: str) -> EbbeFlutState:
        card = inner.tops[cell]
        if card < 0:
            raise IllegalAction(f"{action}: {F.NAMES[cell]} is empty (only a top card can be pushed)")
        colour = card // 25
        if not inner.solo and colour != seat:
            raise IllegalAction(f"{action}: the top card of {F.NAMES[cell]} is {C.name(card)}, a "
                                f"{C.COLOUR_NAMES[colour]} card; seat {seat} pushes only {C.COLOUR_NAMES[seat]} "
                                "cards")
        if action not in inner.conflicts[colour]:
            line = "column" if direction == F.LEFT else "row"
            raise IllegalAction(f"{action}: {C.name(card)} on {F.NAMES[cell]} is in no {line} conflict (a {line} "
                                f"conflict, two visible cards of one colour sharing a letter or number, is fixed by "
                                f"a {F.DIRS[direction]} push; D3)")
        source = inner.piles[cell][:-1]
        piles = _set(inner.piles, cell, source)
        tops = _set(inner.tops, cell, source[-1] if source else -1)
        home, lost = inner.home, inner.lost
        target = F.DEST[colour][direction][cell]
        if target >= 0:
            piles = _set(piles, target, piles[target] + (card,))
            tops = _set(tops, target, card)
        elif target == F.HOME:
            home = _set(home, colour, home[colour] + (card,))
        else:
            lost = _set(lost, colour, lost[colour] + (card,))
        inner = EbbeFlutState(inner.solo, inner.phase, inner.mover, piles, tops, F.pushes(tops), inner.pools,
                              inner.stacks, inner.held, inner.drawn, inner.first, home, lost)
        return self._settled(inner) if inner.solo else inner

    def _settled(self, inner: EbbeFlutState) -> EbbeFlutState:
        """Solo: the game ends once the stacks are empty and no conflict is left (D9)."""
        if not inner.pools[0] and not inner.conflicts[0] and not inner.conflicts[1]:
            return replace(inner, phase=OVER)
        return inner

    def _end(self, inner: EbbeFlutState, seat: int) -> EbbeFlutState:
        if inner.solo:
            raise IllegalAction("end: the solo game has no end action; the next draw starts the next round (D9)")
        if not inner.drawn:
            raise IllegalAction(f"end: seat {seat} must draw first (the draw is mandatory while cards remain, D7)")
        own = inner.conflicts[seat]
        if own:
            raise IllegalAction(f"end: {C.COLOUR_NAMES[seat]} still has a conflict ({', '.join(own)}); end is "
                                "refused while an own conflict stands (D7)")
        if not inner.pools[0] and not inner.pools[1] and not inner.conflicts[1 - seat]:
            return replace(inner, phase=OVER)  # nothing to draw, no conflict anywhere (D8)
        nxt = 1 - seat
        return EbbeFlutState(False, TURN, nxt, inner.piles, inner.tops, inner.conflicts, inner.pools, inner.stacks,
                             inner.held, not inner.pools[nxt], inner.first, inner.home, inner.lost)


class EbbeFlutSolo(EbbeFlut):
    id = "ebbe-flut-solo"
    title = "Ebbe & Flut (solo)"
    players = (1,)
    solo = True
