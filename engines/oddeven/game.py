"""Odd or Even: both seats show one or two fingers at once; an odd total scores for seat 0 (Odd), an even
one for seat 1 (Even); the first to three points wins. The choices are committed, then revealed together
(an open simultaneous step), so neither seat can wait to see the other's hand."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.core import Awaiting, IllegalAction, Result, Rules

__all__ = ["TARGET", "OddEven", "Round"]

TARGET = 3
_SHOWS = ("show 1", "show 2")
_SIDES = ("odd", "even")


@dataclass(frozen=True, slots=True)
class Round:
    """The score, the fingers shown so far in the step under way (0: not yet), and the last step's hands."""

    points: tuple[int, int] = (0, 0)
    shown: tuple[int, int] = (0, 0)
    last: tuple[int, int] = (0, 0)


class OddEven(Rules[Round]):
    id = "odd-even"
    title = "Odd or Even"
    players = (2,)

    def start(self, players: int, options: dict[str, Any]) -> Round:
        return Round()

    def awaiting(self, inner: Round) -> Awaiting:
        return Awaiting("simultaneous", tuple(s for s in (0, 1) if not inner.shown[s]))

    def legal(self, inner: Round, seat: int) -> list[str]:
        return list(_SHOWS) if not inner.shown[seat] else []

    def play(self, inner: Round, seat: int, action: Any) -> Round:
        if action not in _SHOWS:
            raise IllegalAction(f"{action!r}: show 1 or show 2 fingers")
        if inner.shown[seat]:
            raise IllegalAction(f"seat {seat} has shown its fingers in this step already")
        fingers = int(action.split()[1])
        shown = (fingers, inner.shown[1]) if seat == 0 else (inner.shown[0], fingers)
        if not all(shown):
            return Round(inner.points, shown, inner.last)
        scorer = (shown[0] + shown[1]) % 2 ^ 1   # odd total: seat 0, even: seat 1
        points = (inner.points[0] + (scorer == 0), inner.points[1] + (scorer == 1))
        return Round(points, (0, 0), shown)

    def result(self, inner: Round) -> Result | None:
        for seat in (0, 1):
            if inner.points[seat] >= TARGET:
                return Result((seat,), inner.points, f"{TARGET} points")
        return None

    def scores(self, inner: Round, out: tuple[int, ...]) -> tuple[int, ...]:
        return inner.points

    def public(self, inner: Round) -> Any:
        return (inner.points, inner.shown, inner.last)

    def view(self, inner: Round, seat: int | None) -> dict:
        return {"points": list(inner.points), "sides": list(_SIDES), "last": list(inner.last),
                "shown": [bool(f) for f in inner.shown]}

    def describe(self, inner: Round, seat: int, action: str) -> str:
        return f"{_SIDES[seat]} shows {action.split()[-1]}"
