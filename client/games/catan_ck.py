"""Catan: Cities & Knights, drawn on the base Catan table (client/games/catan/), which this renderer
extends: the same island, seat cards, bank, hand, card composer, offers and hint line, with 8 card
types instead of 5 (the commodities cloth, coin and paper beside the resources), plus

- on the island: knights (a disc in the owner's colour with one to three bars for basic, strong and
  mighty; bright with a gold ring when active, dimmed when not), city walls (a stone base under the
  city), metropolises (a flag in the track's colour on the city), reduced cities (a city on its side)
  and the merchant (a pawn in the controller's colour on its hex);
- a band above the island: the barbarian ship on its track 0 to 7, and the cities it attacks against
  the active knights' strength;
- the red, white and event dice in the header (the event die shows the ship or a city gate);
- on each seat card: commodities in the hand, progress cards as backs in their deck's colour (the
  publicly known ones by name, all of them in a view that knows them), the three improvement tracks
  with their levels and metropolis, knights and walls;
- the three progress decks in the bank, with their sizes; the viewer's own progress cards face up in
  the strip.

Clicks give the tokens of docs/rules/catan-ck.md ("Actions and notation"): a node its number (`knight 12`,
`activate 12`, `knightmove 12 20`, `wall 23`, `commit 5 12`...), an edge its number, a hex `h<k>`, a
seat card the seat, an own improvement track its name (`improve politics`, `play crane science`), a
deck its name (`pick trade`), a progress card its id (`play spy`, `bury crane`, `take merchant`), a
bank chip its card type (`aqueduct ore`, `play merchantfleet cloth`). Where one click could mean
several verbs (an own knight that may move, chase or be promoted; a card that may be played or
buried), a small menu beside it names them. Only what a prefix of a `legal()` text allows is lit; no
rule is decided here.
"""

from __future__ import annotations

import math

import pygame

from client.games import catan, paint
from client.games.catan import (
    PIECE_NAMES,
    RED_NUMBER,
    RESOURCE_COLOURS,
    RESOURCE_INK,
    Layout,
    _hex_words,
    _outline,
    card_back,
    card_row,
    cards_words,
    city,
    city_points,
    layout,
    piece_colour,
    settlement,
)
from client.ui import textfit, theme
from client.ui.widgets import wrap_lines
from engines.catan.board import NODE_HEXES
from engines.catan_ck.cards import CARD_DECK, COMMODITIES, DECKS, NAMES, PROGRESS

#: the table's, the viewer's and the lobby's seat colours and names: the base game's
SEAT_COLOURS = catan.SEAT_COLOURS
SEAT_NAMES = catan.SEAT_NAMES

COMMODITY_COLOURS = {"cloth": (168, 92, 160), "coin": (198, 202, 214), "paper": (242, 232, 204)}
COMMODITY_INK = {"cloth": paint.IVORY, "coin": paint.INK, "paper": paint.INK}
#: the tracks, decks and city gates: trade yellow, politics blue, science green
TRACK_COLOURS = {"trade": (228, 188, 40), "politics": (58, 112, 206), "science": (60, 158, 82)}
TRACK_INK = {"trade": paint.INK, "politics": paint.IVORY, "science": paint.IVORY}
LEVEL_NAMES = {"trade": ("Market", "Merchant Guild", "Trading House", "Bank", "Great Exchange"),
               "politics": ("Town Hall", "Church", "Fortress", "Cathedral", "High Assembly"),
               "science": ("Abbey", "Library", "Aqueduct", "Theater", "University")}
KNIGHT_WORDS = {1: "basic", 2: "strong", 3: "mighty"}
CARD_WORDS = {"commercialharbor": "commercial harbor", "mastermerchant": "master merchant",
              "merchantfleet": "merchant fleet", "resourcemonopoly": "resource monopoly",
              "trademonopoly": "trade monopoly", "roadbuilding": "road building"}
DECK_OF = {card: DECKS[CARD_DECK[g]] for g, card in enumerate(PROGRESS)}
SHIP_SPACES = 7  # the attack comes when the ship reaches space 7
BARBARIAN = (150, 40, 36)

VERB_WORDS = {
    **catan.VERB_WORDS, "city": "build a city", "play": "play a progress card", "wall": "build a city wall",
    "knight": "recruit a basic knight", "activate": "activate a knight", "promote": "promote a knight",
    "knightmove": "move a knight", "displace": "displace a weaker knight", "chase": "chase the robber away",
    "improve": "build a city improvement", "metropolis": "place the metropolis", "retreat": "retreat the knight",
    "pillage": "lose this city to the barbarians", "commit": "send knights against the barbarians",
    "pick": "draw a progress card", "keep": "keep the card drawn", "reveal": "reveal the card (1 VP)",
    "bury": "put a progress card back", "aqueduct": "take a resource (aqueduct)",
    "desert": "remove one of your knights", "recruit": "place a knight (deserter)", "skip": "skip",
    "show": "show your progress cards", "take": "take a progress card", "give": "give cards",
    "harbor": "give a resource for a commodity",
}
STEP_WORDS = {
    "setup-city": "places a city", "pre-roll": "rolls (or plays the alchemist)",
    "main": "builds, trades, plays or ends the turn", "discard": "discards cards",
    "commit": "sends knights against the barbarians", "pillage": "loses a city to the barbarians",
    "pick": "picks a progress card as defender", "drawn": "keeps or reveals the card drawn",
    "bury": "puts a progress card back (hand limit)", "aqueduct": "takes a resource (aqueduct)",
    "metropolis": "places a metropolis", "retreat": "retreats a displaced knight",
    "desert": "removes a knight (deserter)", "recruit": "places a knight (deserter)",
    "replace": "places the road again (diplomat)", "take": "takes a progress card (spy)",
    "show": "shows the progress cards (spy)", "give": "gives cards", "harbor": "trades at the commercial harbor",
    "event": "rolls the event die", "draw": "draws progress cards at the gates", "look": "looks at a hand (spy)",
    "deal": "draws a progress card",
}
EVENT_WORDS = {1: "the ship sails on", 2: "the ship sails on", 3: "the ship sails on", 4: "trade gate",
               5: "politics gate", 6: "science gate"}

