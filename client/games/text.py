"""The plain renderer: the view as indented text, for a game whose board renderer does not exist yet
(a game added to engines.GAMES is playable at once, and gets its board in the issue that adds it)."""

from __future__ import annotations

import pygame

from client.textview import render
from client.ui import theme
from client.ui.widgets import draw_text


class TextRenderer:
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        y = rect.y + 8
        for line in render(view).splitlines():
            if y > rect.bottom - px:
                break
            draw_text(surface, line, (rect.x + 10, y), px, theme.TEXT)
            y += px + 2

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        return None
