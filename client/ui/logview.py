"""A log a player can read: the whole game, every line wrapped (never cut), newest at the bottom and
followed while the reader is there; the mouse wheel or the scrollbar goes back through it, and
"latest" returns. The viewer names a current entry: it is lit and scrolled into view. A click on a
line gives its entry's key (the viewer jumps there)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pygame

from client.ui import textfit, theme
from client.ui.widgets import draw_text, wrap


@dataclass(frozen=True, slots=True)
class Item:
    text: str
    colour: tuple[int, int, int] = theme.TEXT
    key: Any = None          # what a click on it reports (None: not clickable)
    dot: tuple[int, int, int] | None = None   # a seat's colour, shown before the entry


class LogView:
    def __init__(self) -> None:
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.top = 0             # the first line shown
        self.follow = True       # keep the newest line in view
        self.dragging = False
        self.rows: list[tuple[pygame.Rect, Any]] = []
        self._lines: list[tuple[str, int]] = []   # (text, item index) of every wrapped line
        self._first: list[int] = []               # item index -> its first line
        self._key: tuple | None = None
        self._shown_current: Any = None
        self._bar = pygame.Rect(0, 0, 0, 0)
        self._latest = pygame.Rect(0, 0, 0, 0)
        self._visible = 1

    # ------------------------------------------------------------------ input
    def handle(self, event: pygame.event.Event) -> Any:
        """Scrolls on the wheel and the scrollbar; returns the key of a clicked line (else None)."""
        if event.type == pygame.MOUSEWHEEL and self.rect.collidepoint(pygame.mouse.get_pos()):
            self.scroll(-3 * event.y)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button in (4, 5) and self.rect.collidepoint(event.pos):
            self.scroll(-3 if event.button == 4 else 3)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if self._latest.collidepoint(event.pos):
                self.follow = True
                return None
            if self._bar.inflate(8, 0).collidepoint(event.pos):
                self.dragging = True
                self._drag(event.pos[1])
                return None
            for rect, key in self.rows:
                if rect.collidepoint(event.pos) and key is not None:
                    return key
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.dragging = False
        elif event.type == pygame.MOUSEMOTION and self.dragging:
            self._drag(event.pos[1])
        return None

    def scroll(self, lines: int) -> None:
        last = max(0, len(self._lines) - self._visible)
        self.top = max(0, min(last, self.top + lines))
        self.follow = self.top >= last

    def _drag(self, y: int) -> None:
        bar = self._bar
        if bar.h <= 0:
            return
        last = max(0, len(self._lines) - self._visible)
        self.top = max(0, min(last, round((y - bar.y) / bar.h * len(self._lines) - self._visible / 2)))
        self.follow = self.top >= last

    # ------------------------------------------------------------------ frame
    def _layout(self, items: list[Item], px: int, width: int) -> None:
        key = (len(items), items[-1] if items else None, items[0] if items else None, px, width)
        if key == self._key:
            return
        self._key = key
        lines: list[tuple[str, int]] = []
        first: list[int] = []
        for i, item in enumerate(items):
            first.append(len(lines))
            lines += [(part, i) for part in wrap(item.text, px, width)]
        self._lines, self._first = lines, first

    def draw(self, surface: pygame.Surface, rect: pygame.Rect, items: list[Item], px: int,
             current: int | None = None) -> None:
        """Draw `items` in `rect`; `current` is the index of the item to light and keep in view."""
        self.rect = pygame.Rect(rect)
        self.rows = []
        bar_w = max(6, px // 3)
        indent = px // 2 + 4
        self._layout(items, px, rect.w - bar_w - indent - 6)
        line_h = px + 2
        visible = self._visible = max(1, rect.h // line_h)
        total = len(self._lines)
        last = max(0, total - visible)
        if current is not None and current != self._shown_current and 0 <= current < len(self._first):
            self._shown_current = current   # a new current entry: into view (centred), until scrolled away
            start = self._first[current]
            if not self.top <= start < self.top + visible - 1:
                self.top = max(0, min(last, start - visible // 2))
            self.follow = self.top >= last and current == len(items) - 1
        if self.follow:
            self.top = last
        self.top = max(0, min(self.top, last))
        y = rect.y
        shown_first: set[int] = set()
        for text, index in self._lines[self.top:self.top + visible]:
            item = items[index]
            row = pygame.Rect(rect.x, y, rect.w - bar_w - 4, line_h)
            if current is not None and index == current:
                pygame.draw.rect(surface, theme.BUTTON, row, border_radius=4)
            starts = self._first[index] == self.top + len(self.rows)
            if starts and item.dot is not None and index not in shown_first:
                pygame.draw.circle(surface, item.dot, (rect.x + indent // 2, y + line_h // 2), max(3, px // 5))
            shown_first.add(index)
            colour = theme.HILITE if current is not None and index == current else item.colour
            draw_text(surface, text, (rect.x + indent, y + 1), px, colour)
            self.rows.append((row, item.key))
            y += line_h
        # the scrollbar: where the shown lines sit in the whole log
        self._bar = pygame.Rect(rect.right - bar_w, rect.y, bar_w, rect.h)
        self._latest = pygame.Rect(0, 0, 0, 0)
        if total > visible:
            pygame.draw.rect(surface, theme.BUTTON_DOWN, self._bar, border_radius=3)
            thumb_h = max(12, rect.h * visible // total)
            thumb_y = rect.y + (rect.h - thumb_h) * self.top // max(1, last)
            pygame.draw.rect(surface, theme.PANEL_EDGE, (self._bar.x, thumb_y, bar_w, thumb_h), border_radius=3)
            if not self.follow:
                small = max(10, px - 2)
                label = "latest"
                w = theme.font(small).size(label)[0] + 12
                self._latest = pygame.Rect(rect.right - bar_w - 6 - w, rect.bottom - small - 6, w, small + 6)
                pygame.draw.rect(surface, theme.ACCENT, self._latest, border_radius=4)
                textfit.box(self._latest, "modal")
                draw_text(surface, label, self._latest.center, small, (20, 20, 20), anchor="center")
