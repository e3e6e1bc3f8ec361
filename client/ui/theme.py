"""Colours, fonts and sizes in one place, scaled to the window so 1280x720 and full HD both read well."""

from __future__ import annotations

from functools import lru_cache

import pygame

BG = (24, 32, 44)
PANEL = (34, 45, 60)
PANEL_EDGE = (70, 88, 110)
TEXT = (232, 236, 240)
MUTED = (150, 162, 176)
ACCENT = (242, 178, 52)
GOOD = (96, 196, 120)
BAD = (230, 90, 80)
HILITE = (255, 226, 120)
LAST_MOVE = (120, 200, 255)  # another seat's last move, outlined on the board
BUTTON = (56, 74, 98)
BUTTON_HOVER = (78, 102, 134)
BUTTON_DOWN = (44, 58, 78)
SEA = (38, 84, 120)
WOOD = (150, 110, 70)
PAPER = (236, 226, 200)
SEAT_COLOURS = [(236, 200, 60), (214, 70, 60), (70, 140, 220), (90, 180, 100)]
SEAT_NAMES = ["yellow", "red", "blue", "green"]


MIN_TEXT = 12   # the smallest font size a text that is read may be drawn at (issue 6: ~8 px at 1024x600)


def scale(size: tuple[int, int]) -> float:
    """1.0 at 1280x720; grows with the window so text stays readable at full HD."""
    return max(0.75, min(size[0] / 1280, size[1] / 720))


def font_size(px: int) -> int:
    """The pygame font size `font(px)` is opened at."""
    return max(10, px)


@lru_cache(maxsize=256)   # every size from the floor to full HD's titles, plain and bold (labels step down)
def font(px: int, bold: bool = False) -> pygame.font.Font:
    f = pygame.font.Font(None, font_size(px))
    f.set_bold(bold)
    return f


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]
