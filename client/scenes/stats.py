"""The lobby's statistics page: every player of the replays on this machine (client/stats.py), a row
each: name, games, wins, losses, draws, unfinished, win %, dice; the games per game on the row's second
line. A click (or up/down) selects a player: below the table (beside it on a wide window) their games
per game and their dice against fair dice, as the viewer's dice tab draws one game's. The figures fill
in while the files are verified in the background; Esc or "back" returns to the lobby."""

from __future__ import annotations

from pathlib import Path

import pygame

from client.stats import PlayerStats, ReplayStats, Stats, SummaryCache, game_title
from client.ui import textfit, theme
from client.ui.dice import DicePanel
from client.ui.widgets import Button, draw_text, fit, header_bottom, header_buttons, panel, wrap, wrap_lines

#: the number columns after the player's name: (heading, the figure of a player)
COLUMNS: tuple[tuple[str, str], ...] = (("games", "games"), ("wins", "wins"), ("losses", "losses"),
                                        ("draws", "draws"), ("unfinished", "unfinished"), ("win %", "rate"))


def _figure(p: PlayerStats, what: str) -> str:
    if what == "rate":
        return p.win_rate
    return str(getattr(p.total(), what))


class StatsScene:
    def __init__(self, folder: Path, my_key: bytes | None = None, cache: SummaryCache | None = None):
        self.work = ReplayStats(folder, my_key, cache)
        self.folder = Path(folder)
        self.selected: int | None = None
        self.scroll = 0
        self.rows: list[tuple[pygame.Rect, int]] = []
        self.table = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []
        self.dice = DicePanel()
        self._stats: tuple[tuple[int, int], Stats] | None = None
        self._visible = 1

    @property
    def stats(self) -> Stats:
        """The figures as far as the work has gone (made again only when it went on)."""
        progress = self.work.progress()
        if self._stats is None or self._stats[0] != progress:
            self._stats = (progress, self.work.stats())
        return self._stats[1]

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        players = self.stats.players
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                app.pop()
            elif event.key in (pygame.K_DOWN, pygame.K_UP) and players:
                step = 1 if event.key == pygame.K_DOWN else -1
                at = -1 if self.selected is None else self.selected
                self.select(max(0, min(len(players) - 1, at + step)))
            elif event.key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                self.scroll_by(self._visible if event.key == pygame.K_PAGEDOWN else -self._visible)
        elif event.type == pygame.MOUSEWHEEL:
            if self.table.collidepoint(pygame.mouse.get_pos()):
                self.scroll_by(-3 * event.y)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            for button in self.buttons:
                if button.hit(event.pos):
                    self._button(button.key, app)
                    return
            for rect, index in self.rows:
                if rect.collidepoint(event.pos):
                    self.select(None if self.selected == index else index)
                    return

    def _button(self, key: str, app) -> None:
        if key == "back":
            app.pop()
        elif key == "refresh":
            self._stats = None
            self.work.refresh()
        elif key.startswith("scroll:"):
            self.scroll_by(int(key[7:]))

    def select(self, index: int | None) -> None:
        """A player's details (None: none); the table scrolls to keep the row in sight."""
        self.selected = index
        if index is not None:
            if index < self.scroll:
                self.scroll = index
            elif index >= self.scroll + self._visible:
                self.scroll = index - self._visible + 1

    def scroll_by(self, rows: int) -> None:
        self.scroll = max(0, min(len(self.stats.players) - self._visible, self.scroll + rows))

    def update(self, app, dt_ms: int) -> None:
        pass

    def frame_key(self, app) -> tuple:
        """What the page shows besides input: the work's progress (the figures follow from it)."""
        return self.work.progress()

    def frame_ms(self, app) -> int | None:
        return 250 if self.work.running() else None   # the progress line moves while the work runs

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        small = max(12, px - 4)
        title_px = app.px(28)
        stats = self.stats
        self.buttons = header_buttons(w, px, [("back", "back", True), ("refresh", "refresh", not self.work.running())])
        head = draw_text(surface, "Statistics", (16, 10), title_px, theme.ACCENT, bold=True)
        about = "players of the replays on this machine, from the files whose signatures verify"
        draw_text(surface, fit(about, small, self.buttons[1].rect.x - head.right - 40),
                  (head.right + 18, head.bottom - small - 2), small, theme.MUTED)
        y = head.bottom + 8
        colour = theme.BAD if stats.not_counted else theme.MUTED
        draw_text(surface, fit(stats.head(), px - 2, w - 32), (16, y), px - 2, colour)
        top = max(y + px + 6, header_bottom(px))
        body = pygame.Rect(12, top, w - 24, h - top - 12)
        if stats.players and w >= 1500:   # wide: the details beside the table
            side = max(480, body.w * 2 // 5)
            table = pygame.Rect(body.x, body.y, body.w - side - 12, body.h)
            detail = pygame.Rect(table.right + 12, body.y, side, body.h)
        elif stats.players:
            detail_h = max(9 * small, body.h * 2 // 5)
            table = pygame.Rect(body.x, body.y, body.w, body.h - detail_h - 10)
            detail = pygame.Rect(body.x, table.bottom + 10, body.w, detail_h)
        else:
            table, detail = body, None
        self._table(surface, table, stats, px, small)
        if detail is not None:
            self._detail(surface, detail, stats, px, small)
        mouse = pygame.mouse.get_pos()
        for button in self.buttons:
            button.draw(surface, mouse, px)

    def _table(self, surface, box: pygame.Rect, stats: Stats, px: int, small: int) -> None:
        inner = panel(surface, box, f"players ({len(stats.players)})", px)
        self.table = inner
        self.rows = []
        players = stats.players
        if not players:
            text = ("verifying the replays..." if stats.pending else
                    f"no player yet: statistics come from the replays in {self.folder}, and there are none that count")
            for n, line in enumerate(wrap_lines(text, px - 2, inner.w, 4)):
                draw_text(surface, line, (inner.x, inner.y + n * (px + 2)), px - 2, theme.MUTED)
            return
        font = theme.font(px - 2, True)
        widths = [max(font.size(heading)[0], font.size("8888")[0]) + 18 for heading, _ in COLUMNS]
        dice_w = min(max(inner.w // 4, font.size("212 rolls, mean 6.9 (fair 7.0)")[0] + 12), inner.w // 3)
        name_w = inner.w - sum(widths) - dice_w - 12
        xs = [inner.x + name_w]
        for width in widths:
            xs.append(xs[-1] + width)
        bar = px + 4
        draw_text(surface, "player", (inner.x + 6, inner.y), px - 2, theme.MUTED, bold=True)
        for (heading, _), x, width in zip(COLUMNS, xs, widths, strict=False):
            draw_text(surface, heading, (x + width - 6, inner.y), px - 2, theme.MUTED, bold=True, anchor="topright")
        draw_text(surface, "dice (Catan, C&K)", (xs[-1] + 12, inner.y), px - 2, theme.MUTED, bold=True)
        row_h = px + small + 12
        list_top = inner.y + bar + 4
        self._visible = max(1, (inner.bottom - list_top) // row_h)
        self.scroll = max(0, min(self.scroll, len(players) - self._visible))
        if self.scroll > 0 or self.scroll + self._visible < len(players):
            arrow = px + 10
            self.buttons.append(Button(pygame.Rect(inner.right - 2 * arrow - 6, box.y + 6, arrow, px + 4), "^",
                                       "scroll:-5", enabled=self.scroll > 0))
            self.buttons.append(Button(pygame.Rect(inner.right - arrow, box.y + 6, arrow, px + 4), "v", "scroll:5",
                                       enabled=self.scroll + self._visible < len(players)))
        mouse = pygame.mouse.get_pos()
        y = list_top
        for index in range(self.scroll, min(len(players), self.scroll + self._visible)):
            p = players[index]
            rect = pygame.Rect(inner.x, y, inner.w, row_h - 4)
            chosen = index == self.selected
            colour = theme.BUTTON_HOVER if chosen or rect.collidepoint(mouse) else theme.BUTTON
            pygame.draw.rect(surface, colour, rect, border_radius=6)
            if chosen:
                pygame.draw.rect(surface, theme.HILITE, rect, width=2, border_radius=6)
            textfit.box(rect, "row")
            draw_text(surface, fit(p.label, px - 2, name_w - 12, bold=True), (rect.x + 6, rect.y + 3), px - 2,
                      theme.ACCENT if p.me else theme.TEXT, bold=True)
            for (_, what), x, width in zip(COLUMNS, xs, widths, strict=False):
                draw_text(surface, _figure(p, what), (x + width - 6, rect.y + 3), px - 2, theme.TEXT, anchor="topright")
            dice = p.dice_short() or "-"
            draw_text(surface, fit(dice, px - 2, rect.right - xs[-1] - 18), (xs[-1] + 12, rect.y + 3), px - 2,
                      theme.TEXT if p.rolls else theme.MUTED)
            draw_text(surface, fit(p.games_line(), small, rect.w - 12), (rect.x + 6, rect.y + px + 3), small,
                      theme.MUTED)
            self.rows.append((rect, index))
            y += row_h
        if self.selected is None:
            hint = "click a player (or press up/down) for their games and dice"
            draw_text(surface, fit(hint, small, inner.w), (inner.x, inner.bottom - small), small, theme.MUTED)

    def _detail(self, surface, box: pygame.Rect, stats: Stats, px: int, small: int) -> None:
        players = stats.players
        p = players[self.selected] if self.selected is not None and self.selected < len(players) else None
        inner = panel(surface, box, p.label if p is not None else "a player's games and dice", px)
        if p is None:
            text = ("Select a player in the table: their games, game by game, and their dice against fair dice "
                    "show here.")
            for n, line in enumerate(wrap_lines(text, small, inner.w, 3)):
                draw_text(surface, line, (inner.x, inner.y + n * (small + 2)), small, theme.MUTED)
            return
        lines: list[tuple[str, tuple]] = [(f"key {p.fingerprint}" + ("  (this machine's identity)" if p.me else ""),
                                           theme.MUTED)]
        lines.append((f"in all: {p.total().words()}; won {p.win_rate} of the finished ones", theme.TEXT))
        lines += [(f"{game_title(gid)}: {tally.words()}", theme.TEXT) for gid, tally in p.games_played()]
        wide = box.w >= 2 * box.h     # a wide, short panel: the words on the left, the chart on the right
        text_w = inner.w // 2 - 12 if wide and p.rolls else inner.w
        rows = [(part, colour) for text, colour in lines for part in wrap(text, small, text_w)]
        # the chart says the test under its bars; without a chart, the dice line says it
        charted = p.rolls > 0 and (wide or inner.h >= 14 * (small + 3))
        dice_rows = [(part, theme.TEXT) for part in wrap(p.dice_line(test=not charted), small, text_w)]
        room = inner.h if wide or not charted else inner.h - 9 * (small + 3)
        keep = max(1, room // (small + 3) - len(dice_rows))
        y = inner.y
        for text, colour in rows[:keep] + dice_rows:
            if y + small > inner.bottom:
                break
            draw_text(surface, text, (inner.x, y), small, colour)
            y += small + 3
        if not charted:
            return
        if wide:
            chart = pygame.Rect(inner.x + text_w + 24, inner.y, inner.w - text_w - 24, inner.h)
        else:
            chart = pygame.Rect(inner.x, y + 8, inner.w, min(inner.bottom - y - 8, 22 * small))
        self.dice.chart(surface, chart, [p.histogram()], small)
