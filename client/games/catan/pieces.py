"""The drawn things, each a pure function of a surface and a place: settlements, cities, roads, the
robber, resource glyphs, development card icons and backs, terrain marks and outlines. The C&K
table draws with them too."""

from __future__ import annotations

import math

import pygame

from client.games import paint
from client.ui import theme


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


def _outline(surface: pygame.Surface, rect: pygame.Rect, width: int) -> None:
    """A breathing highlight just inside a clickable box."""
    grow = round(paint.pulse() * 2)
    pygame.draw.rect(surface, theme.HILITE, rect.inflate(grow * 2 - 2, grow * 2 - 2), width, border_radius=6)


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
