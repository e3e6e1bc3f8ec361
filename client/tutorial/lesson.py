"""The values a tutorial is made of: a lesson (what the coach says, in short pages), the moment of the
game it is chosen from (the person's view and legal actions), and a syllabus (a family's lessons, each
with the condition on the moment that brings it up).

Everything here is a plain value and every condition a pure function of a `Moment`, so the choice of a
lesson can be tested on real engine states without a window (tests/test_tutorial.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum


class Point(Enum):
    """Where a lesson asks the person to look or click: the coach outlines that part of the table."""

    NOTHING = "nothing"
    BOARD = "board"        # the board (the renderer already lights the legal spots on it)
    CHOICES = "choices"    # the choice buttons beside the board


class Kind(Enum):
    """How long a lesson stays."""

    STEP = "step"     # explains the step the person is at: it goes by itself once the game has moved past it
    NOTE = "note"     # explains what happened or what is worth knowing: it stays until "got it"


@dataclass(frozen=True, slots=True)
class Lesson:
    key: str
    title: str
    pages: tuple[str, ...]       # read one at a time ("next"), so a page fits a small window's side panel
    point: Point = Point.NOTHING
    kind: Kind = Kind.NOTE


@dataclass(frozen=True, slots=True)
class Moment:
    """What the coach looks at: the person's view of the game and what they may do now (empty when it is
    not their turn to act)."""

    view: dict
    legal: tuple[str, ...]
    seat: int

    @property
    def verbs(self) -> frozenset[str]:
        """The first words of the legal actions ("settle", "road", "roll", ...)."""
        return frozenset(action.split(" ", 1)[0] for action in self.legal)

    @property
    def mine(self) -> bool:
        return bool(self.legal)

    def get(self, key: str, default=None):
        return self.view.get(key, default)


@dataclass(frozen=True, slots=True)
class Rule:
    """A lesson and the moments that bring it up."""

    lesson: Lesson
    when: Callable[[Moment], bool]


@dataclass(frozen=True, slots=True)
class Syllabus:
    """A family's lessons, in the order they are told when several are due at once."""

    rules: tuple[Rule, ...]

    def due(self, moment: Moment) -> list[Lesson]:
        """The lessons whose condition holds now, in the syllabus's order."""
        return [rule.lesson for rule in self.rules if rule.when(moment)]

    def lesson(self, key: str) -> Lesson:
        return next(rule.lesson for rule in self.rules if rule.lesson.key == key)

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(rule.lesson.key for rule in self.rules)


def always(moment: Moment) -> bool:
    """The welcome: due from the first moment."""
    return True
