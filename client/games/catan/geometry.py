"""Where everything lies: the island's nodes, edges and hexes in pixels and the rectangles of the
header, the seats, the bank, the hand and the cards, for a given size of the board. Drawing and
clicking both ask it, so a click lands where the thing was drawn."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from engines.catan.board import EDGES, HEX_NODES, NODE_XY, hex_centre

SQRT3_2 = math.sqrt(3) / 2
# the island with its harbours, in hex radii: the sea frame is a flat-topped hexagon of this half size
HALF_W, HALF_H = 5.35, 4.7


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


def layout(rect: pygame.Rect, players: int, px: int, band: float = 0, bank: float = 4.6, dice: int = 2,
           hand: float = 0.5, header_extra: int = 0) -> Layout:
    """The board's parts; `band` (in font sizes) a row above the island, `bank` the bank's height,
    `dice` how many dice the header shows, `hand` the hand's share of the strip (the cards get the rest:
    shares by what each shows, so that every card's name reads whole at 12 px, issue 6), `header_extra`
    lines of text the header holds beyond its two (its words wrapped where the board is narrow)."""
    pad = max(6, px // 3)
    side_w = max(190, min(int(rect.w * 0.34), px * 17))
    side = pygame.Rect(rect.right - side_w - pad, rect.y + pad, side_w, rect.h - 2 * pad)
    left = pygame.Rect(rect.x + pad, rect.y + pad, side.x - rect.x - 2 * pad, rect.h - 2 * pad)
    header = pygame.Rect(left.x, left.y, left.w, round(px * 2.1) + header_extra * header_pitch(px))
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
    split = strip.x + int(strip.w * hand)
    hand = pygame.Rect(strip.x, strip.y, split - strip.x - gap // 2, strip.h)
    cards = pygame.Rect(split + gap // 2, strip.y, strip.right - split - gap // 2, strip.h)
    return Layout(header, island, strip, side, seats, bank_rect, centre, radius, dice_rect, hand, cards, band_rect)


def header_pitch(px: int) -> int:
    """The distance between two lines of the header's text."""
    return px + 3


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
