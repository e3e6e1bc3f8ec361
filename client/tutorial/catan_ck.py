"""The coach's words for Cities & Knights, short: what it adds to the Catan the person knows (from
docs/rules/catan-ck.md, Part 1). The view is Catan's with C&K's parts (`ship`, `progress`, `levels`)."""

from __future__ import annotations

from client.tutorial.catan import at, rolled
from client.tutorial.lesson import Kind, Lesson, Moment, Point, Rule, Syllabus, always

STEP, BOARD, CHOICES = Kind.STEP, Point.BOARD, Point.CHOICES

WELCOME = Lesson("welcome", "What Cities & Knights adds", (
    "The Catan you know, with changes: cities also produce commodities, which pay for city improvements; "
    "barbarians sail at the island and knights defend it.",
    "Development cards and Largest Army are gone; progress cards take their place. The first player with 13 "
    "points on their own turn wins.",
))
SETUP_CITY = Lesson("setup-city", "Your second placement is a city", (
    "Click a lit corner: your second placement is a city, not a settlement. It takes one resource for every "
    "hex it touches (no commodities), and then a road.",
), BOARD, STEP)
ROLL = Lesson("roll", "Three dice", (
    "You roll a red die, a white one and the event die, which is resolved first. A ship moves the barbarians "
    "one space; on the seventh they attack.",
    "A city gate of a colour: each player whose level on that track is at least 1 and at least the red die "
    "minus one draws a progress card of that colour.",
), CHOICES, STEP)
COMMODITIES = Lesson("commodities", "Commodities", (
    "A city yields 2 brick on hills and 2 grain on fields; on forest, pasture and mountains 1 resource plus 1 "
    "commodity: paper, cloth or coin.",
    "Commodities improve cities: level L of trade costs L cloth, politics L coin, science L paper. The first "
    "to reach level 4 of a track takes its metropolis (+2 points).",
))
KNIGHTS = Lesson("knights", "Knights", (
    "A basic knight costs 1 wool + 1 ore and stands on a free corner by your road; 1 grain activates it. Only "
    "active knights defend the island against the barbarians.",
    "An active knight may also act once a turn: move along your roads, displace a weaker knight, or, after "
    "the first attack, chase the robber. Acting makes it inactive.",
), CHOICES, STEP)
IMPROVE = Lesson("improve", "City improvements", (
    "You can improve a city on a track. Level 3 gives an ability: trade (2:1 for commodities), politics "
    "(mighty knights) or science (a resource when a roll gives you none).",
), CHOICES, STEP)
WALL = Lesson("wall", "City walls", (
    "A city wall (2 brick) under one of your cities lets you hold 2 more cards before a 7 makes you discard. "
    "You may build at most 3.",
), CHOICES, STEP)
BARBARIANS = Lesson("barbarians", "The barbarians are coming", (
    "When the ship reaches the island, its strength is the number of cities on the island, against all "
    "active knights. If the barbarians are stronger, cities fall.",
    "Then the players with the least knight strength lose a city (one with a metropolis is safe). If Catan "
    "holds, the strongest defender gets a Defender of Catan point.",
))
SEVEN = Lesson("seven", "A 7 in Cities & Knights", (
    "Nothing produces; every player holding more than 7 cards, plus 2 per city wall, discards half. The robber "
    "stays on the desert until the barbarians' first attack.",
))
PROGRESS = Lesson("progress", "Progress cards", (
    "You hold a progress card. Play any number of them on your turn after the roll (the alchemist before it). "
    "You may hold 4, and 5 on your own turn until you end it.",
))


def _progress_held(m: Moment) -> bool:
    mine = (m.get("progress") or [{}] * (m.seat + 1))[m.seat]
    return mine.get("count", 0) > 0


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(SETUP_CITY, lambda m: at(m, "setup-city")),
    Rule(SEVEN, lambda m: rolled(m) == 7),
    Rule(ROLL, lambda m: at(m, "pre-roll")),
    Rule(COMMODITIES, lambda m: at(m, "main")),
    Rule(IMPROVE, lambda m: at(m, "main") and "improve" in m.verbs),
    Rule(KNIGHTS, lambda m: at(m, "main") and bool({"knight", "activate"} & m.verbs)),
    Rule(WALL, lambda m: at(m, "main") and "wall" in m.verbs),
    Rule(BARBARIANS, lambda m: (m.get("ship") or 0) >= 1),
    Rule(PROGRESS, _progress_held),
))
