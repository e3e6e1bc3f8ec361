"""The coach's words for the first game of Catan: every step of a first game as it comes, from the rules
page (docs/rules/catan.md, Part 1) and in its terms. The conditions read the person's view
(engines/catan/view.py: `step`, `nodes`, `dice`, ...) and legal actions; nothing here draws."""

from __future__ import annotations

from client.tutorial.lesson import Kind, Lesson, Moment, Point, Rule, Syllabus, always

STEP, BOARD, CHOICES = Kind.STEP, Point.BOARD, Point.CHOICES


def buildings(m: Moment, kind: str = "settlement") -> int:
    """How many settlements (or cities) the person has on the island."""
    return sum(1 for owner, what in m.get("nodes", {}).values() if owner == m.seat and what == kind)


def roads(m: Moment) -> int:
    return sum(1 for owner in m.get("roads", {}).values() if owner == m.seat)


def at(m: Moment, step: str) -> bool:
    """The person is to act in `step`."""
    return m.mine and m.get("step") == step


def rolled(m: Moment) -> int | None:
    """The sum of the two production dice of the last roll (None before any)."""
    dice = m.get("dice")
    return sum(dice[:2]) if dice else None


WELCOME = Lesson("welcome", "Your first game of Catan", (
    "You are Red, against three bots. Build roads, settlements and cities: settlements and cities are worth "
    "victory points, and the first player to reach 10 on their own turn wins.",
    "I explain each step when the game gets there. \"next\" reads on, \"got it\" closes a note, \"hide coach\" "
    "puts me away; \"leave (Esc)\" at the top goes back to the lobby at any time.",
))
SETTLE_FIRST = Lesson("settle-first", "Your first settlement", (
    "Settlements stand on the corners where hexes meet and collect from every hex they touch. Click a lit "
    "corner on the board to place your first one.",
    "The distance rule: no settlement or city may stand on a corner next to another one, so once others "
    "have placed, the corners beside their buildings are no longer lit.",
), BOARD, STEP)
ROAD_FIRST = Lesson("road-first", "Your first road", (
    "Now a road: click a lit side touching your new settlement. Roads lie on the sides of the hexes and lead "
    "you to new corners to settle.",
    "Setting up goes in snake order: one settlement and road each, then once more from the last player back "
    "to you, so your second settlement is the last one placed.",
), BOARD, STEP)
NUMBERS = Lesson("numbers", "Why 6 and 8 are good", (
    "Two dice roll 7 most often, then 6 and 8 (5 ways in 36 each), then 5 and 9, 4 and 10, 3 and 11; 2 and 12 "
    "come once in 36. The dots under a number count its ways.",
    "So choose a corner whose hexes have good numbers (the red 6 and 8 are the best) and different "
    "resources. Your second settlement takes one card from each hex it touches, at once.",
), BOARD, STEP)
ROLL = Lesson("roll", "Roll the dice", (
    "Your turn starts with the roll: click \"roll\" (or press Enter). Every hex showing the number rolled "
    "produces, except the hex the robber stands on.",
), CHOICES, STEP)
COLLECT = Lesson("collect", "Collecting", (
    "Every settlement on a corner of a hex with the number rolled earned 1 card of its resource, every city "
    "2 (not on the robber's hex). That happens on every player's roll, not only yours.",
    "Your cards are in your hand below the board. Resource cards are open: the panels beside the board show "
    "what every player holds.",
))
BUILD = Lesson("build", "Build, trade, end", (
    "Now trade and build in any order, as often as you can pay, then end your turn. Road: 1 brick + 1 lumber. "
    "Settlement: 1 brick, 1 lumber, 1 wool, 1 grain (1 point).",
    "City, in place of one of your settlements: 2 grain + 3 ore (2 points). Development card: 1 wool, 1 grain, "
    "1 ore. Only what you can pay for is lit or listed; \"end\" passes the turn on.",
), CHOICES, STEP)
OFFER = Lesson("offer", "Trading with players", (
    "On your turn you may offer cards to one player or to all: at most 4 cards, never one kind on both sides, "
    "up to 5 offers a turn. Start one with \"offer\" in your choices.",
    "The players asked accept or decline in turn. Nothing changes hands until you confirm with one who "
    "accepted; you may also cancel.",
))
BANK = Lesson("bank", "Trading with the bank", (
    "You hold enough of one kind to trade with the bank: 4 cards of one kind for 1 card of another. "
    "\"trade\" in your choices does it; repeat it to trade more.",
    "Harbours on the coast trade better: a settlement or city on a 3:1 harbour gives 3 of any one kind for 1; "
    "on a 2:1 harbour, 2 of its resource for 1.",
), CHOICES, STEP)
HARBOUR = Lesson("harbour", "Your harbour", (
    "You have a building on a harbour: you now trade with the bank at its rate, 3 for 1 at a 3:1 harbour, or "
    "2 for 1 in the resource of a 2:1 harbour.",
))
RESPOND = Lesson("respond", "An offer to you", (
    "A player offers you a trade: \"accept\" or \"decline\". Accepting exchanges nothing yet: the offerer then "
    "picks one of the players who accepted, or cancels.",
), CHOICES, STEP)
CONFIRM = Lesson("confirm", "Your offer was accepted", (
    "Confirm the trade with one of the players who accepted, or cancel. The cards change hands only when you "
    "confirm.",
), CHOICES, STEP)
SEVEN = Lesson("seven", "A 7!", (
    "On a 7 nothing produces. Every player holding more than 7 cards discards half of them, rounded down. "
    "Then the roller moves the robber and steals a card.",
    "The robber's hex produces nothing while it stands there. Spending your cards before they pile up past 7 "
    "keeps them safe.",
))
DISCARD = Lesson("discard", "Discard half", (
    "You hold more than 7 cards on a 7: choose half of them, rounded down, to give back to the bank.",
), BOARD, STEP)
ROBBER = Lesson("robber", "Move the robber", (
    "Click a lit hex to move the robber there: that hex produces nothing while it stays. A hex where opponents "
    "have buildings, and you none, hurts them most.",
    "Then you steal one random card from a player with a settlement or city on that hex (when only one can be "
    "robbed, that is done for you).",
), BOARD, STEP)
STEAL = Lesson("steal", "Whom to rob", (
    "Several players have a building on the robber's hex: choose one; you take one of their cards at random.",
), CHOICES, STEP)
SETTLE = Lesson("settle", "A new settlement", (
    "You can pay for a settlement: click a lit corner. From now on it must touch one of your roads, and the "
    "distance rule still holds. Each settlement is 1 point.",
), BOARD, STEP)
CITY = Lesson("city", "A city", (
    "You can pay for a city (2 grain + 3 ore): click one of your lit settlements. A city is worth 2 points and "
    "collects 2 cards instead of 1.",
), BOARD, STEP)
BUY = Lesson("buy", "Development cards", (
    "You can buy a development card (1 wool, 1 grain, 1 ore), drawn in secret: a knight (14 of 25), a victory "
    "point (5), road building, year of plenty or monopoly (2 each).",
    "Play at most one a turn, before or after your roll, never one bought this turn. Victory point cards are "
    "never played: they count while you hold them.",
), CHOICES, STEP)
PLAY = Lesson("play", "Playing a card", (
    "You can play a development card now. Knight: move the robber and steal. Road building: 2 free roads. "
    "Year of plenty: any 2 resources. Monopoly: all of one resource from everyone.",
), CHOICES, STEP)
FREE_ROAD = Lesson("free-road", "Free roads", (
    "Road building: place up to 2 roads for free. Click a lit side for each.",
), BOARD, STEP)
AWARDS = Lesson("awards", "Longest Road and Largest Army", (
    "Two cards are worth 2 points each. Longest Road: the first with an unbroken road of 5 or more; another "
    "player takes it only with a strictly longer one.",
    "A building of another player on a corner breaks a road there. Largest Army: the first to play 3 knights; "
    "another player needs strictly more.",
))
POINTS = Lesson("points", "Counting to 10", (
    "Settlement 1, city 2, victory point card 1, Longest Road 2, Largest Army 2. The panels show everyone's "
    "open points; victory point cards stay hidden until the end.",
    "As soon as you have 10 points or more during your own turn, you win.",
))
CLAIM = Lesson("claim", "You can win", (
    "You have 10 points on your turn: claim the win. Your victory point cards are shown, and the game ends.",
), CHOICES, STEP)


