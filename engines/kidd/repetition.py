"""Threefold repetition (Part 0, D4), kept cheap enough to record at every turn.

Each game names its *material*: a value that, once changed, can never come back (supplies only
shrink, and captures are never undone in number). A position recorded under older material can
therefore never recur, so the history keeps only the positions seen since the material last
changed. That keeps the state small and the count a short scan.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

REPEATS_FOR_DRAW = 3


@dataclass(frozen=True, slots=True)
class History:
    material: Any = None
    seen: tuple[Any, ...] = ()
    repeats: int = 0
    """How often the most recently recorded position has been recorded (1 on its first time)."""

    def record(self, position: Any, material: Any) -> History:
        if material != self.material:
            return History(material, (position,), 1)
        return History(material, (*self.seen, position), self.seen.count(position) + 1)

    @property
    def drawn(self) -> bool:
        return self.repeats >= REPEATS_FOR_DRAW

    def public(self) -> tuple[Any, ...]:
        return (self.material, self.seen)
