"""The coach's words for Ebbe & Flut (from docs/rules/ebbe-flut.md, Part 1): drawing, placing, conflicts
and pushes, scoring."""

from __future__ import annotations

from client.tutorial.lesson import Kind, Lesson, Point, Rule, Syllabus, always

STEP, BOARD, CHOICES = Kind.STEP, Point.BOARD, Point.CHOICES

WELCOME = Lesson("welcome", "Ebbe & Flut", (
    "You play Ebbe. Lay your numbered cards on the 5 x 5 field from your corner (bottom right) and push them "
    "across into your goal, the far corner. Whoever scores more cards wins.",
    "Every card shows a letter A-E and a number 1-5. Two visible cards of your colour in one row or column may "
    "never share a letter or a number.",
))
OPENING = Lesson("opening", "The opening", (
    "Draw a card from one of your five stacks: click one. Both players then place their card at the same "
    "time, and the lower card starts (A1 is the lowest, E5 the highest).",
), BOARD, STEP)
PLACE = Lesson("place", "Placing", (
    "Click one of your lit start cells to place the card; it may cover a card there. Only the top card of a "
    "pile is visible and active.",
), BOARD, STEP)
PUSH = Lesson("push", "Conflicts and pushes", (
    "Two of your visible cards in one row or column share a letter or a number: push one of them. A column "
    "conflict pushes left, a row conflict up (as you see the field).",
    "A card pushed into your goal cells scores 1 point; a card pushed off the field is lost. A card leaving a "
    "pile uncovers the one below, which may start new conflicts.",
), BOARD, STEP)
TURN = Lesson("turn", "A turn", (
    "Each turn: resolve the conflicts your opponent left you, draw a card from a stack of your choice, place "
    "it on a start cell, push until no conflict is left, then end.",
), BOARD, STEP)
END = Lesson("end", "Ending your turn", (
    "No conflict of yours is left: end your turn. You cannot end it while one of your conflicts stands.",
), CHOICES, STEP)


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(OPENING, lambda m: m.mine and m.get("phase") == "opening-draw"),
    Rule(PLACE, lambda m: "place" in m.verbs),
    Rule(PUSH, lambda m: "push" in m.verbs),
    Rule(TURN, lambda m: m.mine and m.get("phase") == "turn" and "draw" in m.verbs),
    Rule(END, lambda m: "end" in m.verbs and "push" not in m.verbs),
))
