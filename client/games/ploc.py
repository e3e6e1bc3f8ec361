"""Ploc: the tug-of-war field with both teams on the rope (healthy athletes standing and pulling,
weakened ones lying on the grass), the flag drifting towards the bigger team, each side's column of
three team dice, the three free dice with their used and rerolled marks, the match and the matches
won, and action tiles for the verbs.

Clicks give tokens in the order the notation wants them: a tile gives its verb, then a free die
gives its index `i`, then a die of the mover's column gives its position `j` (`elim 2 1`). In the
reroll phase a free die gives `i` at once (the table inserts `reroll`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from client.games import paint
from client.ui import theme
from client.ui.widgets import label_size, wrap, wrap_lines

TEAM = ((236, 196, 52), (206, 62, 52))
TEAM_PIPS = (paint.INK, (250, 244, 236))
SKY = ((150, 198, 232), (206, 230, 244))
GRASS = (86, 150, 70)
GRASS_STRIPE = (96, 162, 78)
ROPE = (196, 160, 100)
NIGHT = (22, 30, 42)

VERBS = {
    "elim": ("Eliminate", "die >= column die: one healthy opposing athlete leaves the rope"),
    "elimw": ("Finish off", "die >= column die - 2: one weakened opposing athlete leaves"),
    "weaken": ("Weaken", "any die: lay one healthy opposing athlete down"),
    "swap": ("Swap", "the die goes into your column; you gain 1 + die - old athletes"),
    "allornothing": ("All or nothing", "a triple at least your lowest column die: 4 opposing athletes out"),
    "reroll": ("Reroll", "one reroll per 6 in your column; the second result stands"),
    "done": ("Keep dice", "end the reroll phase and act"),
}
ORDER = ("allornothing", "elim", "elimw", "weaken", "swap", "reroll", "done")
# the tiles of a phase, all laid out whether lit or not, so a tile never moves within a phase
PHASE_TILES = (("done", "reroll"), ("allornothing", "elim", "elimw", "swap", "weaken"))  # the engine's order


@dataclass(slots=True)
class Layout:
    header: pygame.Rect
    field: pygame.Rect
    dice: pygame.Rect
    columns: tuple[list[pygame.Rect], list[pygame.Rect]]
    rolled: list[pygame.Rect]
    tiles: dict[str, pygame.Rect] = field(default_factory=dict)
    note: pygame.Rect | None = None


def layout(rect: pygame.Rect, verbs: list[str], px: int) -> Layout:
    pad = max(8, rect.h // 50)
    header = pygame.Rect(rect.x + pad, rect.y + pad, rect.w - 2 * pad, max(px * 3, rect.h // 9))
    field_h = int(rect.h * 0.44)
    fld = pygame.Rect(rect.x + pad, header.bottom + pad // 2, rect.w - 2 * pad, field_h)
    dice = pygame.Rect(rect.x + pad, fld.bottom + pad, rect.w - 2 * pad, rect.bottom - fld.bottom - 2 * pad)
    size = max(24, min((dice.h - px * 2) // 3 - 6, dice.w // 11))
    gap = max(4, (dice.h - 3 * size - px * 2) // 3)
    columns: tuple[list[pygame.Rect], list[pygame.Rect]] = ([], [])
    for seat in (0, 1):
        x = dice.x + px * 2 if seat == 0 else dice.right - px * 2 - size
        for j in range(3):
            columns[seat].append(pygame.Rect(x, dice.y + px + j * (size + gap), size, size))
    big = round(size * 1.15)
    spread = big + max(px, big // 2)
    cx = dice.centerx
    rolled = [pygame.Rect(cx + (i - 1) * spread - big // 2, dice.y + px + 4, big, big) for i in range(3)]
    lay = Layout(header, fld, dice, columns, rolled)
    inner_l = columns[0][0].right + px * 2
    inner_r = columns[1][0].x - px * 2
    shown = next((list(tiles) for tiles in PHASE_TILES if any(v in tiles for v in verbs)), [])
    if shown:
        tile_gap = max(4, px // 3)
        tile_w = min(px * 7, (inner_r - inner_l - tile_gap * (len(shown) - 1)) // len(shown))
        total = tile_w * len(shown) + tile_gap * (len(shown) - 1)
        x = cx - total // 2
        y = rolled[0].bottom + px
        for verb in shown:
            lay.tiles[verb] = pygame.Rect(x, y, tile_w, px * 2)
            x += tile_w + tile_gap
    tile_bottom = rolled[0].bottom + px * 3 + 4
    lay.note = pygame.Rect(inner_l, tile_bottom + px // 2, inner_r - inner_l, dice.bottom - tile_bottom - px // 2)
    return lay


def _meeple(surface: pygame.Surface, feet: tuple[float, float], height: float, colour: paint.Colour,
            tilt: float) -> None:
    """A pawn in the shape of a meeple, standing on `feet`, rotated by `tilt` radians (0 upright,
    +-pi/2 lying on the ground)."""
    shape = [(-0.42, 0), (-0.12, 0), (0, -0.22), (0.12, 0), (0.42, 0), (0.26, -0.42), (0.5, -0.52),
             (0.46, -0.66), (0.16, -0.7), (-0.16, -0.7), (-0.46, -0.66), (-0.5, -0.52), (-0.26, -0.42)]
    cos, sin = math.cos(tilt), math.sin(tilt)

    def place(x: float, y: float) -> tuple[int, int]:
        x, y = x * height, y * height
        return round(feet[0] + x * cos - y * sin), round(feet[1] + x * sin + y * cos)

    points = [place(x, y) for x, y in shape]
    head = place(0, -0.84)
    outline = paint.darker(colour, 0.55)
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, outline, points, max(1, round(height / 22)))
    pygame.draw.circle(surface, colour, head, max(2, round(height * 0.16)))
    pygame.draw.circle(surface, outline, head, max(2, round(height * 0.16)), max(1, round(height / 22)))


def _reroll_mark(surface: pygame.Surface, centre: tuple[int, int], r: int, colour: paint.Colour) -> None:
    """A small circular arrow: this die was rerolled this turn."""
    pygame.draw.circle(surface, paint.IVORY, centre, r + 3)
    pygame.draw.circle(surface, colour, centre, r + 3, 2)
    box = pygame.Rect(0, 0, 2 * r - 2, 2 * r - 2)
    box.center = centre
    pygame.draw.arc(surface, colour, box, 0.6, 2 * math.pi - 0.2, max(2, r // 3))
    tip = paint.polar(centre, -0.6, r - 1)
    pygame.draw.polygon(surface, colour, [tip, paint.polar(tip, -2.4, r * 0.8), paint.polar(tip, 0.9, r * 0.8)])


def _mover(view: dict) -> int | None:
    """Who made the move that led to `view` when the caller does not say: the seat whose turn runs on
    (the dice are still out), else the one before the seat now to roll; unknown once a match ended
    (a swap can lose the match for the seat that made it)."""
    turn = view.get("turn_of")
    if turn is not None:
        return turn if view.get("rolled") else 1 - turn
    return None


def _check(surface: pygame.Surface, rect: pygame.Rect, colour: paint.Colour) -> None:
    w = max(2, rect.w // 12)
    pts = [(rect.x + rect.w * 0.22, rect.y + rect.h * 0.55), (rect.x + rect.w * 0.42, rect.y + rect.h * 0.75),
           (rect.x + rect.w * 0.8, rect.y + rect.h * 0.28)]
    pygame.draw.lines(surface, colour, False, pts, w)


class Renderer:
    def __init__(self) -> None:
        self.chosen: list[str] = []
        self.highlights: set[str] = set()
        self.px = 20
        self.backdrop = paint.StaticLayer()

    # ------------------------------------------------------------------ tokens

    def _layout(self, rect: pygame.Rect) -> Layout:
        verbs = [t for t in self.highlights if not t.isdigit()] + [t for t in self.chosen[:1] if not t.isdigit()]
        return layout(rect, verbs, self.px)

    def _wants_column(self) -> bool:
        """After a verb and a free die the next token is a column position."""
        return len(self.chosen) == 2

    def token_pos(self, rect: pygame.Rect, view: dict, token: str) -> tuple[int, int] | None:
        """Where a click gives `token` now (for tests and hints); None if the board has no such spot."""
        lay = self._layout(rect)
        if token in lay.tiles:
            return lay.tiles[token].center
        if token.isdigit() and 1 <= int(token) <= 3:
            k = int(token) - 1
            if self._wants_column():
                seat = view.get("to_move")
                return None if seat is None else lay.columns[seat][k].center
            return lay.rolled[k].center if view["rolled"] else None
        return None

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        lay = self._layout(rect)
        for verb, tile in lay.tiles.items():
            if tile.collidepoint(pos):
                return verb
        if self._wants_column():
            seat = view.get("to_move")
            if seat is not None:
                for j, die in enumerate(lay.columns[seat]):
                    if die.inflate(8, 8).collidepoint(pos):
                        return str(j + 1)
            return None
        if view["rolled"]:
            for i, die in enumerate(lay.rolled):
                if die.inflate(8, 8).collidepoint(pos):
                    return str(i + 1)
        return None

    def label(self, view: dict, chosen: list[str], token: str) -> str | None:
        """A choice's words for the table's list: the tile's name, or the die a number stands for."""
        if token in VERBS:
            return VERBS[token][0]
        if not token.isdigit():
            return None
        k = int(token) - 1
        if len(chosen) == 2:  # a die of the mover's column
            seat = view.get("to_move")
            column = view["columns"][seat] if seat is not None else []
            return f"column die {token} ({column[k]['value']})" if k < len(column) else None
        rolled = view.get("rolled") or []
        if k < len(rolled) and rolled[k].get("value") is not None:
            return f"free die {token} ({rolled[k]['value']})"
        return None

    def mark(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, action: str,
             seat: int | None = None) -> None:
        """The last move (another seat's, or the replay's current one), outlined where it happened: the
        free die it used (joined by a line to the column die it paired with) while that die still lies
        there, the column die, and the team on the rope it hit (the opponent's) or changed (its own, for
        a swap); a reroll its die, "keep dice" the three free dice."""
        parts = action.split()
        verb = parts[0] if parts else ""
        if verb not in VERBS:
            return
        mover = seat if seat in (0, 1) else _mover(view)
        lay = self._layout(rect)
        width = max(3, self.px // 6)

        def ring(box: pygame.Rect) -> None:
            pygame.draw.rect(surface, theme.LAST_MOVE, box.inflate(12, 12), width, border_radius=box.w // 5)

        dice = [int(p) - 1 for p in parts[1:] if p.isdigit() and 1 <= int(p) <= 3]
        # the free dice it used, while they still lie there (once the turn has passed they are gone, or
        # the next mover's roll: a table shows the move a moment after it was made)
        dice_out = bool(view.get("rolled")) and view.get("turn_of") == mover
        if dice_out and verb in ("done", "allornothing"):
            for box in lay.rolled:
                ring(box)
        elif dice_out and dice:
            ring(lay.rolled[dice[0]])
        if len(dice) == 2 and mover is not None:
            column = lay.columns[mover][dice[1]]
            ring(column)
            if dice_out:
                free = lay.rolled[dice[0]]
                end = (column.right + 6, column.centery) if mover == 0 else (column.x - 6, column.centery)
                pygame.draw.line(surface, theme.LAST_MOVE, free.midbottom, end, max(2, width - 1))
        if mover is not None and verb in ("elim", "elimw", "weaken", "allornothing", "swap"):
            team = mover if verb == "swap" else 1 - mover
            fld = lay.field
            half = pygame.Rect(fld.x if team == 0 else fld.centerx, fld.y, fld.w // 2, fld.h).inflate(-8, -8)
            pygame.draw.rect(surface, theme.LAST_MOVE, half, width, border_radius=8)

    # ------------------------------------------------------------------ drawing

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        self.chosen, self.highlights, self.px = list(chosen), set(highlights), px
        lay = self._layout(rect)
        backdrop = self.backdrop.get((rect.size, px), rect.size, lambda s: self._paint_field(s, rect, lay))
        surface.blit(backdrop, rect.topleft)
        self._draw_header(surface, lay, view, px)
        self._draw_teams(surface, lay, view, px)
        self._draw_dice(surface, lay, view, highlights, chosen, px)

    def _paint_field(self, s: pygame.Surface, rect: pygame.Rect, lay: Layout) -> None:
        """Sky, meadow with mowing stripes and the centre line: the parts that never move."""
        off = (-rect.x, -rect.y)
        pygame.draw.rect(s, NIGHT, s.get_rect(), border_radius=10)
        fld = lay.field.move(off)
        horizon = fld.y + int(fld.h * 0.38)
        for y in range(fld.y, horizon):
            t = (y - fld.y) / max(1, horizon - fld.y)
            pygame.draw.line(s, paint.mix(SKY[0], SKY[1], t), (fld.x, y), (fld.right - 1, y))
        # distant hills
        hills = [(fld.x, horizon)]
        for k in range(0, 21):
            x = fld.x + fld.w * k / 20
            hills.append((x, horizon - fld.h * (0.05 + 0.04 * math.sin(k * 1.3) + 0.03 * math.sin(k * 0.5))))
        hills.append((fld.right, horizon))
        pygame.draw.polygon(s, (110, 160, 110), hills)
        grass = pygame.Rect(fld.x, horizon, fld.w, fld.bottom - horizon)
        pygame.draw.rect(s, GRASS, grass)
        stripes = 8
        for k in range(0, stripes, 2):
            x0 = grass.x + grass.w * k // stripes
            pygame.draw.rect(s, GRASS_STRIPE, (x0, grass.y, grass.w // stripes, grass.h))
        pygame.draw.line(s, (236, 240, 230), (fld.centerx, horizon + 4), (fld.centerx, fld.bottom - 2), 3)
        pygame.draw.rect(s, paint.darker(GRASS, 0.5), fld, 2, border_radius=6)
        dice = lay.dice.move(off)
        pygame.draw.rect(s, (54, 40, 30), dice, border_radius=10)  # the table the dice lie on
        felt = dice.inflate(-10, -10)
        pygame.draw.rect(s, (34, 86, 60), felt, border_radius=8)
        pygame.draw.rect(s, (24, 64, 44), felt, 2, border_radius=8)

    def _draw_header(self, surface: pygame.Surface, lay: Layout, view: dict, px: int) -> None:
        head = lay.header
        paint.rounded_panel(surface, head, (30, 42, 58), theme.PANEL_EDGE, radius=8, width=1)
        turn = view.get("turn_of")
        over = view.get("result") is not None
        match = view.get("match", 1)
        title = "Game over" if over else f"Match {match} of 2"
        paint.text(surface, title, (head.centerx, head.y + px // 3), px + 6, theme.ACCENT, bold=True, anchor="midtop")
        starter = view.get("starter")
        sub = "" if starter is None or over else f"{view['colours'][starter].capitalize()} started this match"
        if sub:
            paint.text(surface, sub, (head.centerx, head.bottom - px // 3), px - 3, theme.MUTED, anchor="midbottom")
        for seat in (0, 1):
            colour = TEAM[seat]
            name = paint.fit(paint.seat_label(view, seat, view["colours"][seat].capitalize()), px + 4,
                             head.w // 3, bold=True)
            left = seat == 0
            x = head.x + px if left else head.right - px
            label = paint.text(surface, name, (x, head.y + px // 3), px + 4, colour, bold=True,
                               anchor="topleft" if left else "topright")
            # one token per match, filled once this seat has won it
            winners = view.get("match_winners", [])
            r = max(7, px * 2 // 3)
            first = label.right + px + r if left else label.x - px - r - (2 * r + 6)
            for k in range(2):
                centre = (first + k * (2 * r + 6), label.centery)
                if k < len(winners) and winners[k] == seat:
                    paint.disc(surface, centre, r, theme.ACCENT, rim_width=2)
                    paint.text(surface, str(k + 1), centre, px - 2, paint.INK, bold=True, anchor="center")
                else:
                    pygame.draw.circle(surface, theme.PANEL_EDGE, centre, r, 2)
                    paint.text(surface, str(k + 1), centre, px - 4, theme.PANEL_EDGE, anchor="center")
            line = f"matches won: {view['matches_won'][seat]}"
            if seat == turn and not over:
                line += "  -  " + ("to move" if view.get("to_move") == seat else "rolling")
            paint.text(surface, line, (x, head.bottom - px // 3), px - 2,
                       theme.HILITE if seat == turn and not over else theme.MUTED, bold=seat == turn,
                       anchor="bottomleft" if left else "bottomright")

    def _draw_teams(self, surface: pygame.Surface, lay: Layout, view: dict, px: int) -> None:
        fld = lay.field
        ground = fld.y + int(fld.h * 0.72)
        height = min(fld.h * 0.36, fld.w / 16)
        rope_y = round(ground - height * 0.58)
        athletes = view["athletes"]
        # the flag drifts towards the bigger team: a glance shows who is winning the pull
        drift = max(-1.0, min(1.0, (athletes[1] - athletes[0]) / 12))
        flag_x = round(fld.centerx + drift * fld.w * 0.06)
        pygame.draw.line(surface, paint.darker(ROPE, 0.5), (fld.x + px, rope_y + 2), (fld.right - px, rope_y + 2), 7)
        pygame.draw.line(surface, ROPE, (fld.x + px, rope_y), (fld.right - px, rope_y), 6)
        for x in range(fld.x + px, fld.right - px, 9):  # the twist of the rope
            pygame.draw.line(surface, paint.darker(ROPE, 0.3), (x, rope_y - 3), (x + 5, rope_y + 3), 1)
        pole_top = rope_y + 2
        ribbon = [(flag_x, pole_top), (flag_x - px // 2, pole_top + px * 2), (flag_x + px // 2, pole_top + px * 2)]
        pygame.draw.polygon(surface, theme.BAD, ribbon)
        pygame.draw.polygon(surface, paint.darker(theme.BAD, 0.4), ribbon, 2)
        for seat in (0, 1):
            healthy, weak = view["healthy"][seat], view["weakened"][seat]
            colour = TEAM[seat]
            sign = -1 if seat == 0 else 1
            start = flag_x + sign * px * 2
            end = fld.x + px * 2 if seat == 0 else fld.right - px * 2
            span = abs(end - start)
            step = min(height * 0.95, span / max(1, healthy))
            for k in range(healthy):
                x = start + sign * (k + 0.5) * step
                _meeple(surface, (x, ground), height, colour, sign * 0.22)
            # the weakened lie in the grass in front of their team
            low = fld.bottom - height * 0.42
            lstep = min(height * 0.8, span / max(1, weak))
            for k in range(weak):
                x = start + sign * (k + 0.6) * lstep
                _meeple(surface, (x, low), height * 0.75, paint.mix(colour, (120, 120, 120), 0.35),
                        -sign * math.pi / 2)
            # the team's strength, large, at the sky end of its side
            count_x = fld.x + fld.w // 4 if seat == 0 else fld.right - fld.w // 4
            big = paint.text(surface, str(athletes[seat]), (count_x, fld.y + px // 3), px * 2 + 8, colour, bold=True,
                             anchor="midtop", shadow=True)
            detail = f"{healthy} standing" + (f", {weak} down" if weak else "")
            paint.text(surface, detail, (count_x, big.bottom), px - 2, (30, 40, 50), bold=True, anchor="midtop")

    def _draw_dice(self, surface: pygame.Surface, lay: Layout, view: dict, highlights: set[str], chosen: list[str],
                   px: int) -> None:
        mover = view.get("to_move")
        want_column = self._wants_column()
        picked_die = int(chosen[1]) - 1 if len(chosen) >= 2 and chosen[1].isdigit() else None
        for seat in (0, 1):
            dice = view["columns"][seat]
            rects = lay.columns[seat]
            label_x = rects[0].centerx
            paint.text(surface, f"{view['colours'][seat]} column", (label_x, lay.dice.y + 8), px - 3, TEAM[seat],
                       bold=True, anchor="midtop")
            for j, rect in enumerate(rects):
                value = dice[j]["value"] if j < len(dice) else None
                used = j < len(dice) and dice[j]["used"]
                paint.die(surface, rect, value, TEAM[seat], TEAM_PIPS[seat], faded=used)
                side = rect.x - px if seat == 0 else rect.right + px
                paint.text(surface, str(j + 1), (side, rect.centery), px - 2, theme.MUTED, anchor="center")
                if used:
                    _check(surface, rect, theme.GOOD)
                if seat == mover and want_column and str(j + 1) in highlights:
                    paint.frame(surface, rect)
        rolled = view["rolled"]
        paint.text(surface, "free dice", (lay.dice.centerx, lay.dice.y + 8), px - 3, theme.TEXT, bold=True,
                   anchor="midtop")
        for i, rect in enumerate(lay.rolled):
            if i >= len(rolled):
                pygame.draw.rect(surface, (28, 70, 50), rect, border_radius=rect.w // 6)
                pygame.draw.rect(surface, (60, 110, 84), rect, 2, border_radius=rect.w // 6)
                continue
            d = rolled[i]
            paint.die(surface, rect, None if d["rolling"] else d["value"], faded=d["used"])
            if d["used"]:
                _check(surface, rect, theme.GOOD)
            if d["rerolled"]:
                _reroll_mark(surface, (rect.right - 2, rect.y + 2), max(6, rect.w // 7), (60, 90, 160))
            if picked_die == i:
                pygame.draw.rect(surface, theme.ACCENT, rect.inflate(10, 10), 4, border_radius=rect.w // 5)
            elif not want_column and str(i + 1) in highlights:
                paint.frame(surface, rect)
        self._draw_tiles(surface, lay, view, highlights, chosen, px)

    def _draw_tiles(self, surface: pygame.Surface, lay: Layout, view: dict, highlights: set[str],
                    chosen: list[str], px: int) -> None:
        verb = chosen[0] if chosen and not chosen[0].isdigit() else None
        for name, tile in lay.tiles.items():
            selected = name == verb
            lit = name in highlights
            fill = theme.ACCENT if selected else ((70, 96, 128) if lit else (40, 52, 66))
            paint.rounded_panel(surface, tile, fill, theme.HILITE if lit and not selected else paint.darker(fill, 0.4),
                                radius=8, width=2)
            colour = paint.INK if selected else (theme.TEXT if lit else theme.MUTED)
            label = VERBS.get(name, (name, ""))[0]
            # a size smaller where the tile is narrow (measured bold, as drawn), else in two lines
            size = label_size(label, px, tile.w - 8, bold=True)
            lines = [label] if theme.font(size, True).size(label)[0] <= tile.w - 8 else \
                wrap_lines(label, size, tile.w - 8, 2, bold=True)
            step = theme.font(size, True).get_linesize()
            for k, line in enumerate(lines):
                paint.text(surface, line, (tile.centerx, tile.centery + (2 * k - len(lines) + 1) * step // 2), size,
                           colour, bold=True, anchor="center")
        note = lay.note
        lines: list[tuple[str, paint.Colour]] = []
        if verb in VERBS:
            lines.append((VERBS[verb][1], theme.TEXT))
            if len(chosen) == 1:
                lines.append(("Now click a free die.", theme.HILITE))
            elif len(chosen) == 2:
                lines.append(("Now click the column die to pair it with.", theme.HILITE))
        elif lay.tiles and view.get("to_move") == view.get("seat"):
            lines.append(("Pick an action tile, then a free die, then a die of your column.", theme.HILITE)
                         if "reroll" not in lay.tiles else
                         (f"Rerolls left: {view['rerolls_left']}. Click a die to reroll it, or keep the dice.",
                          theme.HILITE))
        elif view.get("to_move") is not None and view.get("to_move") != view.get("seat"):
            lines.append((f"{view['colours'][view['to_move']].capitalize()} is choosing...", theme.MUTED))
        y = note.y
        for words, colour in lines:
            for line in wrap(words, px - 2, note.w):
                paint.text(surface, line, (note.centerx, y), px - 2, colour, anchor="midtop")
                y += px
