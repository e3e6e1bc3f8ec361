"""The plain renderer: the view as an indented outline. Used for a game whose board renderer does not
exist yet, and as the replay viewer's "raw" mode."""

from __future__ import annotations

import pygame

from client.textview import outline
from client.ui import theme
from client.ui.widgets import draw_text


class TextRenderer:
    def draw(self, surface: pygame.Surface, rect: pygame.Rect, view: dict, highlights: set[str],
             chosen: list[str], px: int) -> None:
        y = rect.y + 8
        for indent, text in outline(view):
            if y > rect.bottom - px:
                break
            draw_text(surface, text, (rect.x + 10 + indent * px, y), px, theme.TEXT)
            y += px + 2

    def hit(self, rect: pygame.Rect, view: dict, pos: tuple[int, int]) -> str | None:
        return None
