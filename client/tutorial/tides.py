"""The coach's words for Turning Tides, played in its introductory form (option `intro`; from
docs/rules/turning-tides.md, Part 1): secret picks, the Hierarchy, what each card does."""

from __future__ import annotations

from client.tutorial.lesson import Kind, Lesson, Moment, Point, Rule, Syllabus, always

STEP, BOARD, CHOICES = Kind.STEP, Point.BOARD, Point.CHOICES

WELCOME = Lesson("welcome", "Turning Tides", (
    "Two pirate ships sail past each other; you command Gold. You win by destroying enemy zones or removing "
    "the enemy crew: in this introductory game one destroyed zone, or the captain, is enough.",
    "Every turn both players pick a card in secret. The two are revealed together and carried out in a fixed "
    "order, the Hierarchy.",
))
PICK = Lesson("pick", "Pick a card", (
    "Click a lit card of your hand, below your ship. Hierarchy, first to last: wait; sailor and cannon; move; "
    "navigate; swing and fire. On one level the initiative pawn's holder goes first.",
    "\"wait\" always comes back to your hand. When both players wait, the ships sail one step further at once.",
), BOARD, STEP)
FACING = Lesson("facing", "Which zones face each other", (
    "Zone 1 is the bow. After o sails your zone i faces the enemy's zone j when i + j = o + 2; a zone with "
    "nothing opposite cannot swing or fire. A round ends after 13 sails.",
))
CANNON = Lesson("cannon", "Your cannon card", (
    "Put a cannon from your hold into an empty slot of a zone. \"in\" points at the enemy ship, \"out\" away "
    "from it: only a cannon in an \"in\" slot can fire.",
), BOARD, STEP)
SAILOR = Lesson("sailor", "Your sailor card", (
    "Put a sailor from your hold on any zone that is not destroyed. Sailors fire the cannons of their zone and "
    "swing across to the enemy.",
), BOARD, STEP)
FIRE = Lesson("fire", "Fire!", (
    "Fire needs your sailor on the zone and a cannon in its \"in\" slot. It hits the zone opposite: the mast "
    "if it stands there, else every unit there; a bare zone is destroyed.",
), BOARD, STEP)
MOVE = Lesson("move", "Your move card", (
    "Move your captain, one sailor or one cannon to another zone (a cannon may also change slot in its zone); "
    "the distance does not matter.",
), BOARD, STEP)
SWING = Lesson("swing", "Swing across", (
    "A sailor of yours boards the enemy zone opposite: one enemy sailor there goes to the enemy hold; if there "
    "is none, the enemy captain does.",
), BOARD, STEP)
NAVIGATE = Lesson("navigate", "Navigate", (
    "The ships sail one step ahead, or one step back (not below 0), or you take the initiative pawn.",
), CHOICES, STEP)


def _card(verb: str):
    def due(m: Moment) -> bool:
        return m.mine and m.get("phase") == "resolve" and verb in m.verbs
    return due


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(PICK, lambda m: m.mine and m.get("phase") == "pick"),
    Rule(CANNON, _card("cannon")),
    Rule(SAILOR, _card("sailor")),
    Rule(FIRE, _card("fire")),
    Rule(MOVE, _card("move")),
    Rule(SWING, _card("swing")),
    Rule(NAVIGATE, _card("navigate")),
    Rule(FACING, lambda m: (m.get("turn") or 1) >= 2),
))