def _awards_near(m: Moment) -> bool:
    lengths = (m.get("longest_road") or {}).get("lengths") or []
    knights = [d.get("knights_played", 0) for d in m.get("dev") or []]
    return max(lengths, default=0) >= 4 or max(knights, default=0) >= 1 or m.get("largest_army") is not None


SYLLABUS = Syllabus((
    Rule(WELCOME, always),
    Rule(SETTLE_FIRST, lambda m: at(m, "setup-settle") and buildings(m) == 0),
    Rule(ROAD_FIRST, lambda m: at(m, "setup-road") and roads(m) == 0),
    Rule(NUMBERS, lambda m: at(m, "setup-settle") and buildings(m) == 1),
    Rule(CLAIM, lambda m: "claim" in m.verbs),
    Rule(SEVEN, lambda m: rolled(m) == 7),
    Rule(DISCARD, lambda m: at(m, "discard")),
    Rule(ROBBER, lambda m: at(m, "robber")),
    Rule(STEAL, lambda m: at(m, "steal")),
    Rule(ROLL, lambda m: at(m, "pre-roll") and "roll" in m.verbs),
    Rule(COLLECT, lambda m: at(m, "main") and rolled(m) not in (None, 7)),
    Rule(BUILD, lambda m: at(m, "main")),
    Rule(RESPOND, lambda m: at(m, "respond")),
    Rule(CONFIRM, lambda m: at(m, "confirm")),
    Rule(SETTLE, lambda m: at(m, "main") and "settle" in m.verbs),
    Rule(CITY, lambda m: at(m, "main") and "city" in m.verbs),
    Rule(BANK, lambda m: at(m, "main") and "trade" in m.verbs),
    Rule(HARBOUR, lambda m: min((m.get("rates") or [[4]])[m.seat] or [4]) < 4),
    Rule(BUY, lambda m: "buy" in m.verbs),
    Rule(PLAY, lambda m: "play" in m.verbs),
    Rule(FREE_ROAD, lambda m: at(m, "free-road")),
    Rule(OFFER, lambda m: at(m, "main") and "offer" in m.verbs),
    Rule(AWARDS, _awards_near),
    Rule(POINTS, lambda m: (m.get("vp_public") or [0] * (m.seat + 1))[m.seat] >= 3),
))
