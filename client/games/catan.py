"""Catan: the island of 19 hexes in its sea frame (terrain, number tokens with the 6 and 8 in red,
harbours with their piers), roads, settlements, cities and the robber in the players' colours; beside
it a card per seat (victory points, resource hand, development cards as backs with a count, knights,
road length, Longest Road and Largest Army), the bank and the development deck; above it the dice and
the step; below it the viewer's own hand with its development cards face up, the card composer and
the trade offer with its answers.

Clicks give the very tokens of the action texts (docs/rules/catan.md, "Actions and notation"): a node its
number (`settle 12`, `city 12`), an edge its number (`road 19`), a hex `h<k>` (`robber h5`), a seat
card the seat (`steal 2`, `confirm 2`, `... to 2`), the dice `roll`, the deck `buy`, an own
development card its name (`play knight`), a bank resource its name after `play monopoly`. Nodes and
edges share bare numbers, so a click names the verb too (`road 19`) unless the number alone can only
mean that place. Card multisets (discards, offers, year of plenty, maritime trades) are put together
in the composer (+/- per resource, then ok), or chosen whole from the table's list, where `label`
names them in words. What is lit is exactly what a prefix of a `legal()` text allows: the table
passes the legal texts in the view (`_legal`), and nothing here decides a rule.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import pygame

from client.games import paint
from client.points import own_points, shown_points
from client.ui import textfit, theme
from client.ui.widgets import wrap
from engines.catan.board import EDGES, HEX_NODES, NODE_HEXES, NODE_XY, hex_centre
from engines.catan.cards import RESOURCES, multiset_text, parse_multiset

SQRT3_2 = math.sqrt(3) / 2
# the island with its harbours, in hex radii: the sea frame is a flat-topped hexagon of this half size
HALF_W, HALF_H = 5.35, 4.7

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


# ---------------------------------------------------------------------- layout


@dataclass(slots=True)
class Layout:
    header: pygame.Rect
    island: pygame.Rect
    strip: pygame.Rect
    side: pygame.Rect
    seats: list[pygame.Rect]
    bank: pygame.Rect
    centre: tuple[float, float]
    radius: float
    dice: pygame.Rect
    hand: pygame.Rect           # left of the strip: the hand, or the composer
    cards: pygame.Rect          # right of the strip: development cards, or the offer
    band: pygame.Rect           # a row between the header and the island (empty in the base game)
    spots: dict[tuple, pygame.Rect] = field(default_factory=dict)   # clickable boxes outside the island

    def at(self, x: float, y: float) -> tuple[int, int]:
        """Screen position of the spec's drawing coordinates (X, Y)."""
        r = self.radius
        return round(self.centre[0] + x * SQRT3_2 * r), round(self.centre[1] + y * 0.5 * r)

    def node(self, n: int) -> tuple[int, int]:
        return self.at(*NODE_XY[n])

    def hex(self, h: int) -> tuple[int, int]:
        return self.at(*hex_centre(h))

    def edge(self, e: int) -> tuple[tuple[int, int], tuple[int, int]]:
        a, b = EDGES[e]
        return self.node(a), self.node(b)

    def frame(self) -> list[tuple[int, int]]:
        """The sea frame: a flat-topped hexagon around the island."""
        cx, cy = self.centre
        w, h = HALF_W * self.radius, HALF_H * self.radius
        return [(round(cx + dx), round(cy + dy)) for dx, dy in
                ((-w / 2, -h), (w / 2, -h), (w, 0), (w / 2, h), (-w / 2, h), (-w, 0))]