# which kind of place a verb's arguments are, by position (a card's after `play <id>`)
_NODE_VERBS = ("settle", "city", "wall", "knight", "activate", "knightmove", "displace", "chase", "promote",
               "metropolis", "pillage", "retreat", "desert", "recruit", "commit")
_ARGS = {**{verb: "node" for verb in _NODE_VERBS}, "road": "edge", "robber": "hex", "steal": "seat",
         "confirm": "seat"}
_CARD_ARGS = {"engineer": "node", "medicine": "node", "intrigue": "node", "smith": "node", "diplomat": "edge",
              "deserter": "seat", "spy": "seat", "mastermerchant": "seat", "merchant": "hex", "inventor": "hex",
              "crane": "track", "resourcemonopoly": "bank", "trademonopoly": "bank", "merchantfleet": "bank"}
# the verbs a click on a place of each kind may start, most likely first
_STARTS = {"node": _NODE_VERBS, "edge": ("road",), "hex": ("robber",), "seat": ("steal", "confirm"),
           "bank": ("aqueduct", "harbor"), "track": ("improve",), "deck": ("pick",),
           "card": ("play", "bury", "reveal", "take")}
MENU_WORDS = {"activate": "activate", "knightmove": "move", "displace": "displace", "chase": "chase robber",
              "promote": "promote", "play": "play", "bury": "put back", "reveal": "reveal", "take": "take"}


def card_words(card: str) -> str:
    return CARD_WORDS.get(card, card)


