"""Painting the island: the sea frame, harbours, terrain and number tokens (once per board, on the
backdrop), then the pieces, what a click may choose now, and another seat's last move."""

from __future__ import annotations

import math

import pygame

from client.games import paint
from client.games.catan.geometry import Layout, _edge_hex, _hex_points, _inside_polygon
from client.games.catan.look import (
    FRAME,
    PIPS,
    RED_NUMBER,
    RESOURCE_COLOURS,
    RESOURCE_INK,
    SAND,
    SEA,
    TERRAIN,
    piece_colour,
)
from client.games.catan.pieces import _outline_segment, _texture, city, glyph, road, robber, settlement
from client.ui import theme


class BoardPainter:
    """The island and what stands on it, as the Renderer draws it (a part of `Renderer`)."""

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
                       max(10, round(rr * 0.95)), ink, bold=True, anchor="center", symbol=True)  # sized to its disc
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
            paint.text(s, f"h{h}", label_at, max(9, round(r * 0.24)), paint.darker(colour, 0.55), anchor="center",
                       symbol=True)   # the hex's id, faint on purpose
            if number:
                tr = max(8, round(r * 0.34))
                pygame.draw.circle(s, (0, 0, 0), (centre[0] + 1, centre[1] + 2), tr)
                pygame.draw.circle(s, (244, 232, 200), centre, tr)
                pygame.draw.circle(s, (120, 100, 70), centre, tr, 1)
                hot = number in (6, 8)
                ink = RED_NUMBER if hot else paint.INK
                size = max(10, round(tr * (1.2 if hot else 1.05)))
                paint.text(s, str(number), (centre[0], centre[1] - tr // 6), size, ink, bold=True, anchor="center",
                           symbol=True)   # sized to its token, as the pips under it
                dots = PIPS.get(number, 0)
                dr = max(1, tr // 9)
                for k in range(dots):
                    dot = (centre[0] + round((k - (dots - 1) / 2) * dr * 3), centre[1] + tr * 3 // 5)
                    pygame.draw.circle(s, ink, dot, dr)
            elif terrain == "desert":
                at = (centre[0] + round(r * 0.12), centre[1] + round(r * 0.3))
                paint.text(s, "desert", at, max(9, round(r * 0.26)), paint.darker(colour, 0.5), anchor="center",
                           symbol=True)   # faint, as the hex ids

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
