"""Turning Tides: two ships passing each other zone by zone on the sea, Silver above sailing left and
Gold below sailing right, each zone in the column the engine publishes (`columns`: zones that face
each other share one), gliding along as the ships pass. Each zone shows its cannon slots (`in` towards the enemy,
`out` away), the captain, sailors, the mast and skulls. Along each edge lies that seat's card row:
its hand (face up for its owner only, backs with the count for the other), deck, discard pile,
exchange cards, damage cards, hold and this turn's card (face down while committed, turned face up
at the reveal).

Clicks: a hand card gives its name (`pick` is inserted), an own zone its number, a cannon slot
`<zone> <slot>` when placing a cannon or `<zone><slot>` when moving one, a unit its kind after a
Move card, the arrows `ahead`/`back` and the initiative pawn `initiative` for Navigate. Exchange and
damage lists are chosen from the table's choice list.
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

import pygame

from client.games import paint
from client.ui import textfit, theme
from client.ui.widgets import wrap

SHIP_COLOURS = ((226, 184, 64), (196, 204, 216))
SHIP_NAMES = ("Gold", "Silver")
HULL = (120, 78, 44)
DECK = (176, 132, 84)
SEA = (30, 86, 126)
CARD_STYLE = {
    "wait": (140, 146, 156), "sailor": (64, 124, 200), "cannon": (84, 88, 100), "move": (80, 160, 92),
    "navigate": (48, 150, 160), "swing": (226, 140, 52), "fire": (206, 64, 54), "promote": (214, 176, 48),
}
COLUMNS = 13  # the channel's width in zones (the engine's `columns` run 2..26 in half zones)
SLOT_NAMES = ("in", "out")


@dataclass(slots=True)
class Layout:
    strips: tuple[pygame.Rect, pygame.Rect]  # seat 0 (bottom), seat 1 (top)
    sea: pygame.Rect
    zone_w: float
    ship_h: int
    ship_y: tuple[int, int]
    card: tuple[int, int]
    columns: tuple[tuple[float, ...], ...]  # per seat, per zone: the half-zone column as drawn (gliding)
    hand: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    buttons: dict[str, pygame.Rect] = field(default_factory=dict)

    def zone_rect(self, seat: int, zone: int) -> pygame.Rect:
        """The zone in the column the engine places it (half zones), so facing zones line up."""
        col = self.columns[seat][zone - 1] / 2
        x = self.sea.x + (col - 1 + 0.8) * self.zone_w
        return pygame.Rect(round(x), self.ship_y[seat], round(self.zone_w), self.ship_h)

    def slot_rect(self, seat: int, zone: int, slot: str) -> pygame.Rect:
        """`in` ports face the enemy ship across the channel, `out` ports the open sea."""
        z = self.zone_rect(seat, zone)
        w, h = max(10, int(z.w * 0.5)), max(8, int(self.ship_h * 0.16))
        inner_top = seat == 0  # Gold lies below, so its inner side is its top edge
        at_top = inner_top if slot == "in" else not inner_top
        y = z.y - h // 3 if at_top else z.bottom - h + h // 3
        return pygame.Rect(z.centerx - w // 2, y, w, h)


def layout(rect: pygame.Rect, columns: tuple[tuple[float, ...], ...], px: int) -> Layout:
    pad = max(6, rect.h // 80)
    strip_h = int(rect.h * 0.2)
    top = pygame.Rect(rect.x + pad, rect.y + pad, rect.w - 2 * pad, strip_h)
    bottom = pygame.Rect(rect.x + pad, rect.bottom - pad - strip_h, rect.w - 2 * pad, strip_h)
    sea = pygame.Rect(rect.x + pad, top.bottom + pad, rect.w - 2 * pad, bottom.y - top.bottom - 2 * pad)
    zone_w = sea.w / (COLUMNS + 1.6)  # room for the bows beyond the outermost columns
    head = px * 2 + 8  # round, turn and phase above the ships
    ship_h = int(min((sea.h - head) * 0.37, zone_w * 2.3))
    channel = sea.h - head - 2 * ship_h
    ship_y = (sea.y + head + ship_h + channel - channel // 6, sea.y + head + channel // 6)
    card_h = strip_h - px - 10
    return Layout((bottom, top), sea, zone_w, ship_h, ship_y, (card_width(card_h), card_h), columns)


def card_width(card_h: int) -> int:
    """A card two thirds as wide as high, but never too narrow for the longest card name in 12 px text (bold
    where the card is wide enough): on the viewer's low board at 1024x600 a 32 px card could only show its name
    as a symbol too small to read (issue 34), while the strip has room to spare beside the hand."""
    name_w = max(theme.font(theme.min_size()).size(name)[0] for name in CARD_STYLE)
    return max(int(card_h * 0.68), name_w + 6)


# ---------------------------------------------------------------------- pieces


def card(surface: pygame.Surface, rect: pygame.Rect, name: str | None, px: int, dim: bool = False,
         levels: dict | None = None, mini: bool = False, shown: int | None = None) -> bool:
    """A play card face up (`name`) or face down (None): colour band, name, hierarchy level, icon. A
    `mini` card (the exchange's fan) is a picture of the card: its name is sized to its band, a symbol
    beside its colour and icon, not a text held to the floor. A card the next one of a fan covers shows
    only its left `shown` pixels: its name there where it reads whole in them, else none (its colour and
    icon tell it apart; the caller names it in words). Returns whether the name was written."""
    radius = max(3, rect.w // 8)
    pygame.draw.rect(surface, (0, 0, 0), rect.move(2, 3), border_radius=radius)
    if name is None:
        pygame.draw.rect(surface, (44, 58, 92), rect, border_radius=radius)
        inner = rect.inflate(-max(4, rect.w // 6), -max(4, rect.w // 6))
        pygame.draw.rect(surface, (64, 84, 128), inner, 2, border_radius=radius)
        _wheel(surface, inner.center, max(5, min(inner.w, int(inner.h * 0.68)) // 3), (150, 170, 210))
        pygame.draw.rect(surface, (20, 26, 40), rect, 1, border_radius=radius)
        return True
    tint = CARD_STYLE.get(name, (120, 120, 120))
    if dim:
        tint = paint.mix(tint, (90, 90, 90), 0.6)
    pygame.draw.rect(surface, paint.IVORY if not dim else (170, 170, 165), rect, border_radius=radius)
    # (a name that is read gets a band its 12 px text fits in: "wait" rose out of a 12 px band at 1024x600)
    room = rect.w if shown is None else min(rect.w, shown)
    reads = not mini and theme.font(theme.min_size()).size(name)[0] <= room - 4
    bold = mini or theme.font(theme.min_size(), True).size(name)[0] <= room - 4
    band = pygame.Rect(rect.x, rect.y, rect.w, max(10, rect.h // 4, theme.height(theme.min_size()) + 2 if reads else 0))
    pygame.draw.rect(surface, tint, band, border_top_left_radius=radius, border_top_right_radius=radius)
    # a card too narrow for its name in 12 px text (a mini card of the exchange's fan: every other card is laid
    # out wide enough, `card_width`) shows it sized to its band beside its colour and icon, rather than over
    # the next card (the log and the choices name it in words)
    small = not reads
    size = max(10 if small else theme.min_size(), min(px - 2, int(room / max(4, len(name)) * 1.9)))
    if not small:   # never wider or higher than the card's band (the width rule above is a rule of thumb)
        while size > theme.min_size() and (theme.font(size, bold).size(name)[0] > room - 4
                                           or theme.height(size) > band.h):
            size -= 1
    if shown is None or reads:
        paint.text(surface, name, (band.x + room // 2, band.centery), size, paint.IVORY, bold=bold, anchor="center",
                   symbol=small)
    # the icon sized to the card's body under the band, as on a card of the usual shape (a card widened for
    # its name, `card_width`, keeps it inside)
    body = rect.bottom - band.bottom
    _icon(surface, name, (rect.centerx, band.bottom + body * 0.5), max(6, min(rect.w // 3, int(rect.h * 0.68) // 3,
                                                                             body * 2 // 5)), tint)
    level = (levels or {}).get(name)  # the hierarchy level, as the engine publishes it
    if level is not None and rect.h > 40 and shown is None:   # (a covered card's corner is under the next)
        spot = (rect.right - max(7, rect.w // 7), rect.bottom - max(7, rect.w // 7))
        pygame.draw.circle(surface, tint, spot, max(6, rect.w // 8))
        paint.text(surface, str(level), spot, max(10, rect.w // 5), paint.IVORY, bold=True, anchor="center",
                   symbol=True)   # the level in its coloured dot, like a pip
    pygame.draw.rect(surface, paint.darker(tint, 0.4), rect, 2, border_radius=radius)
    return shown is None or reads


def _wheel(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    pygame.draw.circle(surface, colour, centre, r, max(2, r // 4))
    for k in range(8):
        a = k * math.pi / 4
        pygame.draw.line(surface, colour, paint.polar(centre, a, r * 0.3), paint.polar(centre, a, r * 1.35), 2)
    pygame.draw.circle(surface, colour, centre, max(2, r // 3))


def _icon(surface: pygame.Surface, name: str, at: tuple[float, float], r: int, colour: paint.Colour) -> None:
    """A small picture for each card so the kinds tell apart before the words are read."""
    x, y = round(at[0]), round(at[1])
    ink = paint.darker(colour, 0.2)
    if name == "wait":
        pygame.draw.polygon(surface, ink, [(x - r, y - r), (x + r, y - r), (x, y)])
        pygame.draw.polygon(surface, ink, [(x - r, y + r), (x + r, y + r), (x, y)])
    elif name == "sailor":
        pygame.draw.circle(surface, ink, (x, y - r // 2), max(3, r // 3))
        pygame.draw.polygon(surface, ink, [(x - r * 2 // 3, y + r), (x + r * 2 // 3, y + r), (x, y - r // 6)])
    elif name == "cannon":
        pygame.draw.line(surface, ink, (x - r, y + r // 3), (x + r, y - r // 2), max(4, r // 2))
        pygame.draw.circle(surface, ink, (x - r // 3, y + r // 2), max(3, r // 3))
    elif name == "move":
        pygame.draw.line(surface, ink, (x - r, y), (x + r, y), max(2, r // 4))
        for sign in (-1, 1):
            tip = (x + sign * r, y)
            pygame.draw.polygon(surface, ink, [tip, (x + sign * r // 3, y - r // 2), (x + sign * r // 3, y + r // 2)])
    elif name == "navigate":
        _wheel(surface, (x, y), max(4, r * 2 // 3), ink)
    elif name == "swing":
        pygame.draw.arc(surface, ink, (x - r, y - r, 2 * r, 2 * r), math.pi, 2 * math.pi, max(2, r // 4))
        pygame.draw.line(surface, ink, (x - r, y - r), (x - r, y), max(2, r // 4))
        pygame.draw.circle(surface, ink, (x + r, y), max(3, r // 3))
    elif name == "fire":
        points = [paint.polar((x, y), k * math.pi / 6, r if k % 2 == 0 else r * 0.45) for k in range(12)]
        pygame.draw.polygon(surface, ink, points)
    elif name == "promote":
        points = [paint.polar((x, y), -math.pi / 2 + k * math.pi / 5, r if k % 2 == 0 else r * 0.42)
                  for k in range(10)]
        pygame.draw.polygon(surface, ink, points)


def captain(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    paint.disc(surface, centre, r, colour)
    x, y = centre
    hat = [(x - r, y - r // 4), (x + r, y - r // 4), (x, y - r * 3 // 2)]
    pygame.draw.polygon(surface, paint.INK, hat)
    pygame.draw.circle(surface, paint.IVORY, (centre[0], centre[1] - r * 2 // 3), max(2, r // 5))


def sailor(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    paint.disc(surface, centre, r, colour)
    pygame.draw.line(surface, theme.BAD, (centre[0] - r + 2, centre[1] - r // 3),
                     (centre[0] + r - 2, centre[1] - r // 3), max(2, r // 3))


def cannon(surface: pygame.Surface, rect: pygame.Rect, pointing_up: bool) -> None:
    barrel = rect.inflate(-rect.w // 2, 0)
    pygame.draw.rect(surface, (30, 30, 34), barrel, border_radius=barrel.w // 2)
    muzzle = (barrel.centerx, barrel.y if pointing_up else barrel.bottom)
    pygame.draw.circle(surface, (12, 12, 14), muzzle, max(2, barrel.w // 2))
    for dx in (-1, 1):
        pygame.draw.circle(surface, (92, 60, 34), (rect.centerx + dx * rect.w // 3, rect.centery), max(2, rect.h // 4))


def skull(surface: pygame.Surface, centre: tuple[int, int], r: int) -> None:
    x, y = centre
    pygame.draw.circle(surface, paint.IVORY, (x, y - r // 5), r)
    pygame.draw.rect(surface, paint.IVORY, (x - r // 2, y + r // 2, r, r // 2), border_radius=2)
    for dx in (-1, 1):
        pygame.draw.circle(surface, paint.INK, (x + dx * r * 2 // 5, y - r // 5), max(2, r // 4))
    pygame.draw.polygon(surface, paint.INK, [(x, y + r // 8), (x - r // 6, y + r // 2), (x + r // 6, y + r // 2)])


# ---------------------------------------------------------------------- renderer


class Renderer:
    def __init__(self) -> None:
        self.px = 20
        self.chosen: list[str] = []
        self.highlights: set[str] = set()
        self.drawn: tuple[tuple[float, ...], ...] | None = None  # the columns as drawn, gliding to the view's
        self.last_ms = 0
        self.reveal_key: tuple | None = None
        self.reveal_ms = -10_000

    # ------------------------------------------------------------------ geometry

    def _layout(self, rect: pygame.Rect, view: dict) -> Layout:
        lay = layout(rect, self.drawn if self.drawn is not None else _columns(view), self.px)
        self._place_cards(lay, view)
        return lay

    def _own(self, view: dict) -> int:
        seat = view.get("seat")
        return seat if seat in (0, 1) else 0

    @staticmethod
    def _hand_boxes(strip: pygame.Rect, hand: list[str], lay: Layout, x0: int) -> list[tuple[str, pygame.Rect]]:
        """Where a hand lies in a strip from `x0` (`info_column`): one card per kind, overlapping when many."""
        cw, ch = lay.card
        kinds = list(dict.fromkeys(hand))
        room = piles_x(strip, lay) - x0 - 12
        step = min(cw + 6, (room - cw) // max(1, len(kinds) - 1)) if len(kinds) > 1 else cw
        return [(name, pygame.Rect(x0 + k * step, strip.y + px_gap(strip), cw, ch)) for k, name in enumerate(kinds)]

    def _place_cards(self, lay: Layout, view: dict) -> None:
        """The viewer's hand in its own ship's strip (Gold's below, Silver's above: the board keeps one
        orientation for every seat, so a strip always sits beside its ship), and the navigate controls."""
        me = self._own(view)
        strip = lay.strips[me]
        cw, ch = lay.card
        hand = view["cards"][me].get("hand")
        x0 = info_column(strip, view, me, self.px)[0]
        if hand is not None:
            hand = list(dict.fromkeys(hand))  # one card per kind, its count on it
            room = piles_x(strip, lay) - x0 - 12
            step = min(cw + 6, (room - cw) // max(1, len(hand) - 1)) if len(hand) > 1 else cw
            lay.hand = [(name, pygame.Rect(x0 + k * step, strip.y + px_gap(strip), cw, ch))
                        for k, name in enumerate(hand)]
        # the channel between the ships holds the pawn (on its holder's side) and the Navigate arrows
        top, bottom = lay.ship_y[1] + lay.ship_h, lay.ship_y[0]
        size = max(24, min(int(lay.zone_w * 0.6), (bottom - top) // 2 - 4))
        mid = (top + bottom) // 2
        lay.buttons["back"] = pygame.Rect(lay.sea.right - 2 * size - 24, mid - size // 2, size, size)
        lay.buttons["ahead"] = pygame.Rect(lay.sea.right - size - 8, mid - size // 2, size, size)
        pawn_y = bottom - size - 4 if view.get("pawn", 0) == 0 else top + 4
        lay.buttons["initiative"] = pygame.Rect(lay.sea.x + 8, pawn_y, size, size)

    # ------------------------------------------------------------------ tokens

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list."""
        if token.isdigit():
            return f"zone {token}"
        if token in ("in", "out"):
            return f"pointing {token}wards"
        if token == "pick":
            return "pick a card"
        if chosen[:1] == ["pick"]:
            return f"{token} card"
        return None

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        lay = self._layout(rect, view)
        me = self._own(view)
        for name, box in lay.hand:
            if name == token:
                return box.center
        if token in ("ahead", "back", "initiative"):
            return lay.buttons[token].center
        ship = view["ships"][me]
        if token.isdigit() and 1 <= int(token) <= 7:
            z = lay.zone_rect(me, int(token))
            return (z.centerx, z.y + z.h // 5 if me == 0 else z.bottom - z.h // 5)
        if token in SLOT_NAMES and self.chosen and self.chosen[-1].isdigit():
            return lay.slot_rect(me, int(self.chosen[-1]), token).center
        if token[:1].isdigit() and token[1:] in SLOT_NAMES:
            return lay.slot_rect(me, int(token[0]), token[1:]).center
        moving = self.chosen[:1] == ["move"] or "move" in self.highlights
        if moving and token in ("captain", "sailor", "cannon"):
            for zone in ship["zones"]:
                z = zone["zone"]
                if token == "captain" and zone["captain"]:
                    return self._unit_spots(lay, me, zone)["captain"].center
                if token == "sailor" and zone["sailors"]:
                    return self._unit_spots(lay, me, zone)["sailor"].center
                if token == "cannon" and zone["cannons"]:
                    return lay.slot_rect(me, z, zone["cannons"][0]).center
        return None

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = self._layout(rect, view)
        lit, chosen = self.highlights, self.chosen
        for name in ("ahead", "back", "initiative"):
            if name in lit and lay.buttons[name].collidepoint(pos):
                return name
        for name, box in reversed(lay.hand):
            if box.collidepoint(pos):
                return name
        me = self._own(view)
        moving = chosen[:1] == ["move"] or "move" in lit
        for zone in view["ships"][me]["zones"]:
            z = zone["zone"]
            for slot in SLOT_NAMES:
                if lay.slot_rect(me, z, slot).inflate(4, 4).collidepoint(pos):
                    if f"{z}{slot}" in lit:
                        return f"{z}{slot}"
                    if moving and "cannon" in lit and slot in zone["cannons"]:
                        return "cannon"
                    if slot in lit and chosen and chosen[-1] == str(z):
                        return slot
                    if str(z) in lit:
                        return f"{z} {slot}" if chosen[:1] == ["cannon"] or "cannon" in lit else str(z)
            if moving:
                spots = self._unit_spots(lay, me, zone)
                for kind in ("captain", "sailor"):
                    if kind in lit and kind in spots and spots[kind].collidepoint(pos):
                        return kind
            if lay.zone_rect(me, z).collidepoint(pos):
                return str(z)
        return None

    def _unit_spots(self, lay: Layout, seat: int, zone: dict) -> dict[str, pygame.Rect]:
        """Where the mast, the captain and the sailors of a zone are drawn."""
        z = lay.zone_rect(seat, zone["zone"])
        r = max(6, int(min(z.w, z.h) * 0.2))
        spots = {}
        cy = z.centery
        if zone["mast"]:
            spots["mast"] = pygame.Rect(0, 0, int(r * 2.6), int(r * 2.6))
            spots["mast"].center = (z.centerx, cy)
        top, bottom = cy - int(z.h * 0.2), cy + int(z.h * 0.2)
        if zone["captain"]:
            spots["captain"] = pygame.Rect(0, 0, 2 * r, 2 * r)
            spots["captain"].center = (z.centerx, top if zone["sailors"] or zone["mast"] else cy)
        if zone["sailors"]:
            spots["sailor"] = pygame.Rect(0, 0, 2 * r, 2 * r)
            spots["sailor"].center = (z.centerx, bottom if zone["captain"] or zone["mast"] else cy)
        return spots

    # ------------------------------------------------------------------ the last move

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        """The last move (another seat's, or the replay's current one), outlined where it happened: the
        card played in its seat's slot, the zones, slots and units a resolution touched on the ship (a
        shot or a swing joined to the enemy zone it hit), the whole ship when it sailed, the pawn when
        it took the initiative, the card row for an exchange or damage."""
        parts = action.split()
        if not parts:
            return
        verb = parts[0]
        mover = seat if seat in (0, 1) else _mover(view, verb)
        lay = self._layout(rect, view)
        width = max(3, self.px // 6)
        colour = theme.LAST_MOVE

        def ring(box: pygame.Rect, grow: int = 6) -> None:
            pygame.draw.rect(surface, colour, box.inflate(grow, grow), width, border_radius=6)

        def zone(z: str) -> pygame.Rect | None:
            return lay.zone_rect(mover, int(z)) if z.isdigit() and 1 <= int(z) <= 7 else None

        def slot(token: str) -> pygame.Rect | None:
            z, name = token[:1], token[1:]
            return lay.slot_rect(mover, int(z), name) if z.isdigit() and 1 <= int(z) <= 7 and name in SLOT_NAMES \
                else None

        if verb == "pick":
            ring(self._slot(lay, mover))
        elif verb in ("sailor", "promote") and len(parts) == 2 and zone(parts[1]):
            ring(zone(parts[1]), -6)
        elif verb == "cannon" and len(parts) == 3 and slot(parts[1] + parts[2]):
            ring(slot(parts[1] + parts[2]))
        elif verb == "move" and len(parts) == 4:
            ends = [zone(p) for p in parts[2:]] if parts[1] != "cannon" else [slot(p) for p in parts[2:]]
            if all(ends):
                for box in ends:
                    ring(box, -6 if parts[1] != "cannon" else 6)
                pygame.draw.line(surface, colour, ends[0].center, ends[1].center, max(2, width - 1))
        elif verb in ("swing", "fire") and len(parts) == 2 and zone(parts[1]):
            own = zone(parts[1])
            ring(own, -6)
            target = dict(view.get("facing", [])).get(int(parts[1]), 0)   # the engine's facing pairs
            if target:
                hit = lay.zone_rect(1 - mover, target)
                ring(hit, -6)
                pygame.draw.line(surface, colour, own.center, hit.center, max(2, width - 1))
        elif verb == "navigate" and parts[1:] == ["initiative"]:
            pawn = lay.buttons["initiative"]
            pygame.draw.circle(surface, colour, pawn.center, pawn.w // 2 + 6, width)
        elif verb == "navigate":
            ship = lay.zone_rect(mover, 1).union(lay.zone_rect(mover, 7))
            ring(ship, 10)
        elif verb in ("exchange", "damage"):
            ring(lay.strips[mover], -4)

    @staticmethod
    def _slot(lay: Layout, seat: int) -> pygame.Rect:
        """Where a seat's card of this turn lies: at the right end of its strip."""
        strip = lay.strips[seat]
        cw, ch = lay.card
        return pygame.Rect(strip.right - cw - 12, strip.y + px_gap(strip), cw, ch)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.px, self.chosen, self.highlights = px, list(chosen), set(highlights)
        self._glide(view)
        lay = self._layout(rect, view)
        pygame.draw.rect(surface, SEA, rect, border_radius=10)
        self._waves(surface, lay)
        for seat in (1, 0):
            self._ship(surface, lay, view, seat, highlights if seat == self._own(view) else set(), chosen)
        self._facing(surface, lay, view)
        self._controls(surface, lay, view, highlights)
        for seat in (0, 1):
            self._strip(surface, lay, view, seat, highlights, px)

    def _glide(self, view: dict) -> None:
        """The drawn offset follows the real one at a few zones a second, so sailing shows."""
        now = pygame.time.get_ticks()
        target = _columns(view)
        drawn = self.drawn
        if drawn is None or any(abs(a - b) > 3 for row, goal in zip(drawn, target, strict=True)
                                for a, b in zip(row, goal, strict=True)):
            self.drawn = target
        else:
            step = (now - self.last_ms) / 1000 * 4
            self.drawn = tuple(tuple(b if abs(b - a) <= step else a + math.copysign(step, b - a)
                                     for a, b in zip(row, goal, strict=True))
                               for row, goal in zip(drawn, target, strict=True))
        self.last_ms = now

    def _waves(self, surface: pygame.Surface, lay: Layout) -> None:
        step = max(24, int(lay.zone_w))
        drift = int(lay.columns[0][0] * lay.zone_w / 4) % step
        for y in range(lay.sea.y + 6, lay.sea.bottom - 6, step // 2):
            for x in range(lay.sea.x - step + drift + (y * 3) % step, lay.sea.right - step // 2, step):
                pygame.draw.arc(surface, (58, 118, 160), (x, y, step // 2, 8), 0.3, 2.8, 2)

    def _ship(self, surface: pygame.Surface, lay: Layout, view: dict, seat: int, lit: set[str],
              chosen: list[str]) -> None:
        ship = view["ships"][seat]
        zones = {z["zone"]: z for z in ship["zones"]}
        bow, stern = lay.zone_rect(seat, 1), lay.zone_rect(seat, 7)
        colour = SHIP_COLOURS[seat]
        # hull: Gold's bow points right (it sails right), Silver's left
        if seat == 0:
            left, right = stern.x, bow.right
            tip = (right + int(lay.zone_w * 0.7), bow.centery)
            hull = [(left - 4, stern.y + 6), (right, bow.y), tip, (right, bow.bottom), (left - 4, stern.bottom - 6)]
        else:
            left, right = bow.x, stern.right
            tip = (left - int(lay.zone_w * 0.7), bow.centery)
            hull = [(right + 4, stern.y + 6), (left, bow.y), tip, (left, bow.bottom), (right + 4, stern.bottom - 6)]
        pygame.draw.polygon(surface, (14, 40, 60), [(x + 4, y + 6) for x, y in hull])
        pygame.draw.polygon(surface, HULL, hull)
        pygame.draw.polygon(surface, paint.darker(HULL, 0.4), hull, 3)
        deck = pygame.Rect(min(bow.x, stern.x), bow.y, abs(bow.right - stern.x) if seat == 0 else stern.right - bow.x,
                           lay.ship_h).inflate(-6, -int(lay.ship_h * 0.2))
        pygame.draw.rect(surface, DECK, deck)
        for k in range(1, 4):
            y = deck.y + deck.h * k // 4
            pygame.draw.line(surface, paint.darker(DECK, 0.15), (deck.x, y), (deck.right, y), 1)
        pygame.draw.rect(surface, colour, deck, 3)  # the gilded or silvered rail
        for z in range(1, 8):
            zone = zones[z]
            box = lay.zone_rect(seat, z)
            cell = pygame.Rect(box.x, deck.y, box.w, deck.h)
            if z > 1:
                edge = box.right if seat == 0 else box.x
                pygame.draw.line(surface, paint.darker(DECK, 0.45), (edge, deck.y), (edge, deck.bottom), 2)
            label_y = deck.bottom - 2 if seat == 0 else deck.y + 2
            paint.text(surface, str(z), (cell.x + 4, label_y), max(theme.min_size(), self.px - 5),
                       paint.darker(DECK, 0.55),
                       bold=True, anchor="bottomleft" if seat == 0 else "topleft")
            if zone["destroyed"]:
                shade = pygame.Surface(cell.size, pygame.SRCALPHA)
                shade.fill((20, 10, 10, 150))
                surface.blit(shade, cell)
                skull(surface, cell.center, max(8, int(min(cell.w, cell.h) * 0.28)))
            for slot in SLOT_NAMES:
                port = lay.slot_rect(seat, z, slot)
                pygame.draw.rect(surface, paint.darker(HULL, 0.5), port, border_radius=3)
                if slot in zone["cannons"]:
                    cannon(surface, port, pointing_up=(port.y < box.centery))
            spots = self._unit_spots(lay, seat, zone)
            r = spots[next(iter(spots))].w // 2 if spots else 6
            if "mast" in spots:
                m = spots["mast"]
                pygame.draw.circle(surface, (70, 44, 24), m.center, m.w // 2)
                pygame.draw.circle(surface, (120, 84, 50), m.center, m.w // 2 - 3)
                pygame.draw.line(surface, (70, 44, 24), (m.centerx, m.y - 6), (m.centerx, m.bottom + 6), 3)
            if "captain" in spots:
                captain(surface, spots["captain"].center, spots["captain"].w // 2, colour)
            if "sailor" in spots:
                c = spots["sailor"].center
                n = zone["sailors"]
                for k in range(min(n, 3)):
                    sailor(surface, (c[0] + (k - (min(n, 3) - 1) / 2) * r * 0.9, c[1]), r, colour)
                if n > 1:
                    # beside the sailors at their height: level with the cell's number (its corner), it read
                    # as one word with the next zone's ("x23")
                    size = max(theme.min_size(), self.px - 4)   # (inside its cell: past it, "x2" ran into "3")
                    x = min(c[0] + r + 2, cell.right - 3 - theme.font(size, True).size(f"x{n}")[0])
                    paint.text(surface, f"x{n}", (x, c[1]), size, paint.INK, bold=True, anchor="midleft")
            # what may be clicked on the own ship right now
            if str(z) in lit:
                paint.frame(surface, cell.inflate(-4, -4), theme.HILITE, 3)
            for slot in SLOT_NAMES:
                port = lay.slot_rect(seat, z, slot)
                if f"{z}{slot}" in lit or (slot in lit and chosen and chosen[-1] == str(z)):
                    paint.frame(surface, port, theme.HILITE, 2)
                if "cannon" in lit and chosen[:1] == ["move"] and slot in zone["cannons"]:
                    paint.frame(surface, port, theme.HILITE, 2)
            for kind in ("captain", "sailor"):
                if kind in spots and kind in lit and (chosen[:1] == ["move"] or "move" in lit):
                    paint.ring(surface, spots[kind].center, spots[kind].w // 2 + 3)
            for k, token in enumerate(chosen):
                if token == str(z) and k > 0:
                    pygame.draw.rect(surface, theme.ACCENT, cell.inflate(-2, -2), 3, border_radius=4)
                if token == f"{z}in" or token == f"{z}out":
                    pygame.draw.rect(surface, theme.ACCENT, lay.slot_rect(seat, z, token[1:]).inflate(6, 6), 3)

    def _facing(self, surface: pygame.Surface, lay: Layout, view: dict) -> None:
        """Faint lines across the channel between zones that face each other now."""
        if self.drawn is None or self.drawn != _columns(view):
            return  # only once the ships have glided into place
        for gold, silver in view.get("facing", []):
            a = lay.zone_rect(0, gold)
            b = lay.zone_rect(1, silver)
            for k in range(b.bottom + 4, a.y - 4, 10):
                pygame.draw.line(surface, (120, 170, 200), (a.centerx, k), (a.centerx, min(k + 5, a.y - 4)), 1)

    def _controls(self, surface: pygame.Surface, lay: Layout, view: dict, lit: set[str]) -> None:
        px = self.px
        info = f"Round {view['round']}/{view['round_limit']}  -  turn {view['turn']}  -  offset {view['o']}"
        phase = {"pick": "choose a card", "resolve": "resolving", "exchange": "lull: exchange",
                 "damage": "lull: damage", "over": "game over"}.get(view["phase"], view["phase"])
        if view.get("resolving"):
            r = view["resolving"]
            phase = f"resolving {SHIP_NAMES[r['seat']]}'s {r['card']}"
        paint.text(surface, info, (lay.sea.centerx, lay.sea.y + 4), px - 2, theme.TEXT, bold=True, anchor="midtop",
                   shadow=True)
        paint.text(surface, phase, (lay.sea.centerx, lay.sea.y + px + 2), px - 3, theme.HILITE, anchor="midtop",
                   shadow=True)
        pawn = lay.buttons["initiative"]
        holder = view.get("pawn", 0)
        pygame.draw.circle(surface, (20, 20, 20), (pawn.centerx + 2, pawn.centery + 3), pawn.w // 2)
        paint.disc(surface, pawn.center, pawn.w // 2, SHIP_COLOURS[holder])
        _wheel(surface, pawn.center, pawn.w // 4, paint.darker(SHIP_COLOURS[holder], 0.6))
        paint.text(surface, "initiative", (pawn.right + 4, pawn.centery), max(theme.min_size(), px - 6), theme.TEXT,
                   anchor="midleft", shadow=True)
        if "initiative" in lit:
            paint.ring(surface, pawn.center, pawn.w // 2 + 3)
        for name in ("back", "ahead"):
            if name not in lit:
                continue
            box = lay.buttons[name]
            pygame.draw.circle(surface, theme.ACCENT, box.center, box.w // 2)
            sign = 1 if name == "ahead" else -1
            c = box.center
            r = box.w // 3
            pygame.draw.polygon(surface, paint.INK, [(c[0] + sign * r, c[1]), (c[0] - sign * r // 2, c[1] - r),
                                                     (c[0] - sign * r // 2, c[1] + r)])
            paint.ring(surface, box.center, box.w // 2 + 2)
            paint.text(surface, name, (box.centerx, box.y - 1), max(theme.min_size(), px - 6), theme.TEXT,
                       anchor="midbottom",
                       shadow=True)

    def _strip(self, surface: pygame.Surface, lay: Layout, view: dict, seat: int, lit: set[str], px: int) -> None:
        """One seat's cards and hold along its edge (the viewer's at the bottom)."""
        me = self._own(view)
        strip = lay.strips[seat]  # beside its own ship, whoever looks
        colour = SHIP_COLOURS[seat]
        paint.rounded_panel(surface, strip, (22, 32, 46), theme.PANEL_EDGE, radius=8, alpha=230, width=1)
        cards = view["cards"][seat]
        cw, ch = lay.card
        y = strip.y + px_gap(strip)
        # name, crew, skulls and the hold
        x = strip.x + 8
        small = max(theme.min_size(), px - 6)    # the captions under the cards (issue 6: 10 px at 1024x600)
        info = max(theme.min_size(), px - 5)
        # the ship's name and player whole: in two lines ("Silver:" over "random bot 1") where one is not enough
        hx, names, wrapped = info_column(strip, view, seat, px)
        for k, line in enumerate(names):
            paint.text(surface, line, (x, strip.y + 4 + k * (px + 2)), px + 2, colour, bold=True)
        top = strip.y + px + 8 + (len(names) - 1) * (px + 2)
        pitch = theme.font(info).get_linesize() + 1
        room = max(1, (strip.bottom - top) // pitch)
        for k, line in enumerate(wrapped[:room]):
            paint.text(surface, line, (x, top + k * pitch), info, theme.MUTED)
        # hand: face up for its owner and in a revealed replay (every secret known), else backs
        hand = cards.get("hand")
        if hand is not None:
            counts = {name: hand.count(name) for name in hand}
            boxes = lay.hand if seat == me else self._hand_boxes(strip, hand, lay, hx)
            unnamed = []   # covered cards too narrow a strip for their names: the caption names them
            shown = [boxes[k + 1][1].x - box.x if k + 1 < len(boxes) and boxes[k + 1][1].x - box.x < box.w else None
                     for k, (_, box) in enumerate(boxes)]
            for (name, box), part in zip(boxes, shown, strict=True):
                if not card(surface, box, name, px, levels=view.get("hierarchy"), shown=part):
                    unnamed.append(name)
                if name in lit and seat == me:
                    paint.frame(surface, box, theme.HILITE, 3)
            for (name, box), part in zip(boxes, shown, strict=True):   # over the fan: in each card's own strip
                if counts[name] > 1:
                    badge = (box.x + min(box.w // 5, (part or box.w) // 2), box.bottom - box.w // 5)
                    pygame.draw.circle(surface, paint.INK, badge, max(8, box.w // 6))
                    paint.text(surface, f"x{counts[name]}", badge, max(theme.min_size(), px - 6), paint.IVORY,
                               bold=True, anchor="center")
            mine = seat == view.get("_me", view.get("seat"))
            caption = ("your hand" if mine else "hand (revealed)" if "_names" in view and seat != me else "hand")
            named = f"{caption}, also {', '.join(unnamed)}" if unnamed else caption
            if theme.font(small).size(named)[0] <= piles_x(strip, lay) - hx - 8:
                caption = named   # (else the covered cards by their colour and icon alone, as in the log)
            paint.text(surface, caption, (hx, strip.bottom - 2), small, theme.MUTED, anchor="bottomleft")
        else:
            n = cards["hand_count"]
            step = min(cw // 3, int(strip.w * 0.3) // max(1, n))
            for k in range(n):
                card(surface, pygame.Rect(hx + k * step, y, cw, ch), None, px)
            paint.text(surface, f"hand: {n} hidden", (hx, strip.bottom - 2), small, theme.MUTED, anchor="bottomleft")
        # deck, discard, exchange, damage
        px2 = piles_x(strip, lay)
        deck = pygame.Rect(px2, y, cw, ch)
        if cards["deck_count"]:
            for k in range(min(3, cards["deck_count"]) - 1, -1, -1):
                card(surface, deck.move(k * 2, -k * 2), None, px)
        else:
            pygame.draw.rect(surface, theme.PANEL_EDGE, deck, 1, border_radius=6)
        paint.text(surface, f"deck {cards['deck_count']}", (deck.centerx, strip.bottom - 2), small, theme.MUTED,
                   anchor="midbottom")
        # the captions under the deck, the discard and the exchange side by side with a space between
        # them ("deck 3discard 1" where the cards are narrow)
        widths = [theme.font(small).size(t)[0] for t in (f"deck {cards['deck_count']}",
                                                          f"discard {len(cards['discard'])}")]
        pile = deck.move(max(cw + 10, (widths[0] + widths[1]) // 2 + 10), 0)
        if cards["discard"]:
            card(surface, pile, cards["discard"][-1], px, levels=view.get("hierarchy"))
        else:
            pygame.draw.rect(surface, theme.PANEL_EDGE, pile, 1, border_radius=6)
        paint.text(surface, f"discard {len(cards['discard'])}", (pile.centerx, strip.bottom - 2), small,
                   theme.MUTED, anchor="midbottom")
        ex_x = max(pile.right + 10, pile.centerx + widths[1] // 2 + 6)
        mini = (int(cw * 0.62), int(ch * 0.62))
        swap = cards["exchange"] + cards["reserve"]
        room = strip.right - cw - 24 - ex_x - mini[0]
        step = min(mini[0] * 2 // 3, room // max(1, len(swap) - 1)) if len(swap) > 1 else 0
        for k, name in enumerate(swap):
            with textfit.paused() if k < len(swap) - 1 else contextlib.nullcontext():  # a fan: the top card reads
                card(surface, pygame.Rect(ex_x + k * step, y, *mini), name, max(10, px - 6),
                     levels=view.get("hierarchy"), mini=True)
        label = "exchange" if cards["exchange"] else ("reserve" if cards["reserve"] else "")
        label_right = ex_x
        if label:
            label_right = paint.text(surface, label, (ex_x, strip.bottom - 2), small, theme.MUTED,
                                     anchor="bottomleft").right
        if cards["damage_count"]:
            dmg = pygame.Rect(ex_x, y + mini[1] - mini[1] // 3, *mini)
            paint.text(surface, f"damage {cards['damage_count']}", (dmg.x, y + mini[1] + 4), info, theme.BAD)
        # this turn's card: face down while committed, turned face up at the reveal
        slot = self._slot(lay, seat)
        shown = view["revealed"][seat]
        picked = view["picks"][seat]
        pygame.draw.rect(surface, theme.PANEL_EDGE, slot.inflate(6, 6), 1, border_radius=8)
        sealed = view["phase"] == "pick" and seat == me and not lit and view.get("result") is None \
            and seat in view["awaiting"]["seats"]
        if view["phase"] == "pick" and (sealed or (picked is not None)):
            card(surface, slot, picked if seat == me and picked else None, px, levels=view.get("hierarchy"))
            caption = "sealed"
        elif view["phase"] == "pick" and view.get("result") is None:
            caption = "choosing..."
            if shown:
                card(surface, slot, shown, px, dim=True, levels=view.get("hierarchy"))
                caption = "choosing (last: " + shown + ")"
        elif shown:
            self._reveal(surface, slot, shown, view, px)
            resolving = view.get("resolving")
            caption = "resolving" if resolving and resolving["seat"] == seat else "played"
        else:
            caption = ""
        room = slot.right - max(label_right + px // 2, slot.x - cw)  # never into the exchange's label
        if theme.font(small).size(caption)[0] > room and caption.startswith("choosing (last: "):
            # the longest of the shorter forms that fits whole (a cut card name reads as another card)
            caption = next((c for c in ("last: " + shown, shown) if theme.font(small).size(c)[0] <= room),
                           "choosing...")
        paint.text(surface, paint.fit(caption, small, room), (slot.right, strip.bottom - 2), small, theme.MUTED,
                   anchor="bottomright")

    def _reveal(self, surface: pygame.Surface, slot: pygame.Rect, name: str, view: dict, px: int) -> None:
        """Turn the card over when a new pair is revealed: the back narrows, then the face widens."""
        key = (view["round"], view["turn"], tuple(view["revealed"]))
        now = pygame.time.get_ticks()
        if view.get("result") is not None:
            self.reveal_key = key
        if key != self.reveal_key:
            self.reveal_key, self.reveal_ms = key, now
        t = (now - self.reveal_ms) / 450
        if t >= 1:
            card(surface, slot, name, px, levels=view.get("hierarchy"))
            return
        width = max(2, int(slot.w * abs(1 - 2 * t)))
        face = pygame.Rect(0, 0, width, slot.h)
        face.center = slot.center
        card(surface, face, None if t < 0.5 else name, px, levels=view.get("hierarchy"))


_VERB_CARDS = frozenset(("sailor", "cannon", "move", "navigate", "swing", "fire", "promote"))   # a card per verb


def _mover(view: dict, verb: str) -> int:
    """Who made a resolution move when the caller does not say: the seat whose revealed card it
    belongs to (the first, when both played the same card), else the viewer's own seat."""
    card = verb if verb in _VERB_CARDS else None
    revealed = view.get("revealed") or []
    for seat, name in enumerate(revealed):
        if card is not None and name == card:
            return seat
    seat = view.get("seat")
    return seat if seat in (0, 1) else 0


def info_column(strip: pygame.Rect, view: dict, seat: int, px: int) -> tuple[int, list[str], list[str]]:
    """Where a strip's hand starts, after the column of the ship's name and facts (crew, skulls, the hold...),
    and that column's lines: 18 % of the strip, or as much more (30 % at most) as its lines need to be there
    whole, wrapped to it, so that none runs under the hand or is left out (at 1024x600 the viewer's low strip
    lost the hold's "cannons", issue 34)."""
    info = max(theme.min_size(), px - 5)
    ship = view["ships"][seat]
    hold = ship["hold"]
    lines = [f"crew {ship['crew']}   skulls {ship['skulls']}",
             f"hold: {'captain, ' if hold['captain'] else ''}{hold['sailors']} sailors, {hold['cannons']} cannons"]
    if ship.get("promotion_due"):
        lines.append("promotion due")
    if view.get("pawn") == seat:
        lines.append("holds the initiative")
    name = paint.seat_label(view, seat, SHIP_NAMES[seat])
    pitch = theme.font(info).get_linesize() + 1
    chosen = (0, [], [])
    for share in (18, 20, 22, 24, 26, 28, 30):
        hx = strip.x + strip.w * share // 100
        names = paint.label_lines(name, px + 2, hx - strip.x - 8, bold=True)
        wrapped = [part for line in lines for part in wrap(line, info, hx - strip.x - 16)]
        top = strip.y + px + 8 + (len(names) - 1) * (px + 2)
        chosen = (hx, names, wrapped)
        if len(wrapped) <= max(1, (strip.bottom - top) // pitch):
            break
    return chosen


def piles_x(strip: pygame.Rect, lay: Layout) -> int:
    """Where a strip's deck starts: at 60 % of it, or earlier where the deck, the discard pile, the exchange
    and this turn's card need more room to its right (cards widened for their names, `card_width`), so that
    none of them lies over the next."""
    cw, _ = lay.card
    caption = theme.font(theme.min_size())
    pile = max(cw + 10, (caption.size("deck 10")[0] + caption.size("discard 10")[0]) // 2 + 10)
    exchange = max(cw + 10, cw // 2 + caption.size("discard 10")[0] // 2 + 6)
    fan = max(int(cw * 0.62) * 2, caption.size("exchange")[0]) + 10
    need = pile + exchange + fan + cw + 24
    return min(strip.x + int(strip.w * 0.6), strip.right - need)


def px_gap(strip: pygame.Rect) -> int:
    return max(4, strip.h // 14)


def _columns(view: dict) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(c) for c in row) for row in view["columns"])
