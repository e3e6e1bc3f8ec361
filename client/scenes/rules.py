"""The rules of a game, from the repository's own rules pages, readable at any window size: the page
rendered (client/ui/markdown.py), scrolled with the wheel, the keys (up/down, page up/down, Home/End)
or the scrollbar, its sections listed beside it on a wide window (a click jumps there). Opened from
the lobby, the table and the replay viewer; Esc or "back" returns."""

from __future__ import annotations

from pathlib import Path

import pygame

import engines
from client.ui import markdown, textfit, theme
from client.ui.widgets import Button, draw_text, fit, header_bottom, header_buttons, wrap

DOCS = Path(__file__).resolve().parents[2] / "docs"


def rules_path(game_id: str, docs: Path = DOCS) -> Path:
    """The rules page of a game: docs/rules/<page>.md (the descriptor's `rules_page`: its id unless the game
    shares its family's page, as the three Kidd games do), else the game's notes docs/<page>.md."""
    try:
        page = engines.describe(game_id).rules_page
    except engines.UnknownGame:
        page = game_id
    found = docs / "rules" / f"{page}.md"
    return found if found.exists() else docs / f"{page}.md"


def open_rules(app, game_id: str) -> None:
    app.push(RulesScene(game_id))


class RulesScene:
    def __init__(self, game_id: str, path: Path | None = None):
        self.game_id = game_id
        try:
            self.title = f"Rules: {engines.get(game_id).title}"
        except engines.UnknownGame:
            self.title = f"Rules: {game_id}"
        self.path = path or rules_path(game_id)
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
            self.error = ""
        except OSError as exc:
            text = ""
            self.error = f"The rules page {self.path} cannot be read: {exc.strerror or exc}"
        self.blocks = markdown.parse(text)
        self.scroll = 0
        self.buttons: list[Button] = []
        self.toc: list[tuple[pygame.Rect, int]] = []   # (rect, y of the section)
        self.area = pygame.Rect(0, 0, 0, 0)
        self.bar = pygame.Rect(0, 0, 0, 0)
        self.dragging = False
        self._layout: tuple[tuple[int, int], list[markdown.Row], list[tuple[int, str, int]]] | None = None

    # ------------------------------------------------------------------ layout
    def rows(self, width: int, px: int) -> tuple[list[markdown.Row], list[tuple[int, str, int]]]:
        """The page laid out for a width, and its sections: (level, title, y) of every h2 and h3."""
        key = (width, px)
        if self._layout is None or self._layout[0] != key:
            rows = markdown.layout(self.blocks, width, px)
            sections = [(r.heading[0], r.heading[1], r.y) for r in rows if r.heading and r.heading[0] in (2, 3)]
            self._layout = (key, rows, sections)
        return self._layout[1], self._layout[2]

    def _limit(self) -> int:
        if self._layout is None:
            return 0
        return max(0, markdown.height(self._layout[1]) - self.area.h + 20)

    def scroll_by(self, dy: int) -> None:
        self.scroll = max(0, min(self._limit(), self.scroll + dy))

    # ------------------------------------------------------------------ events
    def handle(self, event: pygame.event.Event, app) -> None:
        step = max(20, self.area.h // 12)
        if event.type == pygame.KEYDOWN:
            keys = {pygame.K_DOWN: step, pygame.K_UP: -step, pygame.K_PAGEDOWN: self.area.h - step,
                    pygame.K_PAGEUP: -(self.area.h - step), pygame.K_SPACE: self.area.h - step,
                    pygame.K_HOME: -10**9, pygame.K_END: 10**9}
            if event.key in (pygame.K_ESCAPE, pygame.K_BACKSPACE):
                app.pop()
            elif event.key in keys:
                self.scroll_by(keys[event.key])
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll_by(-event.y * step)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if any(b.key == "back" and b.rect.collidepoint(event.pos) for b in self.buttons):
                app.pop()
                return
            for rect, y in self.toc:
                if rect.collidepoint(event.pos):
                    self.scroll = max(0, min(self._limit(), y - 4))
                    return
            if self.bar.inflate(10, 0).collidepoint(event.pos):
                self.dragging = True
                self._drag(event.pos[1])
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self._drag(event.pos[1])

    def _drag(self, y: int) -> None:
        if self.bar.h > 0:
            self.scroll = max(0, min(self._limit(), round((y - self.bar.y) / self.bar.h * (self._limit() + self.area.h)
                                                          - self.area.h / 2)))

    def update(self, app, dt_ms: int) -> None:
        pass

    # ------------------------------------------------------------------ frame
    def draw(self, surface: pygame.Surface, app) -> None:
        w, h = surface.get_size()
        px = app.px(20)
        title_px = app.px(28)
        self.buttons = []
        back = header_buttons(w, px, [("back", "back", True)])[0]
        self.buttons.append(back)
        draw_text(surface, fit(self.title, title_px, back.rect.x - 40, bold=True), (16, 10), title_px, theme.ACCENT,
                  bold=True)
        top = max(title_px + 24, header_bottom(px))
        toc_w = min(round(300 * app.scale), w // 5) if w >= 1100 else 0   # wider with the text it holds
        page = pygame.Rect(12 + (toc_w + 12 if toc_w else 0), top, w - 24 - (toc_w + 12 if toc_w else 0), h - top - 12)
        pygame.draw.rect(surface, theme.PANEL, page, border_radius=10)
        textfit.box(page, "panel")
        bar_w = max(8, px // 2)
        self.area = pygame.Rect(page.x + 18, page.y + 12, page.w - 36 - bar_w, page.h - 24)
        body_px = app.px(19)
        text_w = min(self.area.w, body_px * 48)   # lines a reader can follow, even on a wide window
        self.area.w = text_w
        rows, sections = self.rows(text_w, body_px)
        self.scroll = max(0, min(self.scroll, self._limit()))
        if self.error:
            y = self.area.y
            for line in wrap(self.error, px, self.area.w):
                draw_text(surface, line, (self.area.x, y), px, theme.BAD)
                y += px + 4
        else:
            markdown.draw(surface, rows, self.area, self.scroll)
        total = markdown.height(rows) + 20
        self.bar = pygame.Rect(page.right - bar_w - 10, page.y + 12, bar_w, page.h - 24)
        if total > self.area.h:
            pygame.draw.rect(surface, theme.BUTTON_DOWN, self.bar, border_radius=4)
            thumb_h = max(20, self.bar.h * self.area.h // total)
            thumb_y = self.bar.y + (self.bar.h - thumb_h) * self.scroll // max(1, self._limit())
            pygame.draw.rect(surface, theme.PANEL_EDGE, (self.bar.x, thumb_y, bar_w, thumb_h), border_radius=4)
        self.toc = []
        if toc_w:
            self._contents(surface, pygame.Rect(12, top, toc_w, h - top - 12), sections, app.px(17))
        back.draw(surface, pygame.mouse.get_pos(), px)

    def _contents(self, surface, box: pygame.Rect, sections: list[tuple[int, str, int]], px: int) -> None:
        """The sections beside the page (h2, and h3 indented), the one being read lit; a click jumps."""
        pygame.draw.rect(surface, theme.PANEL, box, border_radius=10)
        textfit.box(box, "panel")
        y = box.y + 10
        draw_text(surface, "contents", (box.x + 10, y), px, theme.MUTED, bold=True)
        y += px + 8
        current = max((i for i, (_, _, sy) in enumerate(sections) if sy <= self.scroll + 8), default=-1)
        shown = [i for i, (level, _, _) in enumerate(sections) if level == 2 or abs(i - current) < 12]
        for i in shown:
            level, name, sy = sections[i]
            indent = 10 if level == 2 else 22
            size = px if level == 2 else px - 2
            # a long title in two lines, not cut ("Part 2 — Rules for impleme…")
            lines = wrap(name, size, box.w - indent - 10, bold=level == 2)
            if len(lines) > 2:
                lines = [lines[0], fit(" ".join(lines[1:]), size, box.w - indent - 10, bold=level == 2)]
            if y + len(lines) * (size + 2) > box.bottom - 6:
                return
            rect = pygame.Rect(box.x + 6, y - 2, box.w - 12, len(lines) * (size + 2) + 2)
            if i == current:
                pygame.draw.rect(surface, theme.BUTTON, rect, border_radius=4)
            colour = theme.HILITE if i == current else theme.TEXT if level == 2 else theme.MUTED
            for n, line in enumerate(lines):
                draw_text(surface, line, (box.x + indent, y + n * (size + 2)), size, colour, bold=level == 2)
            self.toc.append((rect, sy))
            y += len(lines) * (size + 2) + 4
