"""The coach's words for the Capt'n W. Kidd family, through its simplest game, Loyal Captain (from
docs/rules/kidd.md, Part 1): entering, stepping forward, enclosing."""

from __future__ import annotations

from client.tutorial.lesson import Kind, Lesson, Moment, Point, Rule, Syllabus, always

STEP, BOARD = Kind.STEP, Point.BOARD

WELCOME = Lesson("welcome", "Loyal Captain", (
    "Two players, 7 pirate stones each, on the deck of a ship. Enclose enemy stones to remove them. A player "
    "who can neither enter nor step at the start of their turn loses.",
    "On your turn do exactly one thing: enter a stone or step one. You may not pass.",
))
ENTER = Lesson("enter", "Enter a stone", (
    "Click a lit hatch, a start field on the rim (or your supply, then the hatch). A stone entered from "
    "outside has its back towards the outside.",
), BOARD, STEP)
STEP_ = Lesson("step", "Stepping", (
    "A stone steps to an empty neighbouring field, never backwards: a pirate always faces away from the field "
    "it came from. Click a lit stone, then the field.",
), BOARD, STEP)
ENCLOSE = Lesson("enclose", "Enclosing", (
    "A group (your stones joined by the deck's lines) is enclosed when every field next to it holds an enemy "
    "stone whose back is not towards the group.",
    "After an action enclosed enemy groups are removed first, then your own: entering between two threatening "
    "stones is suicide, unless the entry itself encloses one of them.",
))
REPEAT = Lesson("repeat", "Repetition", (
    "This position has come round before. When the same position comes round for the third time at the start "
    "of a turn, the game is a draw.",
))


def _on_board(m: Moment) -> int:
    return sum(1 for f in m.get("fields", []) if f.get("owner") == m.seat)


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(ENTER, lambda m: "enter" in m.verbs and _on_board(m) == 0),
    Rule(STEP_, lambda m: "step" in m.verbs),
    Rule(ENCLOSE, lambda m: _on_board(m) >= 2),
    Rule(REPEAT, lambda m: (m.get("repetition") or 1) >= 2),
))
