"""Capt'n W. Kidd's deck (Loyal Captain, Quedah Merchant, Madagaskar): the 18-field graph drawn from
the view's board data as a hexagonal ship's deck in the sea, with hatches for the start fields and
gangplanks for their entries from outside, pirates that face the way they walk (the legs point at
the field they came from), stacks and towers with their stones bottom to top, and beside the deck
each seat's supply, score and turn, plus the die in Quedah Merchant.

Clicks give field numbers; clicking your supply gives `enter`. The positions come from the view, so
a corrected board table redraws without a change here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from client.games import paint
from client.ui import theme
from client.ui.widgets import wrap

SEA = (32, 86, 124)
SEA_DEEP = (24, 66, 100)
WAVE = (70, 130, 170)
DECK = (168, 122, 74)
DECK_DARK = (132, 92, 52)
RAIL = (92, 58, 30)
ROPE = (214, 186, 130)
FIELD = (196, 152, 98)
INNER = (204, 164, 110)
HATCH = (86, 58, 34)
GRATE = (140, 100, 60)
SKIN = (238, 204, 164)

MARGIN = 30  # canvas units around the 1000 x 1000 drawing area, room for the entry stubs
FIELD_R = 50
STONE_R = 37
MAX_LAYERS = 6


@dataclass(frozen=True, slots=True)
class Layout:
    square: pygame.Rect
    info: pygame.Rect
    unit: float

    def at(self, x: float, y: float) -> tuple[int, int]:
        return (round(self.square.x + (x + MARGIN) * self.unit), round(self.square.y + (y + MARGIN) * self.unit))

    def r(self, units: float) -> int:
        return max(2, round(units * self.unit))


def layout(rect: pygame.Rect, canvas: int = 1000) -> Layout:
    """The deck in a square at the left (or top, in a tall window), the seat panel beside it."""
    pad = max(8, rect.h // 60)
    if rect.w >= rect.h * 1.2:
        info_w = max(200, int(rect.w * 0.24))
        side = min(rect.h - 2 * pad, rect.w - info_w - 3 * pad)
        square = pygame.Rect(rect.x + pad, rect.y + (rect.h - side) // 2, side, side)
        info = pygame.Rect(square.right + pad, rect.y + pad, rect.right - square.right - 2 * pad, rect.h - 2 * pad)
    else:
        info_h = max(150, int(rect.h * 0.24))
        side = min(rect.w - 2 * pad, rect.h - info_h - 3 * pad)
        square = pygame.Rect(rect.x + (rect.w - side) // 2, rect.y + pad, side, side)
        info = pygame.Rect(rect.x + pad, square.bottom + pad, rect.w - 2 * pad, rect.bottom - square.bottom - 2 * pad)
    return Layout(square, info, side / (canvas + 2 * MARGIN))


def _angle(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.atan2(b[1] - a[1], b[0] - a[0])


def pirate(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour, forward: float) -> None:
    """A pirate seen from above, shaped like a Y: the legs spread behind it (towards the field it
    came from), the body, and the head with a dark bandana at the front, plus a pale chevron on the
    body, so its facing reads at a glance even when small."""
    back = forward + math.pi
    boot = paint.darker(colour, 0.7)
    for side in (-0.5, 0.5):
        foot = paint.polar(centre, back + side, r * 1.15)
        pygame.draw.line(surface, boot, centre, foot, max(3, r // 3))
        pygame.draw.circle(surface, paint.INK, foot, max(2, r // 5))
    paint.disc(surface, centre, round(r * 0.78), colour)
    tip = paint.polar(centre, forward, r * 0.42)
    wing = r * 0.36
    chevron = [paint.polar(centre, back - 0.9, wing), tip, paint.polar(centre, back + 0.9, wing)]
    pygame.draw.lines(surface, paint.lighter(colour, 0.6), False, chevron, max(2, r // 6))
    head = paint.polar(centre, forward, r * 0.78)
    hr = max(3, round(r * 0.34))
    pygame.draw.circle(surface, paint.INK, head, hr + 1)
    pygame.draw.circle(surface, SKIN, head, hr)
    band = [paint.polar(head, forward + math.pi / 2 + k * math.pi / 8, hr) for k in range(9)]
    pygame.draw.polygon(surface, paint.INK, band)


def tower(surface: pygame.Surface, centre: tuple[int, int], r: int, owners: list[int], forward: float,
          px: int) -> None:
    """A stack or tower, bottom to top, each stone in its owner's colour; the top one is the pirate
    that moves it. Very tall towers show their upper stones and the height."""
    shown = owners[-MAX_LAYERS:]
    lift = max(2, round(r * 0.3))
    n = len(shown)
    x, y = centre
    base_y = y + lift * (n - 1) // 2
    for k, owner in enumerate(shown[:-1]):
        cy = base_y - k * lift
        colour = theme.seat_colour(owner)
        pygame.draw.circle(surface, paint.darker(colour, 0.55), (x, cy + 2), round(r * 0.92))
        pygame.draw.circle(surface, colour, (x, cy), round(r * 0.92))
        pygame.draw.circle(surface, paint.darker(colour, 0.6), (x, cy), round(r * 0.92), 2)
    top = (x, base_y - (n - 1) * lift)
    pirate(surface, top, r, theme.seat_colour(shown[-1]), forward)
    if len(owners) > 1:
        badge = (top[0] + round(r * 0.95), top[1] - round(r * 0.95))
        size = max(9, round(r * 0.5))
        pygame.draw.circle(surface, paint.IVORY, badge, size)
        pygame.draw.circle(surface, paint.INK, badge, size, 2)
        paint.text(surface, str(len(owners)), badge, max(12, round(size * 1.5)), paint.INK, bold=True,
                   anchor="center")


class Renderer:
    def __init__(self) -> None:
        self.backdrop = paint.StaticLayer()
        self.px = 20  # label size of the last frame; the seat cards (clickable supply) depend on it

    # ------------------------------------------------------------------ geometry

    @staticmethod
    def _fields(view: dict) -> dict[int, dict]:
        return {f["field"]: f for f in view["fields"]}

    def _seat_cards(self, info: pygame.Rect, players: int, px: int, extra: bool) -> list[pygame.Rect]:
        """One card per seat, stacked; room is left below for the die or phase notes."""
        gap = max(6, px // 3)
        reserved = int(info.h * (0.34 if extra else 0.16))
        h = min(px * 6, (info.h - reserved - gap * players) // players)
        wide = info.w > info.h * 1.5  # seat panel below the deck: cards side by side
        if wide:
            w = (info.w - reserved - gap * players) // players
            return [pygame.Rect(info.x + k * (w + gap), info.y, w, info.h) for k in range(players)]
        return [pygame.Rect(info.x, info.y + k * (h + gap), info.w, h) for k in range(players)]

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        """Where a click gives `token` (used by tests and keyboard hints)."""
        lay = layout(rect, view["board"]["canvas"])
        if token.isdigit():
            f = self._fields(view).get(int(token))
            return None if f is None else lay.at(f["x"], f["y"])
        if token == "enter" and view.get("seat") is not None:
            cards = self._seat_cards(lay.info, len(view["supply"]), self.px, "die" in view)
            return cards[view["seat"]].center
        return None

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = layout(rect, view["board"]["canvas"])
        best, best_d = None, (FIELD_R * 1.2 * lay.unit) ** 2
        for f in view["fields"]:
            x, y = lay.at(f["x"], f["y"])
            d = (x - pos[0]) ** 2 + (y - pos[1]) ** 2
            if d <= best_d:
                best, best_d = str(f["field"]), d
        if best is not None:
            return best
        seat = view.get("seat")
        if seat is not None:
            cards = self._seat_cards(lay.info, len(view["supply"]), self.px, "die" in view)
            if cards[seat].collidepoint(pos):
                return "enter"
        return None

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list."""
        if token.isdigit():
            return f"field {token}"
        return {"enter": "enter a stone from your supply", "pass": "pass (no move)"}.get(token)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.px = px
        lay = layout(rect, view["board"]["canvas"])
        fields = self._fields(view)
        backdrop = self.backdrop.get((rect.size, px), rect.size,
                                     lambda s: self._paint_deck(s, rect, lay, view, px))
        surface.blit(backdrop, rect.topleft)

        fr = lay.r(FIELD_R)
        for token in highlights:
            if token.isdigit() and int(token) in fields:
                f = fields[int(token)]
                paint.ring(surface, lay.at(f["x"], f["y"]), fr + 3, theme.HILITE, max(3, fr // 9))
        self._draw_chosen(surface, lay, fields, chosen)
        freed = view.get("freed_at")
        if freed:
            f = fields[freed]
            centre = lay.at(f["x"], f["y"])
            pygame.draw.circle(surface, theme.BAD, centre, fr + 6, max(2, fr // 10))
        for f in view["fields"]:
            if f["height"]:
                centre = lay.at(f["x"], f["y"])
                tower(surface, centre, lay.r(STONE_R), f["stones"], _facing(f, fields), px)
        self._draw_info(surface, lay, view, highlights, chosen, px)

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        """Another seat's last move (or the replay's current one): its fields ringed, its walk arrowed."""
        lay = layout(rect, view["board"]["canvas"])
        fields = self._fields(view)
        path = [fields[int(t)] for t in action.split() if t.isdigit() and int(t) in fields]
        points = [lay.at(f["x"], f["y"]) for f in path]
        fr = lay.r(FIELD_R)
        for a, b in zip(points, points[1:], strict=False):
            _arrow(surface, a, b, theme.LAST_MOVE, max(2, fr // 8), fr)
        for p in points:
            pygame.draw.circle(surface, theme.LAST_MOVE, p, fr + 7, max(2, fr // 10))

    def _draw_chosen(self, surface: pygame.Surface, lay: Layout, fields: dict[int, dict], chosen: list[str]) -> None:
        """The half-built action: its fields ringed and joined by arrows in walking order."""
        path = [fields[int(t)] for t in chosen if t.isdigit() and int(t) in fields]
        points = [lay.at(f["x"], f["y"]) for f in path]
        fr = lay.r(FIELD_R)
        for a, b in zip(points, points[1:], strict=False):
            _arrow(surface, a, b, theme.ACCENT, max(3, fr // 6), fr)
        for k, p in enumerate(points):
            pygame.draw.circle(surface, theme.ACCENT, p, fr + 4, max(3, fr // 8))
            if k == 0 and len(points) > 1:
                pygame.draw.circle(surface, theme.ACCENT, p, fr // 4)

    def _paint_deck(self, s: pygame.Surface, rect: pygame.Rect, lay: Layout, view: dict, px: int) -> None:
        """Sea, deck, rail, paths, hatches and numbered fields: everything that never moves."""
        off = (-rect.x, -rect.y)
        area = pygame.Rect(0, 0, rect.w, rect.h)
        pygame.draw.rect(s, SEA, area, border_radius=10)
        # waves: short arcs scattered on a fixed pattern
        step = max(24, lay.r(70))
        for gy in range(0, rect.h, step):
            for gx in range(0, rect.w, step):
                jitter = (gx * 7 + gy * 13) % step
                arc = pygame.Rect(gx + jitter // 2, gy + (jitter * 3) % step // 2, step // 2, step // 4)
                pygame.draw.arc(s, WAVE, arc, 0.3, math.pi - 0.3, 2)

        def at(x: float, y: float) -> tuple[int, int]:
            p = lay.at(x, y)
            return p[0] + off[0], p[1] + off[1]

        fields = self._fields(view)
        # the deck: a hexagon around the start fields, planked and railed
        hexagon = [at(500 + 478 * math.cos(a), 500 + 478 * math.sin(a))
                   for a in (math.radians(-90 + 60 * k) for k in range(6))]
        pygame.draw.polygon(s, paint.darker(DECK, 0.5), [(x + 4, y + 6) for x, y in hexagon])
        pygame.draw.polygon(s, DECK, hexagon)
        top, bottom = hexagon[0][1], hexagon[3][1]
        left, right = hexagon[4][0], hexagon[1][0]
        upper, lower = hexagon[1][1], hexagon[2][1]
        plank = max(8, lay.r(38))
        for row, y in enumerate(range(top + plank, bottom, plank)):
            if y < upper:
                half = (right - left) / 2 * (y - top) / max(1, upper - top)
            elif y > lower:
                half = (right - left) / 2 * (bottom - y) / max(1, bottom - lower)
            else:
                half = (right - left) / 2
            cx = (left + right) / 2
            x0, x1 = round(cx - half) + 3, round(cx + half) - 3
            if x1 > x0:
                pygame.draw.line(s, DECK_DARK, (x0, y), (x1, y), 1)
                seam = x0 + (row * 5 % 7 + 1) * plank * 2
                while seam < x1:
                    pygame.draw.line(s, DECK_DARK, (seam, y - plank + 1), (seam, y - 1), 1)
                    seam += plank * 7
        pygame.draw.polygon(s, RAIL, hexagon, max(4, lay.r(16)))
        pygame.draw.polygon(s, paint.lighter(RAIL, 0.3), hexagon, max(1, lay.r(4)))
        # the mast in the middle of the inner ring
        mast = at(500, 500)
        pygame.draw.circle(s, paint.darker(DECK, 0.3), mast, lay.r(44))
        pygame.draw.circle(s, RAIL, mast, lay.r(30))
        pygame.draw.circle(s, paint.lighter(RAIL, 0.25), mast, lay.r(30), max(1, lay.r(4)))
        pygame.draw.circle(s, paint.darker(RAIL, 0.3), mast, lay.r(12))
        # paths between fields, as painted rope lines
        for a, b in view["board"]["edges"]:
            pa, pb = at(fields[a]["x"], fields[a]["y"]), at(fields[b]["x"], fields[b]["y"])
            pygame.draw.line(s, paint.darker(ROPE, 0.55), pa, pb, max(4, lay.r(16)))
            pygame.draw.line(s, ROPE, pa, pb, max(2, lay.r(9)))
        fr = lay.r(FIELD_R)
        for f in view["fields"]:
            centre = at(f["x"], f["y"])
            if f["start"] and f["out_stub"]:
                self._gangplank(s, lay, centre, at(*f["out_stub"]), fr)
        for f in view["fields"]:
            centre = at(f["x"], f["y"])
            if f["start"]:
                self._hatch(s, centre, fr)
            else:
                colour = INNER if len(set(f["neighbours"])) == 3 and _is_inner(f, fields) else FIELD
                pygame.draw.circle(s, paint.darker(colour, 0.55), (centre[0] + 2, centre[1] + 3), fr)
                pygame.draw.circle(s, colour, centre, fr)
                pygame.draw.circle(s, paint.darker(colour, 0.35), centre, fr - max(3, fr // 6), max(1, fr // 14))
                pygame.draw.circle(s, RAIL, centre, fr, max(2, fr // 10))
            tag = paint.polar(centre, _free_angle(f, fields), fr * 1.38)
            size = max(8, round(fr * 0.3))
            pygame.draw.circle(s, paint.INK, tag, size)
            pygame.draw.circle(s, ROPE, tag, size, 1)
            paint.text(s, str(f["field"]), tag, max(12, round(size * 1.45)), paint.IVORY, bold=True, anchor="center",
                       symbol=True)   # the field's number, sized to its tag

    @staticmethod
    def _hatch(s: pygame.Surface, centre: tuple[int, int], fr: int) -> None:
        """A start field is a deck hatch: a framed grating."""
        box = pygame.Rect(0, 0, round(fr * 1.8), round(fr * 1.8))
        box.center = centre
        pygame.draw.rect(s, paint.darker(HATCH, 0.5), box.move(2, 3), border_radius=fr // 5)
        pygame.draw.rect(s, HATCH, box, border_radius=fr // 5)
        grate = box.inflate(-fr // 2, -fr // 2)
        pygame.draw.rect(s, paint.darker(HATCH, 0.3), grate)
        bars = 4
        for k in range(1, bars):
            x = grate.x + grate.w * k // bars
            y = grate.y + grate.h * k // bars
            pygame.draw.line(s, GRATE, (x, grate.y), (x, grate.bottom - 1), max(2, fr // 10))
            pygame.draw.line(s, GRATE, (grate.x, y), (grate.right - 1, y), max(2, fr // 10))
        pygame.draw.rect(s, paint.lighter(HATCH, 0.25), box, max(2, fr // 9), border_radius=fr // 5)

    @staticmethod
    def _gangplank(s: pygame.Surface, lay: Layout, start: tuple[int, int], end: tuple[int, int], fr: int) -> None:
        """The entry path from outside (OUT): a plank with rungs reaching over the rail into the sea."""
        angle = _angle(start, end)
        length = math.dist(start, end) + fr * 0.6
        width = fr * 0.55
        ux, uy = math.cos(angle), math.sin(angle)
        nx, ny = -uy, ux
        a = (start[0] + nx * width, start[1] + ny * width)
        b = (start[0] - nx * width, start[1] - ny * width)
        c = (b[0] + ux * length, b[1] + uy * length)
        d = (a[0] + ux * length, a[1] + uy * length)
        pygame.draw.polygon(s, paint.darker(DECK, 0.25), [a, b, c, d])
        pygame.draw.polygon(s, RAIL, [a, b, c, d], max(2, fr // 10))
        rungs = 5
        for k in range(2, rungs + 1):
            t = length * k / (rungs + 1)
            p = (start[0] + ux * t, start[1] + uy * t)
            pygame.draw.line(s, RAIL, (p[0] + nx * width, p[1] + ny * width), (p[0] - nx * width, p[1] - ny * width),
                             max(1, fr // 12))

    # ------------------------------------------------------------------ the seat panel

    def _draw_info(self, surface: pygame.Surface, lay: Layout, view: dict, highlights: set[str], chosen: list[str],
                   px: int) -> None:
        players = len(view["supply"])
        has_die = "die" in view
        cards = self._seat_cards(lay.info, players, px, has_die)
        me = view.get("seat")
        to_move = view.get("to_move")
        over = view.get("result") is not None
        out = set(view.get("out_of_play", [])) | set(view.get("out", []))
        stat_name, stats = _stat(view)
        for seat, card in enumerate(cards):
            colour = theme.seat_colour(seat)
            active = seat == to_move and not over
            paint.rounded_panel(surface, card, (28, 40, 56), paint.darker(colour, 0.2) if active else theme.PANEL_EDGE,
                                radius=10, alpha=235, width=3 if active else 1)
            inner = card.inflate(-px, -px // 2)
            icon_r = max(10, px * 3 // 4)
            pirate(surface, (inner.x + icon_r, inner.y + icon_r + 2), icon_r, colour, -math.pi / 2)
            name = paint.seat_label(view, seat, theme.SEAT_NAMES[seat % 4].capitalize())
            x = inner.x + 2 * icon_r + px // 2
            # the player's name whole beside the pirate: one line, or two a size smaller ("Red:" over
            # "random bot 1") where the card is narrow (issue 6: "Red: random… 1")
            lines, size = [name], px + 2
            if theme.font(size, True).size(name)[0] > inner.right - x:
                size = px
                lines = paint.label_lines(name, size, inner.right - x, bold=True)
            step = theme.font(size, True).get_linesize()
            for n, line in enumerate(lines):
                paint.text(surface, line, (x, inner.y + 2 + n * step), size, colour, bold=True)
            y = inner.y + 2 * icon_r + px // 3
            paint.text(surface, f"{stat_name}: {stats[seat]}", (inner.x, y), px - 1, theme.TEXT)
            y += px + 2
            supply = view["supply"][seat]
            paint.text(surface, f"supply: {supply}", (inner.x, y), px - 1, theme.MUTED)
            sr = max(5, px // 3)
            sx = inner.x + theme.font(px - 1).size("supply: 00")[0] + sr
            for k in range(supply):
                cx = sx + k * (2 * sr + 3)
                if cx + sr > inner.right:
                    break
                paint.disc(surface, (cx, y + px // 2 - 1), sr, colour, rim_width=1)
            state = "out of play" if seat in out else ("to move" if active else "")
            if state:
                paint.text(surface, state, (inner.x, y + px + 2), px - 1, theme.BAD if seat in out else theme.HILITE,
                           bold=True)
            if seat == me and "enter" in highlights:
                pygame.draw.rect(surface, theme.HILITE, card, max(2, px // 8), border_radius=10)
        notes = self._notes(view)
        y = cards[-1].bottom + px if lay.info.w <= lay.info.h * 1.5 else lay.info.y
        x = lay.info.x if lay.info.w <= lay.info.h * 1.5 else cards[-1].right + px
        if has_die:
            size = min(px * 4, lay.info.w // 3)
            box = pygame.Rect(x, y, size, size)
            value = view.get("die")
            paint.die(surface, box, value, faded=value is None)
            paint.text(surface, "die (1-3)", (box.right + px // 2, box.y), px - 2, theme.MUTED)
            if value is not None and view.get("phase") == "move" and not over:
                paint.text(surface, f"walk {value} step{'s' if value > 1 else ''}", (box.right + px // 2, box.y + px),
                           px, theme.TEXT, bold=True)
            y = box.bottom + px // 2
        for note in notes:
            for line in wrap(note, px - 2, lay.info.right - x):
                paint.text(surface, line, (x, y), px - 2, theme.TEXT)
                y += px
        width = lay.info.right - x - px // 3
        hint = _hint(view, highlights, chosen)
        lines = [(line, px - 2, theme.HILITE) for line in wrap(hint, px - 2, width)] if hint else []
        legend = "Pirates face the way they walk: the legs point at the field they came from."
        legend_lines = [(line, px - 4, theme.MUTED) for line in wrap(legend, px - 4, width)]
        if y + px // 2 + sum(size + 3 for _, size, _ in lines + legend_lines) <= lay.info.bottom:
            lines += legend_lines   # the legend where the notes leave it room (else it ran out of its box)
        y = max(y + px // 2, lay.info.bottom - sum(size + 3 for _, size, _ in lines))
        box = pygame.Rect(x - px // 3, y - px // 3, width + px // 3, lay.info.bottom - y + px // 3)
        paint.rounded_panel(surface, box, (20, 30, 44), theme.PANEL_EDGE, radius=8, alpha=215, width=1)
        for line, size, colour in lines:
            paint.text(surface, line, (x, y), size, colour)
            y += size + 3

    @staticmethod
    def _notes(view: dict) -> list[str]:
        notes = []
        phase = view.get("phase")
        if phase == "opening":
            notes.append("opening: place stones on the hatches")
        elif phase == "place":
            notes.append("opening: each seat places one stone")
        elif phase == "free" and view.get("freed_at"):
            notes.append(f"free the stone on {view['freed_at']}: pick an exit")
        elif phase == "enter":
            notes.append("a piece left a hatch: enter a new stone")
        if view.get("passes"):
            notes.append(f"passes in a row: {view['passes']}")
        if view.get("repetition", 0) and view["repetition"] > 1:
            notes.append(f"position seen {view['repetition']} times (draw at {view['repetition_draw']})")
        return notes


def _hint(view: dict, highlights: set[str], chosen: list[str]) -> str:
    """What a click does now, in words."""
    path = [t for t in chosen if t.isdigit()]
    if not highlights:
        return ""
    if chosen and chosen[0] in ("move", "step") and path:
        return f"Walk from {' > '.join(path)}: click the next highlighted field (right-click: undo)."
    if (chosen and chosen[0] == "free") or view.get("phase") == "free":
        return "Click the exit field for the freed stone."
    if chosen and chosen[0] == "enter":
        return "Click a free highlighted hatch to enter a stone."
    fields = {f["field"]: f for f in view["fields"]}
    lit = [fields[int(t)] for t in highlights if t.isdigit() and int(t) in fields]
    hatches = any(f["height"] == 0 for f in lit)
    pirates = any(f["height"] > 0 for f in lit)
    if hatches and pirates:
        return "Click a highlighted pirate to move it, or a free hatch (or your supply) to enter a stone."
    if hatches:
        return "Click a free highlighted hatch (or your supply) to enter a stone."
    if pirates:
        return "Click a highlighted pirate to walk it."
    return "Choose on the right."


def _stat(view: dict) -> tuple[str, list[int]]:
    return view["score_label"], view["scores"]


def _is_inner(f: dict, fields: dict[int, dict]) -> bool:
    """Inner-ring fields touch two other deck fields without a hatch; they get a lighter wood."""
    return not any(fields[n]["start"] for n in f["neighbours"]) and sum(
        1 for n in f["neighbours"] if not any(fields[m]["start"] for m in fields[n]["neighbours"])) >= 2


def _arrow(surface: pygame.Surface, a: tuple[int, int], b: tuple[int, int], colour: paint.Colour, width: int,
           inset: int) -> None:
    angle = _angle(a, b)
    start = paint.polar(a, angle, inset * 0.6)
    tip = paint.polar(b, angle + math.pi, inset * 0.9)
    pygame.draw.line(surface, colour, start, tip, width)
    head = width * 3
    left = paint.polar(tip, angle + math.pi - 0.5, head)
    right = paint.polar(tip, angle + math.pi + 0.5, head)
    pygame.draw.polygon(surface, colour, [tip, left, right])


def _free_angle(f: dict, fields: dict[int, dict]) -> float:
    """The middle of the widest gap between a field's paths (and entry stub): where its number
    label sits clear of the ropes."""
    here = (f["x"], f["y"])
    angles = sorted(_angle(here, (fields[n]["x"], fields[n]["y"])) for n in f["neighbours"])
    if f["out_stub"]:
        angles = sorted([*angles, _angle(here, tuple(f["out_stub"]))])
    gaps = [((angles[(k + 1) % len(angles)] - a) % (2 * math.pi) or 2 * math.pi, a) for k, a in enumerate(angles)]
    width, start = max(gaps)
    return start + width / 2


def _facing(f: dict, fields: dict[int, dict]) -> float:
    """The direction a piece faces: away from its back (the field it came from, or its entry stub)."""
    here = (f["x"], f["y"])
    if f["back"] == "OUT":
        behind = tuple(f["out_stub"]) if f["out_stub"] else (500, 500)
    else:
        other = fields.get(f["back"])
        behind = (other["x"], other["y"]) if other else (500, 500)
    return _angle(behind, here)
