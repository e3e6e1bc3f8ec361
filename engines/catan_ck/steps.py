"""The steps of Cities & Knights (docs/rules/catan-ck.md, "Steps") beyond the base game's, and who acts in each."""

from __future__ import annotations

from engines.catan.state import (
    CONFIRM,
    DISCARD,
    FREE_ROAD,
    MAIN,
    PRE_ROLL,
    RESPOND,
    ROBBER,
    SETUP_ROAD,
    SETUP_SETTLE,
    STEAL,
)

SETUP_CITY = "setup-city"
EVENT = "event"  # chance: the event die after an alchemist
COMMIT, PILLAGE, PICK = "commit", "pillage", "pick"
DRAW, DRAWN, BURY = "draw", "drawn", "bury"  # DRAW: chance (a private deal)
AQUEDUCT, METRO, RETREAT = "aqueduct", "metropolis", "retreat"
DESERT, RECRUIT, REPLACE = "desert", "recruit", "replace"
TAKE, GIVE, HARBOR = "take", "give", "harbor"
LOOK = "look"  # chance: the spy's private look (option spy=private)
SHOW = "show"  # the spy's target shows its hand publicly (option spy=public)

#: steps in which the active player acts
BY_ACTIVE = frozenset((SETUP_SETTLE, SETUP_CITY, SETUP_ROAD, PRE_ROLL, ROBBER, STEAL, MAIN, FREE_ROAD, CONFIRM, TAKE,
                       HARBOR, RECRUIT, REPLACE))
#: steps in which the head of `queue` acts
BY_QUEUE = frozenset((DISCARD, RESPOND, COMMIT, PILLAGE, PICK, DRAWN, BURY, AQUEDUCT, METRO, RETREAT, DESERT, GIVE,
                      SHOW))

WORDS_OF_STEP = {
    SETUP_SETTLE: "settle <node>", SETUP_CITY: "city <node>", SETUP_ROAD: "road <edge>",
    PRE_ROLL: "roll or play alchemist <red> <white>", DISCARD: "discard <cards>", ROBBER: "robber h<hex>",
    STEAL: "steal <seat>", MAIN: "building, knights, improve, trade, offer, play, bury or end",
    FREE_ROAD: "road <edge> (free)", RESPOND: "accept or decline", CONFIRM: "confirm <seat> or cancel",
    COMMIT: "commit none or commit <nodes>", PILLAGE: "pillage <node>", PICK: "pick <deck>",
    DRAWN: "keep or reveal <id>", BURY: "bury <id>", AQUEDUCT: "aqueduct <resource>",
    METRO: "metropolis <node>", RETREAT: "retreat <node>", DESERT: "desert <node>", RECRUIT: "recruit <node> or skip",
    REPLACE: "road <edge> or skip", TAKE: "take <id>",
    SHOW: "show <progress cards>", GIVE: "give <cards>", HARBOR: "harbor <resource> or skip",
}
