"""A modal question over a scene ("Leave this table?"): a title, what answering means in words, and a
row of buttons; it stays until it is answered (nothing times it out while the player reads it)."""

from __future__ import annotations

import pygame

from client.ui import textfit, theme
from client.ui.widgets import Button, draw_text, fit, wrap_lines


def draw(surface: pygame.Surface, area: pygame.Rect, title: str, body: str, answers: list[tuple[str, str]],
         px: int, hint: str = "", colour=theme.ACCENT) -> list[Button]:
    """Draw the question centred on `area`; returns its buttons (label, key), in the order given."""
    big = round(px * 1.5)
    width = min(max(px * 26, area.w * 2 // 3), area.w - 24)
    lines = wrap_lines(body, px, width - 40, 6)
    height = 20 + big + 14 + len(lines) * (px + 4) + 16 + px + 16 + (px if hint else 0) + 16
    box = pygame.Rect(0, 0, width, height)
    box.center = area.center
    dim = pygame.Surface(area.size, pygame.SRCALPHA)   # what is behind stays visible, but plainly behind
    dim.fill((0, 0, 0, 110))
    surface.blit(dim, area)
    shade = pygame.Surface(box.size, pygame.SRCALPHA)
    shade.fill((10, 14, 20, 245))
    surface.blit(shade, box)
    textfit.box(box, "modal")
    pygame.draw.rect(surface, colour, box, width=2, border_radius=10)
    y = box.y + 20
    draw_text(surface, fit(title, big, box.w - 40, bold=True), (box.centerx, y), big, colour, bold=True,
              anchor="midtop")
    y += big + 14
    for line in lines:
        draw_text(surface, line, (box.x + 20, y), px, theme.TEXT)
        y += px + 4
    y += 16
    gap = 16
    bw = min(px * 12, (box.w - 40 - gap * (len(answers) - 1)) // max(1, len(answers)))
    x = box.centerx - (bw * len(answers) + gap * (len(answers) - 1)) // 2
    buttons = []
    mouse = pygame.mouse.get_pos()
    for label, key in answers:
        button = Button(pygame.Rect(x, y, bw, px + 16), label, key)
        button.draw(surface, mouse, px)
        buttons.append(button)
        x += bw + gap
    if hint:
        draw_text(surface, fit(hint, px - 4, box.w - 40), (box.centerx, y + px + 24), px - 4, theme.MUTED,
                  anchor="midtop")
    return buttons