def layout(rect: pygame.Rect, players: int, px: int, band: float = 0, bank: float = 4.6, dice: int = 2) -> Layout:
    """The board's parts; `band` (in font sizes) a row above the island, `bank` the bank's height,
    `dice` how many dice the header shows."""
    pad = max(6, px // 3)
    side_w = max(190, min(int(rect.w * 0.34), px * 17))
    side = pygame.Rect(rect.right - side_w - pad, rect.y + pad, side_w, rect.h - 2 * pad)
    left = pygame.Rect(rect.x + pad, rect.y + pad, side.x - rect.x - 2 * pad, rect.h - 2 * pad)
    header = pygame.Rect(left.x, left.y, left.w, round(px * 2.1))
    strip_h = max(round(px * 6.4), int(left.h * 0.24))
    strip = pygame.Rect(left.x, left.bottom - strip_h, left.w, strip_h)
    band_rect = pygame.Rect(left.x, header.bottom + pad // 2, left.w, round(px * band))
    top = band_rect.bottom + (pad // 2 if band else 0)
    island = pygame.Rect(left.x, top, left.w, strip.y - top - (pad - pad // 2))
    radius = min(island.w / (2 * HALF_W + 0.1), island.h / (2 * HALF_H + 0.1))
    centre = (island.centerx, island.centery)
    bank_h = round(px * bank)
    bank_rect = pygame.Rect(side.x, side.bottom - bank_h, side.w, bank_h)
    gap = max(4, px // 4)
    seat_h = (bank_rect.y - side.y - gap * players) // players
    seats = [pygame.Rect(side.x, side.y + k * (seat_h + gap), side.w, seat_h) for k in range(players)]
    size = round(px * 1.7)
    dice_rect = pygame.Rect(header.x + 4, header.centery - size // 2, dice * size + (dice - 1) * gap, size)
    split = strip.x + int(strip.w * 0.56)
    hand = pygame.Rect(strip.x, strip.y, split - strip.x - gap // 2, strip.h)
    cards = pygame.Rect(split + gap // 2, strip.y, strip.right - split - gap // 2, strip.h)
    return Layout(header, island, strip, side, seats, bank_rect, centre, radius, dice_rect, hand, cards, band_rect)


# ---------------------------------------------------------------------- pieces


def settlement(surface: pygame.Surface, centre: tuple[int, int], size: int, colour: paint.Colour) -> None:
    """A little house: square body, pitched roof."""
    x, y = centre
    s = size
    points = [(x - s, y + s), (x - s, y - s // 3), (x, y - s - s // 3), (x + s, y - s // 3), (x + s, y + s)]
    pygame.draw.polygon(surface, (0, 0, 0), [(px + 1, py + 2) for px, py in points])
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, paint.darker(colour, 0.6), points, max(1, s // 4))


def city_points(centre: tuple[int, int], size: int) -> list[tuple[int, int]]:
    """The outline of a city: a house with a tower."""
    x, y = centre
    s = size
    return [(x - 2 * s, y + s), (x - 2 * s, y - s // 3), (x - s, y - s - s // 3), (x, y - s // 3),
            (x + s // 3, y - s // 3), (x + s // 3, y - 2 * s), (x + 2 * s, y - 2 * s), (x + 2 * s, y + s)]


def city(surface: pygame.Surface, centre: tuple[int, int], size: int, colour: paint.Colour) -> None:
    """A house with a tower: wider and taller than a settlement."""
    s = size
    points = city_points(centre, size)
    pygame.draw.polygon(surface, (0, 0, 0), [(px + 1, py + 2) for px, py in points])
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, paint.darker(colour, 0.6), points, max(1, s // 4))


def road(surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], width: int, colour: paint.Colour) -> None:
    """A road: a thick bar along the edge, short of the corners so buildings stay clear."""
    (ax, ay), (bx, by) = a, b
    inset = 0.16
    p = (ax + (bx - ax) * inset, ay + (by - ay) * inset)
    q = (bx + (ax - bx) * inset, by + (ay - by) * inset)
    pygame.draw.line(surface, paint.darker(colour, 0.6), p, q, width + 4)
    pygame.draw.line(surface, colour, p, q, width)


def robber(surface: pygame.Surface, centre: tuple[int, int], size: int) -> None:
    """The robber: a dark pawn."""
    x, y = centre
    body = [(x - size * 0.55, y + size), (x + size * 0.55, y + size), (x + size * 0.35, y - size * 0.1),
            (x - size * 0.35, y - size * 0.1)]
    pygame.draw.ellipse(surface, (0, 0, 0), (x - size * 0.7, y + size * 0.7, size * 1.4, size * 0.55))
    pygame.draw.polygon(surface, (48, 44, 48), body)
    pygame.draw.circle(surface, (48, 44, 48), (x, round(y - size * 0.45)), max(3, round(size * 0.42)))
    pygame.draw.circle(surface, (110, 104, 110), (round(x - size * 0.12), round(y - size * 0.58)),
                       max(1, round(size * 0.12)))
    pygame.draw.polygon(surface, (16, 14, 16), body, 1)


def glyph(surface: pygame.Surface, resource: str, centre: tuple[int, int], r: int, ink: paint.Colour) -> None:
    """A small picture of a resource, so the cards tell apart before the words are read."""
    x, y = centre
    if r < 4:
        return
    if resource == "brick":
        for row in range(2):
            for col in range(2):
                box = pygame.Rect(x - r + col * r + (row * r // 2) - r // 4, y - r // 2 + row * (r // 2 + 1), r - 1,
                                  r // 2)
                pygame.draw.rect(surface, ink, box, 1)
    elif resource == "lumber":
        pygame.draw.polygon(surface, ink, [(x, y - r), (x - r * 2 // 3, y + r // 3), (x + r * 2 // 3, y + r // 3)], 2)
        pygame.draw.line(surface, ink, (x, y + r // 3), (x, y + r), 2)
    elif resource == "wool":
        for dx, dy in ((-r // 2, 0), (0, -r // 3), (r // 2, 0), (0, r // 3)):
            pygame.draw.circle(surface, ink, (x + dx, y + dy), max(2, r // 2), 1)
    elif resource == "grain":
        pygame.draw.line(surface, ink, (x, y + r), (x, y - r), 2)
        for k in range(3):
            yy = y - r + k * r // 2 + 2
            pygame.draw.line(surface, ink, (x, yy + r // 3), (x - r // 2, yy), 2)
            pygame.draw.line(surface, ink, (x, yy + r // 3), (x + r // 2, yy), 2)
    elif resource == "ore":
        pygame.draw.polygon(surface, ink, [(x - r, y + r * 2 // 3), (x - r // 3, y - r * 2 // 3), (x + r // 4, y),
                                           (x + r // 2, y - r // 3), (x + r, y + r * 2 // 3)], 2)


def dev_icon(surface: pygame.Surface, name: str, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    """A picture per development card: shield, coins, roads, two cards, a star."""
    x, y = centre
    if r < 4:
        return
    if name == "knight":
        shield = [(x - r, y - r), (x + r, y - r), (x + r, y), (x, y + r * 5 // 4), (x - r, y)]
        pygame.draw.polygon(surface, colour, shield)
        pygame.draw.line(surface, paint.IVORY, (x, y - r + 3), (x, y + r - 2), max(2, r // 4))
        pygame.draw.line(surface, paint.IVORY, (x - r + 3, y - r // 3), (x + r - 3, y - r // 3), max(2, r // 4))
    elif name == "monopoly":
        for k in range(3):
            coin = pygame.Rect(x - r, y + r // 2 - k * (r // 2), 2 * r, r // 2 + 2)
            pygame.draw.ellipse(surface, paint.darker(colour, 0.2), coin)
            pygame.draw.ellipse(surface, (214, 176, 60), coin.move(0, -2))
    elif name == "roadbuilding":
        for dx in (-r // 2, r // 2):
            road(surface, (x + dx - r // 2, y + r), (x + dx + r // 2, y - r), max(2, r // 3), colour)
    elif name == "yearofplenty":
        for k, tint in enumerate(((232, 196, 70), (46, 116, 58))):
            box = pygame.Rect(x - r + k * r // 2, y - r + k * r // 3, r * 3 // 2 - 2, r * 2 - r // 3)
            pygame.draw.rect(surface, tint, box, border_radius=2)
            pygame.draw.rect(surface, paint.INK, box, 1, border_radius=2)
    elif name == "victorypoint":
        points = [paint.polar(centre, -math.pi / 2 + k * math.pi / 5, r if k % 2 == 0 else r * 0.45) for k in range(10)]
        pygame.draw.polygon(surface, colour, points)


def card_back(surface: pygame.Surface, rect: pygame.Rect, colour: paint.Colour = (96, 60, 120)) -> None:
    """A face-down card (the development deck's purple, or a deck's own colour)."""
    radius = max(2, rect.w // 6)
    pygame.draw.rect(surface, (0, 0, 0), rect.move(1, 2), border_radius=radius)
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    inner = rect.inflate(-max(2, rect.w // 4), -max(2, rect.w // 4))
    pygame.draw.rect(surface, paint.lighter(colour, 0.35), inner, 1, border_radius=radius)
    pygame.draw.rect(surface, paint.darker(colour, 0.55), rect, 1, border_radius=radius)


# ---------------------------------------------------------------------- the renderer


class Renderer:
    #: tokens the table adds by itself when they are the only way on (`trade 4brick` *for* ...)
    fillers = frozenset({"for", "to"})
    #: the card types of a hand in the notation's order (hand, composer, seat chips, bank), their colours
    kinds: tuple[str, ...] = RESOURCES
    colours: dict[str, paint.Colour] = RESOURCE_COLOURS
    inks: dict[str, paint.Colour] = RESOURCE_INK
    glyph = staticmethod(glyph)
    dice = 2

    def __init__(self) -> None:
        self.backdrop = paint.StaticLayer()
        self.px = 20
        self.chosen: list[str] = []
        self.highlights: set[str] = set()
        self.names: list[str] | None = None
        self.me: int | None = None
        self._legal_src: list[str] | None = None
        self._split: list[list[str]] = []
        self._prefixes: set[tuple[str, ...]] = set()
        self._verbs_memo: dict[tuple[str, ...], dict[str, set[str]]] = {}
        self.draft = [0] * len(self.kinds)
        self._draft_key: tuple | None = None

    # ------------------------------------------------------------------ the legal texts as prefixes

    def _take_legal(self, legal: list[str] | None) -> None:
        if legal is None:
            legal = []
        if legal is self._legal_src:
            return
        self._legal_src = legal
        self._split = [a.split(" ") for a in legal]
        self._prefixes = {tuple(parts[:k]) for parts in self._split for k in range(1, len(parts) + 1)}
        self._verbs_memo = {}

    def _allowed(self, tokens: list[str]) -> bool:
        """Some legal text starts with `tokens`."""
        return tuple(tokens) in self._prefixes

    def _verbs_before(self, chosen: list[str], token: str) -> set[str]:
        """The tokens that may come between `chosen` and `token` (the verbs a bare number may follow)."""
        key = tuple(chosen)
        memo = self._verbs_memo.get(key)
        if memo is None:
            n = len(chosen)
            memo = {}
            for parts in self._split:
                if len(parts) > n + 1 and parts[:n] == chosen:
                    memo.setdefault(parts[n + 1], set()).add(parts[n])
            self._verbs_memo[key] = memo
        return memo.get(token, set())

    def _candidates(self, tokens: list[str] | None = None) -> list[str]:
        """The tokens that may follow `tokens` (the chosen ones), memoised per legal list and choice."""
        tokens = self.chosen if tokens is None else tokens
        key = ("next", *tokens)
        memo = self._verbs_memo.get(key)
        if memo is None:
            n = len(tokens)
            seen: dict[str, set[str]] = {}
            for parts in self._split:
                if len(parts) > n and parts[:n] == tokens:
                    seen.setdefault(parts[n], set())
            memo = self._verbs_memo[key] = seen
        return list(memo)

    def _tray_base(self) -> list[str]:
        """The tokens before the card multiset being put together: the chosen ones, plus the verb when
        it is the only one and cards follow it (a discard needs no click on `discard` first)."""
        following = self._candidates()
        if len(following) == 1 and not is_cards(following[0]):
            base = [*self.chosen, following[0]]
            if any(is_cards(c) for c in self._candidates(base)):
                return base
        return self.chosen

    # ------------------------------------------------------------------ places and what a click there means

    def _places(self, lay: Layout, view: dict) -> list[tuple]:
        """Every clickable place, most specific first: (kind, key, shape)."""
        places: list[tuple] = [(kind, key, rect) for (kind, key), rect in lay.spots.items()]
        r = lay.radius
        places += [("node", n, ("circle", lay.node(n), r * 0.3)) for n in range(54)]
        places += [("edge", e, ("segment", *lay.edge(e), r * 0.17)) for e in range(72)]
        places += [("hex", h, ("circle", lay.hex(h), r * 0.75)) for h in range(19)]
        return places

    def _intent(self, place: tuple, view: dict) -> list[str] | None:
        """The tokens a click on `place` stands for, from the first (the verb) on."""
        kind, key = place[0], place[1]
        chosen = self.chosen
        if kind == "node":
            for verb in ("settle", "city"):
                if self._allowed([verb, str(key)]):
                    return [verb, str(key)]
            owner = view.get("nodes", {}).get(str(key))
            own = owner is not None and owner[0] == view.get("seat") and owner[1] == "settlement"
            return ["city" if own else "settle", str(key)]
        if kind == "edge":
            return ["road", str(key)]
        if kind == "hex":
            return ["robber", f"h{key}"]
        if kind == "seat":
            if chosen and chosen[-1] == "to":
                return [*chosen, str(key)]
            for verb in ("steal", "confirm"):
                if self._allowed([verb, str(key)]):
                    return [verb, str(key)]
            return None
        if kind == "bank":
            return ["play", "monopoly", key] if chosen[:2] == ["play", "monopoly"] else None
        if kind == "tokens":
            return list(key)
        if kind == "ok":
            text = self._draft_text()
            return [*self._tray_base(), text] if text else None
        return None

    def _click_text(self, intent: list[str] | None) -> str | None:
        """What the table should push for a click meaning `intent`: the part after the tokens chosen
        so far; without the verb when the bare token can only mean this (the table inserts it)."""
        if not intent:
            return None
        n = len(self.chosen)
        if intent[:n] != self.chosen:
            return " ".join(intent)  # another verb than the one chosen: the table says why not
        rest = intent[n:]
        if not rest:
            return None
        if (len(rest) >= 2 and rest[1] in self.highlights and self._verbs_before(self.chosen, rest[1]) == {rest[0]}
                and rest[1] not in self._candidates()):  # a bare word that is itself a verb would mean that verb
            return " ".join(rest[1:])
        return " ".join(rest)

    def _lit(self, place: tuple, view: dict) -> bool:
        if place[0] in ("plus", "minus"):
            return self._tray_step(place) is not None
        intent = self._intent(place, view)
        n = len(self.chosen)
        return bool(intent) and len(intent) > n and intent[:n] == self.chosen and self._allowed(intent)

    @staticmethod
    def _contains(shape, pos: tuple[int, int]) -> bool:
        if isinstance(shape, pygame.Rect):
            return shape.collidepoint(pos)
        if shape[0] == "circle":
            (x, y), r = shape[1], shape[2]
            return (pos[0] - x) ** 2 + (pos[1] - y) ** 2 <= r * r
        (ax, ay), (bx, by), width = shape[1], shape[2], shape[3]
        dx, dy = bx - ax, by - ay
        length = dx * dx + dy * dy or 1
        t = ((pos[0] - ax) * dx + (pos[1] - ay) * dy) / length
        if not 0.2 <= t <= 0.8:
            return False
        cx, cy = ax + t * dx, ay + t * dy
        return (pos[0] - cx) ** 2 + (pos[1] - cy) ** 2 <= width * width

    @staticmethod
    def _centre(shape) -> tuple[int, int]:
        if isinstance(shape, pygame.Rect):
            return shape.center
        if shape[0] == "circle":
            return shape[1]
        return (shape[1][0] + shape[2][0]) // 2, (shape[1][1] + shape[2][1]) // 2

    def _layout(self, rect: pygame.Rect, view: dict) -> Layout:
        lay = layout(rect, len(view["hands"]), self.px, dice=self.dice)
        self._place_spots(lay, view)
        return lay

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        """Where one click gives exactly `token` now (for tests and hints)."""
        lay = self._layout(rect, view)
        for place in self._places(lay, view):
            if place[0] in ("plus", "minus"):
                continue
            if self._lit(place, view) and self._click_text(self._intent(place, view)) == token:
                return self._centre(place[2])
        return None

    def clicks(self, rect: pygame.Rect, view: dict, token: str) -> list[tuple[int, int]] | None:
        """The clicks that put card multiset `token` together in the composer (the last one gives it)."""
        lay = self._layout(rect, view)
        wanted = parse_multiset(token, self.kinds) if is_cards(token) else None
        options = self._tray_options()
        if wanted is None or options is None or tuple(wanted) not in options:
            return None
        draft = list(self.draft)
        out = []
        for t, name in enumerate(self.kinds):
            while draft[t] > wanted[t]:
                out.append(lay.spots[("minus", name)].center)
                draft[t] -= 1
        for t, name in enumerate(self.kinds):
            while draft[t] < wanted[t]:
                out.append(lay.spots[("plus", name)].center)
                draft[t] += 1
        if not out or not self._maximal(tuple(wanted), options):
            out.append(lay.spots[("ok", "")].center)
        return out

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = self._layout(rect, view)
        inside = [p for p in self._places(lay, view) if self._contains(p[2], pos)]
        if not inside:
            return None
        lit = [p for p in inside if self._lit(p, view)]
        place = (lit or inside)[0]
        if place[0] == "plus":
            step = self._tray_step(place)
            if step is not None and self._maximal(step, self._tray_options() or set()):
                return self._click_text([*self._tray_base(), multiset_text(step, self.kinds)])
            return None  # the composer takes it (press)
        if place[0] == "minus":
            return None
        return self._click_text(self._intent(place, view))

    def press(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> bool:
        """A click the board keeps for itself: a composer's + or - (True if it took the click)."""
        lay = self._layout(rect, view)
        for place in self._places(lay, view):
            if place[0] in ("plus", "minus") and self._contains(place[2], pos):
                step = self._tray_step(place)
                if step is not None:
                    self.draft = list(step)
                return True
        return False

    # ------------------------------------------------------------------ the composer of card multisets

    def _tray_options(self) -> set[tuple[int, ...]] | None:
        """The multisets that may come next (None when the next token is no multiset); resets the
        draft when the choice changed."""
        base = self._tray_base()
        key = ("tray", *base)
        parsed = self._verbs_memo.get(key)
        if parsed is None:
            parsed = {tuple(parse_multiset(c, self.kinds) or ()) for c in self._candidates(base) if is_cards(c)}
            parsed.discard(())
            self._verbs_memo[key] = parsed
        if not parsed:
            return None
        key = (tuple(base), self._legal_src is not None and id(self._legal_src))
        if key != self._draft_key:
            self._draft_key = key
            self.draft = [0] * len(self.kinds)
        return parsed

    def _tray_step(self, place: tuple) -> tuple[int, ...] | None:
        """The draft after a + or - on `place`, if some option still fits it."""
        options = self._tray_options()
        if options is None:
            return None
        t = self.kinds.index(place[1])
        draft = list(self.draft)
        if place[0] == "minus":
            if draft[t] == 0:
                return None
            draft[t] -= 1
            return tuple(draft)
        draft[t] += 1
        if any(all(o[i] >= draft[i] for i in range(len(draft))) for o in options):
            return tuple(draft)
        return None

    @staticmethod
    def _maximal(cards: tuple[int, ...], options: set[tuple[int, ...]]) -> bool:
        """`cards` is an option and no other option holds it: nothing more can be added."""
        return cards in options and not any(o != cards and all(o[i] >= cards[i] for i in range(len(o)))
                                            for o in options)

    def _draft_text(self) -> str | None:
        options = self._tray_options()
        if options is None or tuple(self.draft) not in options:
            return None
        return multiset_text(tuple(self.draft), self.kinds)

    # ------------------------------------------------------------------ words

    def _who(self, view: dict, seat: int) -> str:
        names = {"_names": self.names, "_me": self.me, "seat": view.get("seat")} if self.names is not None else view
        return paint.seat_label(names, seat, PIECE_NAMES[seat % 4])

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list."""
        verb = chosen[0] if chosen else token
        if not chosen:
            return VERB_WORDS.get(token)
        if token in ("for", "to"):
            return token
        if verb in ("settle", "city") and token.isdigit():
            hexes = ", ".join(_hex_words(view, h) for h in NODE_HEXES[int(token)])
            return f"node {token} ({hexes})"
        if verb == "road" and token.isdigit():
            a, b = EDGES[int(token)]
            return f"edge {token} (nodes {a}-{b})"
        if verb == "robber" and token.startswith("h"):
            return _hex_words(view, int(token[1:]))
        if verb in ("steal", "confirm") and token.isdigit():
            word = "rob" if verb == "steal" else "trade with"
            return f"{word} {self._who(view, int(token))}"
        if verb == "offer" and chosen[-1] == "to":
            return "to everybody" if token == "all" else f"to {self._who(view, int(token))}"
        if verb == "play" and len(chosen) == 1:
            return DEV_WORDS.get(token, token)
        if verb == "play" and chosen[1:] == ["monopoly"]:
            return f"all {token} of the others"
        if verb in ("claim", "reveal") and token.isdigit():
            k = int(token)
            return f"{'claim victory, showing' if verb == 'claim' else 'reveal'} {k} victory point card{'s' * (k != 1)}"
        if is_cards(token):
            return cards_words(token)  # the chosen verb stands above the list
        return None

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.px = px
        self.chosen = list(chosen)
        self.highlights = set(highlights)
        if "_names" in view:
            self.names, self.me = view.get("_names"), view.get("_me")
        self._take_legal(view.get("_legal"))
        lay = self._layout(rect, view)
        layout_key = (tuple((h["terrain"], h["number"]) for h in view["hexes"]),
                      tuple(h["type"] for h in view["harbours"]))
        backdrop = self.backdrop.get((rect.size, px, layout_key), rect.size,
                                     lambda s: self._paint_island(s, rect, lay, view))
        surface.blit(backdrop, rect.topleft)
        self._draw_pieces(surface, lay, view)
        self._draw_lit(surface, lay, view)
        self._draw_header(surface, lay, view)
        for seat in range(len(view["hands"])):
            self._draw_seat(surface, lay, view, seat)
        self._draw_bank(surface, lay, view)
        self._draw_hand(surface, lay, view)
        self._draw_cards(surface, lay, view)
        self._draw_over(surface, lay, view)

    def _draw_over(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """Drawn last, over everything else (nothing on the base table)."""

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        """Another seat's last move (or the replay's current one), outlined where it happened."""
        lay = self._layout(rect, view)
        parts = action.split(" ")
        r = lay.radius
        width = max(2, round(r / 14))
        if len(parts) == 2 and parts[0] in ("settle", "city") and parts[1].isdigit() and int(parts[1]) < 54:
            pygame.draw.circle(surface, theme.LAST_MOVE, lay.node(int(parts[1])), round(r * 0.36), width)
        elif len(parts) == 2 and parts[0] == "road" and parts[1].isdigit() and int(parts[1]) < 72:
            a, b = lay.edge(int(parts[1]))
            _outline_segment(surface, a, b, theme.LAST_MOVE, r * 0.2, width)
        elif len(parts) == 2 and parts[0] == "robber" and parts[1][1:].isdigit() and int(parts[1][1:]) < 19:
            pygame.draw.polygon(surface, theme.LAST_MOVE, _hex_points(lay, int(parts[1][1:]), 0.92), width)
        elif parts[0] in ("steal", "confirm") and len(parts) == 2 and parts[1].isdigit():
            seat = int(parts[1])
            if seat < len(lay.seats):
                pygame.draw.rect(surface, theme.LAST_MOVE, lay.seats[seat], width, border_radius=8)
        elif parts[0] == "roll":
            pygame.draw.rect(surface, theme.LAST_MOVE, lay.dice.inflate(8, 8), width, border_radius=6)

    # the spots outside the island: where they lie depends on the view (cards held, an offer, the composer)

    def _place_spots(self, lay: Layout, view: dict) -> None:
        px = self.px
        lay.spots[("tokens", ("roll",))] = lay.dice
        for seat, box in enumerate(lay.seats):
            lay.spots[("seat", seat)] = box
        chip_w, chip_h, y = self._bank_chips(lay)
        for t, name in enumerate(self.kinds):
            lay.spots[("bank", name)] = pygame.Rect(lay.bank.x + px // 2 + t * (chip_w + 4), y, chip_w, chip_h)
        self._card_spots(lay, view)
        if self._tray_options() is not None:
            for name, (plus, minus) in self._tray_buttons(lay).items():
                lay.spots[("plus", name)] = plus
                lay.spots[("minus", name)] = minus
            lay.spots[("ok", "")] = self._ok_rect(lay)
        if view.get("offer") is not None:
            for tokens, box in self._offer_buttons(lay, view):
                lay.spots[("tokens", tokens)] = box
        elif self.chosen[:1] == ["offer"] and self.chosen[-1] == "to":
            lay.spots[("tokens", (*self.chosen, "all"))] = self._everybody_rect(lay)

    def _card_spots(self, lay: Layout, view: dict) -> None:
        """The deck to buy from and the viewer's development cards to play."""
        lay.spots[("tokens", ("buy",))] = self._deck_rect(lay)
        me = view.get("seat")
        if me is not None and 0 <= me < len(view["dev"]):
            for name, box in self._dev_boxes(lay, view, me):
                lay.spots[("tokens", ("play", name))] = box

    # ------------------------------------------------------------------ the island

    def _paint_island(self, s: pygame.Surface, rect: pygame.Rect, lay: Layout, view: dict) -> None:
        off = (-rect.x, -rect.y)

        def shift(points):
            return [(x + off[0], y + off[1]) for x, y in points]

        r = lay.radius
        frame = lay.frame()
        pygame.draw.polygon(s, paint.darker(FRAME, 0.4), shift([(x + 3, y + 5) for x, y in frame]))
        pygame.draw.polygon(s, FRAME, shift(frame))
        sea = [(round(lay.centre[0] + (x - lay.centre[0]) * 0.965), round(lay.centre[1] + (y - lay.centre[1]) * 0.955))
               for x, y in frame]
        pygame.draw.polygon(s, SEA, shift(sea))
        # waves
        step = max(10, round(r * 0.55))
        wave = paint.lighter(SEA, 0.15)
        box = pygame.Rect(shift([lay.island.topleft])[0], lay.island.size)
        for k, gy in enumerate(range(box.y, box.bottom, step)):
            for gx in range(box.x + (k % 2) * step // 2, box.right, step):
                if _inside_polygon((gx - off[0], gy - off[1]), sea):
                    pygame.draw.arc(s, wave, (gx, gy, step // 2, step // 4), 0.4, math.pi - 0.4, 1)
        # a sandy coast under the land
        for h in range(19):
            pygame.draw.polygon(s, SAND, shift(_hex_points(lay, h, 1.09)))
        # harbours: a dock in the sea with piers to its two nodes
        for harbour in view["harbours"]:
            a, b = harbour["nodes"]
            pa, pb = lay.node(a), lay.node(b)
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            land = lay.hex(_edge_hex(a, b))
            away = (mid[0] - land[0], mid[1] - land[1])
            norm = math.hypot(*away) or 1
            spot = (round(mid[0] + away[0] / norm * r * 0.5), round(mid[1] + away[1] / norm * r * 0.5))
            for end in (pa, pb):
                pygame.draw.line(s, paint.darker(FRAME, 0.2), shift([spot])[0], shift([end])[0], max(3, round(r / 9)))
            kind = harbour["type"]
            colour = RESOURCE_COLOURS.get(kind, paint.IVORY)
            rr = max(7, round(r * 0.27))
            centre = shift([spot])[0]
            paint.disc(s, centre, rr, colour, rim=paint.darker(FRAME, 0.5))
            words = "3:1" if kind == "3:1" else "2:1" if kind else "?"
            ink = RESOURCE_INK.get(kind, paint.INK)
            paint.text(s, words, (centre[0], centre[1] - (rr // 3 if kind not in ("3:1", None) else 0)),
                       max(10, round(rr * 0.95)), ink, bold=True, anchor="center")
            if kind not in ("3:1", None):
                glyph(s, kind, (centre[0], centre[1] + rr // 2), max(3, rr // 3), ink)
        # terrain
        for hexinfo in view["hexes"]:
            h = hexinfo["hex"]
            terrain = hexinfo["terrain"]
            colour = TERRAIN.get(terrain, TERRAIN[None])
            points = shift(_hex_points(lay, h, 0.97))
            pygame.draw.polygon(s, colour, points)
            pygame.draw.polygon(s, paint.darker(colour, 0.35), points, max(1, round(r / 18)))
            centre = shift([lay.hex(h)])[0]
            _texture(s, terrain, centre, r, colour)
            number = hexinfo["number"]
            label_at = (centre[0], centre[1] + round(r * 0.62))
            paint.text(s, f"h{h}", label_at, max(9, round(r * 0.24)), paint.darker(colour, 0.55), anchor="center")
            if number:
                tr = max(8, round(r * 0.34))
                pygame.draw.circle(s, (0, 0, 0), (centre[0] + 1, centre[1] + 2), tr)
                pygame.draw.circle(s, (244, 232, 200), centre, tr)
                pygame.draw.circle(s, (120, 100, 70), centre, tr, 1)
                hot = number in (6, 8)
                ink = RED_NUMBER if hot else paint.INK
                size = max(10, round(tr * (1.2 if hot else 1.05)))
                paint.text(s, str(number), (centre[0], centre[1] - tr // 6), size, ink, bold=True, anchor="center")
                dots = PIPS.get(number, 0)
                dr = max(1, tr // 9)
                for k in range(dots):
                    dot = (centre[0] + round((k - (dots - 1) / 2) * dr * 3), centre[1] + tr * 3 // 5)
                    pygame.draw.circle(s, ink, dot, dr)
            elif terrain == "desert":
                at = (centre[0] + round(r * 0.12), centre[1] + round(r * 0.3))
                paint.text(s, "desert", at, max(9, round(r * 0.26)), paint.darker(colour, 0.5), anchor="center")

    def _draw_pieces(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        self._draw_roads(surface, lay, view)
        self._draw_buildings(surface, lay, view)
        self._draw_robber(surface, lay, view)

    def _draw_roads(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        width = max(3, round(lay.radius * 0.13))
        for e, owner in view["roads"].items():
            a, b = lay.edge(int(e))
            road(surface, a, b, width, piece_colour(owner))

    def _draw_buildings(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        size = max(4, round(lay.radius * 0.17))
        for n, (owner, kind) in view["nodes"].items():
            centre = lay.node(int(n))
            (city if kind == "city" else settlement)(surface, centre, size, piece_colour(owner))

    def _draw_robber(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        r = lay.radius
        robbed = view.get("robber")
        if robbed is not None:
            x, y = lay.hex(robbed)
            robber(surface, (x - round(r * 0.5), y - round(r * 0.12)), max(6, round(r * 0.3)))

    def _draw_lit(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """What a click may choose now, and the half-built action."""
        r = lay.radius
        width = max(2, round(r / 13))
        grow = paint.pulse()
        for place in self._places(lay, view):
            kind = place[0]
            if kind in ("node", "edge", "hex") and not self._lit(place, view):
                continue
            if kind == "node":
                pygame.draw.circle(surface, theme.HILITE, place[2][1], round(r * (0.2 + 0.05 * grow)), width)
            elif kind == "edge":
                a, b = place[2][1], place[2][2]
                mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
                pygame.draw.circle(surface, theme.HILITE, mid, round(r * (0.12 + 0.04 * grow)))
                pygame.draw.circle(surface, paint.INK, mid, round(r * (0.12 + 0.04 * grow)), 1)
            elif kind == "hex":
                pygame.draw.circle(surface, theme.HILITE, place[2][1], round(r * (0.44 + 0.04 * grow)), width + 1)
        for k, token in enumerate(self.chosen[:-1] if self.chosen else []):
            verb = self.chosen[0]
            if k == 0:
                continue
            if verb in ("settle", "city") and token.isdigit():
                pygame.draw.circle(surface, theme.ACCENT, lay.node(int(token)), round(r * 0.3), width)

    # ------------------------------------------------------------------ around the island

    def _draw_header(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        dice = view.get("dice")
        self._draw_dice(surface, lay, view, self._lit(("tokens", ("roll",), lay.dice), view))
        x = lay.dice.right + px // 2
        width = lay.header.right - x
        step, detail = self._step_words(view)
        if dice:
            detail = f"{self._roll_words(view, dice)} - {detail}"
        hint = self._hint(lay, view)
        paint.text(surface, paint.fit(step, px, width, bold=True), (x, lay.header.y + 1), px, theme.TEXT, bold=True)
        paint.text(surface, paint.fit(hint or detail, px - 3, width), (x, lay.header.y + px + 3), px - 3,
                   theme.HILITE if hint else theme.MUTED)

    def _die_boxes(self, lay: Layout) -> list[pygame.Rect]:
        size = lay.dice.h
        gap = (lay.dice.w - self.dice * size) // max(1, self.dice - 1)
        return [pygame.Rect(lay.dice.x + k * (size + gap), lay.dice.y, size, size) for k in range(self.dice)]

    def _draw_dice(self, surface: pygame.Surface, lay: Layout, view: dict, lit: bool) -> None:
        dice = view.get("dice")
        for k, box in enumerate(self._die_boxes(lay)):
            paint.die(surface, box, dice[k] if dice else None, faded=dice is None,
                      body=(250, 236, 200) if not (dice and sum(dice) == 7) else (250, 200, 190))
            if lit:
                _outline(surface, box.inflate(4, 4), 3)

    def _roll_words(self, view: dict, dice: list[int]) -> str:
        return f"last roll {sum(dice)}" + (" (the robber moves)" if sum(dice) == 7 else "")

    #: what a lit place of each kind is called in the hint line (a place's kind, or a token spot's verb)
    hint_words: tuple[tuple[str, str], ...] = (
        ("node", "a lit corner"), ("edge", "a lit path"), ("hex", "a lit hex"), ("seat", "a lit player"),
        ("roll", "the dice"), ("buy", "the deck to buy"), ("play", "a lit card"), ("bank", "a lit resource"),
        ("accept", "accept or decline"), ("confirm", "a player to trade with"), ("cancel", "cancel"))

    def _hint(self, lay: Layout, view: dict) -> str:
        """What a click on the board does now, in words (empty when nothing here may be chosen)."""
        if not self._split:
            return ""
        if self._tray_options() is not None:
            return "put the cards together below with + and -, then ok (or pick them in the list)"
        kinds = {p[0] if p[0] != "tokens" else p[1][0] for p in self._places(lay, view) if self._lit(p, view)}
        words = list(dict.fromkeys(w for k, w in self.hint_words if k in kinds))
        if not words:
            return "choose on the right"
        return "click " + ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] + \
            (" - or choose on the right" if len(words) < 3 else "")

    def _step_words(self, view: dict) -> tuple[str, str]:
        step = view.get("step", "")
        to_act = view.get("to_act")
        who = self._who(view, to_act) if to_act is not None else ""
        result = view.get("result")
        limit = view.get("options", {}).get("max_rounds", "0")
        of = f" of {limit}" if limit != "0" else ""
        turn = f"round {view.get('round', 0)}{of}, turn {view.get('turn', 0)}"
        if result is not None:
            return "game over", turn
        words = self._step_phrase(view, step)
        if view.get("draw_offer") is not None:
            words = "answers the draw offer"
        return (f"{who} {words}" if who else words), turn

    def _step_phrase(self, view: dict, step: str) -> str:
        """What the seat to act does in `step`, after its name."""
        return {
            "setup-settle": "places a settlement", "setup-road": "places a road beside it",
            "pre-roll": "rolls (or plays a card first)", "discard": "discards half the hand",
            "robber": "moves the robber", "steal": "robs a player", "main": "builds, trades or ends the turn",
            "free-road": f"places free roads ({view.get('free_roads', 0)} left)", "respond": "answers the offer",
            "confirm": "chooses whom to trade with", "claim": "claims victory",
            "final-reveal": "reveals victory point cards",
        }.get(step, step)

    def _facts_row(self, surface: pygame.Surface, view: dict, seat: int, row: pygame.Rect, small: int) -> None:
        """Road length and knights played, then the pieces still in supply as little pieces with counts."""
        dev = view["dev"][seat]
        facts = f"road {view['longest_road']['lengths'][seat]}   knights {dev['knights_played']}"
        pieces = (view.get("pieces") or [None] * (seat + 1))[seat]
        colour = piece_colour(seat)
        icons = []
        if pieces:
            icons = [("settlement", pieces["settlements"]), ("city", pieces["cities"]), ("road", pieces["roads"])]
        size = max(3, small // 4)
        font = theme.font(small)
        widths = [size * 4 + 2 + font.size(str(k))[0] for _, k in icons]
        total = sum(widths) + 6 * len(icons)
        x = row.right - total
        text_room = x - row.x - 6
        if text_room < font.size("road 15")[0]:
            x, text_room = row.right + 1, row.w  # no room for the supply: the facts alone
        else:
            for (kind, count), w in zip(icons, widths, strict=True):
                centre = (x + size * 2, row.centery + 1)
                if kind == "settlement":
                    settlement(surface, centre, size, colour)
                elif kind == "city":
                    city(surface, (centre[0], centre[1] + size // 3), max(2, size * 2 // 3), colour)
                else:
                    road(surface, (centre[0] - size * 3, centre[1] + size), (centre[0] + size * 3, centre[1] - size),
                         max(2, size // 2 + 1), colour)
                paint.text(surface, str(count), (x + size * 4 + 2, row.centery), small, theme.MUTED, anchor="midleft")
                x += w + 6
        paint.text(surface, paint.fit(facts, small, text_room), (row.x, row.y), small, theme.MUTED)

    def _draw_seat(self, surface: pygame.Surface, lay: Layout, view: dict, seat: int) -> None:
        px = self.px
        box = lay.seats[seat]
        acting = seat == view.get("to_act") and view.get("result") is None
        edge = theme.HILITE if acting else theme.PANEL_EDGE
        paint.rounded_panel(surface, box, (30, 40, 54), edge, radius=8, alpha=240, width=3 if acting else 1)
        inner = box.inflate(-px // 2 - 4, -px // 3 - 2)
        small = max(10, px - 4)
        y = self._seat_title(surface, view, seat, inner)
        y = self._seat_chips(surface, view, seat, inner, y, small)
        y = self._seat_body(surface, view, seat, inner, y, small)
        # awards and state, on the last line
        x = inner.x
        if y + small <= inner.bottom + 2:
            for words_, tag_colour in self._seat_tags(view, seat):
                w = theme.font(small, True).size(words_)[0] + 8
                if x + w > inner.right:
                    break
                tag = pygame.Rect(x, y - 1, w, small + 2)
                pygame.draw.rect(surface, paint.darker(tag_colour, 0.55), tag, border_radius=4)
                paint.text(surface, words_, tag.center, small, paint.lighter(tag_colour, 0.3), bold=True,
                           anchor="center")
                x += w + 4
        if self._lit(("seat", seat, box), view):
            _outline(surface, box, 3)

    def _seat_vp(self, view: dict, seat: int) -> str:
        """Public points plus the victory point cards shown at the end; the viewer's own total in brackets."""
        vp = shown_points(view, seat)
        hidden_vp = own_points(view, seat)
        return f"{vp} VP" + (f" ({hidden_vp})" if hidden_vp is not None and hidden_vp != vp else "")

    def _seat_title(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect) -> int:
        """The first line: colour, name, victory points; returns the y below it."""
        px = self.px
        disc_r = max(5, px // 3)
        paint.disc(surface, (inner.x + disc_r, inner.y + px // 2), disc_r, piece_colour(seat), rim_width=1)
        vp_rect = paint.text(surface, self._seat_vp(view, seat), (inner.right, inner.y), px, theme.ACCENT, bold=True,
                             anchor="topright")
        name_x = inner.x + 2 * disc_r + px // 3
        paint.text(surface, paint.fit(self._who(view, seat), px, vp_rect.x - name_x - px // 2, bold=True),
                   (name_x, inner.y), px, SEAT_COLOURS[seat % 4], bold=True)
        return inner.y + px + 3

    def _seat_chips(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect, y: int,
                    small: int) -> int:
        """The hand (public): a coloured chip with the count per card type, then the total."""
        px = self.px
        hand = view["hands"][seat]
        kinds = len(self.kinds)
        chip_w = max(16, min(round(px * 1.5), (inner.w - px * 3) // kinds - 3))
        chip_h = max(12, round(px * 0.95))
        for t, name_ in enumerate(self.kinds):
            chip = pygame.Rect(inner.x + t * (chip_w + 3), y, chip_w, chip_h)
            pygame.draw.rect(surface, self.colours[name_] if hand[t] else paint.mix(self.colours[name_],
                             (60, 60, 60), 0.6), chip, border_radius=3)
            paint.text(surface, str(hand[t]), chip.center, small, self.inks[name_] if hand[t] else theme.MUTED,
                       bold=True, anchor="center")
        total_x = inner.x + kinds * (chip_w + 3) + 2
        paint.text(surface, f"= {sum(hand)}", (total_x, y + chip_h // 2), small, theme.TEXT, anchor="midleft")
        return y + chip_h + 4

    def _seat_body(self, surface: pygame.Surface, view: dict, seat: int, inner: pygame.Rect, y: int,
                   small: int) -> int:
        """Development cards (face up where this view knows them, else backs with the count), then the
        facts row where the tags row still fits below it (a short card keeps the tags)."""
        px = self.px
        dev = view["dev"][seat]
        known = dev.get("cards")
        count = dev["count"]
        back_h = max(10, round(px * 0.9))
        back_w = max(7, back_h * 2 // 3)
        shown = min(count, 5)
        for k in range(shown):
            card_back(surface, pygame.Rect(inner.x + k * (back_w // 2 + 2), y, back_w, back_h))
        tx = inner.x + (shown - 1) * (back_w // 2 + 2) + back_w + 4 if shown else inner.x
        if known is not None and seat != view.get("seat"):
            kinds = dict.fromkeys(known)
            words = ", ".join(f"{known.count(c)} {(DEV_WORDS if known.count(c) == 1 else DEV_PLURAL)[c]}"
                              for c in kinds) or "no development cards"
        else:
            words = f"{count} development card{'s' * (count != 1)}" if count else "no development cards"
            if dev.get("bought_this_turn") and count:
                words += f" ({dev['bought_this_turn']} new)"
        paint.text(surface, paint.fit(words, small, inner.right - tx), (tx, y + back_h // 2), small, theme.TEXT,
                   anchor="midleft")
        y += back_h + 4
        if y + 2 * small + 5 <= inner.bottom + 2:
            self._facts_row(surface, view, seat, pygame.Rect(inner.x, y, inner.w, small), small)
            y += small + 3
        return y

    def _seat_tags(self, view: dict, seat: int) -> list[tuple[str, paint.Colour]]:
        """Awards and state, for the seat card's last line."""
        over = view.get("result") is not None
        tags: list[tuple[str, paint.Colour]] = []
        if view["longest_road"]["holder"] == seat:
            tags.append(("Longest Road", (214, 170, 60)))
        if view.get("largest_army") == seat:
            tags.append(("Largest Army", (170, 120, 200)))
        if seat in view.get("out", []):
            tags.append(("resigned", theme.BAD))
        elif seat == view.get("to_act") and not over:
            tags.append(("to act", theme.HILITE))
        elif seat in view.get("pending", []):
            tags.append(("waiting", theme.MUTED))
        elif seat == view.get("active") and not over:
            tags.append(("their turn", theme.MUTED))
        offer = view.get("offer")
        if offer is not None and seat in offer.get("accepted", []):
            tags.append(("accepts the offer", theme.GOOD))
        elif offer is not None and seat in offer.get("declined", []):
            tags.append(("declines", theme.BAD))
        revealed = (view.get("revealed") or [None] * (seat + 1))[seat] or 0
        if revealed:
            tags.append((f"{revealed} VP card{'s' * (revealed != 1)} shown", theme.ACCENT))
        return tags

    #: room beside the bank's chips, in font sizes (the development deck)
    bank_aside = 1.6

    def _bank_chips(self, lay: Layout) -> tuple[int, int, int]:
        px = self.px
        inner_w = lay.bank.w - px
        deck_w = round(px * self.bank_aside)
        chip_w = max(16, (inner_w - deck_w - px // 2) // len(self.kinds) - 4)
        chip_h = round(px * 1.5)
        return chip_w, chip_h, lay.bank.y + px + 6

    def _deck_rect(self, lay: Layout) -> pygame.Rect:
        chip_w, chip_h, y = self._bank_chips(lay)
        x = lay.bank.x + self.px // 2 + len(self.kinds) * (chip_w + 4) + self.px // 4
        return pygame.Rect(x, y - 2, min(round(self.px * 1.4), lay.bank.right - x - 6), chip_h + 4)

    def _draw_bank(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        paint.rounded_panel(surface, lay.bank, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        small = max(10, px - 4)
        awards = self._bank_awards(view)
        title = paint.text(surface, "bank", (lay.bank.x + px // 2, lay.bank.y + 4), px - 2, theme.MUTED, bold=True)
        paint.text(surface, paint.fit(awards, small, lay.bank.right - title.right - px), (lay.bank.right - px // 2,
                   lay.bank.y + 5), small, theme.MUTED, anchor="topright")
        chip_w, chip_h, y = self._bank_chips(lay)
        for t, name in enumerate(self.kinds):
            chip = lay.spots[("bank", name)]
            colour = self.colours[name]
            pygame.draw.rect(surface, colour, chip, border_radius=4)
            pygame.draw.rect(surface, paint.darker(colour, 0.5), chip, 1, border_radius=4)
            if chip.w >= round(px * 1.6):  # else the count alone: a picture would run into it
                self.glyph(surface, name, (chip.x + chip.w // 4, chip.centery), max(3, chip.h // 4), self.inks[name])
            paint.text(surface, str(view["bank"][t]), (chip.right - 3, chip.centery), small + 1, self.inks[name],
                       bold=True, anchor="midright")
            if self._lit(("bank", name, chip), view):
                _outline(surface, chip, 3)
        self._draw_decks(surface, lay, view, y + chip_h + 4, small)

    def _bank_awards(self, view: dict) -> str:
        army = view.get("largest_army")
        road_holder = view["longest_road"]["holder"]
        return (f"road: {PIECE_NAMES[road_holder % 4] if road_holder is not None else '-'}   "
                f"army: {PIECE_NAMES[army % 4] if army is not None else '-'}")

    def _draw_decks(self, surface: pygame.Surface, lay: Layout, view: dict, label_y: int, small: int) -> None:
        """The development deck beside the chips, and a line of words below them."""
        px = self.px
        deck = self._deck_rect(lay)
        if view["deck"]:
            for k in range(min(3, view["deck"]) - 1, -1, -1):
                card_back(surface, pygame.Rect(deck.x + k * 2, deck.y - k * 2, deck.w - 4, deck.h))
        else:
            pygame.draw.rect(surface, theme.PANEL_EDGE, deck, 1, border_radius=4)
        paint.text(surface, str(view["deck"]), (deck.centerx - 1, deck.centery), small, paint.IVORY, bold=True,
                   anchor="center")
        if label_y + small <= lay.bank.bottom:
            paint.text(surface, "resources left in the bank; the deck: development cards", (lay.bank.x + px // 2,
                       label_y), small, theme.MUTED) if lay.bank.w > theme.font(small).size(
                "resources left in the bank; the deck: development cards")[0] + px else paint.text(
                surface, "bank resources; deck", (lay.bank.x + px // 2, label_y), small, theme.MUTED)
        if self._lit(("tokens", ("buy",), deck), view):
            _outline(surface, deck.inflate(4, 4), 3)

    # ------------------------------------------------------------------ the strip: hand, composer, cards, offer

    def _hand_cards(self, box: pygame.Rect, top: int, bottom: int) -> list[pygame.Rect]:
        n = len(self.kinds)
        gap = max(4 if n <= 5 else 3, self.px // (4 if n <= 5 else 6))
        h = bottom - top
        w = min(round(h * 0.78), (box.w - (n - 1) * gap) // n)
        x0 = box.x + (box.w - n * w - (n - 1) * gap) // 2
        return [pygame.Rect(x0 + k * (w + gap), top, w, h) for k in range(n)]

    def _tray_buttons(self, lay: Layout) -> dict[str, tuple[pygame.Rect, pygame.Rect]]:
        px = self.px
        box = lay.hand.inflate(-px // 2, -px // 3)
        ok_w = round(px * 2.6)
        area = pygame.Rect(box.x, box.y, box.w - ok_w - px // 2, box.h)
        button_h = px + 8
        cards = self._hand_cards(area, box.y + px + 4, box.bottom - button_h - 4)
        out = {}
        for name, card in zip(self.kinds, cards, strict=True):
            half = (card.w - 2) // 2
            minus = pygame.Rect(card.x, card.bottom + 3, half, button_h)
            plus = pygame.Rect(card.right - half, card.bottom + 3, half, button_h)
            out[name] = (plus, minus)
        return out

    def _ok_rect(self, lay: Layout) -> pygame.Rect:
        px = self.px
        box = lay.hand.inflate(-px // 2, -px // 3)
        ok_w = round(px * 2.6)
        return pygame.Rect(box.right - ok_w, box.centery - px, ok_w, 2 * px)

    def _draw_hand(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        box = lay.hand
        paint.rounded_panel(surface, box, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        inner = box.inflate(-px // 2, -px // 3)
        me = view.get("seat")
        small = max(10, px - 4)
        options = self._tray_options()
        if options is not None:
            self._draw_tray(surface, lay, view, options)
            return
        if me is None or not 0 <= me < len(view["hands"]):
            lines = wrap("a spectator's view: every hand is on the seat cards", px - 2, inner.w)
            for k, line in enumerate(lines[:2]):
                paint.text(surface, line, (inner.x, inner.y + k * px), px - 2, theme.MUTED)
            return
        mine = me == self.me or self.names is None
        title = "your hand" if mine else f"{self._who(view, me)}: hand"
        paint.text(surface, paint.fit(title, px - 2, inner.w, bold=True), (inner.x, inner.y), px - 2, theme.MUTED,
                   bold=True)
        hand = view["hands"][me]
        cards = self._hand_cards(inner, inner.y + px + 2, inner.bottom)
        for t, (name, card) in enumerate(zip(self.kinds, cards, strict=True)):
            self._resource_card(surface, card, name, hand[t], small)

    def _resource_card(self, surface: pygame.Surface, card: pygame.Rect, name: str, count: int, small: int,
                       note: str = "") -> None:
        colour = self.colours[name] if count else paint.mix(self.colours[name], (70, 70, 70), 0.6)
        ink = self.inks[name] if count else theme.MUTED
        radius = max(3, card.w // 7)
        pygame.draw.rect(surface, (0, 0, 0), card.move(1, 2), border_radius=radius)
        pygame.draw.rect(surface, colour, card, border_radius=radius)
        pygame.draw.rect(surface, paint.darker(colour, 0.5), card, 1, border_radius=radius)
        self.glyph(surface, name, (card.centerx, card.y + card.h // 4 + 1), max(3, min(card.w, card.h) // 6), ink)
        size = max(12, min(card.h // 3, round(card.w * 0.55)))
        paint.text(surface, str(count), (card.centerx, card.y + card.h * 9 // 16), size, ink, bold=True,
                   anchor="center")
        label = small - 1  # smaller where the card is too narrow for the word (eight card types)
        while label > 9 and theme.font(label).size(note or name)[0] > card.w - 2:
            label -= 1
        word = paint.fit(note or name, label, card.w - 2)
        paint.text(surface, word, (card.centerx, card.bottom - 2), label, ink, anchor="midbottom")

    def _draw_tray(self, surface: pygame.Surface, lay: Layout, view: dict, options: set[tuple[int, ...]]) -> None:
        px = self.px
        inner = lay.hand.inflate(-px // 2, -px // 3)
        base = self._tray_base()
        title = self._tray_title(base, options)
        chosen = sum(self.draft)
        paint.text(surface, paint.fit(f"{title}: {chosen} chosen", px - 2, inner.w, bold=True), (inner.x, inner.y),
                   px - 2, theme.HILITE, bold=True)
        me = view.get("seat")
        hand = view["hands"][me] if me is not None and 0 <= me < len(view["hands"]) else [0] * len(self.kinds)
        buttons = self._tray_buttons(lay)
        small = max(10, px - 4)
        for t, name in enumerate(self.kinds):
            plus, minus = buttons[name]
            card = pygame.Rect(minus.x, inner.y + px + 4, plus.right - minus.x, minus.y - 3 - inner.y - px - 4)
            note = self._tray_note(view, base, hand, t)
            self._resource_card(surface, card, name, self.draft[t], small, note)
            for kind, rect, sign in (("minus", minus, "-"), ("plus", plus, "+")):
                live = self._tray_step((kind, name)) is not None
                pygame.draw.rect(surface, theme.BUTTON if live else theme.BUTTON_DOWN, rect, border_radius=4)
                textfit.box(rect, "button")
                paint.text(surface, sign, rect.center, px, theme.TEXT if live else theme.MUTED, bold=True,
                           anchor="center")
                if live and kind == "plus":
                    pygame.draw.rect(surface, theme.HILITE, rect, 1, border_radius=4)
        ok = self._ok_rect(lay)
        ready = self._draft_text() is not None
        pygame.draw.rect(surface, theme.ACCENT if ready else theme.BUTTON_DOWN, ok, border_radius=6)
        textfit.box(ok, "button")
        paint.text(surface, "ok", ok.center, px, paint.INK if ready else theme.MUTED, bold=True, anchor="center")
        if ready:
            _outline(surface, ok, 2)

    def _tray_title(self, base: list[str], options: set[tuple[int, ...]]) -> str:
        """The composer's title: what the cards put together are for."""
        verb = base[0] if base else ""
        sizes = {sum(o) for o in options}
        size_words = f"{min(sizes)}" if len(sizes) == 1 else f"{min(sizes)}-{max(sizes)}"
        return {"discard": f"discard {size_words} cards", "play": f"take {size_words} from the bank",
                "trade": "give to the bank"}.get(verb, "you give" if "for" not in base else "you want")

    def _tray_note(self, view: dict, base: list[str], hand: list[int], t: int) -> str:
        """The words under a composer's card: how many there are to choose from."""
        verb = base[0] if base else ""
        if verb == "play":
            return f"of {view['bank'][t]}"  # year of plenty takes from the bank
        if verb in ("discard", "trade") or "for" not in base:
            return f"of {hand[t]}"
        return self.kinds[t]

    def _dev_boxes(self, lay: Layout, view: dict, seat: int) -> list[tuple[str, pygame.Rect]]:
        """The viewer's development cards, one card per kind (the count on it), in the strip's right part."""
        dev = view["dev"][seat]
        known = dev.get("cards")
        if known is None or view.get("offer") is not None:
            return []
        return card_row(lay.cards, self.px, known, 0.75)

    def _draw_cards(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        box = lay.cards
        paint.rounded_panel(surface, box, (30, 40, 54), theme.PANEL_EDGE, radius=8, alpha=240, width=1)
        if view.get("offer") is not None:
            self._draw_offer(surface, lay, view)
            return
        if self.chosen[:1] == ["offer"]:
            self._draw_draft_offer(surface, lay, view)
            return
        inner = box.inflate(-px // 2, -px // 3)
        me = view.get("seat")
        small = max(10, px - 4)
        if me is None or not 0 <= me < len(view["dev"]):
            played = view.get("played", {})
            text = "played: " + ", ".join(f"{v} {DEV_WORDS[k]}" for k, v in played.items() if v) if any(
                played.values()) else "no development card played yet"
            for k, line in enumerate(wrap(text, small, inner.w)[:3]):
                paint.text(surface, line, (inner.x, inner.y + k * (small + 2)), small, theme.MUTED)
            return
        dev = view["dev"][me]
        known = dev.get("cards") or []
        new = list(dev.get("new") or [])
        title = f"development cards: {dev['count']}"
        paint.text(surface, paint.fit(title, px - 2, inner.w, bold=True), (inner.x, inner.y), px - 2, theme.MUTED,
                   bold=True)
        boxes = self._dev_boxes(lay, view, me)
        if not boxes:
            line = "none yet: buy one with 1 wool, 1 grain and 1 ore" if me == self.me else "no development cards"
            for k, part in enumerate(wrap(line, small, inner.w)[:2]):
                paint.text(surface, part, (inner.x, inner.y + px + 4 + k * (small + 2)), small, theme.MUTED)
            return
        for name, card in boxes:
            count = known.count(name)
            fresh = new.count(name)
            colour = DEV_COLOURS[name]
            radius = max(3, card.w // 7)
            pygame.draw.rect(surface, (0, 0, 0), card.move(1, 2), border_radius=radius)
            pygame.draw.rect(surface, paint.IVORY, card, border_radius=radius)
            band = pygame.Rect(card.x, card.y, card.w, max(8, card.h // 4))
            pygame.draw.rect(surface, colour, band, border_top_left_radius=radius, border_top_right_radius=radius)
            pygame.draw.rect(surface, paint.darker(colour, 0.4), card, 1, border_radius=radius)
            words = DEV_WORDS[name].split(" ")
            size = max(9, min(small, round(card.w / 4.2)))
            lines = words if len(words) > 1 else [words[0]]
            y = band.bottom + 2
            for word in lines[:3]:
                paint.text(surface, paint.fit(word, size, card.w - 4), (card.centerx, y), size, paint.INK,
                           anchor="midtop")
                y += size
            room = card.bottom - size - 4 - y
            if room > 12:
                dev_icon(surface, name, (card.centerx, y + room // 2), min(card.w // 3, room // 2 - 2), colour)
            badge = f"x{count}" + (f" ({fresh} new)" if fresh and card.w > px * 3 else " new" if fresh else "")
            paint.text(surface, paint.fit(badge, size, card.w - 4), (card.centerx, card.bottom - 2), size,
                       RED_NUMBER if fresh else paint.INK, bold=True, anchor="midbottom")
            if self._lit(("tokens", ("play", name), card), view):
                _outline(surface, card, 3)

    def _everybody_rect(self, lay: Layout) -> pygame.Rect:
        inner = lay.cards.inflate(-self.px // 2, -self.px // 3)
        h = self.px + 6
        return pygame.Rect(inner.x, inner.bottom - h, inner.w, h)

    def _draw_draft_offer(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """The offer being put together: what is given, what is asked, and to whom it may go."""
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        chosen = self.chosen
        give = chosen[1] if len(chosen) > 1 else None
        get = chosen[3] if len(chosen) > 3 else None
        draft = multiset_text(tuple(self.draft), self.kinds) if any(self.draft) else "..."
        lines = [("your offer to the players", theme.MUTED, True),
                 (f"give {cards_words(give) if give else draft}", theme.TEXT, False)]
        if give:
            lines.append((f"for {cards_words(get) if get else draft}", theme.TEXT, False))
        if chosen[-1] == "to":
            lines.append(("to whom? click a player, or:", theme.HILITE, False))
        y = inner.y
        bottom = inner.bottom - (px + 8 if chosen[-1] == "to" else 0)
        for text, colour, bold in lines:
            for part in wrap(text.replace("...", "(choose below)") if text.endswith("...") else text, small, inner.w,
                             bold):
                if y + small > bottom:
                    break
                paint.text(surface, part, (inner.x, y), small, colour, bold=bold)
                y += small + 2
        if chosen[-1] == "to":
            rect = self._everybody_rect(lay)
            live = self._allowed([*chosen, "all"])
            pygame.draw.rect(surface, theme.BUTTON if live else theme.BUTTON_DOWN, rect, border_radius=5)
            textfit.box(rect, "button")
            paint.text(surface, "to everybody", rect.center, small, theme.TEXT if live else theme.MUTED,
                       anchor="center")
            if live:
                _outline(surface, rect, 2)

    def _offer_buttons(self, lay: Layout, view: dict) -> list[tuple[tuple[str, ...], pygame.Rect]]:
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        h = px + 6
        y = inner.bottom - h
        words = [("accept",), ("decline",)]
        offer = view["offer"]
        words += [("confirm", str(s)) for s in offer.get("accepted", [])]
        words.append(("cancel",))
        shown = [w for w in words if self._allowed(list(w))]
        if not shown:
            return []
        gap = 4
        w = (inner.w - gap * (len(shown) - 1)) // len(shown)
        return [(tokens, pygame.Rect(inner.x + k * (w + gap), y, w, h)) for k, tokens in enumerate(shown)]

    def _draw_offer(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        px = self.px
        inner = lay.cards.inflate(-px // 2, -px // 3)
        small = max(10, px - 4)
        offer = view["offer"]
        active = view.get("active")
        who = self._who(view, active) if active is not None else "?"
        to = "everybody" if offer["to"] == "all" else self._who(view, offer["to"])
        accepted = [self._who(view, s) for s in offer.get("accepted", [])]
        declined = [self._who(view, s) for s in offer.get("declined", [])]
        waiting = [self._who(view, s) for s in view.get("pending", []) if view.get("step") == "respond"]
        lines = [(f"{who} offers {cards_words(offer['give'])}", theme.TEXT, True),
                 (f"for {cards_words(offer['get'])}, to {to}", theme.TEXT, False)]
        answers = []
        if accepted:
            answers.append("yes: " + ", ".join(accepted))
        if declined:
            answers.append("no: " + ", ".join(declined))
        if waiting:
            answers.append("deciding: " + ", ".join(waiting))
        if answers:
            lines.append(("; ".join(answers), theme.HILITE, False))
        if any(tokens[0] == "confirm" for tokens, _ in self._offer_buttons(lay, view)):
            lines.append(("trade with whom? (or cancel)", theme.MUTED, False))
        buttons = self._offer_buttons(lay, view)
        bottom = buttons[0][1].y - 2 if buttons else inner.bottom
        y = inner.y
        for text, colour, bold in lines:
            for part in wrap(text, small, inner.w, bold):
                if y + small > bottom:
                    break
                paint.text(surface, part, (inner.x, y), small, colour, bold=bold)
                y += small + 2
        for tokens, rect in buttons:
            words = {"accept": "accept", "decline": "decline", "cancel": "cancel"}.get(tokens[0])
            if tokens[0] == "confirm":
                words = PIECE_NAMES[int(tokens[1]) % 4]
            pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=5)
            textfit.box(rect, "button")
            paint.text(surface, paint.fit(words, small, rect.w - 6), rect.center, small, theme.TEXT, anchor="center")
            _outline(surface, rect, 2)


# ---------------------------------------------------------------------- helpers


def _outline(surface: pygame.Surface, rect: pygame.Rect, width: int) -> None:
    """A breathing highlight just inside a clickable box."""
    grow = round(paint.pulse() * 2)
    pygame.draw.rect(surface, theme.HILITE, rect.inflate(grow * 2 - 2, grow * 2 - 2), width, border_radius=6)


def _hex_words(view: dict, h: int) -> str:
    info = view["hexes"][h]
    words = f"h{h} {info['terrain'] or '?'}"
    return words + (f" {info['number']}" if info.get("number") else "")


def _hex_points(lay: Layout, h: int, scale: float = 1.0) -> list[tuple[int, int]]:
    cx, cy = lay.hex(h)
    out = []
    for n in HEX_NODES[h]:
        x, y = lay.node(n)
        out.append((round(cx + (x - cx) * scale), round(cy + (y - cy) * scale)))
    return out


def _edge_hex(a: int, b: int) -> int:
    """The land hex a coastal edge borders."""
    return next(h for h in range(19) if a in HEX_NODES[h] and b in HEX_NODES[h])


def _inside_polygon(point: tuple[float, float], polygon: list[tuple[int, int]]) -> bool:
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _outline_segment(surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], colour: paint.Colour,
                     half: float, width: int) -> None:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1
    nx, ny = -dy / length * half, dx / length * half
    ux, uy = dx / length * half * 0.3, dy / length * half * 0.3
    points = [(a[0] + nx + ux, a[1] + ny + uy), (b[0] + nx - ux, b[1] + ny - uy), (b[0] - nx - ux, b[1] - ny - uy),
              (a[0] - nx + ux, a[1] - ny + uy)]
    pygame.draw.polygon(surface, colour, points, width)


def _texture(s: pygame.Surface, terrain: str | None, centre: tuple[int, int], r: float, colour: paint.Colour) -> None:
    """A few marks per terrain (trees, furrows, rocks...), around the number token."""
    ink = paint.darker(colour, 0.3)
    light = paint.lighter(colour, 0.25)
    spots = [(-0.5, -0.45), (0.45, -0.5), (-0.62, 0.2), (0.6, 0.18), (0.05, -0.72)]
    size = max(3, round(r * 0.12))
    for dx, dy in spots:
        x, y = round(centre[0] + dx * r), round(centre[1] + dy * r)
        if terrain == "forest":
            pygame.draw.polygon(s, paint.darker(colour, 0.35), [(x, y - size * 2), (x - size, y + size // 2),
                                                                (x + size, y + size // 2)])
            pygame.draw.line(s, (90, 60, 30), (x, y + size // 2), (x, y + size), 2)
        elif terrain == "hills":
            for k in range(2):
                pygame.draw.rect(s, ink, (x - size + k * size, y - size // 2 + k * (size // 2 + 1), size, size // 2), 1)
        elif terrain == "pasture":
            pygame.draw.circle(s, light, (x, y), size)
            pygame.draw.circle(s, paint.INK, (x + size, y - size // 3), max(1, size // 3))
        elif terrain == "fields":
            for k in (-1, 0, 1):
                pygame.draw.line(s, ink, (x + k * size, y + size), (x + k * size + size // 2, y - size), 1)
        elif terrain == "mountains":
            pygame.draw.polygon(s, ink, [(x - size * 3 // 2, y + size), (x, y - size * 3 // 2), (x + size * 3 // 2,
                                                                                                  y + size)])
            pygame.draw.polygon(s, paint.IVORY, [(x - size // 2, y - size // 2), (x, y - size * 3 // 2),
                                                 (x + size // 2, y - size // 2)])
        elif terrain == "desert":
            pygame.draw.arc(s, ink, (x - size * 2, y - size, size * 4, size * 2), 0.3, math.pi - 0.3, 1)


def card_row(strip: pygame.Rect, px: int, names: list[str], aspect: float) -> list[tuple[str, pygame.Rect]]:
    """One face-up card per distinct name, left to right in `strip` below its caption line, each
    `aspect` as wide as high unless the row must squeeze (C&K's progress cards use it too)."""
    kinds = list(dict.fromkeys(names))
    inner = strip.inflate(-px // 2, -px // 3)
    top = inner.y + px + 2
    h = inner.bottom - top
    gap = max(3, px // 5)
    w = min(round(h * aspect), (inner.w - gap * (len(kinds) - 1)) // max(1, len(kinds)))
    return [(name, pygame.Rect(inner.x + k * (w + gap), top, w, h)) for k, name in enumerate(kinds)]