def glyph(surface: pygame.Surface, name: str, centre: tuple[int, int], r: int, ink: paint.Colour) -> None:
    """A picture of a card type: the base game's for resources; a bolt of cloth, a coin, a scroll."""
    if name not in COMMODITIES:
        catan.glyph(surface, name, centre, r, ink)
        return
    x, y = centre
    if r < 4:
        return
    if name == "cloth":
        box = pygame.Rect(x - r, y - r * 2 // 3, 2 * r, r * 4 // 3)
        pygame.draw.rect(surface, ink, box, 1, border_radius=2)
        for k in range(1, 3):
            pygame.draw.line(surface, ink, (box.x + k * box.w // 3, box.y), (box.x + k * box.w // 3 - r // 3,
                                                                              box.bottom - 1), 1)
    elif name == "coin":
        pygame.draw.circle(surface, ink, centre, r, 1)
        pygame.draw.circle(surface, ink, centre, max(2, r // 2), 1)
    elif name == "paper":
        box = pygame.Rect(x - r * 2 // 3, y - r, r * 4 // 3, 2 * r)
        pygame.draw.rect(surface, ink, box, 1, border_radius=2)
        for k in range(1, 4):
            yy = box.y + k * box.h // 4
            pygame.draw.line(surface, ink, (box.x + 2, yy), (box.right - 3, yy), 1)


def knight(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour, level: int,
           active: bool) -> None:
    """A knight: a disc in the owner's colour with one bar per level; active ones bright with a gold ring."""
    x, y = centre
    body = colour if active else paint.mix(colour, (70, 70, 76), 0.55)
    pygame.draw.circle(surface, (0, 0, 0), (x + 1, y + 2), r + 1)
    if active:
        pygame.draw.circle(surface, (255, 206, 64), centre, r + max(2, r // 4))
    pygame.draw.circle(surface, body, centre, r)
    pygame.draw.circle(surface, paint.darker(colour, 0.6), centre, r, max(1, r // 6))
    ink = paint.INK if sum(colour) > 560 else paint.IVORY
    if not active:
        ink = paint.mix(ink, body, 0.35)
    bar_w, bar_h = max(3, r * 6 // 5), max(2, r // 4)
    gap = max(1, r // 7)
    top = y - (level * bar_h + (level - 1) * gap) // 2
    for k in range(level):
        pygame.draw.rect(surface, ink, (x - bar_w // 2, top + k * (bar_h + gap), bar_w, bar_h), border_radius=1)


def wall(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """A city wall: a stone base with battlements, under the city."""
    x, y = centre
    s = size
    base = pygame.Rect(x - 3 * s, y + s // 2, 6 * s, s + s // 2)
    stone, dark = (168, 162, 150), (80, 76, 70)
    pygame.draw.rect(surface, (0, 0, 0), base.move(1, 2))
    for side in (-1, 1):  # battlements at the sides, beside the city
        merlon = pygame.Rect(x + side * (2 * s + s // 2) - s // 3, base.y - s // 2, max(2, s * 2 // 3), s // 2 + 1)
        pygame.draw.rect(surface, stone, merlon)
        pygame.draw.rect(surface, dark, merlon, 1)
    pygame.draw.rect(surface, stone, base)
    pygame.draw.rect(surface, dark, base, 1)
    pygame.draw.line(surface, dark, (base.x, base.centery), (base.right - 1, base.centery), 1)


def reduced_city(surface: pygame.Surface, centre: tuple[int, int], size: int, colour: paint.Colour) -> None:
    """A city on its side: pillaged with no settlement piece left, it counts as a settlement."""
    x, y = centre
    points = [(x - (py - y), y + (px_ - x)) for px_, py in city_points(centre, size)]  # turned a quarter
    pygame.draw.polygon(surface, (0, 0, 0), [(a + 1, b + 2) for a, b in points])
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, paint.darker(colour, 0.6), points, max(1, size // 4))


def flag(surface: pygame.Surface, foot: tuple[int, int], size: int, colour: paint.Colour) -> None:
    """A metropolis: a flag in the track's colour above the city's tower."""
    x, y = foot
    top = y - 2 * size
    pygame.draw.line(surface, (40, 30, 20), (x, y), (x, top), max(1, size // 3))
    cloth = [(x, top), (x + 2 * size, top + size // 2), (x, top + size)]
    pygame.draw.polygon(surface, colour, cloth)
    pygame.draw.polygon(surface, paint.darker(colour, 0.5), cloth, 1)


def merchant(surface: pygame.Surface, centre: tuple[int, int], size: int, colour: paint.Colour) -> None:
    """The merchant: a pawn with a broad hat in the controller's colour."""
    x, y = centre
    body = [(x - size * 0.5, y + size), (x + size * 0.5, y + size), (x + size * 0.2, y - size * 0.1),
            (x - size * 0.2, y - size * 0.1)]
    pygame.draw.ellipse(surface, (0, 0, 0), (x - size * 0.6, y + size * 0.75, size * 1.2, size * 0.45))
    pygame.draw.polygon(surface, colour, body)
    pygame.draw.polygon(surface, paint.darker(colour, 0.6), body, 1)
    head = (x, round(y - size * 0.4))
    pygame.draw.circle(surface, colour, head, max(3, round(size * 0.35)))
    pygame.draw.circle(surface, paint.darker(colour, 0.6), head, max(3, round(size * 0.35)), 1)
    brim = pygame.Rect(0, 0, round(size * 1.2), max(2, round(size * 0.22)))
    brim.center = (x, round(y - size * 0.62))
    pygame.draw.ellipse(surface, (60, 40, 24), brim)


def ship(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour = (28, 24, 26)) -> None:
    """The barbarian ship: a hull and a sail."""
    x, y = centre
    hull = [(x - r, y), (x + r, y), (x + r * 2 // 3, y + r // 2), (x - r * 2 // 3, y + r // 2)]
    pygame.draw.polygon(surface, colour, hull)
    pygame.draw.line(surface, colour, (x, y), (x, y - r), max(1, r // 5))
    pygame.draw.polygon(surface, paint.mix(colour, (200, 60, 50), 0.75), [(x + 1, y - r), (x + 1, y - 2),
                                                                          (x + r * 3 // 4, y - 2)])


def gate(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    """A city gate in a deck's colour."""
    x, y = centre
    outer = pygame.Rect(x - r, y - r, 2 * r, 2 * r)
    pygame.draw.rect(surface, colour, outer, border_top_left_radius=r, border_top_right_radius=r)
    door = pygame.Rect(x - r // 2, y - r // 3, r, r * 4 // 3)
    pygame.draw.rect(surface, paint.darker(colour, 0.6), door, border_top_left_radius=r // 2,
                     border_top_right_radius=r // 2)


def barbarian_strength(view: dict) -> tuple[int, int]:
    """The barbarians' strength (cities on the island of seats still in the game) and the island's
    (the levels of every active knight), as the attack would count them now."""
    out = set(view.get("out", []))
    cities = sum(1 for owner, kind in view["nodes"].values() if kind == "city" and owner not in out)
    knights = sum(level for owner, level, active, *_ in view["knights"].values() if active and owner not in out)
    return cities, knights


class Renderer(catan.Renderer):
    kinds = NAMES
    offer_most = 3   # an offer's cards at most (docs/rules/catan-ck.md, D36)
    colours = {**RESOURCE_COLOURS, **COMMODITY_COLOURS}
    inks = {**RESOURCE_INK, **COMMODITY_INK}
    glyph = staticmethod(glyph)
    dice = 3
    bank_aside = 0  # the decks go below the chips
    hint_words = (("menu", "a lit choice"), ("node", "a lit corner"), ("edge", "a lit path"), ("hex", "a lit hex"),
                  ("seat", "a lit player"), ("roll", "the dice"), ("track", "a lit improvement"),
                  ("deck", "a lit deck"), ("card", "a lit progress card"), ("bank", "a lit card type"),
                  ("accept", "accept or decline"), ("confirm", "a player to trade with"), ("cancel", "cancel"))

    def __init__(self) -> None:
        super().__init__()
        # a place clicked where several verbs fit: (its kind and key, the readings, where, for which choice)
        self.menu: tuple | None = None

    # ------------------------------------------------------------------ what a click means

    def _next_kind(self, chosen: list[str]) -> str | None:
        """The kind of place the token after `chosen` names (a node, an edge, a seat...)."""
        if not chosen:
            return None
        verb = chosen[0]
        if verb == "play":
            if len(chosen) == 1:
                return "card"
            card = chosen[1]
            if card == "mastermerchant" and len(chosen) > 2:
                return "cards"
            return _CARD_ARGS.get(card)
        if verb == "offer" and chosen[-1] == "to":
            return "seat"
        if verb in ("improve",):
            return "track"
        if verb == "pick":
            return "deck"
        if verb in ("aqueduct", "harbor"):
            return "bank"
        if verb in ("bury", "reveal", "take"):
            return "card"
        return _ARGS.get(verb)

    def _readings(self, place: tuple, view: dict) -> list[list[str]]:
        """The legal ways a click on `place` goes on from the tokens chosen so far, most likely first."""
        kind, key = place[0], place[1]
        if kind not in _STARTS:
            return []
        token = f"h{key}" if kind == "hex" else str(key)
        chosen = self.chosen
        if chosen:
            following = [*chosen, token]
            return [following] if self._next_kind(chosen) == kind and self._allowed(following) else []
        return [[verb, token] for verb in _STARTS[kind] if self._allowed([verb, token])]

    def _intent(self, place: tuple, view: dict) -> list[str] | None:
        kind = place[0]
        if kind == "menu":
            return self.menu[1][place[1]] if self.menu is not None and place[1] < len(self.menu[1]) else None
        if kind in _STARTS:
            readings = self._readings(place, view)
            if len(readings) == 1:
                return readings[0]
            if readings:
                return None  # a menu names the verbs (press)
            if kind in ("node", "edge", "hex", "seat"):
                return super()._intent(place, view)  # words for the refusal
            token = str(place[1])
            return [*self.chosen, token] if self.chosen else [_STARTS[kind][0], token]
        return super()._intent(place, view)

    def _lit(self, place: tuple, view: dict) -> bool:
        if place[0] in _STARTS and len(self._readings(place, view)) > 1:
            return True
        return super()._lit(place, view)

    def press(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> bool:
        """A click where several verbs fit opens a menu of them beside the place; a click anywhere
        else closes it (and the composer's + and - work as on the base table)."""
        lay = self._layout(rect, view)
        for place in self._places(lay, view):
            if place[0] in _STARTS and self._contains(place[2], pos):
                readings = self._readings(place, view)
                if len(readings) > 1:
                    self.menu = ((place[0], place[1]), readings, self._centre(place[2]), self._menu_key())
                    return True
        self.menu = None
        return super().press(rect, view, pos)

    def _menu_key(self) -> tuple:
        return tuple(self.chosen), id(self._legal_src)

    def _menu_items(self, lay: Layout) -> list[pygame.Rect]:
        if self.menu is None or self.menu[3] != self._menu_key():
            self.menu = None
            return []
        px = self.px
        font = theme.font(px - 2)
        labels = [self._menu_label(reading) for reading in self.menu[1]]
        w = max(font.size(label)[0] for label in labels) + px
        h = px + 6
        x, y = self.menu[2]
        board = lay.header.union(lay.strip).union(lay.side)
        box = pygame.Rect(x + px // 2, y - h // 2, w, h * len(labels))
        box.clamp_ip(board)
        return [pygame.Rect(box.x, box.y + k * h, w, h - 2) for k in range(len(labels))]

    def _menu_label(self, reading: list[str]) -> str:
        verb = reading[0]
        return MENU_WORDS.get(verb, VERB_WORDS.get(verb, verb))

    def _places(self, lay: Layout, view: dict) -> list[tuple]:
        menu = [("menu", k, rect) for k, rect in enumerate(self._menu_items(lay))]
        return menu + super()._places(lay, view)

    def _layout(self, rect: pygame.Rect, view: dict) -> Layout:
        lay = layout(rect, len(view["hands"]), self.px, band=1.6, bank=4.9, dice=self.dice, hand=0.64)  # 8 kinds
        self._place_spots(lay, view)
        extra = self._header_extra(lay, view)
        if extra > 0:   # the header's words wrapped beside the three dice: the island gives it their lines
            lay = layout(rect, len(view["hands"]), self.px, band=1.6, bank=4.9, dice=self.dice, hand=0.64,
                         header_extra=extra)
            self._place_spots(lay, view)
        return lay

    # the spots outside the island: improvement tracks, decks, progress cards

    def _card_spots(self, lay: Layout, view: dict) -> None:
        me = view.get("seat")
        if me is not None and 0 <= me < len(view["hands"]):
            for track, box in self._track_boxes(lay, me).items():
                lay.spots[("track", track)] = box
        for deck, box in self._deck_boxes(lay).items():
            lay.spots[("deck", deck)] = box
        if not self._proposals(view):   # (counter-offers to the person take the cards' place)
            for card, box in self._card_boxes(lay, view):
                lay.spots[("card", card)] = box

    # ------------------------------------------------------------------ words

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        counter = self._counter_label(view, chosen, token)
        if counter is not None:
            return counter
        if not chosen:
            return VERB_WORDS.get(token)
        verb = chosen[0]
        kind = self._next_kind(chosen)
        if kind == "node" and token.isdigit():
            n = int(token)
            owned = view["knights"].get(token)
            if owned is not None:
                owner, level, active = owned[:3]
                what = f"{'active' if active else 'inactive'} {KNIGHT_WORDS[level]} knight"
                who = "your" if owner == view.get("seat") else f"{self._who(view, owner)}'s"
                return f"{who} {what} on node {n}"
            return f"node {n} ({', '.join(_hex_words(view, h) for h in NODE_HEXES[n])})"
        if kind == "hex" and token[1:].isdigit() and int(token[1:]) < 19:
            return _hex_words(view, int(token[1:]))
        if verb == "commit" and token == "none":
            return "send no knight"
        if kind == "card":
            return card_words(token)
        if kind == "track" and token in DECKS:
            me = view.get("seat")
            level = view["levels"][me][token] if me is not None else 0
            if level >= 5:
                return token
            cost = level + 1 - (1 if verb == "play" else 0)
            return (f"{token}: level {level + 1}, {LEVEL_NAMES[token][level]} "
                    f"({cost} {COMMODITIES[DECKS.index(token)]})")
        if kind == "deck":
            return f"draw a {token} card"
        if kind == "bank" and token in NAMES:
            return {"aqueduct": f"take 1 {token}", "harbor": f"give 1 {token}"}.get(verb, token)
        if verb == "play" and chosen[1:] == ["alchemist"]:
            return f"red die {token}"
        if verb == "play" and chosen[1:2] == ["alchemist"]:
            return f"white die {token} (total {int(chosen[2]) + int(token)})"
        if verb == "show":
            return "show " + cards_words(token).replace("1 ", "")
        if kind == "seat" and token.isdigit() and verb == "play":
            return self._who(view, int(token))
        return super().label(view, chosen, token)

    def _tray_title(self, base: list[str], options: set[tuple[int, ...]]) -> str:
        sizes = {sum(o) for o in options}
        size_words = f"{min(sizes)}" if len(sizes) == 1 else f"{min(sizes)}-{max(sizes)}"
        if base[:2] == ["play", "mastermerchant"] and len(base) > 2:
            return f"take {size_words} from {PIECE_NAMES[int(base[2]) % 4]}"
        if base[:1] == ["give"]:
            return f"give {size_words} card{'s' * (size_words != '1')}"
        return super()._tray_title(base, options)

    def _tray_note(self, view: dict, base: list[str], hand: list[int], t: int) -> str:
        if base[:2] == ["play", "mastermerchant"] and len(base) > 2 and base[2].isdigit():
            return f"of {view['hands'][int(base[2])][t]}"  # the cards taken come from that player's hand
        if base[:1] == ["give"]:
            return f"of {hand[t]}"
        return super()._tray_note(view, base, hand, t)

    def _step_phrase(self, view: dict, step: str) -> str:
        return STEP_WORDS.get(step) or super()._step_phrase(view, step)

    def _roll_words(self, view: dict, dice: list[int]) -> str:
        red, white = dice[0], dice[1]
        words = f"last roll {red + white} (red {red})"
        if len(dice) > 2:
            words += f", {EVENT_WORDS.get(dice[2], '?')}"
        return words

    def _bank_awards(self, view: dict) -> str:
        holder = view["longest_road"]["holder"]
        merchant_at = view.get("merchant")
        return (f"road: {PIECE_NAMES[holder % 4] if holder is not None else '-'}   "
                f"merchant: {PIECE_NAMES[merchant_at[1] % 4] if merchant_at else '-'}")

    # ------------------------------------------------------------------ drawing

    def _draw_over(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        self._draw_band(surface, lay, view)
        self._draw_menu(surface, lay)

    def _draw_buildings(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        r = lay.radius
        size = max(4, round(r * 0.17))
        metros = {str(m[1]): track for track, m in view["metropolises"].items() if m is not None}
        for n in view["walls"]:
            wall(surface, lay.node(int(n)), size)
        for n, (owner, kind) in view["nodes"].items():
            centre = lay.node(int(n))
            colour = piece_colour(owner)
            if n in view["reduced"]:
                reduced_city(surface, centre, size, colour)
            elif kind == "city":
                city(surface, centre, size, colour)
            else:
                settlement(surface, centre, size, colour)
            if n in metros:
                flag(surface, (centre[0] + size, centre[1] - 2 * size), size * 4 // 3, TRACK_COLOURS[metros[n]])
        for n, (owner, level, active, *_) in view["knights"].items():
            knight(surface, lay.node(int(n)), max(5, round(r * 0.2)), piece_colour(owner), level, active)

    def _draw_robber(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        super()._draw_robber(surface, lay, view)
        at = view.get("merchant")
        if at is not None:
            x, y = lay.hex(at[0])
            r = lay.radius
            merchant(surface, (x + round(r * 0.5), y - round(r * 0.12)), max(6, round(r * 0.28)), piece_colour(at[1]))

    def _draw_lit(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        super()._draw_lit(surface, lay, view)
        r = lay.radius
        width = max(2, round(r / 13))
        for k in range(1, len(self.chosen)):  # the places already chosen for the action being built
            kind, token = self._next_kind(self.chosen[:k]), self.chosen[k]
            if kind == "node" and token.isdigit():
                pygame.draw.circle(surface, theme.ACCENT, lay.node(int(token)), round(r * 0.32), width)
            elif kind == "hex" and token[1:].isdigit():
                pygame.draw.circle(surface, theme.ACCENT, lay.hex(int(token[1:])), round(r * 0.5), width)

    def _draw_dice(self, surface: pygame.Surface, lay: Layout, view: dict, lit: bool) -> None:
        """The red die, the white die and the event die (a ship or a city gate)."""
        dice = view.get("dice") or []
        bodies = ((200, 44, 40), (250, 236, 200), (236, 232, 222))
        pips = (paint.IVORY, paint.INK, paint.INK)
        for k, box in enumerate(self._die_boxes(lay)):
            value = dice[k] if k < len(dice) else None
            if k < 2:
                paint.die(surface, box, value, body=bodies[k], pips=pips[k], faded=not dice)
            else:
                paint.die(surface, box, None if value is None else 0, body=bodies[k], faded=value is None)
                if value is not None:
                    centre = (box.centerx, box.centery + box.h // 10)
                    if value <= 3:
                        ship(surface, centre, box.w // 3)
                    else:
                        gate(surface, centre, box.w // 3, TRACK_COLOURS[DECKS[value - 4]])
            if lit:
                _outline(surface, box.inflate(4, 4), 3)

    def _draw_band(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """The barbarian track: spaces 0 to 7 with the ship, then the strengths an attack would compare."""
        band = lay.band
        px = self.px
        small = max(10, px - 4)
        paint.rounded_panel(surface, band, (30, 40, 54), theme.PANEL_EDGE, radius=6, alpha=240, width=1)
        label = paint.text(surface, "barbarians", (band.x + px // 2, band.centery), small, theme.MUTED, bold=True,
                           anchor="midleft")
        cities, knights = barbarian_strength(view)
        attacked = view.get("first_attack_done")
        words = f"cities {cities} vs knights {knights}" + ("" if attacked else " - robber locked")
        font = theme.font(small)
        room = band.w - (label.right - band.x) - px
        step = max(12, px * 2 // 3, min(round(px * 1.7), (room - font.size(words)[0] - px) // (SHIP_SPACES + 1)))
        r = max(4, min(band.h // 2 - 2, step // 2 - 1))
        x0 = label.right + px // 2 + r
        at = view.get("ship", 0)
        for k in range(SHIP_SPACES + 1):
            centre = (x0 + k * step, band.centery)
            if k:
                pygame.draw.line(surface, (90, 100, 114), (centre[0] - step + r, centre[1]), (centre[0] - r, centre[1]),
                                 1)
            fill = BARBARIAN if k == SHIP_SPACES else (52, 70, 96)
            pygame.draw.circle(surface, fill, centre, r)
            pygame.draw.circle(surface, paint.lighter(fill, 0.3), centre, r, 1)
            if k == at:
                pygame.draw.circle(surface, (226, 214, 190), centre, r)
                ship(surface, (centre[0], centre[1] + r // 4), max(3, r * 3 // 4), BARBARIAN if k else (28, 24, 26))
        x = x0 + SHIP_SPACES * step + r + px // 2
        danger = cities > knights
        # whole on one line, else on two (the band is two lines high: C&K's header at 1024x600, issue 34)
        lines = wrap_lines(words, small, band.right - x - px // 3, 2)
        pitch = font.get_linesize()
        for k, line in enumerate(lines):
            paint.text(surface, line, (x, band.centery + (2 * k - len(lines) + 1) * pitch // 2), small,
                       theme.BAD if danger else theme.GOOD, anchor="midleft")

    def _draw_menu(self, surface: pygame.Surface, lay: Layout) -> None:
        items = self._menu_items(lay)
        if not items:
            return
        px = self.px
        frame = items[0].union(items[-1]).inflate(6, 6)
        paint.rounded_panel(surface, frame, (24, 30, 42), theme.HILITE, radius=6, width=1)
        for reading, rect in zip(self.menu[1], items, strict=True):
            pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=4)
            textfit.box(rect, "button")
            paint.text(surface, self._menu_label(reading), rect.center, px - 2, theme.TEXT, anchor="center")
            _outline(surface, rect, 1)

    # ------------------------------------------------------------------ the seat cards

    def _seat_body(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect, y: int,
                   small: int) -> int:
        """Progress cards (backs in their deck's colour; names where this view knows them), then the
        improvement tracks with knights and walls."""
        px = self.px
        progress = view["progress"][seat]
        back_h = max(10, round(px * 0.9))
        back_w = max(7, back_h * 2 // 3)
        named = progress.get("cards") if seat != view.get("seat") else None
        known = named if named is not None else progress["known"]
        count = progress["count"]
        if seat == view.get("seat") and progress.get("cards") is not None:
            words = f"{count} progress card{'s' * (count != 1)}" + (" (below)" if count else "")
        elif known:
            rest = count - len(known)
            words = ", ".join(card_words(c) for c in known) + (f" + {rest} unknown" if rest > 0 else "")
        else:
            words = f"{count} progress card{'s' * (count != 1)}" if count else "no progress cards"
        vp_cards = view["revealed_vp"][seat]
        if vp_cards:
            words += "; VP: " + " + ".join(vp_cards)
        backs = [(deck, k) for deck in DECKS for k in range(min(progress["undisclosed"][deck], 3))]
        backs_w = sum(back_w // 2 + 1 for _ in backs) + sum(back_w // 2 + 3 for d in DECKS
                                                             if progress["undisclosed"][d])
        font = theme.font(small)
        if font.size(words)[0] > inner.w - 2:
            # too long for the line even alone (four names at 1024x600): the count, whole, rather than names cut
            # short; the log names each card as it is drawn and played
            many = f"{count} progress card{'s' * (count != 1)}"
            shorter = [f"{many}; VP: " + " + ".join(vp_cards), f"{many}; {len(vp_cards)} VP"] if vp_cards else [many]
            words = next((w for w in shorter if font.size(w)[0] <= inner.w - 2), shorter[-1])
        x = inner.x
        if font.size(words)[0] <= inner.w - backs_w - 2:   # (else the words alone: their count says what the
            for deck, k in backs:                           # backs would)
                card_back(surface, pygame.Rect(x, y, back_w, back_h), TRACK_COLOURS[deck])
                x += back_w // 2 + 1 + (back_w // 2 + 3 if k == min(progress["undisclosed"][deck], 3) - 1 else 0)
        row = self._levels_rect(inner)
        short = row is None
        if short:
            # a short seat card (three or four seats on the viewer's board at 1024x600, issue 34): the
            # improvement tracks take the tags' line, and the tags that the card and the bank do not already
            # show go to its right end, before the knights, walls and road
            row = pygame.Rect(inner.x, y + back_h + 4, inner.w, max(10, round(px * 0.8)))
            if row.bottom > inner.bottom + 2:
                row = None   # (no line for the tracks: the tags below the cards' line, where they fit)
        paint.text(surface, paint.fit(words, small, inner.right - x - 2), (x + 2, y + back_h // 2), small,
                   theme.TEXT, anchor="midleft")
        if row is None:
            return y + back_h + 4   # (the tags below the cards' line, not over it)
        if not short:
            self._levels_row(surface, view, seat, row, small)
            return row.bottom + 4
        science = self._track_cells(row)[1]["science"]
        tags, width = [], 0
        for tag in self._short_tags(view, seat):   # as many tags as fit beside the tracks; the facts in the rest
            w = theme.font(small, True).size(tag[0])[0] + 12
            if width + w > row.right - science.right - 8:
                break
            tags, width = [*tags, tag], width + w
        left = row.right - width + 4
        self._levels_row(surface, view, seat, row, small, facts_right=left - 4 if tags else None)
        if tags:
            self._draw_tag_list(surface, tags, left, row.centery - small // 2, row.right, small)
        return inner.bottom + small   # (the tags are on the tracks' line: none below)

    def _short_tags(self, view: dict, seat: int) -> list[tuple[str, paint.Colour]]:
        """The tags of a short seat card: those that nothing else on the card or in the bank shows (the longest
        road and the merchant are named on the bank's line, a metropolis frames its track, the seat to act has
        its card lit)."""
        shown_elsewhere = {"Longest Road", "merchant", "to act"} | {f"{t} metropolis" for t in DECKS}
        return [(w, c) for w, c in self._seat_tags(view, seat) if w not in shown_elsewhere]

    def _levels_rect(self, inner: pygame.Rect) -> pygame.Rect | None:
        """The row of a seat card with the improvement tracks, where the tags row still fits below it."""
        px = self.px
        small = max(10, px - 4)
        y = inner.y + px + 3 + max(12, round(px * 0.95)) + 4 + max(10, round(px * 0.9)) + 4
        h = max(10, round(px * 0.8))
        return pygame.Rect(inner.x, y, inner.w, h) if y + h + small + 5 <= inner.bottom + 2 else None

    def _track_cells(self, row: pygame.Rect) -> tuple[int, dict[str, pygame.Rect]]:
        cell = max(5, min(round(self.px * 0.42), (row.w * 2 // 3) // 17))
        w = 5 * cell + 2
        return cell, {track: pygame.Rect(row.x + k * (w + cell), row.y, w, row.h) for k, track in enumerate(DECKS)}

    def _track_boxes(self, lay: Layout, seat: int) -> dict[str, pygame.Rect]:
        """Where a seat card shows each improvement track (the viewer's own are clicked to improve)."""
        px = self.px
        row = self._levels_rect(lay.seats[seat].inflate(-px // 2 - 4, -px // 3 - 2))
        return self._track_cells(row)[1] if row is not None else {}

    def _levels_row(self, surface: pygame.Surface, view: dict, seat: int, row: pygame.Rect, small: int,
                    facts_right: int | None = None) -> None:
        """Three tracks of five levels (framed where the seat holds the track's metropolis), then the
        knights (active strength / all), the walls and the road length, from `facts_right` (default: the
        row's end) leftwards as far as they fit."""
        levels = view["levels"][seat]
        cell, boxes = self._track_cells(row)
        for track, box in boxes.items():
            colour = TRACK_COLOURS[track]
            for k in range(5):
                square = pygame.Rect(box.x + k * cell + 1, box.y + 1, cell - 1, box.h - 2)
                if k < levels[track]:
                    pygame.draw.rect(surface, colour, square, border_radius=2)
                else:
                    pygame.draw.rect(surface, paint.mix(colour, (40, 48, 60), 0.75), square, border_radius=2)
                    pygame.draw.rect(surface, paint.mix(colour, (40, 48, 60), 0.4), square, 1, border_radius=2)
            metro = view["metropolises"][track]
            if metro is not None and metro[0] == seat:
                pygame.draw.rect(surface, paint.IVORY, box.inflate(2, 2), 1, border_radius=3)
            if seat == view.get("seat") and self._lit(("track", track, box), view):  # the viewer's own tracks
                _outline(surface, box.inflate(4, 4), 2)
        # knights (active strength / all), walls and road length as little pieces with numbers, from the right
        mine = [(level, active) for owner, level, active, *_ in view["knights"].values() if owner == seat]
        ready = sum(level for level, active in mine if active)
        walls = sum(1 for owner in view["walls"].values() if owner == seat)
        facts = [("knight", f"{ready}/{sum(level for level, _ in mine)}"), ("wall", str(walls)),
                 ("road", str(view["longest_road"]["lengths"][seat]))]
        font = theme.font(small)
        icon = max(4, small * 2 // 5)
        x = row.right if facts_right is None else facts_right
        colour = piece_colour(seat)
        for kind, number in reversed(facts):
            width = font.size(number)[0]
            if x - width - 2 * icon - 4 < boxes["science"].right + cell // 2:
                break
            x -= width
            paint.text(surface, number, (x, row.centery), small, theme.MUTED, anchor="midleft")
            centre = (x - icon - 2, row.centery)
            if kind == "knight":
                knight(surface, centre, max(3, icon * 3 // 4), colour, 1, True)
            elif kind == "wall":
                wall(surface, (centre[0], centre[1] - icon // 2), max(2, icon // 3))
            else:
                x0, y0 = centre
                catan.road(surface, (x0 - icon, y0 + icon // 2), (x0 + icon, y0 - icon // 2), max(2, icon // 3), colour)
            x -= 2 * icon + 2 + cell // 2

    def _seat_tags(self, view: dict, seat: int) -> list[tuple[str, paint.Colour]]:
        tags = super()._seat_tags(view, seat)
        for track, metro in view["metropolises"].items():
            if metro is not None and metro[0] == seat:
                tags.append((f"{track} metropolis", TRACK_COLOURS[track]))
        at = view.get("merchant")
        if at is not None and at[1] == seat:
            tags.append(("merchant", (200, 170, 120)))
        points = view["defender_points"][seat]
        if points:
            tags.append((f"defender {points}", (150, 170, 200)))
        return tags

    # ------------------------------------------------------------------ the bank and the decks

    def _deck_boxes(self, lay: Layout) -> dict[str, pygame.Rect]:
        chip_w, chip_h, y = self._bank_chips(lay)
        px = self.px
        top = y + chip_h + 4
        h = max(10, lay.bank.bottom - top - 5)
        w = (lay.bank.w - px) // 3
        return {deck: pygame.Rect(lay.bank.x + px // 2 + k * w, top, w - px // 3, h) for k, deck in enumerate(DECKS)}

    def _draw_decks(self, surface: pygame.Surface, lay: Layout, view: dict, label_y: int, small: int) -> None:
        """The three progress decks: a back in the deck's colour with the cards left in its pool."""
        for deck, box in self._deck_boxes(lay).items():
            size = view["pools"][deck]["size"]
            h = min(box.h, round(self.px * 1.1))
            back = pygame.Rect(box.x, box.centery - h // 2, max(7, h * 2 // 3), h)
            if size:
                card_back(surface, back, TRACK_COLOURS[deck])
            else:
                pygame.draw.rect(surface, theme.PANEL_EDGE, back, 1, border_radius=3)
            room = box.right - back.right - 4
            words = f"{deck} {size}"
            if theme.font(small).size(words)[0] > room:
                words = str(size)  # the deck's colour names it
            paint.text(surface, words, (back.right + 3, box.centery), small, theme.MUTED, anchor="midleft")
            if self._lit(("deck", deck, box), view):
                _outline(surface, box.inflate(4, 4), 2)

    # ------------------------------------------------------------------ the strip: progress cards

    def _card_boxes(self, lay: Layout, view: dict) -> list[tuple[str, pygame.Rect]]:
        """The progress cards shown face up in the strip's right part: the viewer's own, or the cards a
        spy may take from. One box per card id."""
        cards = self._shown_cards(view)[1]
        if not cards or view.get("offer") is not None or self.chosen[:1] == ["offer"]:
            return []
        return card_row(lay.cards, self.px, cards, 0.72)

    def _shown_cards(self, view: dict) -> tuple[str, list[str]]:
        """The title and the cards of the strip's right part."""
        me = view.get("seat")
        if me is None or not 0 <= me < len(view["progress"]):
            return "", []
        if view.get("step") == "take" and view.get("to_act") == me:
            seen = view.get("seen")
            if seen is not None:
                return f"take one of {PIECE_NAMES[seen['seat'] % 4]}'s cards", list(seen["cards"])
            target = next((s for s in range(len(view["progress"])) if s != me and view["progress"][s]["known"]), None)
            if target is not None:
                return f"take one of {PIECE_NAMES[target % 4]}'s cards", list(view["progress"][target]["known"])
        own = view["progress"][me].get("cards")
        if own is None:
            return "", []
        return f"progress cards: {len(own)}", sorted(own, key=lambda c: (DECKS.index(DECK_OF[c]), c))

    def _draw_cards(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        if view.get("offer") is not None or self.chosen[:1] == ["offer"] or self._proposals(view):
            super()._draw_cards(surface, lay, view)  # the offer and its answers, counter-offers, as on the base table
            return
        px = self.px
        paint.rounded_panel(surface, lay.cards, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        title, cards = self._shown_cards(view)
        me = view.get("seat")
        if not title:
            count = sum(p["count"] for p in view["progress"])
            words = f"progress cards in hands: {count}; played or put back: " + ", ".join(
                f"{len(view['under'][d])} {d}" for d in DECKS)
            for k, line in enumerate(wrap_lines(words, small, inner.w, 3)):
                paint.text(surface, line, (inner.x, inner.y + k * (small + 2)), small, theme.MUTED)
            return
        paint.text(surface, paint.fit(title, px - 2, inner.w, bold=True), (inner.x, inner.y), px - 2, theme.MUTED,
                   bold=True)
        boxes = self._card_boxes(lay, view)
        if not boxes:
            line = ("none yet: they come with city improvements, when the event die shows a gate"
                    if me == self.me or self.names is None else "no progress cards")
            for k, part in enumerate(wrap_lines(line, small, inner.w, 3)):
                paint.text(surface, part, (inner.x, inner.y + px + 4 + k * (small + 2)), small, theme.MUTED)
            return
        for card, box in boxes:
            self._progress_card(surface, box, card, cards.count(card), small)
            if self._lit(("card", card, box), view):
                _outline(surface, box, 3)

    def _progress_card(self, surface: pygame.Surface, card: pygame.Rect, name: str, count: int, small: int) -> None:
        deck = DECK_OF[name]
        colour = TRACK_COLOURS[deck]
        radius = max(3, card.w // 7)
        pygame.draw.rect(surface, (0, 0, 0), card.move(1, 2), border_radius=radius)
        pygame.draw.rect(surface, paint.IVORY, card, border_radius=radius)
        textfit.box(card, "card")
        band = pygame.Rect(card.x, card.y, card.w, max(8, card.h // 5))
        pygame.draw.rect(surface, colour, band, border_top_left_radius=radius, border_top_right_radius=radius)
        pygame.draw.rect(surface, paint.darker(colour, 0.4), card, 1, border_radius=radius)
        size = max(theme.min_size(), min(small, round(card.w / 4.4)))
        if theme.font(size).size(deck)[0] <= card.w - 4:   # else the band's colour alone says the deck ("polit…")
            paint.text(surface, deck, band.center, size, TRACK_INK[deck], anchor="center")
        y = band.bottom + 3
        lines = [piece for word in card_words(name).split(" ") for piece in paint.broken(word, size, card.w - 4, True)]
        for word in lines[:4]:
            paint.text(surface, paint.fit(word, size, card.w - 4), (card.centerx, y), size, paint.INK, bold=True,
                       anchor="midtop")
            y += theme.font(size, True).get_linesize()
        room = card.bottom - size - 6 - y
        if room > 10:
            self._card_icon(surface, name, (card.centerx, y + room // 2), min(card.w // 4, room // 2 - 1), colour)
        if count > 1:
            paint.text(surface, f"x{count}", (card.centerx, card.bottom - 2), size, RED_NUMBER, bold=True,
                       anchor="midbottom")

    @staticmethod
    def _card_icon(surface: pygame.Surface, name: str, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
        """A small picture per kind of card: a knight, a gate, a ship, a coin..."""
        if r < 4:
            return
        if name in ("warlord", "smith", "deserter", "intrigue"):
            knight(surface, centre, r, colour, 2, True)
        elif name in ("printer", "constitution"):
            points = [paint.polar(centre, -math.pi / 2 + k * math.pi / 5, r if k % 2 == 0 else r * 0.45)
                      for k in range(10)]
            pygame.draw.polygon(surface, colour, points)
        elif name in ("merchantfleet", "commercialharbor"):
            ship(surface, centre, r, colour)
        elif name == "merchant":
            merchant(surface, centre, r, colour)
        elif name in ("resourcemonopoly", "trademonopoly", "mastermerchant", "wedding", "saboteur", "bishop", "spy"):
            pygame.draw.circle(surface, colour, centre, r)
            pygame.draw.circle(surface, paint.darker(colour, 0.5), centre, r, 1)
            pygame.draw.circle(surface, paint.lighter(colour, 0.4), centre, max(2, r // 2), 1)
        else:
            gate(surface, centre, r, colour)

    # ------------------------------------------------------------------ the last move

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        parts = action.split(" ")
        lay = self._layout(rect, view)
        r = lay.radius
        width = max(2, round(r / 14))
        kinds = [self._next_kind(parts[:k]) for k in range(1, len(parts))]
        nodes = [int(p) for p, kind in zip(parts[1:], kinds, strict=True) if kind == "node" and p.isdigit()
                 and int(p) < 54]
        if nodes and parts[0] not in ("settle", "city"):
            for n in nodes:
                pygame.draw.circle(surface, theme.LAST_MOVE, lay.node(n), round(r * 0.36), width)
            return
        if parts[0] == "improve" and view.get("active") is not None:
            pygame.draw.rect(surface, theme.LAST_MOVE, lay.seats[view["active"]], width, border_radius=8)
            return
        if parts[0] == "play" and len(parts) >= 3 and parts[2][:1] == "h" and parts[2][1:].isdigit():
            for word in parts[2:]:
                if word[1:].isdigit() and int(word[1:]) < 19:
                    pygame.draw.polygon(surface, theme.LAST_MOVE, catan._hex_points(lay, int(word[1:]), 0.92), width)
            return
        super().mark(surface, rect, view, action, seat)
