"""Ebbe & Flut: the 5 x 5 field in its frame with the border cards left and right, a pile on every
cell (covered cards face down, as the table etiquette wants), the start corners of both sides, the
five draw stacks along each player's edge with their counts, and beside the field each side's score,
scored cards, lost cards and the card waiting to be placed.

Clicks give: a draw stack its number (the table inserts `draw`), a cell its name (`place` or `push`
is inserted), the arrows shown beside a card being pushed `left` or `up`, and the end-turn button
`end`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import pygame

from client.games import paint
from client.ui import textfit, theme
from client.ui.widgets import label_size, wrap

CARD_COLOURS = {"ebbe": theme.seat_colour(0), "flut": theme.seat_colour(1)}
WATER = (30, 74, 104)
SAND = (222, 200, 150)
SAND_DARK = (196, 170, 120)
FRAME = (110, 78, 48)
BORDER_CARD = (84, 110, 128)


@dataclass(slots=True)
class Layout:
    cell: int
    grid: pygame.Rect
    frame: pygame.Rect
    cells: dict[str, pygame.Rect]
    borders: list[pygame.Rect]
    stacks: dict[str, list[pygame.Rect]]  # colour (or "solo") -> the five stacks
    info: pygame.Rect
    seat_boxes: dict[str, pygame.Rect] = field(default_factory=dict)
    end_button: pygame.Rect | None = None


def layout(rect: pygame.Rect, view: dict, px: int) -> Layout:
    pad = max(8, rect.h // 60)
    info_w = max(210, int(rect.w * 0.27))
    area = pygame.Rect(rect.x + pad, rect.y + pad, rect.w - info_w - 3 * pad, rect.h - 2 * pad)
    cw_ratio = 0.78  # cells are a little taller than wide, like the cards
    c = int(min(area.h / 7.7, area.w / (7 * cw_ratio + 0.6)))
    cw = int(c * cw_ratio)
    grid = pygame.Rect(0, 0, cw * 5, c * 5)
    grid.center = (area.centerx, area.centery)
    cells = {}
    for cell in view["cells"]:
        cells[cell["cell"]] = pygame.Rect(grid.x + (cell["col"] - 1) * cw, grid.y + (cell["row"] - 1) * c, cw, c)
    borders = []
    for side in (-1, 1):
        x = grid.x - cw - c // 10 if side < 0 else grid.right + c // 10
        borders += [pygame.Rect(x, grid.y + k * c, cw, c) for k in range(5)]
    frame = pygame.Rect(borders[0].x, grid.y, borders[-1].right - borders[0].x, grid.h).inflate(c // 4, c // 4)
    stacks: dict[str, list[pygame.Rect]] = {}
    sh = int(c * 0.95)
    top_y = frame.y - sh - c // 6
    bottom_y = frame.bottom + c // 6
    if view["solo"]:
        stacks["solo"] = [pygame.Rect(grid.x + k * cw, bottom_y, cw, sh) for k in range(5)]
    else:
        for colour in view["colours"]:
            y = bottom_y if colour["side"] == "bottom" else top_y
            # each player's stacks numbered 1..5 from its own left
            order = range(5) if colour["side"] == "bottom" else range(4, -1, -1)
            stacks[colour["colour"]] = [pygame.Rect(grid.x + k * cw, y, cw, sh) for k in order]
    info = pygame.Rect(area.right + pad, rect.y + pad, rect.right - area.right - 2 * pad, rect.h - 2 * pad)
    lay = Layout(c, grid, frame, cells, borders, stacks, info)
    box_h = (info.h - px * 8) // 2
    for colour in view["colours"]:
        y = info.y if colour["side"] == "top" else info.y + box_h + px // 2
        lay.seat_boxes[colour["colour"]] = pygame.Rect(info.x, y, info.w, box_h)
    lay.end_button = pygame.Rect(info.x, info.bottom - px * 3 + px // 2, info.w, px * 2 + 4)
    return lay


def card_face(surface: pygame.Surface, rect: pygame.Rect, colour: str, face: str, px: int) -> None:
    """A face-up play card: its colour as a wide edge, the letter and number large in the middle."""
    tint = CARD_COLOURS[colour]
    radius = max(3, rect.w // 9)
    pygame.draw.rect(surface, (0, 0, 0), rect.move(2, 3), border_radius=radius)
    pygame.draw.rect(surface, tint, rect, border_radius=radius)
    inner = rect.inflate(-max(4, rect.w // 7), -max(4, rect.w // 7))
    pygame.draw.rect(surface, paint.IVORY, inner, border_radius=max(2, radius - 2))
    ink = paint.darker(tint, 0.55)
    size = max(12, int(inner.h * 0.42))
    paint.text(surface, face, inner.center, size, ink, bold=True, anchor="center")
    small = max(10, size // 3 + 2)
    if inner.h > 40:
        # the corner indices, as on playing cards: the face again, a symbol (the big one reads)
        paint.text(surface, face, (inner.x + 3, inner.y + 2), small, ink, symbol=True)
        paint.text(surface, face, (inner.right - 3, inner.bottom - 2), small, ink, anchor="bottomright", symbol=True)


def card_back(surface: pygame.Surface, rect: pygame.Rect, colour: str | None) -> None:
    """A face-down card: its colour is public, its face is not. `None`: a mixed (solo) stack."""
    tint = CARD_COLOURS[colour or "ebbe"]
    radius = max(3, rect.w // 9)
    pygame.draw.rect(surface, (0, 0, 0), rect.move(2, 3), border_radius=radius)
    pygame.draw.rect(surface, paint.darker(tint, 0.3), rect, border_radius=radius)
    inner = rect.inflate(-max(4, rect.w // 7), -max(4, rect.w // 7))
    pygame.draw.rect(surface, paint.darker(tint, 0.5), inner, border_radius=max(2, radius - 2))
    # waves on the back: ebb and flow
    step = max(5, inner.h // 6)
    for y in range(inner.y + step // 2, inner.bottom - 2, step):
        box = pygame.Rect(inner.x + 2, y, inner.w - 4, step)
        pygame.draw.arc(surface, paint.lighter(tint, 0.1), box, 0.2, 2.9, 1)
    if colour is None:  # a solo stack mixes both colours: its backs are split
        half = pygame.Rect(inner.centerx, inner.y, inner.right - inner.centerx, inner.h)
        pygame.draw.rect(surface, paint.darker(CARD_COLOURS["flut"], 0.5), half,
                         border_top_right_radius=max(2, radius - 2), border_bottom_right_radius=max(2, radius - 2))
    pygame.draw.rect(surface, paint.lighter(tint, 0.2), rect, 1, border_radius=radius)


class Renderer:
    def __init__(self) -> None:
        self.backdrop = paint.StaticLayer()
        self.px = 20
        self.chosen: list[str] = []

    # ------------------------------------------------------------------ tokens

    def _arrows(self, lay: Layout, view: dict, cell: str) -> dict[str, pygame.Rect]:
        """The push arrows beside a cell: where its card would go, in its colour's own directions."""
        found = next((c for c in view["cells"] if c["cell"] == cell), None)
        if found is None or found["top"] is None:
            return {}
        colour = next(c for c in view["colours"] if c["colour"] == found["top"]["colour"])
        rect = lay.cells[cell]
        size = max(18, lay.cell // 3)
        arrows = {}
        for name in ("up", "left"):
            dr, dc = colour[name]
            centre = (rect.centerx + dc * (rect.w // 2), rect.centery + dr * (rect.h // 2))
            box = pygame.Rect(0, 0, size, size)
            box.center = centre
            arrows[name] = box
        return arrows

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        """Another seat's last move (or the replay's current one): the cell it placed on or pushed."""
        lay = layout(rect, view, self.px)
        for token in action.split():
            box = lay.cells.get(token)
            if box is not None:
                pygame.draw.rect(surface, theme.LAST_MOVE, box.inflate(4, 4), max(2, box.w // 20), border_radius=6)

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list."""
        if token.isdigit() and chosen[:1] == ["draw"]:
            return f"stack {token}"
        if len(token) == 4 and token[0] == "r" and token[2] == "c":
            return f"row {token[1]}, column {token[3]}"
        return {"draw": "draw a card", "place": "place a card", "push": "push a pile", "end": "end the turn",
                "left": "push left", "up": "push up"}.get(token)

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        lay = layout(rect, view, self.px)
        if token in lay.cells:
            return lay.cells[token].center
        if token.isdigit():
            stacks = self._mover_stacks(lay, view)
            k = int(token) - 1
            return stacks[k].center if stacks and 0 <= k < 5 else None
        if token in ("left", "up") and len(self.chosen) >= 2:
            arrow = self._arrows(lay, view, self.chosen[1]).get(token)
            return arrow.center if arrow else None
        if token == "end":
            return lay.end_button.center
        return None

    def _mover_stacks(self, lay: Layout, view: dict) -> list[pygame.Rect]:
        if view["solo"]:
            return lay.stacks["solo"]
        seat = view.get("to_move")
        if seat is None:
            seat = view.get("seat")
        colour = next((c["colour"] for c in view["colours"] if c["seat"] == seat), None)
        return lay.stacks.get(colour, [])

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = layout(rect, view, self.px)
        if len(self.chosen) >= 2 and self.chosen[0] == "push":
            for name, box in self._arrows(lay, view, self.chosen[1]).items():
                if box.inflate(6, 6).collidepoint(pos):
                    return name
        for name, cell in lay.cells.items():
            if cell.collidepoint(pos):
                return name
        for k, stack in enumerate(self._mover_stacks(lay, view)):
            if stack.collidepoint(pos):
                return str(k + 1)
        if lay.end_button.collidepoint(pos):
            return "end"
        return None

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.px, self.chosen = px, list(chosen)
        lay = layout(rect, view, px)
        backdrop = self.backdrop.get((rect.size, px, view["solo"]), rect.size,
                                     lambda s: self._paint_table(s, rect, lay, view, px))
        surface.blit(backdrop, rect.topleft)
        over = view.get("result") is not None
        for cell in view["cells"]:
            box = lay.cells[cell["cell"]]
            card = box.inflate(-max(4, box.w // 8), -max(4, box.h // 10))
            pile = cell["pile"]
            under = min(len(pile) - 1, 4)
            for k in range(under):  # covered cards peek out below the top one
                shift = (under - k) * max(2, card.h // 24)
                below = pile[len(pile) - 1 - under + k]
                edge = card.move(-shift, -shift)
                if below["face_up"]:
                    with textfit.paused():  # a covered card only peeks out: its face is not meant to be read
                        card_face(surface, edge, below["colour"], below["face"], px)
                else:
                    card_back(surface, edge, below["colour"])
            if cell["top"] is not None:
                top = cell["top"]
                card_face(surface, card, top["colour"], top["face"], px)
        for cell in view["cells"]:  # marks go over every card, so a neighbour's pile never hides them
            box = lay.cells[cell["cell"]]
            card = box.inflate(-max(4, box.w // 8), -max(4, box.h // 10))
            if cell["height"] > 1:
                badge = (card.right - 2, card.y + 2)
                r = max(8, px // 2)
                pygame.draw.circle(surface, paint.INK, badge, r)
                paint.text(surface, str(cell["height"]), badge, px - 4, paint.IVORY, bold=True, anchor="center")
            if cell["conflict"] and not over:
                pygame.draw.rect(surface, theme.BAD, card.inflate(4, 4), 3, border_radius=card.w // 8)
            if cell["cell"] in highlights:
                paint.frame(surface, card)
        if len(chosen) >= 2 and chosen[1] in lay.cells:
            box = lay.cells[chosen[1]]
            pygame.draw.rect(surface, theme.ACCENT, box.inflate(-2, -2), 4, border_radius=6)
            if chosen[0] == "push":
                for name, arrow in self._arrows(lay, view, chosen[1]).items():
                    self._arrow(surface, arrow, name, view, chosen[1], name in highlights)
        self._draw_stacks(surface, lay, view, highlights, px)
        self._draw_info(surface, lay, view, highlights, chosen, px)

    def _arrow(self, surface: pygame.Surface, box: pygame.Rect, name: str, view: dict, cell: str, lit: bool) -> None:
        """A round push button with an arrow pointing where the card would go."""
        centre = box.center
        r = box.w // 2
        pygame.draw.circle(surface, theme.ACCENT if lit else theme.BUTTON_DOWN, centre, r)
        pygame.draw.circle(surface, paint.INK, centre, r, 2)
        origin = view["cells"]
        found = next(c for c in origin if c["cell"] == cell)
        colour = next(c for c in view["colours"] if c["colour"] == found["top"]["colour"])
        dr, dc = colour[name]
        tip = (centre[0] + dc * r * 0.6, centre[1] + dr * r * 0.6)
        tail = (centre[0] - dc * r * 0.55, centre[1] - dr * r * 0.55)
        side = (dr * r * 0.45, -dc * r * 0.45)
        back = (centre[0] + dc * r * 0.05, centre[1] + dr * r * 0.05)
        pygame.draw.line(surface, paint.INK, tail, back, max(2, r // 4))
        pygame.draw.polygon(surface, paint.INK, [tip, (back[0] + side[0], back[1] + side[1]),
                                                 (back[0] - side[0], back[1] - side[1])])

    def _paint_table(self, s: pygame.Surface, rect: pygame.Rect, lay: Layout, view: dict, px: int) -> None:
        """Water, the framed field of sand cells, start corners and the border cards."""
        off = (-rect.x, -rect.y)
        pygame.draw.rect(s, WATER, s.get_rect(), border_radius=10)
        for y in range(0, rect.h, max(14, lay.cell // 4)):
            for x in range((y * 7) % 40 - 40, rect.w, max(40, lay.cell)):
                pygame.draw.arc(s, paint.lighter(WATER, 0.12), (x, y, max(20, lay.cell // 2), 10), 0.3, 2.8, 1)
        frame = lay.frame.move(off)
        pygame.draw.rect(s, (0, 0, 0), frame.move(3, 5), border_radius=12)
        pygame.draw.rect(s, FRAME, frame, border_radius=12)
        pygame.draw.rect(s, paint.lighter(FRAME, 0.25), frame, 3, border_radius=12)
        corners = {}
        for colour in view["colours"]:
            for name in colour["start"]:
                corners[name] = colour["colour"]
        for cell in view["cells"]:
            box = lay.cells[cell["cell"]].move(off)
            fill = SAND
            owner = corners.get(cell["cell"])
            if owner:
                fill = paint.mix(SAND, CARD_COLOURS[owner], 0.35)
            pygame.draw.rect(s, fill, box.inflate(-2, -2), border_radius=4)
            pygame.draw.rect(s, SAND_DARK, box.inflate(-2, -2), 1, border_radius=4)
            if owner:
                paint.text(s, "start", (box.centerx, box.bottom - 4), max(theme.min_size(), px - 6),
                           paint.darker(CARD_COLOURS[owner], 0.5), anchor="midbottom")
            paint.text(s, cell["cell"], (box.x + 4, box.y + 3), max(10, px - 8), paint.darker(fill, 0.35),
                       symbol=True)   # the cell's id, faint in its corner
        for border in lay.borders:
            b = border.move(off).inflate(-max(4, border.w // 8), -max(4, border.h // 10))
            pygame.draw.rect(s, BORDER_CARD, b, border_radius=max(3, b.w // 9))
            pygame.draw.rect(s, paint.lighter(BORDER_CARD, 0.3), b, 2, border_radius=max(3, b.w // 9))
            for k in range(3):
                y = b.y + b.h * (k + 1) // 4
                pygame.draw.arc(s, paint.lighter(BORDER_CARD, 0.35), (b.x + 4, y - 5, b.w - 8, 10), 0.2, 2.9, 2)

    def _draw_stacks(self, surface: pygame.Surface, lay: Layout, view: dict, highlights: set[str], px: int) -> None:
        mover_stacks = self._mover_stacks(lay, view)
        for key, rects in lay.stacks.items():
            counts = view["stacks"][0] if key == "solo" else next(
                view["stacks"][c["seat"]] for c in view["colours"] if c["colour"] == key)
            for k, box in enumerate(rects):
                n = counts[k]
                card = box.inflate(-max(4, box.w // 8), -max(4, box.h // 12))
                if n == 0:
                    pygame.draw.rect(surface, paint.lighter(WATER, 0.1), card, 2, border_radius=card.w // 9)
                else:
                    layers = min(n, 4)
                    for j in range(layers - 1, -1, -1):
                        card_back(surface, card.move(j * 2, -j * 2), None if key == "solo" else key)
                label = max(theme.min_size(), px - 7)
                if n:   # the count above the stack's number, not over it on a small card (the viewer at 1024x600)
                    top = card.bottom - 2 - theme.font(label).get_height()
                    y = min(card.centery, top - (theme.font(px + 4, True).get_height() + 1) // 2)
                    paint.text(surface, str(n), (card.centerx, y), px + 4, paint.IVORY, bold=True, anchor="center",
                               shadow=True)
                paint.text(surface, f"#{k + 1}", (card.centerx, card.bottom - 2), label, theme.MUTED,
                           anchor="midbottom")
                if rects is mover_stacks and str(k + 1) in highlights:
                    paint.frame(surface, card)

    def _draw_info(self, surface: pygame.Surface, lay: Layout, view: dict, highlights: set[str], chosen: list[str],
                   px: int) -> None:
        over = view.get("result") is not None
        for colour in view["colours"]:
            box = lay.seat_boxes[colour["colour"]]
            tint = CARD_COLOURS[colour["colour"]]
            active = not over and (view.get("to_move") == colour["seat"] or view.get("drawing") == colour["seat"])
            if view["solo"]:
                active = False
            paint.rounded_panel(surface, box, (24, 36, 52), tint if active else theme.PANEL_EDGE, radius=10,
                                alpha=235, width=3 if active else 1)
            inner = box.inflate(-px, -px // 2)
            name = colour["name"] if view["solo"] else paint.seat_label(view, colour["seat"], colour["name"])
            size = label_size(name, px + 4, inner.w - 3 * px, bold=True)   # a size smaller, not "Flut: random …"
            paint.text(surface, paint.fit(name, size, inner.w - 3 * px, bold=True), inner.topleft, size, tint,
                       bold=True)
            side = "top" if colour["side"] == "top" else "bottom"
            paint.text(surface, f"plays from the {side}", (inner.x, inner.y + px + 6), px - 4, theme.MUTED)
            paint.text(surface, str(colour["score"]), (inner.right, inner.y - 2), px * 2 + 6, theme.TEXT, bold=True,
                       anchor="topright")
            paint.text(surface, "scored", (inner.right, inner.y + px * 2 + 2), max(theme.min_size(), px - 5),
                       theme.MUTED, anchor="topright")
            y = inner.y + px * 2 + px // 2
            held = view["held"][0 if view["solo"] else colour["seat"]]
            mini_h = max(28, min(int(lay.cell * 0.6), inner.bottom - y - px * 2))
            mini = pygame.Rect(inner.x, y, int(mini_h * 0.72), mini_h)
            if held and held[0] == colour["name"][0]:
                card_face(surface, mini, colour["colour"], held[2:], px)
                paint.text(surface, "drawn: place it", (mini.right + px // 2, mini.centery), px - 3, theme.HILITE,
                           anchor="midleft")
                y = mini.bottom + px // 3
            home = colour["home"]
            if home:  # the scored cards, fanned
                fan = pygame.Rect(inner.x, y, int(mini_h * 0.5), int(mini_h * 0.7))
                step = max(4, min(fan.w // 2, (inner.w - fan.w) // max(1, len(home))))
                for k, name in enumerate(home):
                    with textfit.paused() if k < len(home) - 1 else contextlib.nullcontext():  # a fan: the top reads
                        card_face(surface, fan.move(k * step, 0), colour["colour"], name[2:], max(10, px - 6))
                y = fan.bottom + px // 3
            undrawn = sum(view["stacks"][colour["seat"]]) if not view["solo"] else None
            line = f"lost: {len(colour['lost'])}" + (f"   in stacks: {undrawn}" if undrawn is not None else "")
            paint.text(surface, line, (inner.x, min(y, inner.bottom - px)), px - 3, theme.MUTED)
            if colour["conflicts"] and not over:
                paint.text(surface, "conflict!", (inner.right, inner.bottom - px), px - 2, theme.BAD, bold=True,
                           anchor="topright")
            elif active:
                paint.text(surface, "to move" if view.get("to_move") is not None else "drawing",
                           (inner.right, inner.bottom - px), px - 2, theme.HILITE, bold=True, anchor="topright")
        note = lay.end_button.move(0, -px * 2 - 6)
        hint = self._hint(view, highlights, chosen)
        if hint:
            lines = wrap(hint, px - 3, lay.info.w)
            y = lay.end_button.y - 6 - len(lines) * (px - 1)
            for line in lines:
                paint.text(surface, line, (note.x, y), px - 3, theme.HILITE)
                y += px - 1
        if view["solo"]:
            return  # solo has no turns to end
        end = lay.end_button
        lit = "end" in highlights
        paint.rounded_panel(surface, end, theme.ACCENT if lit else theme.BUTTON_DOWN, paint.darker(theme.ACCENT, 0.4)
                            if lit else theme.PANEL_EDGE, radius=8, width=2)
        paint.text(surface, "End turn", end.center, px, paint.INK if lit else theme.MUTED, bold=True, anchor="center")

    @staticmethod
    def _hint(view: dict, highlights: set[str], chosen: list[str]) -> str:
        if not highlights:
            return ""
        if chosen[:1] == ["push"]:
            return "Click an arrow: push the card left or up (as its owner sees it)."
        if any(t.startswith("r") and "c" in t for t in highlights):
            if "place" in highlights or chosen[:1] == ["place"] or view.get("phase") == "place":
                return "Click a highlighted start cell to place the drawn card."
            if any(t.isdigit() for t in highlights):
                return "Push a card in conflict (click it), or draw from a stack."
            return "Click a highlighted card to push it."
        if any(t.isdigit() for t in highlights):
            return "Click one of your draw stacks."
        if "end" in highlights:
            return "No conflict left: end your turn."
        return ""
