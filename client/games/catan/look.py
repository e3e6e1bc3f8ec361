"""The base table's colours and words: the terrains, resources and pieces, what the seats are called,
and the words for verbs, development cards and card multisets. Apart because the C&K table, the
viewer and the lobby use them too (client.games.seat_style reads SEAT_COLOURS and SEAT_NAMES)."""

from __future__ import annotations

import re

from client.games import paint

SEA = (40, 96, 142)
SEA_DEEP = (30, 74, 112)
FRAME = (150, 112, 70)
SAND = (226, 206, 150)
TERRAIN = {
    "hills": (192, 98, 58), "forest": (52, 118, 62), "pasture": (146, 196, 96), "fields": (230, 194, 78),
    "mountains": (138, 142, 152), "desert": (222, 204, 152), None: (120, 130, 140),
}
RESOURCE_COLOURS = {"brick": (184, 78, 50), "lumber": (46, 116, 58), "wool": (150, 204, 110),
                    "grain": (232, 196, 70), "ore": (120, 126, 146)}
RESOURCE_INK = {"brick": paint.IVORY, "lumber": paint.IVORY, "wool": paint.INK, "grain": paint.INK,
                "ore": paint.IVORY}
TERRAIN_OF = {"brick": "hills", "lumber": "forest", "wool": "pasture", "grain": "fields", "ore": "mountains"}
# the classic piece colours: red, blue, white, orange (none of them a terrain's colour)
PIECES = ((206, 52, 44), (44, 96, 206), (240, 238, 230), (238, 140, 30))
PIECE_NAMES = ("Red", "Blue", "White", "Orange")
#: what the table, the viewer and the lobby call the seats (client.games.seat_style); text on dark panels
SEAT_COLOURS = ((236, 92, 80), (96, 146, 240), (240, 238, 230), (244, 160, 60))
SEAT_NAMES = ("red", "blue", "white", "orange")
RED_NUMBER = (196, 32, 28)
PIPS = {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
DEV_WORDS = {"knight": "knight", "monopoly": "monopoly", "roadbuilding": "road building",
             "victorypoint": "victory point", "yearofplenty": "year of plenty"}
DEV_PLURAL = {"knight": "knights", "monopoly": "monopolies", "roadbuilding": "road buildings",
              "victorypoint": "victory points", "yearofplenty": "years of plenty"}
DEV_COLOURS = {"knight": (120, 70, 150), "monopoly": (60, 130, 90), "roadbuilding": (60, 130, 90),
               "victorypoint": (196, 150, 40), "yearofplenty": (60, 130, 90)}
VERB_WORDS = {
    "settle": "build a settlement", "road": "build a road", "city": "build a city", "buy": "buy a development card",
    "play": "play a development card", "roll": "roll the dice", "discard": "discard cards",
    "robber": "move the robber", "steal": "rob a player", "trade": "trade with the bank",
    "offer": "offer a trade to the players", "accept": "accept the offer", "decline": "decline the offer",
    "confirm": "trade with one who accepted", "cancel": "cancel the offer", "end": "end the turn",
}
_MULTISET = re.compile(r"^\d+[a-z]+(\+\d+[a-z]+)*$")


def piece_colour(seat: int) -> paint.Colour:
    return PIECES[seat % len(PIECES)]


def is_cards(token: str) -> bool:
    """A card multiset token (`2brick+1ore`), as the notation writes it."""
    return bool(_MULTISET.match(token))


def cards_words(token: str) -> str:
    """`2brick+1ore` as `2 brick + 1 ore`."""
    return " + ".join(re.sub(r"^(\d+)", r"\1 ", part) for part in token.split("+"))


def _hex_words(view: dict, h: int) -> str:
    info = view["hexes"][h]
    words = f"h{h} {info['terrain'] or '?'}"
    return words + (f" {info['number']}" if info.get("number") else "")
