"""The coach's words for Ploc (from docs/rules/ploc.md, Part 1): the column, rerolls, the three actions."""

from __future__ import annotations

from client.tutorial.lesson import Kind, Lesson, Point, Rule, Syllabus, always

STEP, BOARD, CHOICES = Kind.STEP, Point.BOARD, Point.CHOICES

WELCOME = Lesson("welcome", "Ploc", (
    "Plockton and Broadford pull a rope. Knock the other team's athletes out with dice: a match is lost by the "
    "team whose last athlete is gone. The winner of the second match wins.",
    "Your column: three team dice, positions 1 to 3 from the top, kept all match. Your team started with as "
    "many athletes as their sum. Each turn you roll three free dice.",
))
REROLL = Lesson("reroll", "Rerolls", (
    "For every 6 in your column you may reroll one free die, each die at most once; the second result stands. "
    "Click a die to reroll it, or keep the dice.",
), BOARD, STEP)
ACTIONS = Lesson("actions", "Three actions", (
    "One action per free die: click an action tile, then a free die (its value r), then a die of your column "
    "(c). Each free die and each column position is used once.",
    "Eliminate: r >= c removes a healthy athlete. Eliminate weakened: r >= c - 2 removes a weakened one. "
    "Weaken: always possible, lays a healthy athlete down.",
    "Swap: the free die takes that place in your column for the rest of the match; you gain 1 + r - c "
    "athletes, or lose c - r - 1 of yours when r < c.",
), BOARD, STEP)
ALL_OR_NOTHING = Lesson("all-or-nothing", "All or nothing", (
    "Your three free dice are equal and at least your lowest column die: \"all or nothing\" takes four of your "
    "opponent's athletes, as your whole turn.",
), CHOICES, STEP)
SECOND = Lesson("second", "The second match", (
    "The first match is over. Its winner takes one athlete more, and the other player starts. Whoever wins "
    "this match wins the game.",
))


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(REROLL, lambda m: m.mine and m.get("phase") == "reroll"),
    Rule(ALL_OR_NOTHING, lambda m: "allornothing" in m.verbs),
    Rule(ACTIONS, lambda m: m.mine and m.get("phase") == "action"),
    Rule(SECOND, lambda m: (m.get("match") or 1) >= 2),
))

